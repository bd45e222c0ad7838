// Package reportparts gives gcperf's own packages what package report
// computes but does not export: the text report cut into parts (for
// report/html), how reports name a cause of slow runs (report/chart), and
// several documents written as one file in the Go benchmark format
// (report's sets, sweep's bench.txt).
//
// Package report registers its functions here when it is initialised; a
// caller holds a *report.Document, so report is linked and registered.
// The functions are generic in the document's type only because this
// package cannot import report, which imports it.
package reportparts

import (
	"fmt"
	"io"
)

// Parts is the text report cut into its parts, each as report.Text prints
// it, for a renderer that lays them out its own way (report/html puts them
// on a page). A section with nothing to print is "".
type Parts struct {
	// Summary is the default text report's first screen, before the
	// tail: the title, the settings and the environment in a line, the
	// percentiles, the throughput, the collector and GCPerfP99 in a line
	// each (the answer a page can open with).
	Summary string
	// Header is the title line and the settings lines ("Settings: ...",
	// "Go: ...", "Host: ...", "Limits: ...", "Timed runs: ..."), each ending
	// in a newline.
	Header string
	// Head and Rows are the statistics table: Head names its columns (the
	// operations, then the mix when it is shown); each row is its label,
	// then one cell per column.
	Head []string
	Rows [][]string
	// The sections after the table, in the text report's order.
	// Tail is the verdict on each cause of the slow runs; Server the
	// program under load (gcperf run OP... -- SERVER).
	Errors, GC, Hiccups, OpenLoop, GCPerfP99, Tail, Server, Profiles, Notes string
}

// A BenchPart is one document of a benchmark file that holds several
// (BenchJoin): a process of gcperf -count, a point and repeat of a sweep.
type BenchPart[D any] struct {
	Doc *D
	// Label prefixes the document's comment lines: "process 2",
	// "gogc=100,memlimit=off rep 1".
	Label string
	// Drop lists configuration keys left out ("gogc"), where the names
	// say them. For a command's result (gcperf exec), dropping
	// "gomaxprocs" drops the -N suffix of its benchmarks' names too.
	Drop []string
	// Params are parameters added to the benchmark names of a command's
	// result (a sweep point's settings: "gogc=100 memlimit=off"): after
	// Exec, before cmd= (Exec/gogc=100/memlimit=off/cmd=prog), and at the
	// end of the names of the benchmarks it printed, before their -N
	// suffix (Workloads/list/gogc=100/memlimit=off-2). A gcperf result's
	// operations carry them in their Params instead.
	Params string
}

// Funcs are the functions package report registers.
type Funcs[D any] struct {
	TextParts  func(*D) Parts
	CauseLabel func(string) string
	BenchJoin  func(io.Writer, []BenchPart[D]) error
}

var (
	registered any // Funcs[D] of report's Document
	causeLabel func(string) string
)

// Register records report's functions; report calls it once, from init.
func Register[D any](f Funcs[D]) {
	registered, causeLabel = f, f.CauseLabel
}

func funcs[D any]() Funcs[D] {
	f, ok := registered.(Funcs[D])
	if !ok {
		panic(fmt.Sprintf("reportparts: no functions registered for %T", (*D)(nil)))
	}
	return f
}

// TextParts is the text report of d in parts: the same header,
// statistics and sections that report.Text prints.
func TextParts[D any](d *D) Parts { return funcs[D]().TextParts(d) }

// CauseLabel is how reports name a cause (a report.Cause's Cause): "GC",
// "Minor page faults"...; the name itself when it is not known.
func CauseLabel(name string) string { return causeLabel(name) }

// BenchJoin writes several documents as one file in the Go benchmark
// format, each as report.Bench writes it, so that benchstat and gcperf
// compare read the lines of one benchmark as its samples: the
// configuration lines once, and again only where they change; the Unit
// lines once, at the end; each document's comment lines prefixed with its
// label, except the definitions of the figures, written once where they
// first appear.
func BenchJoin[D any](w io.Writer, parts []BenchPart[D]) error { return funcs[D]().BenchJoin(w, parts) }
