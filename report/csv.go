package report

import (
	"encoding/csv"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/gcperf/gcperf/internal/figure"
	"github.com/gcperf/gcperf/internal/quote"
	"github.com/gcperf/gcperf/runstats"
)

// CSV writes the document in the shape of the SPARQL Query Benchmarker's
// CSV results: a header row and a row summarising the whole mix, then
// blocks separated by one empty line, each opening with a one-cell title
// row:
//
//   - Options Summary: setting,value rows
//   - Run Summary: a header row and one row per timed run, in the
//     document's order
//   - Operation Summary: a header row, one row per operation and a final
//     row for the mix
//   - Environment: key,value rows (host, cgroup limits, Go runtime, build,
//     command)
//   - Timing: key,value rows (wall times, heap the timed runs allocated,
//     process counters, the tail's relation to the collector)
//   - GCPerfP99: key,value rows, then the worst runs it dropped
//   - Tail Causes (-gcstats run): a header row and one row per cause of
//     slow runs, with its verdict and the figures behind it
//
// Times are in seconds, variances in seconds squared, both as decimal
// numbers without exponent; byte counts are in bytes. A figure the
// benchmark could not measure (no successful run, no GC readings, the live
// heap when no GC cycle had marked it) is an empty cell. The columns of the
// reference tool keep its names and order; gcperf's own follow them. The
// Actual columns appear when the document has them (more than one thread),
// as the reference tool does; the GC columns appear with -gcstats run (per
// run) or run and total (summary).
//
// The result of a command (gcperf exec) has no operations: its CSV is a
// header row and a row of the command's figures (its status, time, memory,
// settings and GC, times in seconds and sizes in bytes), then the blocks
// Benchmarks (a row per metric of each benchmark the command printed: its
// unit as benchstat shows it, median, count and every value), RSS over
// Time, Heap Goal over Time (when its gctrace was read) and Environment
// (the machine's rows).
func CSV(w io.Writer, d *Document) error {
	cw := csv.NewWriter(w)
	c := &csvDoc{w: cw, d: d}
	if d.Kind() == CommandDocument {
		c.exec()
		cw.Flush()
		if c.err != nil {
			return c.err
		}
		return cw.Error()
	}
	c.summary()
	c.options()
	c.runs()
	c.operations()
	c.environment()
	c.timing()
	c.gcperf()
	c.causes()
	c.hiccup()
	if c.d.Kind() == ServerDocument {
		// The server under load: its run as a command's, under a block
		// of its own.
		c.block(csvServer)
		c.execBlocks(c.d.Server, "Server ")
	}
	cw.Flush()
	if c.err != nil {
		return c.err
	}
	return cw.Error()
}

// The titles of the CSV blocks.
const (
	csvServer     = "Server"
	csvOptions    = "Options Summary"
	csvRuns       = "Run Summary"
	csvOperations = "Operation Summary"
	csvEnv        = "Environment"
	csvTiming     = "Timing"
	csvGCPerf     = "GCPerfP99"
	csvWorst      = "GCPerfP99 Worst Runs"
	csvCauses     = "Tail Causes"
	csvHiccup     = "Hiccups"
)

// hiccup writes the hiccup meter's figures, times in seconds.
func (c *csvDoc) hiccup() {
	h := c.d.Hiccup
	if h == nil {
		return
	}
	c.block(csvHiccup)
	head, vals := csvFields(h, hiccupLayout...)
	c.row(head...)
	c.row(vals...)
}

type csvDoc struct {
	w   *csv.Writer
	d   *Document
	err error
}

func (c *csvDoc) row(cells ...string) {
	if c.err == nil {
		c.err = c.w.Write(cells)
	}
}

// block ends the previous block with an empty line and opens a new one
// with its title.
func (c *csvDoc) block(title string) {
	c.row()
	c.row(title)
}

// secs formats a duration in seconds: 1234567ns → "0.001234567".
func csvSecs(d time.Duration) string { return figure.Decimal(float64(d) / 1e9) }

