package sweep

import (
	"bufio"
	"cmp"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/gcperf/gcperf/internal/figure"
	"io"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/gcperf/gcperf/env"
	"github.com/gcperf/gcperf/internal/jsondoc"
	"github.com/gcperf/gcperf/internal/reportparts"
	"github.com/gcperf/gcperf/latency"
	"github.com/gcperf/gcperf/report"
)

// SummarySchema identifies the layout of sweep.json.
const SummarySchema = "gcperf-sweep/v1"

// Summary is a sweep's record, saved as sweep.json in its directory: the
// grid, every repeat's outcome (whose File, relative to the directory, holds
// its result), the rows and the advice.
type Summary struct {
	Schema string `json:"schema"`
	Grid   Grid   `json:"grid"`
	Count  int    `json:"count"`           // repeats per point
	Shard  string `json:"shard,omitempty"` // "i/n" when the sweep ran one shard of the grid
	// Command is the program and arguments a sweep over a user's command
	// ran at every point (gcperf sweep -- CMD); absent for gcperf's own
	// benchmark.
	Command  []string  `json:"command,omitempty"`
	Outcomes []Outcome `json:"outcomes"`
	Rows     []Row     `json:"rows"`
	Advice   *Advice   `json:"advice"` // null when no advice was asked for
}

// gomaxprocsAxis reports whether GOMAXPROCS is an axis of the points' grid.
func gomaxprocsAxis(points func(yield func(Point) bool)) bool {
	for p := range points {
		if p.GOMAXPROCS > 0 {
			return true
		}
	}
	return false
}

func rowPoints(rows []Row) func(func(Point) bool) {
	return func(yield func(Point) bool) {
		for _, r := range rows {
			if !yield(r.Point) {
				return
			}
		}
	}
}

func outcomePoints(outs []Outcome) func(func(Point) bool) {
	return func(yield func(Point) bool) {
		for _, o := range outs {
			if !yield(o.Point) {
				return
			}
		}
	}
}

// Table writes the rows as an aligned table, one line per point, with the
// failed repeats and their reasons under it, a legend, and the advice when
// adv is not nil:
//
//	   GOGC  GOMEMLIMIT  reps    mean     P50     P99  ...  peak RSS  heap goal
//	*    50         off   3/3  1.20ms  1.10ms  4.10ms  ...    48MiB    40MiB
//
// The figures are medians over the point's successful repeats; "-" marks a
// figure that was not measured.
//
// A sweep over a user's command has the command's columns instead: wall
// and CPU time, peak RSS of its process tree, GC cycles, GC CPU, pause P99
// and max, the last heap goal, and the benchmark metrics it printed
// (MaxMetricColumns of them; sweep.json and sweep.csv have every one).
func Table(w io.Writer, rows []Row, adv *Advice) error {
	if slices.ContainsFunc(rows, func(r Row) bool { return r.Command }) {
		return commandTable(w, rows, adv)
	}
	head := []string{"mean", "P50", "P99", "P99.9", "max", "throughput", "GC cycles", "GC CPU", "max STW", "peak RSS", "heap goal"}
	cells := func(r *Row) []string {
		ok, gc := r.OK() > 0, r.OK() > 0 && r.HasGC
		return []string{dur(ok && !r.Server, r.Mean), dur(ok, r.P50), dur(ok, r.P99), dur(ok, r.P999), dur(ok, r.Max),
			dash(ok, func() string { return throughput(r.Throughput, r.Unit) }),
			dash(gc, func() string { return figure.Num(r.GCCycles) }),
			dash(gc, func() string { return figure.Pct(r.GCCPU) }),
			dur(gc, r.MaxSTW), dash(ok, func() string { return env.Bytes(int64(r.PeakRSS)) }),
			dash(gc, func() string { return env.HeapGoal(r.HeapGoal) })}
	}
	lat := "latencies are the mix's runtimes"
	if slices.ContainsFunc(rows, func(r Row) bool { return r.Server }) {
		lat = "a server under load: the latencies are the client's, from each intended start with -rate\n" +
			"(corrected for coordinated omission; no mean), peak RSS and the GC columns the server's (its process tree, its gctrace)"
	}
	legend := "\nFigures are medians over each point's successful repeats (reps ok/run); " + lat + ".\n" +
		"* on the frontier: no other point has both a P99 and a peak RSS as low, one of them lower.\n"
	return writeTable(w, rows, head, cells, legend, adv)
}

