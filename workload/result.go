package workload

import (
	"cmp"
	"slices"
	"time"

	"github.com/gcperf/gcperf/latency"
	"github.com/gcperf/gcperf/runstats"
)

// An Execution is one timed execution of an operation.
type Execution struct {
	Start    time.Duration // since the timed runs began (monotonic clock)
	Runtime  time.Duration // from just before the call to its return
	Response time.Duration // until the operation's first response (Probe.Respond), else Runtime
	Results  int64         // counted with Probe.Results
	Run      int32         // 0-based index of its run (Result.Runs[Run])
	Op       uint16        // index of the operation in the mix
	Thread   uint16        // goroutine that ran it
	Category uint8         // 0 for success, else an index into Result.Categories
}

// Failed reports whether the execution failed.
func (x Execution) Failed() bool { return x.Category != 0 }

// A RunRecord is one timed run of the mix. Its runtime is the sum of its
// operations' runtimes, not the wall time of the loop, so the harness's own
// bookkeeping and the delays between operations are not in it.
type RunRecord struct {
	Run      int           // 1-based run number
	Thread   int           // goroutine that ran it
	Start    time.Duration // when its first operation started, since the timed runs began
	Runtime  time.Duration // sum of its operations' runtimes
	Response time.Duration // sum of its operations' response times
	Results  int64         // sum of its operations' results
	Errors   int           // operations that failed
	// GC is what the collector did from the end of the previous run on the
	// same goroutine (or the start of the timed runs) to the end of this
	// one, read outside the timed region (Config.GCStats "run" only); when
	// the run waited before its first operation (Config.MaxDelay, or the
	// open loop's schedule), from the end of that wait: a cycle that ended
	// while the goroutine waited is not the run's. With several threads it
	// includes what the collector did for all of them.
	GC runstats.GCDelta
	// Causes is what else happened over the same interval that can make a
	// run slow: a mark phase already running at its start, page faults,
	// context switches, slow scheduling (Config.GCStats "run" only). See
	// RunRecord.Has.
	Causes runstats.RunDelta
	done   bool
}

// OpResult holds what was measured for one position of the mix.
type OpResult struct {
	Name   string // the operation's name, with "#2"... for a repeated name
	Params string // its parameters (Describer), may be empty
	Unit   string // what its results count (Uniter), "results" by default

	Stats    latency.Stats
	Runtime  *latency.Recorder // every successful execution's runtime
	Response *latency.Recorder // every successful execution's response time

	// Corrected holds, open loop (Config.Rate > 0), every successful
	// execution's latency measured from its intended start instead of its
	// actual one: the time it waited behind a late schedule plus its
	// runtime. This is the coordinated-omission correction of wrk2, exact
	// rather than estimated: no value is synthesised (HdrHistogram's
	// RecordCorrectedValue is not applied on top, as that would count the
	// wait twice). Nil closed loop.
	Corrected            *latency.Recorder
	CorrectedPercentiles latency.Percentiles

	// FirstError holds, per error category, the message of the first
	// failure, so a report can say what went wrong and not only how often.
	FirstError map[string]string
}

// Result is everything a benchmark measured.
type Result struct {
	Config     Config // as run, with the seed used; Stop is cleared
	Operations []OpResult
	Mix        MixResult

	// Runs are the completed timed runs among the first Config.Kept(),
	// by run number, and Executions their executions, grouped by run:
	// every run and execution unless there were more runs than that.
	// Done counts every completed timed run, kept or not.
	Runs       []RunRecord
	Executions []Execution
	Done       int
	// Timeline summarises the runs past those in Runs, in at most
	// TimelineBuckets spans of equal width (of runs, or of time with
	// Config.Duration); nil when every run was kept.
	Timeline []Span
	// Worst are the slowest successful runs, slowest first, whole (with
	// their GC figures), kept or not: at most MaxWorst+1 of them.
	Worst []RunRecord

	// Categories names the failure categories seen; index 0 is success.
	Categories []string

	// P99 holds the GCPerfP99 figures over the mix runs that did not fail,
	// in units of Unit (what the runs' results count, or "runs" when the
	// operations count no results).
	P99  latency.P99Figures
	Unit string

	Timing  // when the timed runs happened, and how long they and the warmups took
	Harness // what the timed runs allocated, and what the harness kept while it measured

	// Hiccup is what the hiccup meter saw (Config.Hiccup), nil without one.
	Hiccup *Hiccup

	// OpenLoop says how well the schedule was kept (Config.Rate), nil
	// closed loop.
	OpenLoop *OpenLoop

	// GC is what the collector did during the timed runs (unless
	// Config.GCStats is "off"), and Tail how the slowest runs relate to it.
	GC   GCSummary
	Tail Tail

	// The process's counters just before and just after the timed runs
	// (procfs); zero when they could not be read.
	ProcessBefore, ProcessAfter runstats.Process
	// Machine is the machine's CPU time during the timed runs, all CPUs
	// summed (/proc/stat): its Steal is time a hypervisor gave this
	// guest's CPUs to others. Nil where the OS does not offer it.
	Machine *runstats.SystemCPU

	Interrupted bool   // stopped early (Config.Stop or a cancelled context)
	Halted      string // why a halt policy stopped the benchmark, if one did
}