func csvInt[T ~int | ~int64](v T) string { return strconv.FormatInt(int64(v), 10) }
func csvUint[T ~uint64](v T) string      { return strconv.FormatUint(uint64(v), 10) }
func csvBool(v bool) string              { return strconv.FormatBool(v) }
func hasActual(d *Document) bool         { return d.Mix.Actual != nil }
func hasRunGC(d *Document) bool          { return d.GC != nil && d.GC.Mode == "run" }
func hasRuntime(o *Operation) bool       { return o.Runtime.Count > 0 }
func hasResponse(o *Operation) bool      { return o.Response.Count > 0 }
func csvIf(ok bool, s func() string) string {
	if !ok {
		return ""
	}
	return s()
}

// csvCol is one column of the summary: its header and its value.
type csvCol struct{ name, value string }

// summary writes the header row and the row of the whole mix.
func (c *csvDoc) summary() {
	cols := mixCols(c.d)
	if g := c.d.GC; g != nil {
		cols = append(cols, gcCols(g)...)
	}
	head := make([]string, len(cols))
	vals := make([]string, len(cols))
	for i, col := range cols {
		head[i], vals[i] = col.name, col.value
	}
	c.row(head...)
	c.row(vals...)
}

// mixCols are the summary's columns of the whole mix: the Benchmarker's,
// then gcperf's own.
func mixCols(d *Document) []csvCol {
	m := &d.Mix.Operation
	mt := hasActual(d)
	rt := func(get func(Distribution) time.Duration) string {
		return csvIf(hasRuntime(m), func() string { return csvSecs(get(m.Runtime)) })
	}
	resp := func(get func(Distribution) time.Duration) string {
		return csvIf(hasResponse(m), func() string { return csvSecs(get(m.Response)) })
	}
	actual := func(get func(*Actual) string) string {
		return csvIf(m.Actual != nil, func() string { return get(m.Actual) })
	}
	var cols []csvCol
	add := func(name string, value string) { cols = append(cols, csvCol{name, value}) }
	add("Total Response Time", resp(func(x Distribution) time.Duration { return x.Total }))
	add("Average Response Time (Arithmetic)", resp(func(x Distribution) time.Duration { return x.Mean }))
	add("Total Runtime", rt(func(x Distribution) time.Duration { return x.Total }))
	if mt {
		add("Actual Runtime", actual(func(a *Actual) string { return csvSecs(a.Runtime) }))
	}
	add("Average Runtime (Arithmetic)", rt(func(x Distribution) time.Duration { return x.Mean }))
	if mt {
		add("Actual Average Runtime (Arithmetic)", actual(func(a *Actual) string { return csvSecs(a.Mean) }))
	}
	add("Average Runtime (Geometric)", rt(func(x Distribution) time.Duration { return x.GeoMean }))
	add("Minimum Mix Runtime", rt(func(x Distribution) time.Duration { return x.Min }))
	add("Maximum Mix Runtime", rt(func(x Distribution) time.Duration { return x.Max }))
	add("Variance", csvIf(hasRuntime(m), func() string { return figure.Decimal(m.Runtime.Variance / 1e18) }))
	add("Standard Deviation", rt(func(x Distribution) time.Duration { return x.StdDev }))
	add("Operation Mixes per Hour", csvIf(hasRuntime(m), func() string { return figure.Decimal(d.Mix.MixesPerHour) }))
	if mt {
		add("Actual Operation Mixes per Hour", actual(func(a *Actual) string { return figure.Decimal(a.MixesPerHour) }))
	}
	// gcperf's own columns.
	add("Operations per Run", csvInt(d.Mix.OpsPerRun))
	add("Total Runs", csvInt(m.Runs))
	add("Total Errors", csvInt(m.Errors.Total))
	add("Total Results", csvInt(m.Results))
	add("Average Results", csvIf(hasRuntime(m), func() string { return figure.Decimal(m.AvgResults) }))
	add("Outliers Dropped (each end)", csvInt(m.Runtime.Discarded))
	add("P50 Mix Runtime", rt(func(x Distribution) time.Duration { return x.P50 }))
	add("P90 Mix Runtime", rt(func(x Distribution) time.Duration { return x.P90 }))
	add("P99 Mix Runtime", rt(func(x Distribution) time.Duration { return x.P99 }))
	add("P99.9 Mix Runtime", rt(func(x Distribution) time.Duration { return x.P999 }))
	add("P99.99 Mix Runtime", rt(func(x Distribution) time.Duration { return x.P9999 }))
	add("Max Mix Runtime (all runs)", rt(func(x Distribution) time.Duration { return x.Percentiles.Max }))
	return cols
}

