package report

import (
	"fmt"
	"github.com/gcperf/gcperf/internal/figure"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"
	"unicode/utf8"

	"github.com/gcperf/gcperf/env"
	"github.com/gcperf/gcperf/latency"
)

// Text writes the console report with the default options: its first
// screen (WriteText); for a command's document, WriteExecText's report.
func Text(w io.Writer, d *Document) error {
	return WriteText(w, d, TextOptions{})
}

// WriteText writes the console report: a first screen of the settings
// and the environment in a line, the percentiles with the runs they come
// from, the throughput, the collector and GCPerfP99 in a line each, then
// why the tail is what it is; with o.Verbose, the full settings, the
// statistics table, the GC paragraph, the open loop's table, GCPerfP99's
// block and the worst runs below that screen. For a command's document,
// WriteExecText's report.
func WriteText(w io.Writer, d *Document, o TextOptions) error {
	if d.Kind() == CommandDocument {
		return WriteExecText(w, d)
	}
	p := &printer{w: w, verbose: o.Verbose}
	p.summary(d)
	p.hiccup(d)
	if p.verbose {
		p.f("\n")
		p.details(d)
		p.stats(d)
		p.gc(d)
		p.openLoop(d)
		p.gcperf(d)
		p.tail(d)
	} else {
		p.tail(d)
	}
	p.server(d)
	p.profiles(d)
	p.footer(d)
	return p.err
}

// A printer writes the text report to w, keeping the first error. With
// verbose, each section prints its explanations too (TextOptions).
type printer struct {
	w       io.Writer
	err     error
	verbose bool
}

func (p *printer) f(format string, args ...any) {
	if p.err == nil {
		_, p.err = fmt.Fprintf(p.w, format, args...)
	}
}

// header prints the title line and the settings in full (details).
func (p *printer) header(d *Document) {
	p.title(d)
	p.details(d)
}

// details prints the settings and the environment in full, the timed
// runs and what the harness kept.
func (p *printer) details(d *Document) {
	c := d.Config
	p.settings(c, strconv.FormatInt(c.Seed, 10))
	p.machine(d.Env)
	of := fmt.Sprintf(" of %d", c.Runs)
	if c.Duration > 0 && c.Runs == 0 {
		of = ""
	}
	p.f("Timed runs: %d%s in %s (warmups %s); heap allocated during timed runs: %s in %d objects (operations and harness together)\n",
		d.Timing.Done, of, dur(d.Timing.Elapsed), dur(d.Timing.WarmupElapsed),
		env.Bytes(int64(d.Harness.HeapAllocBytes)), d.Harness.HeapAllocObjects)
	if h := d.Harness; h.HarnessHeap > 0 {
		p.f("Harness: %s live on the Go heap while it measured (histograms and counters, whatever the number of runs; per-run records outside the Go heap)\n",
			env.Bytes(int64(h.HarnessHeap)))
	}
	if n := d.Harness.RunsKept; n > 0 {
		p.f("Per-run records: the first %d of the %d runs (-keep-runs); every statistic covers all of them, and %d spans of the JSON timeline the rest\n", n, d.Timing.Done, len(d.Timeline))
	}
}

// settings prints the Settings line of a benchmark of configuration c,
// whose seed is seed: a number, or what stands for the seeds of several
// processes.
func (p *printer) settings(c Config, seed string) {
	order := "random"
	if !c.Random {
		order = "in order"
	}
	if c.Sample > 0 {
		rep := "without repeats"
		if c.Repeats {
			rep = "with repeats"
		}
		order = fmt.Sprintf("%s, %d operations per run %s", order, c.Sample, rep)
	}
	timeout := "none"
	if c.Timeout > 0 {
		timeout = c.Timeout.String()
	}
	delay := "none"
	if c.MaxDelay > 0 {
		delay = "0.." + c.MaxDelay.String()
	}
	bound := func(n int, d time.Duration) string {
		switch {
		case d == 0:
			return strconv.Itoa(n)
		case n == 0:
			return "for " + d.String()
		}
		return fmt.Sprintf("%d within %s", n, d)
	}
	p.f("Settings: warmups %s, runs %s, outliers %d, threads %d, order %s, seed %s, delay %s, timeout %s",
		bound(c.Warmups, c.WarmupDuration), bound(c.Runs, c.Duration), c.Outliers, c.Threads, order, seed, delay, timeout)
	if c.Rate > 0 {
		p.f(", rate %s/s (open loop)", figure.Num(c.Rate))
	}
	if len(c.Halt) > 0 {
		p.f(", halt on %s", strings.Join(c.Halt, ", "))
	}
	p.f("\n")
}

