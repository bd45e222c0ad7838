package bench

import (
	"io"

	"github.com/gcperf/gcperf/internal/sat"
	"github.com/gcperf/gcperf/report"
	"github.com/gcperf/gcperf/report/html"
	"github.com/gcperf/gcperf/workload"
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
	// Memory is what the process holds at its peak while the document is
	// built and written in this format, per run that kept its records
	// (workload.Config.Kept): the engine's records, their copy in the
	// result and the document, and what the writer holds. Zero is the
	// text report's (textMemory).
	Memory RunMemory
}

// RunMemory is the memory a report holds per kept run at its peak, in
// bytes: Base for a run of one operation without the collector's figures
// per run (workload.GCStatsTotal, GCStatsOff), GCRun instead of Base with
// them (workload.GCStatsRun), and Op more for each operation of a run past
// the first.
type RunMemory struct{ Base, GCRun, Op int64 }

// perRun is m for runs of k operations under gc.
func (m RunMemory) perRun(k int, gc workload.GCStats) int64 {
	b := m.Base
	if gc == workload.GCStatsRun {
		b = m.GCRun
	}
	return b + m.Op*int64(max(k-1, 0))
}

// The memory of each format per kept run, measured as the peak RSS of
// gcperf run -warmup 0 -runs N -keep-runs N [-gcstats total|run] [-FORMAT
// FILE] noop (N = 10^6, and noop four times at N = 5*10^5) above that of
// -keep-runs 1, with a tenth more: the text report alone 540 B a run
// (both -gcstats) and 100 B an operation more; JSON 1,400 and 4,115 B (its
// encoder holds the whole document's text), 1,120 B an operation; CSV 780
// B, 185; XML 795 B, 250; HTML 1,170 and 1,525 B, 275; the bench and hgrm
// formats nothing beyond the text's. BenchmarkReportMemory measures the
// document and each writer's allocations.
var (
	textMemory = RunMemory{Base: 600, GCRun: 600, Op: 110}
	jsonMemory = RunMemory{Base: 1550, GCRun: 4550, Op: 1250}
	csvMemory  = RunMemory{Base: 860, GCRun: 860, Op: 210}
	xmlMemory  = RunMemory{Base: 880, GCRun: 880, Op: 280}
	htmlMemory = RunMemory{Base: 1300, GCRun: 1700, Op: 310}
)

// setTextMemory is what RunCount holds per kept run of each process: the
// process's result read back (its JSON decoded) and kept for the set's
// report, measured as the peak RSS of gcperf run -count 3 -warmup 0 -runs
// N -keep-runs N [-gcstats total|run] noop (N = 400,000, and noop four
// times at 200,000) above none: 458 and 817 B a run, 330 and 245 B an
// operation more, with a tenth more. The set's JSON (SetJSON) holds about
// what one process's JSON does, per run of each process.
var setTextMemory = RunMemory{Base: 510, GCRun: 900, Op: 360}

// countMemory is what RunCount holds at its peak for the set of n
// processes' results: per kept run of each process, the result read back,
// or the largest writer among the set's outputs (those the processes do
// not write themselves), saturating at math.MaxInt64.
func countMemory(cfg workload.Config, k, n int, outs []Output) int64 {
	per := setTextMemory.perRun(k, cfg.GCStats)
	for _, o := range outs {
		if !o.Child {
			per = max(per, o.Format.Memory.perRun(k, cfg.GCStats))
		}
	}
	return sat.Mul(sat.Mul(int64(cfg.Kept()), per), int64(n))
}

// reportMemory is what building and writing the report of a benchmark
// holds at its peak: the kept runs' records, the document, and the
// largest of the writers of the text report and of outs (written one
// after another), saturating at math.MaxInt64.
func reportMemory(cfg workload.Config, k int, outs []Output) int64 {
	per := textMemory.perRun(k, cfg.GCStats)
	for _, o := range outs {
		if !o.Child {
			per = max(per, o.Format.Memory.perRun(k, cfg.GCStats))
		}
	}
	return sat.Mul(int64(cfg.Kept()), per)
}

// Formats are the result's formats, in the order an output directory
// receives them; text is last.
var Formats = []Format{
	{"json", "result.json", "the result as JSON (schema gcperf/v2; with -count, gcperf-count/v1: every process's)", report.JSON, report.SetJSON, jsonMemory},
	{"csv", "result.csv", "the statistics as CSV", report.CSV, nil, csvMemory},
	{"xml", "result.xml", "the result as XML", report.XML, nil, xmlMemory},
	{"bench", "bench.txt", "the Go benchmark format (benchstat, gcperf compare; with -count, a line per process and benchmark)", report.Bench, report.SetBench, textMemory},
	{"hgrm", "result.hgrm", "the runtime histograms in HdrHistogram's .hgrm format", report.HGRM, nil, textMemory},
	{"html", "report.html", "the report as one self-contained HTML page with SVG charts", html.Report, nil, htmlMemory},
	{"text", "report.txt", "the text report", report.Text, report.SetText, textMemory},
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