// dropEmpty drops the columns of head that are "-" in every row (a server
// sweep's mean), when some row has a successful repeat: a column that says
// nothing anywhere is not worth its width (issue 25). It returns head and
// cells without them.
func dropEmpty(rows []Row, head []string, cells func(*Row) []string) ([]string, func(*Row) []string) {
	if !slices.ContainsFunc(rows, func(r Row) bool { return r.OK() > 0 }) {
		return head, cells
	}
	empty := make([]bool, len(head))
	for i := range empty {
		empty[i] = true
	}
	for i := range rows {
		for j, c := range cells(&rows[i]) {
			if c != "-" && j < len(empty) {
				empty[j] = false
			}
		}
	}
	if !slices.Contains(empty, true) {
		return head, cells
	}
	keep := func(s []string) []string {
		var out []string
		for j, c := range s {
			if j >= len(empty) || !empty[j] {
				out = append(out, c)
			}
		}
		return out
	}
	return keep(head), func(r *Row) []string { return keep(cells(r)) }
}

// writeTable writes the table of rows: the point's columns (the frontier's
// mark, GOGC, GOMEMLIMIT, GOMAXPROCS when an axis, the repeats), then
// head's, each row's cells; then the failed repeats, legend and the
// advice when adv is not nil.
func writeTable(w io.Writer, rows []Row, head []string, cells func(*Row) []string, legend string, adv *Advice) error {
	procs := gomaxprocsAxis(rowPoints(rows))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	line := func(cells ...string) {
		// Every cell ends in a tab, so that the last column is aligned too
		// and, aligned right, no line ends in spaces.
		fmt.Fprint(tw, strings.Join(cells, "\t")+"\t\n")
	}
	first := []string{"", "GOGC", "GOMEMLIMIT"}
	if procs {
		first = append(first, "GOMAXPROCS")
	}
	head, cells = dropEmpty(rows, head, cells)
	line(slices.Concat(first, []string{"reps"}, head)...)
	for i := range rows {
		r := &rows[i]
		mark := ""
		if r.Frontier {
			mark = "*"
		}
		c := []string{mark, r.Point.GOGC.String(), r.Point.MemLimit.String()}
		if procs {
			c = append(c, strconv.Itoa(r.Point.GOMAXPROCS))
		}
		line(slices.Concat(c, []string{fmt.Sprintf("%d/%d", r.OK(), r.Reps)}, cells(r))...)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	var failed []string
	for _, r := range rows {
		for _, f := range r.Failures {
			failed = append(failed, "  "+r.Point.Name()+" "+f)
		}
	}
	if len(failed) > 0 {
		fmt.Fprintf(bw, "\nFailed repeats:\n%s\n", strings.Join(failed, "\n"))
	}
	fmt.Fprint(bw, legend)
	if adv != nil && adv.Text != "" {
		fmt.Fprintf(bw, "\n%s\n", adv.Text)
	}
	return bw.Flush()
}

// dash is s() when the figure was measured (have), else "-"; dur is dash
// for a duration.
func dash(have bool, s func() string) string {
	if !have {
		return "-"
	}
	return s()
}

func dur(have bool, v time.Duration) string {
	return dash(have, func() string { return latency.FormatDuration(v) })
}

// MaxMetricColumns is the most benchmark metrics Table shows.
const MaxMetricColumns = 6

// commandTable is Table for a sweep over a user's command.
func commandTable(w io.Writer, rows []Row, adv *Advice) error {
	all := metricKeys(rows)
	keys := all[:min(len(all), MaxMetricColumns)]
	benches := map[string]bool{}
	for _, k := range keys {
		benches[k.Benchmark] = true
	}
	head := []string{"wall", "CPU", "peak RSS", "GC cycles", "GC CPU", "pause P99", "pause max", "heap goal"}
	for _, k := range keys {
		h := k.Unit
		if len(benches) > 1 {
			h = k.Benchmark + " " + k.Unit
		}
		head = append(head, h)
	}
	cells := func(r *Row) []string {
		ok, gc := r.OK() > 0, r.OK() > 0 && r.HasGC
		c := []string{dur(ok, r.Wall), dur(ok, r.CPU), dash(ok, func() string { return env.Bytes(int64(r.PeakRSS)) }),
			dash(gc, func() string { return figure.Num(r.GCCycles) }),
			dash(gc, func() string { return figure.Pct(r.GCCPU) }),
			dur(gc, r.PauseP99), dur(gc, r.MaxSTW), dash(gc, func() string { return env.HeapGoal(r.HeapGoal) })}
		for _, k := range keys {
			m, found := r.metricOf(k)
			c = append(c, dash(ok && found, func() string { return metricValue(m, k.Unit) }))
		}
		return c
	}
	var legend strings.Builder
	legend.WriteString("\nFigures are medians over each point's successful repeats (reps ok/run): the command's wall and CPU time (user+system),\n" +
		"the peak RSS of its process tree, and from its GODEBUG=gctrace=1 lines the GC cycles, GC CPU (the trace's share), pauses and last heap goal\n" +
		"(- without trace lines: a program that is not Go, or a Go program that ran no cycle, as under GOGC=off).\n")
	if len(keys) > 0 {
		legend.WriteString("The benchmark columns are the Go benchmark results the command printed, each repeat's median.\n")
	}
	if n := len(all) - len(keys); n > 0 {
		fmt.Fprintf(&legend, "%d more benchmark %s in sweep.json and sweep.csv.\n", n, figure.Plural(n, "metric is", "metrics are"))
	}
	fmt.Fprintf(&legend, "* on the frontier: no other point has both a %s and a peak RSS as low, one of them lower.\n", TimeLabel(rows))
	return writeTable(w, rows, head, cells, legend.String(), adv)
}

// metricKeys are the benchmarks' metrics of a command's rows, each once, in
// order of first appearance (their Value zero).
func metricKeys(rows []Row) []RowMetric {
	var keys []RowMetric
	for _, r := range rows {
		for _, m := range r.Metrics {
			if !slices.ContainsFunc(keys, func(k RowMetric) bool { return k.Benchmark == m.Benchmark && k.Unit == m.Unit }) {
				keys = append(keys, RowMetric{Benchmark: m.Benchmark, Unit: m.Unit})
			}
		}
	}
	return keys
}

// WriteJSON writes the summary as indented JSON (sweep.json), its Schema
// set to SummarySchema.
func WriteJSON(w io.Writer, s *Summary) error {
	c := *s
	c.Schema = SummarySchema
	if c.Outcomes == nil {
		c.Outcomes = []Outcome{}
	}
	if c.Rows == nil {
		c.Rows = []Row{}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(&c)
}

// ErrNotSweep is wrapped by ReadSummary's error for input that is not a
// sweep's summary.
var ErrNotSweep = errors.New("not a gcperf sweep summary")

// ReadSummary reads a summary written by WriteJSON, refusing anything else
// and any schema other than SummarySchema (wrapping report.ErrSchema). The
// outcomes come back without their documents (see LoadDir).
func ReadSummary(r io.Reader) (*Summary, error) {
	var s Summary
	if err := jsondoc.Decode(r, &s, func() string { return s.Schema }, "gcperf-sweep/", SummarySchema, ErrNotSweep); err != nil {
		return nil, err
	}
	return &s, nil
}

// CSV writes the rows as CSV (sweep.csv): a header, then one line per point
// with its medians, times in seconds, sizes in bytes. Figures that were not
// measured are empty; gomaxprocs is empty when it is not an axis.
//
// A sweep over a user's command has the command's columns instead (wall_s,
// cpu_s, pause_p99_s...), then one column per benchmark metric, headed
// "benchmark unit".
func CSV(w io.Writer, rows []Row) error {
	if slices.ContainsFunc(rows, func(r Row) bool { return r.Command }) {
		return commandCSV(w, rows)
	}
	head := []string{"mean_s", "p50_s", "p99_s", "p999_s", "max_s", "throughput_per_s", "unit",
		"gc_cycles", "gc_cpu_pct", "max_stw_s", "peak_rss_bytes", "heap_goal_bytes", "frontier"}
	return writeCSV(w, rows, head, func(r *Row) []string {
		ok, gc := r.OK() > 0, r.OK() > 0 && r.HasGC
		return []string{secs(ok && !r.Server, r.Mean), secs(ok, r.P50), secs(ok, r.P99), secs(ok, r.P999), secs(ok, r.Max),
			cell(ok, figure.Decimal(r.Throughput)), cell(ok, r.Unit),
			cell(gc, figure.Decimal(r.GCCycles)), cell(gc, figure.Decimal(r.GCCPU)), secs(gc, r.MaxSTW),
			cell(ok, strconv.FormatUint(r.PeakRSS, 10)), cell(gc, strconv.FormatUint(r.HeapGoal, 10)),
			strconv.FormatBool(r.Frontier)}
	})
}

// commandCSV is CSV for a sweep over a user's command.
func commandCSV(w io.Writer, rows []Row) error {
	keys := metricKeys(rows)
	head := []string{"wall_s", "cpu_s", "peak_rss_bytes", "gc_cycles", "gc_cpu_pct", "pause_p99_s", "pause_max_s", "heap_goal_bytes", "frontier"}
	for _, k := range keys {
		head = append(head, k.Benchmark+" "+k.Unit)
	}
	return writeCSV(w, rows, head, func(r *Row) []string {
		ok, gc := r.OK() > 0, r.OK() > 0 && r.HasGC
		c := []string{secs(ok, r.Wall), secs(ok, r.CPU), cell(ok, strconv.FormatUint(r.PeakRSS, 10)),
			cell(gc, figure.Decimal(r.GCCycles)), cell(gc, figure.Decimal(r.GCCPU)), secs(gc, r.PauseP99), secs(gc, r.MaxSTW),
			cell(gc, strconv.FormatUint(r.HeapGoal, 10)), strconv.FormatBool(r.Frontier)}
		for _, k := range keys {
			m, found := r.metricOf(k)
			c = append(c, cell(ok && found, strconv.FormatFloat(m, 'g', -1, 64)))
		}
		return c
	})
}

// writeCSV writes the rows as CSV: the point's columns (point, gogc,
// memlimit, memlimit_bytes, gomaxprocs, reps, failed), then head's, each
// row's cells.
func writeCSV(w io.Writer, rows []Row, head []string, cells func(*Row) []string) error {
	cw := csv.NewWriter(w)
	cw.Write(slices.Concat([]string{"point", "gogc", "memlimit", "memlimit_bytes", "gomaxprocs", "reps", "failed"}, head))
	for i := range rows {
		r := &rows[i]
		p := r.Point
		limit, ok := p.MemLimit.Bytes()
		procs := ""
		if p.GOMAXPROCS > 0 {
			procs = strconv.Itoa(p.GOMAXPROCS)
		}
		cw.Write(slices.Concat([]string{strconv.Itoa(p.Index), p.GOGC.String(), p.MemLimit.String(), cell(ok, strconv.FormatInt(limit, 10)), procs,
			strconv.Itoa(r.Reps), strconv.Itoa(r.Failed)}, cells(r)))
	}
	cw.Flush()
	return cw.Error()
}

// cell is s when the figure was measured (have), else empty; secs is
// cell for a duration, in seconds.
func cell(have bool, s string) string {
	if !have {
		return ""
	}
	return s
}

func secs(have bool, d time.Duration) string { return cell(have, figure.Decimal(d.Seconds())) }

// Bench writes every successful outcome's result in the Go benchmark format
// (report.Bench), with the point's settings first in each benchmark's name,
// so that benchstat can put the settings side by side
// (benchstat -col /gogc bench.txt):
//
//	BenchmarkAllocList/gogc=100/memlimit=off/size=64/base=32/chunk=32-2 ...
//
// with gomaxprocs=N after memlimit when GOMAXPROCS is an axis (then without
// the -N suffix, which would say it twice). The settings move from the
// configuration lines into the names: the "gogc" and "gomemlimit" lines
// (and "gomaxprocs" when it is an axis) are dropped, as benchstat would
// otherwise split every point into a table of its own. The configuration
// lines are written once, and again only where they change; the Unit lines
// once, at the end; each result's comment lines are kept, prefixed with
// its point and repeat. The outcomes are written in point order, then
// repeat order. A sweep over a command (gcperf sweep -- CMD) has the
// command's own figures as BenchmarkExec/gogc=100/memlimit=off/cmd=PROG
// and the benchmarks it printed with the settings last, before their -N
// suffix: BenchmarkWorkloads/list/gogc=100/memlimit=off-2
// (reportparts.BenchPart's Params).
func Bench(w io.Writer, outs []Outcome) error {
	procs := gomaxprocsAxis(outcomePoints(outs))
	drop := []string{"gogc", "gomemlimit"}
	if procs {
		drop = append(drop, "gomaxprocs")
	}
	var sorted []*Outcome
	for i := range outs {
		if succeeded(&outs[i]) {
			sorted = append(sorted, &outs[i])
		}
	}
	slices.SortStableFunc(sorted, func(a, b *Outcome) int {
		return cmp.Or(cmp.Compare(a.Point.Index, b.Point.Index), cmp.Compare(a.Rep, b.Rep))
	})
	parts := make([]reportparts.BenchPart[report.Document], len(sorted))
	for i, o := range sorted {
		p := o.Point
		settings := "gogc=" + p.GOGC.String() + " memlimit=" + p.MemLimit.String()
		d := *o.Doc
		if procs {
			settings += " gomaxprocs=" + strconv.Itoa(p.GOMAXPROCS)
			d.Env.Go.GOMAXPROCS = 1 // no -N suffix: the name says gomaxprocs=N
		}
		parts[i] = reportparts.BenchPart[report.Document]{Doc: &d, Label: p.Name() + " rep " + strconv.Itoa(o.Rep), Drop: drop}
		if d.Kind() == report.CommandDocument {
			// A command's result: its benchmarks' names take the settings.
			parts[i].Params = settings
			continue
		}
		d.Operations = slices.Clone(d.Operations)
		for i := range d.Operations {
			d.Operations[i].Params = strings.TrimSpace(settings + " " + d.Operations[i].Params)
		}
	}
	return reportparts.BenchJoin(w, parts)
}