// gcCols are the summary's columns of what the collector did.
func gcCols(g *GC) []csvCol {
	head, vals := csvFields(g, gcLayout...)
	cols := make([]csvCol, len(head))
	for i := range head {
		cols[i] = csvCol{head[i], vals[i]}
	}
	return cols
}

// options writes the settings, one setting,value row each.
func (c *csvDoc) options() {
	c.block(csvOptions)
	head, vals := csvFields(&c.d.Config, optionsLayout...)
	for i := range head {
		c.row(head[i], vals[i])
	}
}

func (c *csvDoc) runs() {
	d := c.d
	gc := hasRunGC(d)
	causes := gc && len(d.Runs) > 0 && d.Runs[0].RunDelta != nil
	// shape gives a run the columns the block has: the collector's with
	// -gcstats run, and the other causes' when the first run has them.
	var row Run // one for every row: a run has thousands
	shape := func(r *Run) *Run {
		row = *r
		switch {
		case !gc:
			row.GCDelta = nil
		case row.GCDelta == nil:
			row.GCDelta = &runstats.GCDelta{}
		}
		if !causes {
			row.RunDelta = nil
		}
		return &row
	}
	c.block(csvRuns)
	head, _ := csvFields(shape(&Run{RunDelta: &runstats.RunDelta{}}), runLayout...)
	c.row(head...)
	for i := range d.Runs {
		_, vals := csvFields(shape(&d.Runs[i]), runLayout...)
		c.row(vals...)
	}
}

// runLayout is the columns of the Run Summary: a run's own, its response
// time before its runtime, then what the collector did (runstats.GCDelta,
// less the CPU figures of the summary's) and what else happened during it
// (runstats.RunDelta).
var runLayout = layout{
	{"Run", "", ""}, {"Thread", "", ""}, {"Start", "", ""}, {"Response", "", ""}, {"Runtime", "", ""},
	{"Results", "", ""}, {"Errors", "", ""},
	{"Cycles", "", "GC Cycles"}, {"Pauses", "", "STW Pauses"}, {"STW", "", "STW"}, {"STWMax", "", "STW Max"},
	{"AssistCPU", "", "GC Assist CPU"}, {"GCCPU", "", "GC CPU"}, {"AllocBytes", "", "Alloc Bytes"},
	{"AllocObjects", "", "Alloc Objects"}, {"HeapLive", "", "Heap Live Bytes,omitzero"},
	{"HeapGoal", "", "Heap Goal Bytes"},
	{"MarkAtStart", "", "Mark At Start"}, {"MinorFaults", "", "Minor Faults"}, {"MajorFaults", "", "Major Faults"},
	{"VoluntarySwitches", "", "Voluntary Switches"}, {"InvoluntarySwitches", "", "Involuntary Switches"},
	{"SchedWaits", "", "Sched Waits"}, {"SchedMax", "", "Sched Max"},
}

