package workload

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"time"

	"github.com/gcperf/gcperf/internal/quote"
)

// HaltPolicy says which failures stop a benchmark. The zero value never
// halts: failures are counted by category and the benchmark goes on.
type HaltPolicy uint8

const (
	HaltOnError   HaltPolicy = 1 << iota // an operation returned an error (of any category but timeout and interrupt) or panicked
	HaltOnTimeout                        // an operation exceeded Config.Timeout
	HaltAny                  = HaltOnError | HaltOnTimeout | haltOther
	haltOther     HaltPolicy = 1 << 7 // an interrupt
)

// Config controls a benchmark run. DefaultConfig gives the methodology's
// defaults; the zero value is not valid. Its tags name its settings in a
// report (package report embeds it); the controls (Stop) and the settings
// a report shows elsewhere (Pin, Hiccup, KeepRuns) are not in it.
type Config struct {
	Warmups  int `json:"warmups" csv:"Warmups"`          // runs of the mix before the timed runs, not recorded
	Runs     int `json:"runs" csv:"Runs"`                // timed runs of the mix (with Duration: at most; 0 for no limit)
	Outliers int `json:"outliers" csv:"Outliers"`        // best and worst runs discarded before the mean-based statistics
	Threads  int `json:"threads" csv:"Parallel Threads"` // goroutines running whole mixes from one shared pool of runs

	// Order. By default every operation runs once per run, in a random order
	// drawn from Seed. Random=false runs them in mix order. Sample > 0 runs
	// Sample operations per run instead of all of them, drawn with
	// repetition when Repeats is set (in order, it walks the mix cyclically).
	Random  bool  `json:"random" csv:"Random Operation Order"`
	Sample  int   `json:"sample,omitempty" csv:"Operations Sampled per Run,zero=all"`
	Repeats bool  `json:"repeats,omitempty" csv:"Sample with Repeats"`
	Seed    int64 `json:"seed" csv:"Seed"` // seeds every random choice: the same seed gives the same orders and delays

	// GCStats says how closely the collector is followed: per run (the
	// default), for the timed runs as a whole, or not at all. Per run, the
	// engine reads between runs everything that can explain a slow run
	// (RunRecord.GC and RunRecord.Causes): one runtime/metrics read and
	// one getrusage, about 2µs, and relates them to the slowest runs
	// (Result.Tail).
	GCStats GCStats `json:"-" csv:"-"` // a report names it (report.Config)

	// Pin locks each goroutine running the mix to its own OS thread
	// (runtime.LockOSThread) for the whole benchmark, so that the page
	// faults and context switches of each run are read for its thread
	// alone (getrusage RUSAGE_THREAD) instead of for the whole process.
	Pin bool `json:"-" csv:"-"`

	// Hiccup, when positive, runs a hiccup meter during the timed runs: a
	// goroutine that sleeps for Hiccup and records how late it wakes, what
	// any goroutine of the process would have suffered (jHiccup's idea).
	// It wakes 1/Hiccup times a second, for about a microsecond each; 0 is
	// none, and the shortest interval is 100µs.
	Hiccup time.Duration `json:"-" csv:"-"`

	// Rate, when positive, runs the timed runs open loop: operation number
	// s (run i, position j: s = i*OpsPerRun + j) is scheduled to start at
	// s/Rate seconds after the timed runs begin, whichever goroutine claims
	// its run, and latency is measured from that intended start as well as
	// from the actual one (see OpResult.Corrected). 0 runs them closed loop,
	// each operation starting as soon as the previous one ends. Warmups
	// always run closed loop.
	Rate float64 `json:"rate,omitempty" csv:"-"` // operations per second across all threads; absent closed loop

	// Duration, when positive, bounds the timed runs by time: they go on
	// until Duration has passed since they began (a run in progress then
	// finishes), or until Runs when that is not 0; at least one timed run
	// is made, however short Duration. Open loop (Rate), the schedule is
	// Duration long: the runs whose first operation is scheduled within
	// it; runs that fall behind it still end at Duration, the starts due
	// and not made counted (OpenLoop.SkippedStarts). WarmupDuration bounds
	// the warmups likewise (Warmups then at most, 0 for no limit).
	Duration       time.Duration `json:"duration_ns,omitzero" csv:"-"`
	WarmupDuration time.Duration `json:"warmup_duration_ns,omitzero" csv:"-"`

	// KeepRuns is how many timed runs keep their records (RunRecord and
	// Executions: Result.Runs, the per-run JSON and CSV, the timeline):
	// the first KeepRuns runs; 0 is DefaultKeepRuns. Beyond it nothing
	// grows with the number of runs: the statistics come from bounded
	// state (latency.Accumulator, the histograms), the slowest runs are
	// kept whole (Result.Worst), and the records are held outside the Go
	// heap, so that they do not change the collector's pacing.
	KeepRuns int `json:"-" csv:"-"`

	MaxDelay time.Duration `json:"delay_ns" csv:"Max Delay between Operations"` // a random delay of 0..MaxDelay between operations, never timed
	Timeout  time.Duration `json:"timeout_ns" csv:"Timeout,zero=disabled"`      // per operation; 0 means none
	Halt     HaltPolicy    `json:"-" csv:"-"`                                   // a report names it (report.Config)

	// Stop, when closed, ends the benchmark after the runs in progress: what
	// was measured is kept and the Result is marked Interrupted. Cancelling
	// the context passed to Run also cancels the operations in progress.
	Stop <-chan struct{} `json:"-" csv:"-"`
}

