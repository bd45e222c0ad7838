package report

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"
	"unicode/utf8"

	"github.com/gcperf/gcperf/env"
	"github.com/gcperf/gcperf/internal/figure"
	"github.com/gcperf/gcperf/latency"
)

// TextOptions are the text report's options.
type TextOptions struct {
	// Verbose adds, below the first screen, what the default report
	// leaves to the JSON, CSV, XML and HTML forms: the settings and the
	// environment in full, the methodology's statistics table, the
	// collector's paragraph with its explanations, the open loop's
	// schedule and latency table, GCPerfP99's block with its worst runs,
	// and the tail section's explanations.
	Verbose bool
}

// SummaryWidth is the widest line the first screen of the text report
// prints (its summary; the sections after it are the tail's, the
// server's and the profiles').
const SummaryWidth = 120

// summaryPercentiles are the quantiles of the summary's table, besides
// the maximum: P50, P90, P99 and P99.9.
var summaryPercentiles = []struct {
	name string
	q    float64
	get  func(latency.Percentiles) time.Duration
}{
	{"P50", 0.50, func(x latency.Percentiles) time.Duration { return x.P50 }},
	{"P90", 0.90, func(x latency.Percentiles) time.Duration { return x.P90 }},
	{"P99", 0.99, func(x latency.Percentiles) time.Duration { return x.P99 }},
	{"P99.9", 0.999, func(x latency.Percentiles) time.Duration { return x.P999 }},
}

// summary prints the first screen: the title, a line of settings and
// environment, the percentiles with the runs they come from, the
// throughput, the collector and GCPerfP99 in a line each.
func (p *printer) summary(d *Document) {
	p.title(d)
	p.wrapped("", setupLine(d))
	p.f("\n")
	p.percentiles(d)
	p.throughput(d)
	p.failures(d)
	p.gcLine(d)
	p.gcperfLine(d)
}

// title prints the report's first line: gcperf's version and the
// operations.
func (p *printer) title(d *Document) {
	names := make([]string, len(d.Operations))
	for i, op := range d.Operations {
		names[i] = strings.TrimSpace(op.Name + " " + op.Params)
	}
	p.f("gcperf %s: %s\n", d.Tool.Version, strings.Join(names, ", "))
}

// setupLine is the settings and the environment of d in one line: the
// runs made, the settings that differ from the defaults, the Go runtime's
// and the machine's figures that move the collector.
func setupLine(d *Document) string {
	c, t := d.Config, d.Timing
	runs := fmt.Sprintf("%d %s in %s", t.Done, figure.Plural(t.Done, "run", "runs"), dur(t.Elapsed))
	if c.Runs > 0 && t.Done < c.Runs {
		runs = fmt.Sprintf("%d of %d runs in %s", t.Done, c.Runs, dur(t.Elapsed))
	}
	if c.Duration > 0 {
		runs += " (for " + c.Duration.String() + ")"
	}
	warmups := fmt.Sprintf("%d %s", c.Warmups, figure.Plural(c.Warmups, "warmup", "warmups"))
	if c.WarmupDuration > 0 {
		warmups = "warmups for " + c.WarmupDuration.String()
	}
	set := []string{runs, warmups}
	if c.Threads > 1 {
		set = append(set, fmt.Sprintf("%d threads", c.Threads))
	}
	if c.Rate > 0 {
		set = append(set, "open loop at "+figure.Num(c.Rate)+"/s")
	}
	if !c.Random {
		set = append(set, "in order")
	}
	if c.Sample > 0 {
		set = append(set, fmt.Sprintf("%d operations drawn per run", c.Sample))
	}
	if c.MaxDelay > 0 {
		set = append(set, "delay 0.."+c.MaxDelay.String())
	}
	if c.Timeout > 0 {
		set = append(set, "timeout "+c.Timeout.String())
	}
	if len(c.Halt) > 0 {
		set = append(set, "halt on "+strings.Join(c.Halt, ", "))
	}
	set = append(set, "seed "+strconv.FormatInt(c.Seed, 10))
	g := d.Env.Go
	goes := []string{g.Version, "GOMAXPROCS " + strconv.Itoa(g.GOMAXPROCS), "GOGC " + g.GOGCString(), "GOMEMLIMIT " + g.GOMEMLIMITString()}
	if g.GODEBUG != "" {
		goes = append(goes, "GODEBUG "+g.GODEBUG)
	}
	line := strings.Join(set, ", ") + "; " + strings.Join(goes, ", ")
	if h := d.Env.Host; h.LogicalCPUs > 0 {
		machine := []string{fmt.Sprintf("%d %s", h.LogicalCPUs, figure.Plural(h.LogicalCPUs, "CPU", "CPUs"))}
		if cg := d.Env.Cgroup; cg.CPUMax != nil {
			machine = append(machine, "cgroup cpu.max "+figure.Num(*cg.CPUMax))
		}
		if cg := d.Env.Cgroup; cg.MemoryMaxBytes != nil {
			machine = append(machine, "memory.max "+env.Bytes(*cg.MemoryMaxBytes))
		}
		machine = append(machine, fmt.Sprintf("load %.2f", h.Load1))
		line += "; " + strings.Join(machine, ", ")
	}
	return line
}