// machine prints the Go, Host and Limits lines of an environment.
func (p *printer) machine(e env.Env) {
	g := e.Go
	p.f("Go: %s %s/%s, GOMAXPROCS %d, GOGC %s, GOMEMLIMIT %s", g.Version, g.GOOS, g.GOARCH,
		g.GOMAXPROCS, g.GOGCString(), g.GOMEMLIMITString())
	if g.GODEBUG != "" {
		p.f(", GODEBUG %s", g.GODEBUG)
	}
	p.f("\n")
	if h := e.Host; h.LogicalCPUs > 0 {
		p.f("Host: %s, %d logical CPUs (%d physical), %s memory (%s available), %s %s, kernel %s",
			orUnknown(h.CPUModel), h.LogicalCPUs, h.PhysicalCPUs, env.Bytes(int64(h.MemoryTotalBytes)),
			env.Bytes(int64(h.MemoryAvailableBytes)), h.Platform, h.PlatformVersion, h.Kernel)
		if h.Virtualization != "" {
			p.f(", %s", h.Virtualization)
		}
		p.f(", load %.2f\n", h.Load1)
		cg := e.Cgroup
		cpus, mem := "none", "none"
		if cg.CPUMax != nil {
			cpus = figure.Num(*cg.CPUMax) + " CPUs"
		}
		if cg.MemoryMaxBytes != nil {
			mem = env.Bytes(*cg.MemoryMaxBytes)
		}
		p.f("Limits: cgroup cpu.max %s, memory.max %s\n", cpus, mem)
	}
}

// A row of the statistics table: its label and how to read each column.
type row struct {
	label string
	cell  func(o *Operation, mix bool) string
}

func (p *printer) stats(d *Document) {
	if p.err != nil {
		return
	}
	p.f("\nStatistics (the mean-based figures drop the best and worst -outliers %d; the percentiles cover every successful run)\n",
		d.Config.Outliers)
	cols, showMix, rows := statRows(d)
	p.table(cols, showMix, distinctRows(cols, showMix, rows))
}

// repeats names the rows of the statistics table that repeat another
// when every cell is the same: the response times of operations that
// never respond early are their runtimes; one operation's mixes per hour
// are its operations per hour.
var repeats = map[string]string{
	"Total Response Time":             "Total Runtime",
	"Average Response Time":           "Average Runtime (Arithmetic)",
	"Operation Mixes per Hour":        "Operations per Hour",
	"Actual Operation Mixes per Hour": "Actual Operations per Hour",
}

// distinctRows are rows without those that repeat another row in every
// column (repeats): the text report shows them only where they differ;
// the other formats keep every row.
func distinctRows(cols []*Operation, showMix bool, rows []row) []row {
	cells := func(r row) []string {
		out := make([]string, len(cols))
		for i, o := range cols {
			out[i] = r.cell(o, isMix(cols, showMix, i))
		}
		return out
	}
	byLabel := map[string]row{}
	for _, r := range rows {
		byLabel[r.label] = r
	}
	var out []row
	for _, r := range rows {
		if twin, ok := byLabel[repeats[r.label]]; ok && slices.Equal(cells(r), cells(twin)) {
			continue
		}
		out = append(out, r)
	}
	return out
}

