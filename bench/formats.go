package bench

import (
	"io"

	"github.com/gcperf/gcperf/report"
	"github.com/gcperf/gcperf/report/html"
)

// Format is one way of writing a result.
type Format struct {
	Name  string // "csv": gcperf's flag (-csv) and report -format name
	File  string // the file's name in an output directory
	Doc   string // what the format holds, for a usage text
	Write func(io.Writer, *report.Document) error
	// WriteSet writes the result of several processes (-count), nil for
	// a format of one process's result.
	WriteSet func(io.Writer, *report.Set) error
}

// Formats are the result's formats, in the order an output directory
// receives them; text is last.
var Formats = []Format{
	{"json", "result.json", "the result as JSON (schema gcperf/v2; with -count, gcperf-count/v1: every process's)", report.JSON, report.SetJSON},
	{"csv", "result.csv", "the statistics as CSV", report.CSV, nil},
	{"xml", "result.xml", "the result as XML", report.XML, nil},
	{"bench", "bench.txt", "the Go benchmark format (benchstat, gcperf compare; with -count, a line per process and benchmark)", report.Bench, report.SetBench},
	{"hgrm", "result.hgrm", "the runtime histograms in HdrHistogram's .hgrm format", report.HGRM, nil},
	{"html", "report.html", "the report as one self-contained HTML page with SVG charts", html.Report, nil},
	{"text", "report.txt", "the text report", report.Text, report.SetText},
}

// LookupFormat finds a format by name.
func LookupFormat(name string) (Format, bool) {
	for _, f := range Formats {
		if f.Name == name {
			return f, true
		}
	}
	return Format{}, false
}
