package report

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/gcperf/gcperf/env"
	"github.com/gcperf/gcperf/internal/figure"
	"github.com/gcperf/gcperf/internal/quote"
	"golang.org/x/perf/benchunit"
)

// Exec is the section of a document for one run of a user's
// command (gcperf exec, a point of gcperf sweep -- CMD): how it ended, its
// time, CPU and memory, the collector settings it ran with and, for a Go
// program that printed its GODEBUG=gctrace=1 lines, the collector as it
// ran; for one that printed Go benchmark results, those. A document with
// this section has no operations, runs or latency distribution: its
// Operations, Mix, GCPerfP99, Runs, GC and Tail are empty, and its Env
// holds the machine (Host, Cgroup) but not the command's Go runtime or
// build, which gcperf cannot read (its settings are here). Times are in
// nanoseconds and sizes in bytes, or in MiB where the keys say so (the
// trace prints MiB, rounded down).
type Exec struct {
	// Command is the program and its arguments, as given.
	Command []string `json:"command"`
	// Log is the file that holds the program's output, when gcperf kept
	// it in one (a server under load).
	Log string `json:"log,omitempty"`
	// LogTruncated says why the file that holds the program's own stderr
	// (gcperf exec -log) does not hold all of it: a write failed (a full
	// disk) during this run, and the rest was dropped; "" when it is whole.
	LogTruncated string `json:"log_truncated,omitempty"`
	// Status says how the command ended, as a shell would: "exit status 3",
	// "killed by SIGKILL".
	Status   string `json:"status"`
	ExitCode int    `json:"exit_code"` // -1 when a signal ended it
	Signal   string `json:"signal,omitempty"`
	// Success: exit status 0, not stopped and not interrupted.
	Success     bool `json:"success"`
	Interrupted bool `json:"interrupted"`
	// Stopped says why gcperf stopped the command ("" when it did not).
	Stopped   string `json:"stopped,omitempty"`
	Killed    bool   `json:"killed"`
	Leftovers int    `json:"leftover_processes"`
	// Unkilled counts the processes of the command's tree still there
	// after SIGKILL (uninterruptible sleep), left running.
	Unkilled int `json:"unkilled_processes,omitzero"`

	Wall      time.Duration `json:"wall_ns"`
	UserCPU   time.Duration `json:"user_cpu_ns"`
	SystemCPU time.Duration `json:"system_cpu_ns"`
	// MaxRSSBytes is the kernel's ru_maxrss: the largest resident set of
	// one process (the command, or a descendant it waited for). It has a
	// floor, gcperf's own resident set, which Linux counts in it for the
	// time the child shared gcperf's memory before its exec.
	MaxRSSBytes int64 `json:"max_rss_bytes"`
	// PeakRSSBytes is the largest sampled sum of the process tree's
	// resident sets (0: no sample, a command shorter than the interval).
	PeakRSSBytes int64 `json:"peak_rss_bytes"`
	// OwnPeakRSSBytes is the command's own peak resident set since its
	// exec (the kernel's VmHWM) at the last sample: its peak between
	// samples too, without its descendants (0: no sample).
	OwnPeakRSSBytes int64   `json:"own_peak_rss_bytes"`
	RSS             ExecRSS `json:"rss"`

	// Settings are the child's GOGC, GOMEMLIMIT and GODEBUG ("": unset).
	Settings ExecSettings `json:"settings"`

	// TraceLines is the number of stderr lines taken as the runtime's
	// trace; UnreadTraceLines of them were not cycles gctrace's Scanner
	// could read ("GC forced", the scavenger, or garbled past mending; a
	// line the program wrote into, or one cut short at exit, is mended or
	// read as far as it goes).
	TraceLines       int `json:"trace_lines"`
	UnreadTraceLines int `json:"unread_trace_lines"`
	// GC is the collector as the trace showed it; nil when no cycle was
	// read, and GCUnavailable then says why.
	GC            *ExecGC `json:"gc"`
	GCUnavailable string  `json:"gc_unavailable,omitempty"`

	// Benchmarks are the Go benchmark results the command printed on its
	// stdout (go test -bench, or a program writing the format), read with
	// golang.org/x/perf/benchfmt; empty when it printed none.
	Benchmarks []ExecBenchmark `json:"benchmarks,omitempty"`
	// SkippedBenchmarkLines counts the lines of its stdout that looked
	// like benchmark results but benchfmt could not read.
	SkippedBenchmarkLines int `json:"skipped_benchmark_lines,omitzero"`
}