// statRows are the statistics table's columns (the operations, then the
// mix when shown) and rows, for the text and HTML reports.
func statRows(d *Document) (cols []*Operation, showMix bool, rows []row) {
	cols, showMix = statColumns(d)
	rows = []row{
		{"Total Runs", func(o *Operation, _ bool) string { return strconv.FormatInt(o.Runs, 10) }},
		{"Total Errors", func(o *Operation, _ bool) string { return strconv.FormatInt(o.Errors.Total, 10) }},
	}
	for _, cat := range categories(d) {
		rows = append(rows, row{"  " + cat, func(o *Operation, _ bool) string {
			return strconv.FormatInt(o.Errors.ByCategory[cat], 10)
		}})
	}
	rows = append(rows, timingRows(d)...)
	if d.Mix.Actual != nil {
		rows = append(rows, actualRows(d)...)
	}
	return cols, showMix, rows
}

// statColumns are the statistics table's columns: the operations, then
// the mix when shown.
func statColumns(d *Document) (cols []*Operation, showMix bool) {
	cols = make([]*Operation, 0, len(d.Operations)+1)
	for i := range d.Operations {
		cols = append(cols, &d.Operations[i])
	}
	showMix = len(d.Operations) > 1 || d.Mix.OpsPerRun != 1
	if showMix {
		cols = append(cols, &d.Mix.Operation)
	}
	return cols, showMix
}

// Timing cells of a column without a successful run read "-": rtCell of
// its runtimes, respCell of its response times, timedCell of any figure.
func rtCell(get func(Distribution) time.Duration) func(*Operation, bool) string {
	return timedCell(func(o *Operation) string { return dur(get(o.Runtime)) })
}

func respCell(get func(Distribution) time.Duration) func(*Operation, bool) string {
	return func(o *Operation, _ bool) string {
		if o.Response.Count == 0 {
			return "-"
		}
		return dur(get(o.Response))
	}
}

func timedCell(get func(*Operation) string) func(*Operation, bool) string {
	return func(o *Operation, _ bool) string {
		if o.Runtime.Count == 0 {
			return "-"
		}
		return get(o)
	}
}

// timingRows are the statistics table's rows of results, times, rates
// and percentiles.
func timingRows(d *Document) []row {
	rt, resp, timed := rtCell, respCell, timedCell
	return []row{
		{"Total Results", func(o *Operation, _ bool) string { return strconv.FormatInt(o.Results, 10) }},
		{"Average Results", timed(func(o *Operation) string { return figure.Num(o.AvgResults) })},
		{"Outliers Dropped (each end)", func(o *Operation, _ bool) string { return strconv.Itoa(o.Runtime.Discarded) }},
		{"Total Response Time", resp(func(x Distribution) time.Duration { return x.Total })},
		{"Average Response Time", resp(func(x Distribution) time.Duration { return x.Mean })},
		{"Total Runtime", rt(func(x Distribution) time.Duration { return x.Total })},
		{"Average Runtime (Arithmetic)", rt(func(x Distribution) time.Duration { return x.Mean })},
		{"Average Runtime (Geometric)", rt(func(x Distribution) time.Duration { return x.GeoMean })},
		{"Minimum Runtime", rt(func(x Distribution) time.Duration { return x.Min })},
		{"Maximum Runtime", rt(func(x Distribution) time.Duration { return x.Max })},
		{"Runtime Variance", timed(func(o *Operation) string { return variance(o.Runtime.Variance) })},
		{"Runtime Standard Deviation", rt(func(x Distribution) time.Duration { return x.StdDev })},
		{"Operations per Second", timed(func(o *Operation) string { return figure.Num(o.OpsPerSecond) })},
		{"Operations per Hour", timed(func(o *Operation) string { return figure.Num(o.OpsPerHour) })},
		{"Operation Mixes per Hour", func(o *Operation, mix bool) string {
			if !mix || o.Runtime.Count == 0 {
				return "-"
			}
			return figure.Num(d.Mix.MixesPerHour)
		}},
		{"P50 Runtime", rt(func(x Distribution) time.Duration { return x.P50 })},
		{"P90 Runtime", rt(func(x Distribution) time.Duration { return x.P90 })},
		{"P99 Runtime", rt(func(x Distribution) time.Duration { return x.P99 })},
		{"P99.9 Runtime", rt(func(x Distribution) time.Duration { return x.P999 })},
		{"P99.99 Runtime", rt(func(x Distribution) time.Duration { return x.P9999 })},
		{"Max Runtime (all runs)", rt(func(x Distribution) time.Duration { return x.Percentiles.Max })},
	}
}