// Timing is when the timed runs happened. Its tags name its figures in a
// report (package report embeds it).
type Timing struct {
	Started       time.Time     `json:"started" csv:"Started"`                  // wall clock when the timed runs began
	Ended         time.Time     `json:"ended" csv:"Ended"`                      // wall clock when they ended
	Elapsed       time.Duration `json:"elapsed_ns" csv:"Elapsed"`               // monotonic wall time of the timed runs
	WarmupElapsed time.Duration `json:"warmup_elapsed_ns" csv:"Warmup Elapsed"` // monotonic wall time of the warmups
}

// Harness is what the timed runs allocated on the heap, and what the
// harness kept on it while it measured. Its tags name its figures in a
// report (package report embeds it).
type Harness struct {
	// Heap allocations during the timed runs (runtime/metrics
	// /gc/heap/allocs:bytes and :objects), by the operations and the harness
	// together; with noop, this is what the harness itself allocates.
	HeapAllocBytes   uint64 `json:"timed_heap_alloc_bytes" csv:"Timed Heap Alloc Bytes"`
	HeapAllocObjects uint64 `json:"timed_heap_alloc_objects" csv:"Timed Heap Alloc Objects"`
	// HarnessHeap is what the harness keeps on the Go heap while it
	// measures (its histograms, accumulators and counters; its per-run
	// records are outside the heap): it does not grow with the number of
	// runs.
	HarnessHeap uint64 `json:"live_heap_bytes,omitzero" csv:"Harness Live Heap Bytes,omitzero"`
}

// MixResult holds the statistics of the whole mix, one value per run.
type MixResult struct {
	Stats    latency.Stats
	Runtime  *latency.Recorder // runtimes of the runs without failures
	Response *latency.Recorder
}

// Run returns the completed run numbered n (1-based), from Runs or Worst,
// or nil when it was not kept.
func (r *Result) Run(n int) *RunRecord {
	i, ok := slices.BinarySearchFunc(r.Runs, n, func(x RunRecord, n int) int { return cmp.Compare(x.Run, n) })
	if ok {
		return &r.Runs[i]
	}
	for i := range r.Worst {
		if r.Worst[i].Run == n {
			return &r.Worst[i]
		}
	}
	return nil
}

// Summarised reports whether there were more completed runs than Runs
// holds: the per-run records cover the first len(Runs) only.
func (r *Result) Summarised() bool { return r.Done > len(r.Runs) }

// Complete reports whether every requested timed run was completed.
func (r *Result) Complete() bool {
	return !r.Interrupted && r.Halted == "" && (r.Done == r.Config.Runs || r.Config.Duration > 0)
}

// GCSummary is what the collector did during the timed runs, from
// runtime/metrics read just before the first and just after the last.
//
// Its tags name each figure in a report (package report embeds it): the
// JSON key (durations in integer nanoseconds, keys ending in _ns) and the
// CSV column (times in seconds; omitzero leaves a figure not measured
// empty).
type GCSummary struct {
	runstats.GCDelta
	// Of the stop-the-world pauses, bucket upper bounds.
	PauseP50        time.Duration `json:"stw_p50_ns" csv:"STW P50"`
	PauseP90        time.Duration `json:"stw_p90_ns" csv:"STW P90"`
	PauseP99        time.Duration `json:"stw_p99_ns" csv:"STW P99"`
	PauseP999       time.Duration `json:"stw_p999_ns" csv:"STW P99.9"`
	CPUFraction     float64       `json:"cpu_fraction" csv:"GC CPU Fraction"`                 // GC CPU time / all CPU time of the process (runtime estimates)
	AllocRate       float64       `json:"alloc_bytes_per_sec" csv:"Alloc Bytes per Second"`   // bytes allocated per second of the timed runs
	AllocBytesPerOp float64       `json:"alloc_bytes_per_op" csv:"Alloc Bytes per Operation"` // bytes allocated per operation executed
	// Stopping is the part of STW spent stopping the world
	// (runstats.GCSampler.Stopping); the rest of STW the world was stopped.
	// Absent from older results.
	Stopping time.Duration `json:"stw_stopping_ns,omitzero" csv:"STW Stopping,omitzero"`
	// HeapObjects is the bytes of the heap's objects at the end, live and
	// dead (runstats.GCReading.HeapObjects): what is known of the heap when
	// HeapLive is 0 because no GC cycle has marked it. Absent from older
	// results.
	HeapObjects uint64 `json:"heap_objects_bytes,omitzero" csv:"Heap Objects Bytes,omitzero"`
}