// ExecBenchmark is one benchmark the command printed, with every value
// each of its units took (one per result line: go test -count N prints N).
type ExecBenchmark struct {
	Pkg     string       `json:"pkg,omitempty"` // the "pkg:" line in force
	Name    string       `json:"name"`          // without "Benchmark", as benchstat shows it
	Metrics []ExecMetric `json:"metrics"`
}

// ExecMetric is one unit of a benchmark, in the unit benchstat shows
// (benchunit.Tidy: ns/op becomes sec/op), with its values and their median.
type ExecMetric struct {
	Unit   string    `json:"unit"`
	Values []float64 `json:"values"`
	// Dropped counts values past the most kept per metric.
	Dropped int     `json:"dropped,omitzero"`
	Median  float64 `json:"median"`
}

// Metric returns the benchmark's metric in unit, tidied as Unit is.
func (b *ExecBenchmark) Metric(unit string) (ExecMetric, bool) {
	for _, m := range b.Metrics {
		if m.Unit == unit {
			return m, true
		}
	}
	return ExecMetric{}, false
}

// CPU is the command's user and system CPU time.
func (e *Exec) CPU() time.Duration { return e.UserCPU + e.SystemCPU }

// PeakRSS is the figure of the command's memory that a sweep weighs: the
// larger of the sampled peak of its process tree and its own peak resident
// set (VmHWM); without a sample (a command shorter than the interval), the
// kernel's max RSS of one process, whose floor is gcperf's own size.
func (e *Exec) PeakRSS() int64 {
	if e.RSS.Samples == 0 {
		return e.MaxRSSBytes
	}
	return max(e.PeakRSSBytes, e.OwnPeakRSSBytes)
}

// ExecRSS is the process tree's resident set over time.
type ExecRSS struct {
	Interval time.Duration `json:"interval_ns"` // between two samples
	Samples  int           `json:"samples"`     // taken
	// Stride is the number of samples each point stands for (the largest
	// of them): the series is halved whenever it fills up.
	Stride int             `json:"stride"`
	Points []ExecRSSSample `json:"points"`
}

// ExecRSSSample is one point of the RSS series.
type ExecRSSSample struct {
	At        time.Duration `json:"at_ns"` // since the command started
	RSSBytes  int64         `json:"rss_bytes"`
	Processes int           `json:"processes"`
}

// ExecSettings are a child's collector settings, as its environment held
// them ("" when unset).
type ExecSettings struct {
	GOGC       string `json:"GOGC"`
	GOMEMLIMIT string `json:"GOMEMLIMIT"`
	GODEBUG    string `json:"GODEBUG"`
}

// ExecGC is the summary of a command's GODEBUG=gctrace=1 lines.
type ExecGC struct {
	Cycles    int `json:"cycles"`
	Forced    int `json:"forced"`
	Truncated int `json:"truncated"`
	// Sequences is the number of processes whose cycles the trace holds
	// (more than one for go run, go test, go vet).
	Sequences int        `json:"sequences"`
	Pauses    ExecPauses `json:"pauses"`
	// MarkWall is the wall time of the concurrent mark phases.
	MarkWall time.Duration `json:"mark_wall_ns"`
	// CPU is the collector's CPU time over the cycles, by the trace.
	CPU time.Duration `json:"gc_cpu_ns"`
	// CPUPercent is the last line's share of the CPU the collector used
	// since the program started (whole percent, rounded down).
	CPUPercent  int    `json:"gc_cpu_percent"`
	PeakHeapMiB uint64 `json:"peak_heap_mib"`
	PeakLiveMiB uint64 `json:"peak_live_mib"`
	// Goal is the heap goal over the run, at most 1000 points (as the RSS
	// series): each the largest goal of GoalStride consecutive cycles,
	// GoalCycles of them in all. A GoalStride of 0 or 1 is a point per
	// cycle (GoalCycles is then 0: the points are the cycles).
	Goal       []ExecGoalPoint `json:"heap_goal"`
	GoalStride int             `json:"heap_goal_stride,omitzero"`
	GoalCycles int             `json:"heap_goal_cycles,omitzero"`
	// ImpliedGOGC is the GOGC the heap goals imply (the median of the
	// goal over the previous cycle's live heap, of ImpliedGOGCCycles
	// cycles, gctrace.Summary's), and ImpliedGOGCLow and ImpliedGOGCHigh
	// the bounds the trace's rounding leaves, between which lies what the
	// runtime applied when GOMEMLIMIT did not lower the goal. Absent when
	// no cycle tells it.
	ImpliedGOGC       int `json:"implied_gogc,omitzero"`
	ImpliedGOGCLow    int `json:"implied_gogc_low,omitzero"`
	ImpliedGOGCHigh   int `json:"implied_gogc_high,omitzero"`
	ImpliedGOGCCycles int `json:"implied_gogc_cycles,omitzero"`
}

