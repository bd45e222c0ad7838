package report

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/gcperf/gcperf/env"
	"github.com/gcperf/gcperf/internal/figure"
	"github.com/gcperf/gcperf/internal/quote"
)

// ExecSchema names the JSON document of one run of a user's command (gcperf
// exec). It is a schema of its own, not gcperf/v1's: a command has no
// operations, runs or latency distribution.
const ExecSchema = "gcperf-exec/v1"

// An ExecDocument is what gcperf exec measured of one run of a command: how
// it ended, its time, CPU and memory, the collector settings it ran with
// and, for a Go program that printed its GODEBUG=gctrace=1 lines, the
// collector as it ran. Times are in nanoseconds and sizes in bytes, or in
// MiB where the keys say so (the trace prints MiB, rounded down).
type ExecDocument struct {
	Schema  string `json:"schema"`
	Version string `json:"gcperf_version"`
	// Command is the program and its arguments, as given.
	Command []string `json:"command"`
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

	WallNS      int64 `json:"wall_ns"`
	UserCPUNS   int64 `json:"user_cpu_ns"`
	SystemCPUNS int64 `json:"system_cpu_ns"`
	// MaxRSSBytes is the kernel's ru_maxrss: the largest resident set of
	// one process (the command, or a descendant it waited for).
	MaxRSSBytes int64 `json:"max_rss_bytes"`
	// PeakRSSBytes is the largest sampled sum of the process tree's
	// resident sets (0: no sample, a command shorter than the interval).
	PeakRSSBytes int64   `json:"peak_rss_bytes"`
	RSS          ExecRSS `json:"rss"`

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
}

// ExecRSS is the process tree's resident set over time.
type ExecRSS struct {
	IntervalNS int64 `json:"interval_ns"` // between two samples
	Samples    int   `json:"samples"`     // taken
	// Stride is the number of samples each point stands for (the largest
	// of them): the series is halved whenever it fills up.
	Stride int             `json:"stride"`
	Points []ExecRSSSample `json:"points"`
}

// ExecRSSSample is one point of the RSS series.
type ExecRSSSample struct {
	AtNS      int64 `json:"at_ns"` // since the command started
	RSSBytes  int64 `json:"rss_bytes"`
	Processes int   `json:"processes"`
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
	// MarkWallNS is the wall time of the concurrent mark phases.
	MarkWallNS int64 `json:"mark_wall_ns"`
	// CPUNS is the collector's CPU time over the cycles, by the trace.
	CPUNS int64 `json:"gc_cpu_ns"`
	// CPUPercent is the last line's share of the CPU the collector used
	// since the program started (whole percent, rounded down).
	CPUPercent  int             `json:"gc_cpu_percent"`
	PeakHeapMiB uint64          `json:"peak_heap_mib"`
	PeakLiveMiB uint64          `json:"peak_live_mib"`
	Goal        []ExecGoalPoint `json:"heap_goal"`
}

// ExecPauses is the distribution of the stop-the-world pauses (two per
// cycle), nearest-rank quantiles.
type ExecPauses struct {
	Count   int   `json:"count"`
	TotalNS int64 `json:"total_ns"`
	P50NS   int64 `json:"p50_ns"`
	P90NS   int64 `json:"p90_ns"`
	P99NS   int64 `json:"p99_ns"`
	MaxNS   int64 `json:"max_ns"`
}

// ExecGoalPoint is one cycle's heap goal and when the cycle began, since
// the program started.
type ExecGoalPoint struct {
	AtNS    int64  `json:"at_ns"`
	GoalMiB uint64 `json:"goal_mib"`
}

// WriteExecJSON writes d as indented JSON, with its schema set.
func WriteExecJSON(w io.Writer, d *ExecDocument) error {
	c := *d
	c.Schema = ExecSchema
	if c.RSS.Points == nil {
		c.RSS.Points = []ExecRSSSample{}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(&c)
}

// WriteExecText writes d as the text report of gcperf exec.
func WriteExecText(w io.Writer, d *ExecDocument) error {
	ns := func(n int64) string { return dur(time.Duration(n)) }
	var b strings.Builder
	fmt.Fprintf(&b, "Command: %s\n", quote.Line(shellJoin(d.Command)))
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
	fmt.Fprintf(&b, "Status: %s\n", status)
	fmt.Fprintf(&b, "Time: wall %s, user CPU %s, system CPU %s\n", ns(d.WallNS), ns(d.UserCPUNS), ns(d.SystemCPUNS))
	peak := "not sampled (ended within the first interval)"
	if d.RSS.Samples > 0 {
		peak = fmt.Sprintf("%s (%d %s, every %s)", env.Bytes(d.PeakRSSBytes), d.RSS.Samples, figure.Plural(d.RSS.Samples, "sample", "samples"), ns(d.RSS.IntervalNS))
	}
	fmt.Fprintf(&b, "Memory: peak RSS of the process tree %s; max RSS of one process (kernel) %s\n", peak, env.Bytes(d.MaxRSSBytes))
	unset := func(s string) string {
		if s == "" {
			return "unset"
		}
		return s
	}
	fmt.Fprintf(&b, "Settings: GOGC %s, GOMEMLIMIT %s, GODEBUG %s\n", unset(d.Settings.GOGC), unset(d.Settings.GOMEMLIMIT), unset(d.Settings.GODEBUG))
	if g := d.GC; g != nil {
		fmt.Fprintf(&b, "GC: %d %s (%d forced", g.Cycles, figure.Plural(g.Cycles, "cycle", "cycles"), g.Forced)
		if g.Truncated > 0 {
			fmt.Fprintf(&b, ", %d cut short", g.Truncated)
		}
		b.WriteString(")")
		if g.Sequences > 1 {
			fmt.Fprintf(&b, " from %d processes", g.Sequences)
		}
		fmt.Fprintf(&b, "; GC CPU %d%% (the trace's, rounded down), %s\n", g.CPUPercent, ns(g.CPUNS))
		p := g.Pauses
		fmt.Fprintf(&b, "   %d stop-the-world pauses totalling %s: P50 %s, P90 %s, P99 %s, max %s\n",
			p.Count, ns(p.TotalNS), ns(p.P50NS), ns(p.P90NS), ns(p.P99NS), ns(p.MaxNS))
		fmt.Fprintf(&b, "   Heap (MiB, rounded down): peak %d, peak live %d", g.PeakHeapMiB, g.PeakLiveMiB)
		if n := len(g.Goal); n > 0 {
			fmt.Fprintf(&b, "; goal %d → %d over %d cycles", g.Goal[0].GoalMiB, g.Goal[n-1].GoalMiB, n)
		}
		b.WriteString("\n")
	} else {
		fmt.Fprintf(&b, "GC figures unavailable: %s\n", d.GCUnavailable)
	}
	if d.UnreadTraceLines > 0 {
		fmt.Fprintf(&b, "   %d of %d trace lines were not cycles gcperf could read (GC forced, scavenger, or cut by the program's own output)\n", d.UnreadTraceLines, d.TraceLines)
	}
	_, err := io.WriteString(w, b.String())
	return err
}
