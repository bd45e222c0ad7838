package workload

import (
	"sync/atomic"
	"time"
)

// TimelineBuckets is how many summaries the timeline of the runs past the
// kept ones holds, however many runs there are.
const TimelineBuckets = 1000

// A Span summarises consecutive timed runs past the kept ones (Result.Runs):
// a Result's timeline, in run order (or, with Config.Duration, in time).
type Span struct {
	FirstRun int           `json:"first_run,omitzero"` // the first run number the span covers
	Start    time.Duration `json:"start_ns,omitzero"`  // the span's start, since the timed runs began (Duration only)
	Runs     int64         `json:"runs"`               // runs that ended in it
	Failed   int64         `json:"failed"`             // of which failed
	Mean     time.Duration `json:"mean_ns"`            // the mean runtime of its successful runs
	Max      time.Duration `json:"max_ns"`             // the slowest of them
	GCRuns   int64         `json:"gc_runs"`            // runs that had the collector beside them, as RunRecord.Has(CauseGC) (Config.GCStats "run")
}

// timeline summarises the runs past the kept ones into TimelineBuckets
// buckets of fixed width: of run numbers when their count is known, of
// time with Config.Duration. Workers add to it between runs with atomics,
// without a lock and without allocating.
type timeline struct {
	from   int   // the first run it covers (0-based)
	width  int64 // runs per bucket, or nanoseconds per bucket by time
	byTime bool
	b      []bucket
}

type bucket struct {
	runs, failed, sum, max, gc atomic.Int64
}

func (t *timeline) init(c Config, kept, ops int) {
	t.from = kept
	runs := c.timedRuns(ops)
	switch {
	case c.Duration > 0 && (c.Runs == 0 || c.Rate > 0):
		t.byTime = true
		t.width = max(int64(c.Duration)/TimelineBuckets, 1)
	case runs > kept:
		t.width = int64((runs - kept + TimelineBuckets - 1) / TimelineBuckets)
	default:
		return // every run is kept
	}
	t.b = make([]bucket, TimelineBuckets)
}

// add summarises run i (0-based), past the kept ones.
func (t *timeline) add(i int, rec *RunRecord) {
	if t.b == nil {
		return
	}
	k := int64(i-t.from) / t.width
	if t.byTime {
		k = int64(rec.Start) / t.width
	}
	if k < 0 {
		return
	}
	b := &t.b[min(k, TimelineBuckets-1)]
	b.runs.Add(1)
	if rec.Has(CauseGC) {
		b.gc.Add(1)
	}
	if rec.Errors > 0 {
		b.failed.Add(1)
		return
	}
	b.sum.Add(int64(rec.Runtime))
	for {
		m := b.max.Load()
		if int64(rec.Runtime) <= m || b.max.CompareAndSwap(m, int64(rec.Runtime)) {
			return
		}
	}
}

// spans returns the non-empty buckets.
func (t *timeline) spans() []Span {
	var out []Span
	for k := range t.b {
		b := &t.b[k]
		n := b.runs.Load()
		if n == 0 {
			continue
		}
		s := Span{FirstRun: t.from + int(int64(k)*t.width) + 1, Runs: n, Failed: b.failed.Load(),
			Max: time.Duration(b.max.Load()), GCRuns: b.gc.Load()}
		if t.byTime {
			s.FirstRun, s.Start = 0, time.Duration(int64(k)*t.width)
		}
		if ok := n - s.Failed; ok > 0 {
			s.Mean = time.Duration(b.sum.Load() / ok)
		}
		out = append(out, s)
	}
	return out
}