// ExecPauses is the distribution of the stop-the-world pauses (two per
// cycle), nearest-rank quantiles.
type ExecPauses struct {
	Count int           `json:"count"`
	Total time.Duration `json:"total_ns"`
	P50   time.Duration `json:"p50_ns"`
	P90   time.Duration `json:"p90_ns"`
	P99   time.Duration `json:"p99_ns"`
	Max   time.Duration `json:"max_ns"`
}

// ExecGoalPoint is one cycle's heap goal and when the cycle began, since
// the program started.
type ExecGoalPoint struct {
	At      time.Duration `json:"at_ns"`
	GoalMiB uint64        `json:"goal_mib"`
}

// GOGCNotApplied says how the GOGC that the command's heap goals imply
// (ImpliedGOGC) differs from the GOGC of its environment, "" when it does
// not, no GOGC was set, or the trace cannot tell: a program that sets its
// own (debug.SetGCPercent) ran with another GOGC than it was given. The
// GOGC given differs when it is outside the bounds the trace's rounding
// leaves (ImpliedGOGCLow to ImpliedGOGCHigh), by a margin of a tenth and
// 2 points; a GOMEMLIMIT may lower the goal, so with one set only a GOGC
// below the bounds tells.
func (e *Exec) GOGCNotApplied() string {
	want, err := strconv.Atoi(e.Settings.GOGC)
	if err != nil || want < 0 || e.GC == nil || e.GC.ImpliedGOGCCycles < 3 {
		return ""
	}
	g := e.GC
	limited := e.Settings.GOMEMLIMIT != "" && e.Settings.GOMEMLIMIT != "off"
	below := float64(want) < 0.9*float64(g.ImpliedGOGCLow)-2
	above := float64(want) > 1.1*float64(g.ImpliedGOGCHigh)+2 && !limited
	if !below && !above {
		return ""
	}
	return fmt.Sprintf("asked GOGC=%d but the command's heap goals say its runtime applied GOGC≈%d (%d to %d, the goal over the live heap of %d cycles): does it set its own (debug.SetGCPercent)?",
		want, g.ImpliedGOGC, g.ImpliedGOGCLow, g.ImpliedGOGCHigh, g.ImpliedGOGCCycles)
}

// WriteExecText writes the text report of a command's run (gcperf exec):
// d's Exec section. It is Text's report of such a document.
func WriteExecText(w io.Writer, doc *Document) error {
	if doc.Kind() != CommandDocument {
		return errors.New("report: not the result of a command")
	}
	return writeExec(w, doc.Exec, "Command")
}

