package runstats

import (
	"fmt"
	"math"
	"runtime/metrics"
	"time"
)

// Scope says whose page faults and context switches a RunSampler counts.
type Scope uint8

const (
	// ScopeNone: the OS offers no per-run counts (not Linux).
	ScopeNone Scope = iota
	// ScopeProcess: the whole process's threads (getrusage RUSAGE_SELF),
	// the collector's and every other goroutine's as well as the
	// benchmark's.
	ScopeProcess
	// ScopeThread: the calling OS thread only (getrusage RUSAGE_THREAD),
	// right when the goroutine that reads is locked to its thread.
	ScopeThread
)

func (s Scope) String() string {
	switch s {
	case ScopeProcess:
		return "process"
	case ScopeThread:
		return "thread"
	}
	return "none"
}

// MarshalText is the scope's name (String), as reports write it.
func (s Scope) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText reads a scope's name, as MarshalText writes it; an empty
// one is ScopeNone.
func (s *Scope) UnmarshalText(b []byte) error {
	switch string(b) {
	case "process":
		*s = ScopeProcess
	case "thread":
		*s = ScopeThread
	case "none", "":
		*s = ScopeNone
	default:
		return fmt.Errorf("runstats: unknown scope %q", b)
	}
	return nil
}

// A RunSampler reads, between two runs, every counter that can explain why
// a run was slow: the collector's (as a GCSampler does, in the same read),
// the scheduler's latency histogram, and the page faults and context
// switches of the process or of the calling thread (getrusage). Like a
// GCSampler it allocates when it is made and never when it reads. It is not
// safe for concurrent use; give each goroutine its own.
type RunSampler struct {
	gc     *GCSampler
	sched  []float64 // boundaries of the scheduler latency histogram
	scope  Scope
	rusage rusage
}

// RunReading is one reading of a RunSampler. Every count is cumulative.
type RunReading struct {
	GC    GCReading
	sched []uint64
	os    osCounts
}

// osCounts are getrusage's counts.
type osCounts struct {
	minflt, majflt, nvcsw, nivcsw uint64
}

// RunDelta is what happened between two readings besides what GCDelta
// holds.
type RunDelta struct {
	// MarkAtStart is set when a GC mark phase was in progress at the first
	// reading: the collector then runs beside the interval even if no
	// cycle starts or ends in it. (A cycle stops the world twice, once to
	// start marking and once to end it, so a mark phase is in progress
	// exactly when the process has seen one pause more than twice its
	// completed cycles. runtime/metrics says no more: were the runtime to
	// stop the world once more in a cycle, as a restarted mark termination
	// would, every later interval would read as marking.)
	MarkAtStart bool `json:"mark_at_start,omitempty"`

	MinorFaults         uint64 `json:"minor_faults"`
	MajorFaults         uint64 `json:"major_faults"`
	VoluntarySwitches   uint64 `json:"voluntary_switches"`
	InvoluntarySwitches uint64 `json:"involuntary_switches"`

	// SchedWaits counts the goroutines that waited at least SchedSlow,
	// runnable, before they ran (the scheduler's latency histogram, any
	// goroutine of the process); SchedMax is the longest wait, as the upper
	// bound of its bucket. The runtime times one in eight of each
	// goroutine's scheduling events, so these are a sample: a run can hold
	// a slow wait they do not show.
	SchedWaits uint64        `json:"sched_waits"`
	SchedMax   time.Duration `json:"sched_max_ns"`
}

// SchedSlow is the scheduling latency from which a wait counts in
// RunDelta.SchedWaits: a goroutine runnable for this long without a P or a
// thread to run on was delayed by the scheduler or the OS, not by its own
// work (an idle machine schedules in a few microseconds).
const SchedSlow = 100 * time.Microsecond

// NewRunSampler returns a sampler that counts page faults and context
// switches for the calling thread when thread is set (the caller must then
// be locked to its OS thread, runtime.LockOSThread, and read from it), for
// the whole process otherwise. Where the OS does not offer the per-thread
// counts it counts the process's, and where it offers none at all, none:
// Scope says which.
func NewRunSampler(thread bool) *RunSampler {
	gc := NewGCSampler()
	// One metrics.Read serves both: the scheduler's histogram follows the
	// collector's metrics Read reads.
	gc.reads = schedMetric + 1
	s := &RunSampler{gc: gc}
	if v := gc.samples[schedMetric].Value; v.Kind() == metrics.KindFloat64Histogram {
		s.sched = v.Float64Histogram().Buckets
	}
	s.scope, s.rusage = newRusage(thread)
	return s
}

// Scope says whose page faults and context switches the sampler counts.
func (s *RunSampler) Scope() Scope { return s.scope }

// NewReading returns a reading with room for the histograms. Allocate the
// readings before the measured phase; Read fills them in place.
func (s *RunSampler) NewReading() *RunReading {
	r := &RunReading{GC: *s.gc.NewReading()}
	if len(s.sched) > 1 {
		r.sched = make([]uint64, len(s.sched)-1)
	}
	return r
}

// Read fills r with the current counters. It does not allocate.
func (s *RunSampler) Read(r *RunReading) {
	s.gc.Read(&r.GC)
	if r.sched != nil {
		copy(r.sched, s.gc.samples[schedMetric].Value.Float64Histogram().Counts)
	}
	s.rusage.read(&r.os)
}

// Delta returns what happened between from and to: the collector's part,
// and the rest. It does not allocate.
func (s *RunSampler) Delta(from, to *RunReading) (GCDelta, RunDelta) {
	d := RunDelta{
		MarkAtStart:         from.GC.marking(),
		MinorFaults:         to.os.minflt - from.os.minflt,
		MajorFaults:         to.os.majflt - from.os.majflt,
		VoluntarySwitches:   to.os.nvcsw - from.os.nvcsw,
		InvoluntarySwitches: to.os.nivcsw - from.os.nivcsw,
	}
	for i := range to.sched {
		n := to.sched[i] - from.sched[i]
		if n == 0 {
			continue
		}
		lo, hi := s.sched[i], s.sched[i+1]
		if math.IsInf(hi, 1) {
			hi = lo
		}
		if hi > SchedSlow.Seconds() {
			// A bucket straddling SchedSlow counts whole: its waits may
			// have reached it.
			d.SchedWaits += n
		}
		d.SchedMax = time.Duration(hi * 1e9)
	}
	return s.gc.Delta(&from.GC, &to.GC), d
}

// marking reports whether a GC mark phase was in progress at the reading:
// one stop-the-world pause more than twice the completed cycles.
func (r *GCReading) marking() bool {
	var n uint64
	for _, c := range r.pauses {
		n += c
	}
	return n > 2*r.Cycles
}