// Tail relates the slowest runs to what can make a run slow. Zero unless
// Config.GCStats is "run".
//
// Of the Worst runs GCPerfP99 drops, WorstWithGC had the collector beside
// them as CauseGC counts it (a cycle ended, a stop-the-world pause fell in
// them, or a mark phase was in progress when they began), against
// RunsWithGC of all Runs. Causes holds the evidence on each Cause: what it
// adds to the P99 (P99) and to the slowest 1% (Top), estimated over every
// successful run with an interval, and Fisher's verdict over the slowest 1%
// of them (at least MinTailRuns); Scope says whose page faults and context
// switches were counted.
//
// Its tags name its figures in a report (package report embeds it).
type Tail struct {
	Worst       int            `json:"worst" csv:"Tail Worst Runs"`
	WorstWithGC int            `json:"worst_with_gc" csv:"Tail Worst Runs with GC"`
	Runs        int            `json:"runs" csv:"Tail Runs"`
	RunsWithGC  int            `json:"runs_with_gc" csv:"Tail Runs with GC"`
	Scope       runstats.Scope `json:"scope,omitzero" csv:"-"` // absent from older results, and where the OS counts nothing per run
	Causes      []CauseTail    `json:"causes,omitzero" csv:"-"`
	// The estimates' figures (CauseTail.Cost): the P99 of the successful
	// kept runs, the mean of their slowest 1% (TopRuns of them), the least
	// a cause must add to the P99 to count (TailShare of it), and how many
	// bootstrap resamples the intervals come from. Zero in older results
	// and with fewer than MinEstimateRuns runs.
	P99       time.Duration `json:"p99_ns,omitzero" csv:"Tail P99,omitzero"`
	Top       time.Duration `json:"top_mean_ns,omitzero" csv:"Tail Slowest 1% Mean,omitzero"`
	TopRuns   int           `json:"top_runs,omitzero" csv:"Tail Slowest 1% Runs,omitzero"`
	Least     time.Duration `json:"least_ns,omitzero" csv:"Tail Least Cost,omitzero"`
	Resamples int           `json:"resamples,omitzero" csv:"Tail Resamples,omitzero"`
}

// Hiccup is what a hiccup meter saw during the timed runs: how late a
// goroutine sleeping Interval at a time woke up, each time.
//
// Its tags name its figures in a report (package report embeds it).
type Hiccup struct {
	Interval            time.Duration     `json:"interval_ns" csv:"Interval"`
	Recorder            *latency.Recorder `json:"-" csv:"-"` // one value per wake-up: the lateness
	latency.Percentiles                   // of the lateness
}

// OpenLoop is how an open-loop benchmark (Config.Rate) kept its schedule.
// Its tags name its figures in a report (package report embeds it, and
// says the converse of Behind).
type OpenLoop struct {
	Rate     float64       `json:"rate"`          // operations per second asked for
	Interval time.Duration `json:"interval_ns"`   // between scheduled starts: 1/Rate
	Achieved float64       `json:"achieved_rate"` // operations started per second: n starts over the n-1 intervals from the first to the last
	// MaxLateness is the furthest behind its intended start an operation
	// started; LateStarts counts those that started more than one
	// Interval late.
	MaxLateness time.Duration `json:"max_lateness_ns"`
	LateStarts  int64         `json:"late_starts"`
	// SkippedStarts counts the operations due within Config.Duration that
	// never started: the timed runs end at Duration, however far behind
	// the schedule they are (wrk2 and vegeta count them likewise).
	SkippedStarts int64 `json:"skipped_starts"`
	// Behind is set when the achieved rate is below 95% of the rate asked:
	// the system could not keep up, and the corrected latencies include
	// the growing backlog.
	Behind bool `json:"-"`
}