func (c *csvDoc) operations() {
	d := c.d
	mt := hasActual(d)
	cats := categories(d)
	c.block(csvOperations)
	head := []string{"Operation", "Parameters", "Unit", "Total Response Time", "Average Response Time (Arithmetic)",
		"Total Runtime"}
	if mt {
		head = append(head, "Actual Runtime")
	}
	head = append(head, "Average Runtime (Arithmetic)")
	if mt {
		head = append(head, "Actual Average Runtime (Arithmetic)")
	}
	head = append(head, "Average Runtime (Geometric)", "Min Runtime", "Max Runtime", "Variance",
		"Standard Deviation", "Operations per Second")
	if mt {
		head = append(head, "Actual Operations per Second")
	}
	head = append(head, "Operations per Hour")
	if mt {
		head = append(head, "Actual Operations per Hour")
	}
	head = append(head, "Total Runs", "Total Errors")
	for _, cat := range cats {
		head = append(head, "Errors ("+cat+")")
	}
	head = append(head, "Total Results", "Average Results", "Outliers Dropped (each end)",
		"P50 Runtime", "P90 Runtime", "P99 Runtime", "P99.9 Runtime", "P99.99 Runtime", "Max Runtime (all runs)")
	c.row(head...)

	line := func(o *Operation) {
		ok, rok := hasRuntime(o), hasResponse(o)
		rt := func(v time.Duration) string { return csvIf(ok, func() string { return csvSecs(v) }) }
		num := func(v float64) string { return csvIf(ok, func() string { return figure.Decimal(v) }) }
		act := func(get func(a *Actual) string) string {
			return csvIf(o.Actual != nil, func() string { return get(o.Actual) })
		}
		x, r := o.Runtime, o.Response
		cells := []string{o.Name, o.Params, o.Unit,
			csvIf(rok, func() string { return csvSecs(r.Total) }),
			csvIf(rok, func() string { return csvSecs(r.Mean) }),
			rt(x.Total)}
		if mt {
			cells = append(cells, act(func(a *Actual) string { return csvSecs(a.Runtime) }))
		}
		cells = append(cells, rt(x.Mean))
		if mt {
			cells = append(cells, act(func(a *Actual) string { return csvSecs(a.Mean) }))
		}
		cells = append(cells, rt(x.GeoMean), rt(x.Min), rt(x.Max), num(x.Variance/1e18), rt(x.StdDev),
			num(o.OpsPerSecond))
		if mt {
			cells = append(cells, act(func(a *Actual) string { return figure.Decimal(a.OpsPerSecond) }))
		}
		cells = append(cells, num(o.OpsPerHour))
		if mt {
			cells = append(cells, act(func(a *Actual) string { return figure.Decimal(a.OpsPerHour) }))
		}
		cells = append(cells, csvInt(o.Runs), csvInt(o.Errors.Total))
		for _, cat := range cats {
			cells = append(cells, csvInt(o.Errors.ByCategory[cat]))
		}
		cells = append(cells, csvInt(o.Results), num(o.AvgResults), csvInt(x.Discarded),
			rt(x.P50), rt(x.P90), rt(x.P99), rt(x.P999), rt(x.P9999), rt(x.Percentiles.Max))
		c.row(cells...)
	}
	for i := range d.Operations {
		line(&d.Operations[i])
	}
	line(&d.Mix.Operation)
}

func (c *csvDoc) environment() {
	e := c.d.Env
	h, cg, g, b := e.Host, e.Cgroup, e.Go, e.Build
	c.block(csvEnv)
	c.row("Host", h.Hostname)
	c.row("OS", h.OS)
	c.row("Platform", strings.TrimSpace(h.Platform+" "+h.PlatformVersion))
	c.row("Kernel", h.Kernel)
	c.row("Arch", h.Arch)
	c.row("Virtualization", h.Virtualization)
	c.row("CPU Model", h.CPUModel)
	c.row("CPU MHz", figure.Decimal(h.CPUMHz))
	c.row("Physical CPUs", csvInt(h.PhysicalCPUs))
	c.row("Logical CPUs", csvInt(h.LogicalCPUs))
	c.row("Memory Total Bytes", csvUint(h.MemoryTotalBytes))
	c.row("Memory Available Bytes", csvUint(h.MemoryAvailableBytes))
	c.row("Load 1m", figure.Decimal(h.Load1))
	c.row("Load 5m", figure.Decimal(h.Load5))
	c.row("Load 15m", figure.Decimal(h.Load15))
	c.row("Uptime Seconds", csvUint(h.UptimeSeconds))
	c.row("Cgroup", cg.Path)
	cpus, mem := "max", "max"
	if cg.CPUMax != nil {
		cpus = figure.Decimal(*cg.CPUMax)
	}
	if cg.MemoryMaxBytes != nil {
		mem = csvInt(*cg.MemoryMaxBytes)
	}
	c.row("Cgroup CPU Max", cpus)
	c.row("Cgroup Memory Max Bytes", mem)
	c.row("Cgroup Memory Current Bytes", csvInt(cg.MemoryCurrent))
	if c.d.Kind() == CommandDocument {
		// The command's Go runtime and build are not gcperf's to read.
		c.row("gcperf Version", c.d.Tool.Version)
		c.row("Command", quote.Shell(c.d.Tool.Command))
		return
	}
	c.row("Go Version", g.Version)
	c.row("GOOS", g.GOOS)
	c.row("GOARCH", g.GOARCH)
	c.row("GOGC", g.GOGCString())
	c.row("GOMEMLIMIT", gomemlimit(g))
	c.row("GOMAXPROCS", csvInt(g.GOMAXPROCS))
	c.row("NumCPU", csvInt(g.NumCPU))
	c.row("GODEBUG", g.GODEBUG)
	c.row("Build Path", b.Path)
	c.row("Build Module", b.Module)
	c.row("Build Version", b.Version)
	c.row("Build Revision", b.VCSRevision)
	c.row("Build Time", b.VCSTime)
	c.row("Build Modified", csvBool(b.VCSModified))
	c.row("gcperf Version", c.d.Tool.Version)
	c.row("Command", quote.Shell(c.d.Tool.Command))
}