// writeExec writes a command's run, its first line headed head ("Command",
// "Server").
func writeExec(w io.Writer, d *Exec, head string) error {
	ns := dur
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s\n", head, quote.Line(quote.Shell(d.Command)))
	fmt.Fprintf(&b, "Status: %s\n", execStatus(d))
	if d.Log != "" {
		fmt.Fprintf(&b, "Output: %s\n", quote.Line(d.Log))
	}
	if d.LogTruncated != "" {
		fmt.Fprintf(&b, "Log truncated: %s\n", quote.Line(d.LogTruncated))
	}
	fmt.Fprintf(&b, "Time: wall %s, user CPU %s, system CPU %s\n", ns(d.Wall), ns(d.UserCPU), ns(d.SystemCPU))
	peak := "not sampled (ended within the first interval)"
	if d.RSS.Samples > 0 {
		peak = fmt.Sprintf("%s (%d %s, every %s); the command's own peak (VmHWM) %s", env.Bytes(d.PeakRSSBytes), d.RSS.Samples,
			figure.Plural(d.RSS.Samples, "sample", "samples"), ns(d.RSS.Interval), env.Bytes(d.OwnPeakRSSBytes))
	}
	fmt.Fprintf(&b, "Memory: peak RSS of the process tree %s; max RSS of one process (kernel, at least gcperf's own size) %s\n", peak, env.Bytes(d.MaxRSSBytes))
	unset := func(s string) string {
		if s == "" {
			return "unset"
		}
		return s
	}
	fmt.Fprintf(&b, "Settings: GOGC %s, GOMEMLIMIT %s, GODEBUG %s\n", unset(d.Settings.GOGC), unset(d.Settings.GOMEMLIMIT), unset(d.Settings.GODEBUG))
	if why := d.GOGCNotApplied(); why != "" {
		fmt.Fprintf(&b, "   Not applied: %s\n", why)
	}
	if g := d.GC; g != nil {
		writeExecGC(&b, g)
	} else {
		fmt.Fprintf(&b, "GC figures unavailable: %s\n", d.GCUnavailable)
	}
	writeExecBenchmarks(&b, d.Benchmarks)
	if d.SkippedBenchmarkLines > 0 {
		fmt.Fprintf(&b, "   %d benchmark %s of the command's stdout could not be read\n", d.SkippedBenchmarkLines, figure.Plural(d.SkippedBenchmarkLines, "line", "lines"))
	}
	if d.UnreadTraceLines > 0 {
		fmt.Fprintf(&b, "   %d of %d trace lines were not cycles gcperf could read (GC forced, scavenger, or cut by the program's own output)\n", d.UnreadTraceLines, d.TraceLines)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// execStatus says how the command ended and what stopping it took.
func execStatus(d *Exec) string {
	status := d.Status
	if d.Interrupted {
		status += " (interrupted)"
	}
	if d.Stopped != "" {
		status += ", stopped: " + d.Stopped
	}
	if d.Killed {
		status += ", SIGKILL needed"
	}
	if d.Leftovers > 0 {
		status += fmt.Sprintf(", %d %s left running %s stopped", d.Leftovers, figure.Plural(d.Leftovers, "process", "processes"), figure.Plural(d.Leftovers, "was", "were"))
	}
	if d.Unkilled > 0 {
		status += fmt.Sprintf(", %d %s survived SIGKILL and %s still running", d.Unkilled, figure.Plural(d.Unkilled, "process", "processes"), figure.Plural(d.Unkilled, "is", "are"))
	}
	return status
}

// writeExecGC writes the collector as the command's trace showed it.
func writeExecGC(b *strings.Builder, g *ExecGC) {
	ns := dur
	fmt.Fprintf(b, "GC: %d %s (%d forced", g.Cycles, figure.Plural(g.Cycles, "cycle", "cycles"), g.Forced)
	if g.Truncated > 0 {
		fmt.Fprintf(b, ", %d cut short", g.Truncated)
	}
	b.WriteString(")")
	if g.Sequences > 1 {
		fmt.Fprintf(b, " from %d processes", g.Sequences)
	}
	fmt.Fprintf(b, "; GC CPU %d%% (the trace's, rounded down), %s\n", g.CPUPercent, ns(g.CPU))
	p := g.Pauses
	fmt.Fprintf(b, "   %d stop-the-world pauses totalling %s: P50 %s, P90 %s, P99 %s, max %s\n",
		p.Count, ns(p.Total), ns(p.P50), ns(p.P90), ns(p.P99), ns(p.Max))
	fmt.Fprintf(b, "   Heap (MiB, rounded down): peak %d, peak live %d", g.PeakHeapMiB, g.PeakLiveMiB)
	if n := len(g.Goal); n > 0 {
		fmt.Fprintf(b, "; goal %d → %d over %d cycles", g.Goal[0].GoalMiB, g.Goal[n-1].GoalMiB, max(n, g.GoalCycles))
	}
	b.WriteString("\n")
}

// writeExecBenchmarks writes the benchmarks the command printed, the
// median of each metric.
func writeExecBenchmarks(b *strings.Builder, benchmarks []ExecBenchmark) {
	if len(benchmarks) == 0 {
		return
	}
	b.WriteString("Benchmarks printed by the command (median of each metric's values, as benchstat shows them):\n")
	for _, x := range benchmarks {
		name := x.Name
		if x.Pkg != "" {
			name = x.Pkg + " " + name
		}
		var ms []string
		n := 0
		for _, m := range x.Metrics {
			ms = append(ms, benchunit.Scale(m.Median, benchunit.ClassOf(m.Unit))+" "+m.Unit)
			n = max(n, len(m.Values)+m.Dropped)
		}
		fmt.Fprintf(b, "   %s: %s (%d %s)\n", quote.Line(name), quote.Line(strings.Join(ms, ", ")), n, figure.Plural(n, "result", "results"))
	}
}