// actualRows are the statistics table's rows of the multi-threaded
// figures over wall time.
func actualRows(d *Document) []row {
	act := func(get func(*Actual) string) func(*Operation, bool) string {
		return func(o *Operation, _ bool) string {
			if o.Actual == nil {
				return "-"
			}
			return get(o.Actual)
		}
	}
	return []row{
		{"Actual Runtime", act(func(a *Actual) string { return dur(a.Runtime) })},
		{"Actual Average Runtime", act(func(a *Actual) string { return dur(a.Mean) })},
		{"Actual Operations per Second", act(func(a *Actual) string { return figure.Num(a.OpsPerSecond) })},
		{"Actual Operations per Hour", act(func(a *Actual) string { return figure.Num(a.OpsPerHour) })},
		{"Actual Operation Mixes per Hour", func(o *Operation, mix bool) string {
			// An operation's column stands for the mix when it is the
			// whole mix; the figure is the mix's either way.
			if !mix || d.Mix.Actual == nil {
				return "-"
			}
			return figure.Num(d.Mix.Actual.MixesPerHour)
		}},
	}
}

// colName is the heading of the statistics table's column i.
func colName(cols []*Operation, showMix bool, i int) string {
	if showMix && i == len(cols)-1 {
		return "mix"
	}
	return cols[i].Name
}

// isMix says whether column i stands for the mix: the mix's own column, or
// the only column when the mix is not shown.
func isMix(cols []*Operation, showMix bool, i int) bool {
	return showMix && i == len(cols)-1 || !showMix
}

// table prints the statistics table.
func (p *printer) table(cols []*Operation, showMix bool, rows []row) {
	// tabwriter aligns every column right; labels are padded to one width
	// first, so that they read left-aligned.
	width := 0
	for _, r := range rows {
		width = max(width, utf8.RuneCountInString(r.label))
	}
	pad := func(s string) string { return s + strings.Repeat(" ", width-utf8.RuneCountInString(s)) }
	tw := tabwriter.NewWriter(p.w, 0, 0, 2, ' ', tabwriter.AlignRight)
	line := func(cells []string) {
		if p.err == nil {
			_, p.err = io.WriteString(tw, strings.Join(cells, "\t")+"\t\n")
		}
	}
	head := []string{pad("")}
	for i := range cols {
		head = append(head, colName(cols, showMix, i))
	}
	line(head)
	for _, r := range rows {
		cells := []string{pad(r.label)}
		for i, o := range cols {
			cells = append(cells, r.cell(o, isMix(cols, showMix, i)))
		}
		line(cells)
	}
	if p.err == nil {
		p.err = tw.Flush()
	}
}

func (p *printer) errors(d *Document) {
	for _, op := range d.Operations {
		cats := make([]string, 0, len(op.Errors.First))
		for c := range op.Errors.First {
			cats = append(cats, c)
		}
		slices.Sort(cats)
		for _, c := range cats {
			p.f("First %s of %s: %s\n", c, op.Name, op.Errors.First[c])
		}
	}
}