func (c *csvDoc) timing() {
	d := c.d
	t, p := d.Timing, d.Process
	c.block(csvTiming)
	c.rows(&t)
	c.row("Interrupted", csvBool(d.Interrupted))
	c.row("Halted", d.Halted)
	c.rows(&d.Harness)
	c.row("Peak RSS Bytes", csvUint(p.PeakRSSBytes))
	for _, x := range []struct {
		when string
		p    runstats.Process
	}{{"Before", p.Before}, {"After", p.After}} {
		c.row("RSS Bytes "+x.when, csvUint(x.p.RSSBytes))
		c.row("Minor Faults "+x.when, csvUint(x.p.MinorFaults))
		c.row("Major Faults "+x.when, csvUint(x.p.MajorFaults))
		c.row("Voluntary Context Switches "+x.when, csvUint(x.p.VoluntaryCtxSwitches))
		c.row("Involuntary Context Switches "+x.when, csvUint(x.p.InvoluntaryCtxSwitches))
		c.row("User CPU "+x.when, csvSecs(x.p.UserCPU))
		c.row("System CPU "+x.when, csvSecs(x.p.SystemCPU))
	}
	if m := d.Process.Machine; m != nil {
		c.row("Machine CPUs", csvInt(m.CPUs))
		c.row("Machine CPU Time", csvSecs(m.Total))
		c.row("Machine Steal Time", csvSecs(m.Steal))
	}
	if tl := d.Tail; tl != nil {
		c.rows(tl)
	}
}

// rows writes v's columns (csvFields) as name,value rows, less the
// figures not measured (empty: omitzero).
func (c *csvDoc) rows(v any) {
	head, vals := csvFields(v)
	for i := range head {
		if vals[i] != "" {
			c.row(head[i], vals[i])
		}
	}
}

func (c *csvDoc) gcperf() {
	f := c.d.GCPerfP99
	c.block(csvGCPerf)
	head, vals := csvFields(&f)
	for i := range head {
		c.row(head[i], vals[i])
	}
	c.block(csvWorst)
	head, _ = csvFields(&Worst{})
	c.row(head...)
	for i := range f.Worst {
		_, vals := csvFields(&f.Worst[i])
		c.row(vals...)
	}
}

// causes writes the verdict on each cause of the slow runs.
func (c *csvDoc) causes() {
	t := c.d.Tail
	if t == nil || len(t.Causes) == 0 {
		return
	}
	c.block(csvCauses)
	head, _ := csvFields(&Cause{}, causeLayout...)
	c.row(append(head, "Scope", "Alpha")...)
	for i := range t.Causes {
		_, vals := csvFields(&t.Causes[i], causeLayout...)
		c.row(append(vals, t.Scope.String(), strconv.FormatFloat(t.Alpha, 'g', -1, 64))...)
	}
}