// wrapped prints s, cut after a comma or a semicolon into lines of at
// most SummaryWidth columns, each continued line indented by three spaces
// after prefix.
func (p *printer) wrapped(prefix, s string) {
	for _, l := range wrap(prefix+s, SummaryWidth) {
		p.f("%s\n", l)
	}
}

// wrap cuts s into lines of at most width runes, after a ", " or a "; ",
// the lines after the first indented by three spaces. A part longer than
// width stays whole.
func wrap(s string, width int) []string {
	var lines []string
	const indent = "   "
	for utf8.RuneCountInString(s) > width {
		cut := -1
		for i := 0; i+1 < len(s); i++ {
			if (s[i] == ',' || s[i] == ';') && s[i+1] == ' ' && utf8.RuneCountInString(s[:i+1]) <= width {
				cut = i + 1
			}
		}
		if cut < 0 || strings.TrimSpace(s[cut:]) == "" {
			break
		}
		lines = append(lines, s[:cut])
		s = indent + strings.TrimLeft(s[cut:], " ")
	}
	return append(lines, s)
}

// A summaryRow is a row of the summary's percentile table: its label,
// the runs its percentiles come from, and the percentiles.
type summaryRow struct {
	label string
	runs  int64
	pct   latency.Percentiles
}

// summaryRows are the rows of the summary's percentile table: each
// operation's runtime (and the mix's, when the table shows it); open
// loop, each one's latency from its intended start (corrected), then its
// runtime (the service time, uncorrected).
func summaryRows(d *Document) []summaryRow {
	cols, showMix := statColumns(d)
	var rows []summaryRow
	for i, o := range cols {
		name := colName(cols, showMix, i)
		if d.OpenLoop == nil {
			rows = append(rows, summaryRow{name, o.Runtime.Count, o.Runtime.Percentiles})
			continue
		}
		c := summaryRow{label: name + ": corrected, from the intended start"}
		if o.Corrected != nil {
			c.runs, c.pct = o.Corrected.Count, o.Corrected.Percentiles
		}
		rows = append(rows, c, summaryRow{name + ": uncorrected (service time)", o.Runtime.Count, o.Runtime.Percentiles})
	}
	return rows
}

// percentiles prints the summary's percentile table, and which of its
// percentiles the runs are too few to set apart from the slowest runs.
func (p *printer) percentiles(d *Document) {
	rows := summaryRows(d)
	head := "Runtime"
	if d.OpenLoop != nil {
		head = "Latency (open loop)"
	}
	tw := tabwriter.NewWriter(p.w, 0, 0, 2, ' ', tabwriter.AlignRight)
	width := utf8.RuneCountInString(head)
	for _, r := range rows {
		width = max(width, utf8.RuneCountInString(r.label))
	}
	pad := func(s string) string { return s + strings.Repeat(" ", width-utf8.RuneCountInString(s)) }
	line := func(cells []string) {
		if p.err == nil {
			_, p.err = io.WriteString(tw, strings.Join(cells, "\t")+"\t\n")
		}
	}
	cells := []string{pad(head), "runs"}
	for _, q := range summaryPercentiles {
		cells = append(cells, q.name)
	}
	line(append(cells, "max"))
	for _, r := range rows {
		cells := []string{pad(r.label), strconv.FormatInt(r.runs, 10)}
		for _, q := range summaryPercentiles {
			cells = append(cells, orDash(r.runs, q.get(r.pct)))
		}
		line(append(cells, orDash(r.runs, r.pct.Max)))
	}
	if p.err == nil {
		p.err = tw.Flush()
	}
	if len(rows) > 0 {
		if note := fewRuns(rows[0].runs); note != "" {
			p.wrapped("", note)
		}
	}
}

// orDash is a percentile's cell: the duration, "-" without a run.
func orDash(runs int64, v time.Duration) string {
	if runs == 0 {
		return "-"
	}
	return dur(v)
}

// fewRuns says which of the summary's percentiles of n runs are their
// maximum, the runs too few for them to differ from it, and which the
// second slowest run; "" when none is.
func fewRuns(n int64) string {
	if n < 1 {
		return ""
	}
	var maxed, needs, second []string
	for _, q := range summaryPercentiles {
		switch int(n) - latency.Rank(q.q, int(n)) + 1 {
		case 1:
			maxed = append(maxed, q.name)
			form := "a %s %d"
			if len(needs) == 0 {
				form = "a %s needs %d runs"
			}
			needs = append(needs, fmt.Sprintf(form, q.name, runsToDiffer(q.q)))
		case 2:
			second = append(second, q.name)
		}
	}
	var parts []string
	if len(maxed) > 0 {
		verb := "is"
		if len(maxed) > 1 {
			verb = "are"
		}
		parts = append(parts, fmt.Sprintf("%s of %d %s %s the max: too few runs to differ from it (%s)",
			joinAnd(maxed), n, figure.Plural(int(n), "run", "runs"), verb, strings.Join(needs, ", ")))
	}
	if len(second) > 0 {
		parts = append(parts, fmt.Sprintf("%s of %d runs: the second slowest run", joinAnd(second), n))
	}
	if len(parts) == 0 {
		return ""
	}
	return strings.Join(parts, "; ") + "."
}