// GCStats is how closely a benchmark follows the collector.
type GCStats uint8

const (
	GCStatsRun   GCStats = iota // GC activity per run and for the whole benchmark
	GCStatsTotal                // for the whole benchmark only
	GCStatsOff                  // not at all
)

func (g GCStats) String() string {
	switch g {
	case GCStatsRun:
		return "run"
	case GCStatsTotal:
		return "total"
	case GCStatsOff:
		return "off"
	}
	return "GCStats(" + strconv.Itoa(int(g)) + ")"
}

// ParseGCStats reads "run", "total" or "off".
func ParseGCStats(s string) (GCStats, error) {
	for g := GCStatsRun; g <= GCStatsOff; g++ {
		if g.String() == s {
			return g, nil
		}
	}
	return 0, badConfig("gcstats", "must be run, total or off, got %q", s)
}

// DefaultKeepRuns is how many runs keep their records unless
// Config.KeepRuns says otherwise: about 22 MB of records for a mix of one
// operation, outside the Go heap.
const DefaultKeepRuns = 100_000

// Kept is how many of the timed runs keep their records.
func (c Config) Kept() int {
	keep := DefaultKeepRuns
	if c.KeepRuns > 0 {
		keep = c.KeepRuns
	}
	if c.Runs == 0 { // as many as Duration allows
		return keep
	}
	return min(c.Runs, keep)
}

// timedRuns is the most timed runs there can be: Runs, or with a Duration
// and no Runs, as many as the schedule holds open loop and no limit
// closed loop.
func (c Config) timedRuns(ops int) int {
	n := c.Runs
	if c.Duration > 0 && c.Rate > 0 {
		// Run i starts its first operation at i*ops/Rate seconds.
		sched := int(min(math.Ceil(c.Duration.Seconds()*c.Rate/float64(ops)), math.MaxInt32))
		if n == 0 || sched < n {
			n = sched
		}
	}
	if n == 0 {
		return math.MaxInt
	}
	return n
}

// DefaultConfig returns the defaults of the benchmark methodology: 5
// warmups, 25 runs, 1 outlier discarded at each end, one thread, random order.
func DefaultConfig() Config {
	return Config{Warmups: 5, Runs: 25, Outliers: 1, Threads: 1, Random: true}
}

// ErrConfig is wrapped by every error from Config.Validate.
var ErrConfig = errors.New("invalid configuration")

// A ConfigError names the setting that is wrong and says why. Field is the
// setting's name as the command line spells it ("runs", "outliers").
type ConfigError struct {
	Field string
	Msg   string
}

func (e *ConfigError) Error() string { return e.Field + " " + e.Msg }
func (e *ConfigError) Unwrap() error { return ErrConfig }

func badConfig(field, format string, args ...any) error {
	return &ConfigError{Field: field, Msg: fmt.Sprintf(format, clipArgs(args)...)}
}