// gc says what the collector did during the timed runs, a sentence or a
// clause a line: no line breaks mid-clause, in the text or on the HTML
// page.
func (p *printer) gc(d *Document) {
	g := d.GC
	if g == nil {
		return
	}
	p.f("\nGC during the timed runs: %d %s, %d stop-the-world %s", g.Cycles, figure.Plural(int(g.Cycles), "cycle", "cycles"),
		g.Pauses, figure.Plural(int(g.Pauses), "pause", "pauses"))
	if g.Pauses > 0 {
		p.f(" totalling %s (max %s; P50 %s, P99 %s, P99.9 %s)",
			dur(g.STW), dur(g.STWMax), dur(g.PauseP50), dur(g.PauseP99), dur(g.PauseP999))
	}
	p.f(".\n")
	if g.Stopping > 0 {
		p.f("   Of those %s, %s went to stopping the world (until every P had stopped; goroutines not yet stopped ran on),\n", dur(g.STW), dur(g.Stopping))
		p.f("   and %s to the world stopped and restarting.\n", dur(g.STW-g.Stopping))
	}
	if g.GCCPU == 0 {
		p.f("   GC CPU 0ns.\n")
	} else {
		p.f("   GC CPU %s, %s of the CPU available to Go (GOMAXPROCS × wall time; runtime estimates, updated at each pause and cycle end):\n",
			dur(g.GCCPU), figure.Percent(g.CPUFraction))
		p.f("   assist %s, dedicated %s, idle %s, pause %s.\n", dur(g.AssistCPU), dur(g.DedicatedCPU), dur(g.IdleCPU), dur(g.PauseCPU))
	}
	if g.PauseCPU > 0 {
		p.f("   The pause CPU is not GOMAXPROCS × the pauses: it is GOMAXPROCS (%d) × the time the world was stopped (not restarting it after a cycle's first pause),\n",
			d.Env.Go.GOMAXPROCS)
		p.f("   plus the time the Ps that had stopped waited for the others.\n")
	}
	p.f("   Allocated %s (%s/s, %s per operation).\n",
		env.Bytes(int64(g.AllocBytes)), env.Bytes(int64(g.AllocRate)), env.Bytes(int64(g.AllocBytesPerOp)))
	p.heapAtEnd(d)
}

// heapAtEnd says what is known of the heap at the end of the timed runs.
// /gc/heap/live:bytes is what the last GC cycle marked, 0 until one has:
// then the heap's objects, live and dead, are what is known (a result
// from before gcperf read them has neither).
func (p *printer) heapAtEnd(d *Document) {
	g := d.GC
	at := "heap live " + env.Bytes(int64(g.HeapLive)) + "; "
	switch {
	case g.HeapLive > 0 && g.Cycles == 0:
		at = "heap live " + env.Bytes(int64(g.HeapLive)) + " (marked before the timed runs: no cycle ended in them); "
	case g.HeapLive == 0:
		p.f("   Heap live unknown: no GC cycle has marked the heap since the process started")
		if d.Env.Go.GOGC < 0 {
			p.f(" (GOGC=off)")
		}
		p.f(".\n")
		at = ""
		if g.HeapObjects > 0 {
			at = "heap objects " + env.Bytes(int64(g.HeapObjects)) + ", live and dead (none freed yet); "
		}
	}
	p.f("   At the end: %sgoal %s; peak RSS %s.\n", at, env.HeapGoal(g.HeapGoal), env.Bytes(int64(d.Process.PeakRSSBytes)))
}

// hiccup prints what the hiccup meter saw.
func (p *printer) hiccup(d *Document) {
	h := d.Hiccup
	if h == nil {
		return
	}
	p.f("\nHiccups (a goroutine sleeping %s, %d times: how late it woke): P50 %s, P90 %s, P99 %s, P99.9 %s, P99.99 %s, max %s\n",
		dur(h.Interval), h.Count, dur(h.P50), dur(h.P90), dur(h.P99), dur(h.P999), dur(h.P9999), dur(h.Max))
}