// joinAnd joins names as a sentence lists them: "P99", "P99 and P99.9",
// "P90, P99 and P99.9".
func joinAnd(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// runsToDiffer is the fewest runs whose q-quantile is not their
// maximum.
func runsToDiffer(q float64) int {
	n := 1
	for latency.Rank(q, n) == n {
		n++
	}
	return n
}

// throughput prints the one throughput of the summary, the rate the runs
// were actually made at: open loop, the rate achieved against the rate
// asked, with how the schedule was kept; with several threads, the
// operations per second of wall time (the union of the runs' intervals);
// with one, per second of runtime (the mean without the -outliers).
func (p *printer) throughput(d *Document) {
	m := d.Mix
	if ol := d.OpenLoop; ol != nil {
		p.wrapped("", fmt.Sprintf("Throughput: %s/s achieved of %s/s asked; the latest start was %s behind schedule, %d started more than one interval (%s) late.",
			figure.Num(ol.Achieved), figure.Num(ol.Rate), dur(ol.MaxLateness), ol.LateStarts, dur(ol.Interval)))
		if ol.SkippedStarts > 0 {
			p.f("   %d due within the %s of -duration never started (the timed runs end at the duration).\n", ol.SkippedStarts, dur(d.Config.Duration))
		}
		if !ol.KeptUp {
			p.f("   Could not keep up: %s of the rate asked; the corrected latencies include the backlog.\n", figure.Percent(ol.Achieved/ol.Rate))
		}
		return
	}
	if m.Runtime.Count == 0 {
		return
	}
	if a := m.Actual; a != nil {
		p.f("Throughput: %s operations/s over the wall time the %d threads ran (%s).\n", figure.Num(a.OpsPerSecond), d.Config.Threads, dur(a.Runtime))
		return
	}
	p.f("Throughput: %s operations/s (at the mean runtime, %s).\n", figure.Num(m.OpsPerSecond), dur(m.Runtime.Mean))
}

// failures prints how many runs failed, by category, and the first
// failure of each.
func (p *printer) failures(d *Document) {
	e := d.Mix.Errors
	if e.Total == 0 {
		return
	}
	var by []string
	for _, c := range categories(d) {
		if n := e.ByCategory[c]; n > 0 {
			by = append(by, fmt.Sprintf("%s %d", c, n))
		}
	}
	p.wrapped("", fmt.Sprintf("Failed: %d of %d runs (%s), left out of every figure but the counts.", e.Total, d.Mix.Runs, strings.Join(by, ", ")))
	p.errors(d)
}

// gcLine prints what the collector did in a line: its cycles, its share
// of the CPU, its longest pause, the allocation rate and the peak RSS.
func (p *printer) gcLine(d *Document) {
	rss := "peak RSS " + env.Bytes(int64(d.Process.PeakRSSBytes))
	// Against a server, the server's collector has its own section:
	// this one is the load generator's.
	label := "GC"
	if d.Kind() == ServerDocument {
		label = "The load generator's GC"
	}
	g := d.GC
	if g == nil {
		p.f("%s: not measured (-gcstats off); %s.\n", label, rss)
		return
	}
	p.wrapped("", fmt.Sprintf("%s: %d %s, GC CPU %s, longest pause %s, allocated %s/s, %s.",
		label, g.Cycles, figure.Plural(int(g.Cycles), "cycle", "cycles"), figure.Percent(g.CPUFraction), dur(g.STWMax),
		env.Bytes(int64(g.AllocRate)), rss))
}

// gcperfLine prints GCPerfP99's own figures in a line or two: the
// throughput and the latency of the best 99% of the runs, how many of the
// worst were dropped and their range. Open loop, where the schedule sets
// the throughput, it prints nothing.
func (p *printer) gcperfLine(d *Document) {
	f := d.GCPerfP99
	if f.Kept == 0 || d.OpenLoop != nil {
		return
	}
	u := f.Unit
	line := fmt.Sprintf("GCPerfP99, best %d of %d runs: %s %s/s, latency %s/1000 %s",
		f.Kept, f.Runs, figure.Num(f.Throughput), u, dur(f.Latency), u)
	dropped := f.Runs - f.Kept
	switch {
	case len(f.Worst) == 0:
		line += "; no run dropped (fewer than 100 runs)."
	case dropped > len(f.Worst):
		line += fmt.Sprintf("; %d worst dropped, the slowest %d of them %s to %s.", dropped, len(f.Worst),
			dur(f.Worst[0].Time), dur(f.Worst[len(f.Worst)-1].Time))
	case dropped == 1:
		line += fmt.Sprintf("; the worst dropped: %s.", dur(f.Worst[0].Time))
	default:
		line += fmt.Sprintf("; %d worst dropped: %s to %s.", dropped, dur(f.Worst[0].Time), dur(f.Worst[len(f.Worst)-1].Time))
	}
	p.wrapped("", line)
}