// OpsPerRun is the number of operations one run executes for a mix of n.
func (c Config) OpsPerRun(n int) int {
	if c.Sample > 0 {
		return c.Sample
	}
	return n
}

// Validate reports the first setting that cannot be run with a mix of
// mixLen operations.
func (c Config) Validate(mixLen int) error {
	switch {
	case mixLen < 1:
		return badConfig("mix", "must hold at least one operation")
	case mixLen > maxOps:
		return badConfig("mix", "holds %d operations, at most %d are supported", mixLen, maxOps)
	case c.Duration < 0:
		return badConfig("duration", "must not be negative, got %v", c.Duration)
	case c.WarmupDuration < 0:
		return badConfig("warmup-duration", "must not be negative, got %v", c.WarmupDuration)
	case c.Runs < 0 || c.Runs == 0 && c.Duration == 0:
		return badConfig("runs", "must be at least 1, got %d", c.Runs)
	case c.Warmups < 0:
		return badConfig("warmup", "must be at least 0, got %d", c.Warmups)
	case c.Outliers < 0:
		return badConfig("outliers", "must be at least 0, got %d", c.Outliers)
	case c.Outliers > 0 && c.Runs > 0 && 2*c.Outliers >= c.Runs:
		return badConfig("outliers", "discards the best and worst %d of %d runs, leaving none: 2*outliers must be below runs", c.Outliers, c.Runs)
	case c.KeepRuns < 0:
		return badConfig("keep-runs", "must be at least 0, got %d", c.KeepRuns)
	case c.Threads < 1:
		return badConfig("threads", "must be at least 1, got %d", c.Threads)
	case c.Threads > maxThreads:
		return badConfig("threads", "must be at most %d, got %d", maxThreads, c.Threads)
	case c.Sample < 0:
		return badConfig("sample", "must be at least 0, got %d", c.Sample)
	case c.Sample > 0 && !c.Repeats && c.Sample > mixLen:
		return badConfig("sample", "draws %d operations per run without repeats from a mix of %d", c.Sample, mixLen)
	case c.MaxDelay < 0:
		return badConfig("delay", "must not be negative, got %v", c.MaxDelay)
	case c.Rate < 0 || math.IsNaN(c.Rate) || math.IsInf(c.Rate, 0):
		return badConfig("rate", "must be a finite number of operations per second, at least 0, got %v", c.Rate)
	case c.Rate > 0 && c.MaxDelay > 0:
		return badConfig("rate", "cannot be combined with a delay (-delay): the schedule sets the pace")
	case c.Timeout < 0:
		return badConfig("timeout", "must not be negative, got %v", c.Timeout)
	case c.Hiccup < 0 || (c.Hiccup > 0 && c.Hiccup < minHiccup):
		return badConfig("hiccup", "must be 0 (none) or at least %v, got %v", minHiccup, c.Hiccup)
	case c.GCStats > GCStatsOff:
		return badConfig("gcstats", "must be run, total or off, got %v", c.GCStats)
	}
	if n := int64(c.Runs) * int64(c.OpsPerRun(mixLen)); n > maxExecutions {
		return badConfig("runs", "asks for %d operations (runs × operations per run), at most %d are supported", n, int64(maxExecutions))
	} else if c.Rate > 0 && float64(n)/c.Rate > maxSchedule.Seconds() {
		return badConfig("rate", "of %v/s spreads %d operations over more than %v", c.Rate, n, maxSchedule)
	}
	return nil
}

// MaxOps is the most operations a mix may hold.
const MaxOps = maxOps

const (
	maxOps        = 1 << 15
	maxThreads    = 1<<16 - 1 // Execution.Thread is a uint16
	maxExecutions = 1 << 31
	maxSchedule   = 100 * 365 * 24 * time.Hour // the open-loop schedule fits a time.Duration
)

// clipArgs clips the strings among an error's arguments, the values it
// quotes, to about 80 bytes (quote.Clip).
func clipArgs(args []any) []any {
	for i, a := range args {
		if s, ok := a.(string); ok {
			args[i] = quote.Clip(s)
		}
	}
	return args
}