// openLoop says how the schedule of -rate was kept, and prints each
// operation's latency from its intended start beside its runtime.
func (p *printer) openLoop(d *Document) {
	ol := d.OpenLoop
	if ol == nil || p.err != nil {
		return
	}
	p.f("\nOpen loop: asked %s/s (one start every %s), achieved %s/s; the latest start was %s behind schedule, %d started more than one interval late\n",
		figure.Num(ol.Rate), dur(ol.Interval), figure.Num(ol.Achieved), dur(ol.MaxLateness), ol.LateStarts)
	if ol.SkippedStarts > 0 {
		p.f("   %d due within the %s of -duration never started (the timed runs end at the duration)\n", ol.SkippedStarts, dur(d.Config.Duration))
	}
	if !ol.KeptUp {
		p.f("   could not keep up: the achieved rate is %s of the rate asked; the corrected latencies include the backlog\n",
			figure.Percent(ol.Achieved/ol.Rate))
	}
	p.f("Latency (corrected: from the intended start, which counts the wait behind a late schedule; uncorrected: the runtime)\n")
	tw := tabwriter.NewWriter(p.w, 0, 0, 2, ' ', tabwriter.AlignRight)
	line := func(cells ...string) {
		if p.err == nil {
			_, p.err = io.WriteString(tw, strings.Join(cells, "\t")+"\t\n")
		}
	}
	head := []string{""}
	sub := []string{""}
	for _, o := range d.Operations {
		head = append(head, o.Name, "")
		sub = append(sub, "corrected", "uncorrected")
	}
	line(head...)
	line(sub...)
	rows := []struct {
		label string
		cor   func(*Percentiles) time.Duration
		unc   func(Distribution) time.Duration
	}{
		{"P50", func(x *Percentiles) time.Duration { return x.P50 }, func(x Distribution) time.Duration { return x.P50 }},
		{"P90", func(x *Percentiles) time.Duration { return x.P90 }, func(x Distribution) time.Duration { return x.P90 }},
		{"P99", func(x *Percentiles) time.Duration { return x.P99 }, func(x Distribution) time.Duration { return x.P99 }},
		{"P99.9", func(x *Percentiles) time.Duration { return x.P999 }, func(x Distribution) time.Duration { return x.P999 }},
		{"P99.99", func(x *Percentiles) time.Duration { return x.P9999 }, func(x Distribution) time.Duration { return x.P9999 }},
		{"Max", func(x *Percentiles) time.Duration { return x.Max }, func(x Distribution) time.Duration { return x.Percentiles.Max }},
	}
	for _, r := range rows {
		cells := []string{r.label + "     "[:6-len(r.label)]}
		for _, o := range d.Operations {
			c, u := "-", "-"
			if o.Corrected != nil && o.Corrected.Count > 0 {
				c = dur(r.cor(o.Corrected))
			}
			if o.Runtime.Count > 0 {
				u = dur(r.unc(o.Runtime))
			}
			cells = append(cells, c, u)
		}
		line(cells...)
	}
	if p.err == nil {
		p.err = tw.Flush()
	}
}

