package main

import (
	"io"
	"strings"

	"github.com/gcperf/gcperf/report"
	"github.com/gcperf/gcperf/report/html"
)

// format is one way of writing a result.
type format struct {
	name  string // the flag (-csv) and gcperf report -format's name
	file  string // the file's name under -out DIR
	doc   string // what the flag writes, for the usage
	write func(io.Writer, *report.Document) error
}

// formats are the result's formats, in the order -out writes them.
var formats = []format{
	{"json", "result.json", "the result as JSON (schema gcperf/v1)", report.JSON},
	{"csv", "result.csv", "the statistics as CSV", report.CSV},
	{"xml", "result.xml", "the result as XML", report.XML},
	{"bench", "bench.txt", "the Go benchmark format (benchstat, gcperf compare)", report.Bench},
	{"hgrm", "result.hgrm", "the runtime histograms in HdrHistogram's .hgrm format", report.HGRM},
	{"html", "report.html", "the report as one self-contained HTML page with SVG charts", html.Report},
	{"text", "report.txt", "the text report", report.Text},
}

// lookupFormat finds a format by name.
func lookupFormat(name string) (format, bool) {
	for _, f := range formats {
		if f.name == name {
			return f, true
		}
	}
	return format{}, false
}

// formatNames lists the formats' names: "json, csv, ... or text".
func formatNames() string {
	names := make([]string, len(formats))
	for i, f := range formats {
		names[i] = f.name
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}