func (p *printer) gcperf(d *Document) {
	f := d.GCPerfP99
	if f.Kept == 0 {
		return
	}
	u := f.Unit
	of := fmt.Sprintf("%d runs", f.Runs)
	if failed := d.Mix.Errors.Total; failed > 0 {
		of = fmt.Sprintf("%d successful runs (%d failed and are left out)", f.Runs, failed)
	}
	if u == "runs" {
		p.f("\nResults (GCPerfP99: the best %d of %s):\n", f.Kept, of)
	} else {
		p.f("\nResults (GCPerfP99: the best %d of %s, %s %s per run):\n", f.Kept, of, figure.Num(f.PerRun), u)
	}
	// GCPerfP99's total time covers the runs kept, its total processed
	// every run: both as it defines them, labelled so.
	all := "runs"
	if d.Mix.Errors.Total > 0 {
		all = "successful runs"
	}
	p.f("   Total execution time (the best %d %s) = %s\n", f.Kept, figure.Plural(f.Kept, "run", "runs"), dur(f.Total))
	p.f("   Total %s processed (all %d %s, as GCPerfP99 counts them) = %s\n", u, f.Runs, all, figure.Num(f.Processed))
	p.f("   Average time per run = %s\n", dur(f.MeanPerRun))
	p.f("   Throughput = %s %s/second\n", figure.Num(f.Throughput), u)
	p.f("   Latency = %s/1000 %s\n", dur(f.Latency), u)
	p.f("   Throughput (max, ave, min) = (%s, %s, %s) %s/second\n",
		figure.Num(f.ThroughputMax), figure.Num(f.Throughput), figure.Num(f.ThroughputMin), u)
	p.f("   Latency (min, ave, max) = (%s, %s, %s) per 1000 %s\n",
		dur(f.LatencyMin), dur(f.LatencyAve), dur(f.LatencyMax), u)
	if len(f.Worst) == 0 {
		p.f("No run dropped (fewer than 100 runs).\n")
		return
	}
	dropped := f.Runs - f.Kept
	share := figure.Percent(float64(dropped) / float64(f.Runs))
	if f.Estimated && dropped > len(f.Worst) {
		p.f("%d worst runs dropped (%s of %d: GCPerfP99 keeps the best 99%%, rounded down); the slowest %d of them (Total and what derives from it estimated from the histogram, within 0.1%%):\n", dropped, share, f.Runs, len(f.Worst))
	} else {
		p.f("%d worst %s dropped (%s of %d: GCPerfP99 keeps the best 99%%, rounded down):\n", dropped, figure.Plural(dropped, "run", "runs"), share, f.Runs)
	}
	// The slowest MaxWorstListed, fastest first as GCPerfP99 lists them.
	listed := f.Worst[max(len(f.Worst)-MaxWorstListed, 0):]
	if more := len(f.Worst) - len(listed); more > 0 {
		p.f("   ... %d less slow %s in the JSON report (gcperfp99.worst); the slowest %d:\n", more, figure.Plural(more, "is", "are"), len(listed))
	}
	for _, w := range listed {
		p.f("   Run, Time, Throughput = %d, %s, %s %s/second", w.Run, dur(w.Time), figure.Num(w.Throughput), u)
		if d.Tail != nil {
			p.f("; GC cycles %d, STW %s, assist %s", w.GCCycles, dur(w.STW), dur(w.AssistCPU))
			if len(w.Causes) > 0 {
				p.f("; had %s", strings.Join(w.Causes, ", "))
			}
		}
		p.f("\n")
	}
}

// MaxWorstListed is how many of GCPerfP99's dropped runs the text report
// lists, the slowest; the JSON report holds them all.
const MaxWorstListed = 10

// profiles lists the attached profiles with the top 5 functions of each.
func (p *printer) profiles(d *Document) {
	pr := d.Profiling
	if pr == nil {
		return
	}
	if pr.Inline {
		p.f("\nProfiles, taken DURING the measured runs (-profile-inline): the figures above include the profilers' cost.\n")
	} else {
		p.f("\nProfiles, from a separate pass of %d runs after the measured ones (the figures above were not profiled):\n", pr.Runs)
	}
	for _, x := range pr.Profiles {
		p.f("   %s: %s (%s)", x.Kind, x.File, dur(x.Duration))
		if x.SampleType == "" {
			p.f("\n")
			continue
		}
		p.f(", %s %s\n", x.SampleType, profileValue(x.Total, x.Unit))
		for i, f := range x.Top {
			if i == 5 {
				break
			}
			p.f("      %6.2f%% %6.2f%%  %s\n", f.FlatPct, f.CumPct, f.Name)
		}
	}
}

// profileValue formats a profile's total in its unit.
func profileValue(v int64, unit string) string {
	switch unit {
	case "nanoseconds":
		return dur(time.Duration(v))
	case "bytes":
		return env.Bytes(v)
	}
	return strconv.FormatInt(v, 10) + " " + unit
}

// server writes the program under test's run (gcperf run OP... -- SERVER),
// and whether the load generator's own collector could have made the tail.
func (p *printer) server(d *Document) {
	if d.Kind() != ServerDocument {
		return
	}
	p.f("\n")
	var b strings.Builder
	if err := writeExec(&b, d.Server, "Server"); err != nil {
		p.err = err
		return
	}
	p.f("%s", b.String())
	p.f("%s\n", clientGC(d))
}

// clientGC says whether the load generator's own stop-the-world pauses
// (gcperf's, the document's GC) could have made the tail of the latency
// measured against the server: their longest against 1% of the P99 the
// client measured (the corrected one, open loop).
func clientGC(d *Document) string {
	p99 := d.Mix.Runtime.P99
	if c := d.CorrectedLatency(); c != nil {
		p99 = c.P99
	}
	if d.GC == nil || p99 <= 0 {
		return "The load generator's own GC was not measured (-gcstats off): whether the client made part of the tail is unknown."
	}
	pct := 100 * float64(d.GC.STWMax) / float64(p99)
	if d.GC.STWMax*100 < p99 {
		return fmt.Sprintf("The load generator's own GC (the figures above): its longest pause, %s, is %s of the P99 (%s): the tail is the server's.",
			dur(d.GC.STWMax), figure.Pct(pct), dur(p99))
	}
	return fmt.Sprintf("Warning: the load generator's own GC (the figures above) paused up to %s, %s of the P99 (%s): part of the tail may be the client's, not the server's.",
		dur(d.GC.STWMax), figure.Pct(pct), dur(p99))
}

func (p *printer) footer(d *Document) {
	if d.Halted != "" {
		p.f("\nHalted: %s\n", d.Halted)
	}
	if d.Interrupted {
		switch c := d.Config; {
		case c.Runs > 0:
			p.f("\nInterrupted: %d of %d timed runs completed; the figures above cover those only.\n", d.Timing.Done, c.Runs)
		default: // -duration without -runs: as many as the time allowed
			p.f("\nInterrupted: %d timed runs completed, in %s of the %s asked; the figures above cover those only.\n",
				d.Timing.Done, dur(d.Timing.Elapsed), dur(c.Duration))
		}
	}
	if d.Config.GCStats == "run" && d.Mix.Runtime.Count > 0 && d.Mix.Runtime.Mean < 50*time.Microsecond {
		p.f("\nNote: these runs are so short that the per-run readings of the GC and the other causes\n" +
			"(about 2µs each, taken between runs, outside the timed region) slow the benchmark down;\n" +
			"-gcstats total reads the GC's once and gives no verdicts.\n")
	}
	p.f("\nRepeat with -seed %d.", d.Config.Seed)
	if !p.verbose {
		p.f(" -v adds the settings in full, the statistics table, the worst runs and the explanations.")
	}
	p.f("\n")
}

// categories lists the failure categories seen in any column, sorted.
func categories(d *Document) []string {
	var out []string
	for c := range d.Mix.Errors.ByCategory {
		out = append(out, c)
	}
	for _, op := range d.Operations {
		for c := range op.Errors.ByCategory {
			if !slices.Contains(out, c) {
				out = append(out, c)
			}
		}
	}
	slices.Sort(out)
	return out
}

func dur(d time.Duration) string { return latency.FormatDuration(d) }

// variance formats a variance in ns² in the squared unit of its standard
// deviation: 1.44ms², 2.25µs².
func variance(v float64) string {
	sd := time.Duration(math.Sqrt(v))
	switch {
	case sd >= time.Second:
		return figure.Num(v/1e18) + "s²"
	case sd >= time.Millisecond:
		return figure.Num(v/1e12) + "ms²"
	case sd >= time.Microsecond:
		return figure.Num(v/1e6) + "µs²"
	}
	return figure.Num(v) + "ns²"
}

func orUnknown(s string) string {
	if s == "" {
		return "unknown CPU"
	}
	return s
}
