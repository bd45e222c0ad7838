package runstats

import (
	"math"
	"runtime/metrics"
	"time"
)

// The runtime/metrics a GCSampler reads, in this order.
var gcMetrics = [...]string{
	"/gc/cycles/total:gc-cycles",
	"/gc/heap/allocs:bytes",
	"/gc/heap/allocs:objects",
	"/gc/heap/live:bytes",
	"/gc/heap/goal:bytes",
	"/cpu/classes/gc/mark/assist:cpu-seconds",
	"/cpu/classes/gc/mark/dedicated:cpu-seconds",
	"/cpu/classes/gc/mark/idle:cpu-seconds",
	"/cpu/classes/gc/pause:cpu-seconds",
	"/cpu/classes/gc/total:cpu-seconds",
	"/cpu/classes/total:cpu-seconds",
	"/sched/pauses/total/gc:seconds",
}

const pauseMetric = len(gcMetrics) - 1

// A GCSampler reads the collector's counters from runtime/metrics. It owns
// its sample slice and reuses it: after the first Read, reading allocates
// nothing. A GCSampler is not safe for concurrent use; give each goroutine
// its own.
type GCSampler struct {
	samples []metrics.Sample
	buckets []float64 // boundaries of the pause histogram, fixed for the process
}

// GCReading is one reading of the counters. Every field is cumulative since
// the process started, except HeapLive and HeapGoal, which are levels.
type GCReading struct {
	Cycles       uint64
	AllocBytes   uint64
	AllocObjects uint64
	HeapLive     uint64
	HeapGoal     uint64
	AssistCPU    float64 // seconds
	DedicatedCPU float64
	IdleCPU      float64
	PauseCPU     float64
	GCCPU        float64
	TotalCPU     float64
	pauses       []uint64 // per bucket of /sched/pauses/total/gc:seconds
}

// NewGCSampler returns a sampler, having read once so that later reads do
// not allocate.
func NewGCSampler() *GCSampler {
	s := &GCSampler{samples: make([]metrics.Sample, len(gcMetrics))}
	for i, name := range gcMetrics {
		s.samples[i].Name = name
	}
	metrics.Read(s.samples)
	s.buckets = s.samples[pauseMetric].Value.Float64Histogram().Buckets
	return s
}

// NewReading returns a reading with room for the pause histogram. Allocate
// the readings before the measured phase; Read fills them in place.
func (s *GCSampler) NewReading() *GCReading {
	return &GCReading{pauses: make([]uint64, len(s.buckets)-1)}
}

// Read fills r with the current counters. It does not allocate.
func (s *GCSampler) Read(r *GCReading) {
	metrics.Read(s.samples)
	v := s.samples
	r.Cycles = v[0].Value.Uint64()
	r.AllocBytes = v[1].Value.Uint64()
	r.AllocObjects = v[2].Value.Uint64()
	r.HeapLive = v[3].Value.Uint64()
	r.HeapGoal = v[4].Value.Uint64()
	r.AssistCPU = v[5].Value.Float64()
	r.DedicatedCPU = v[6].Value.Float64()
	r.IdleCPU = v[7].Value.Float64()
	r.PauseCPU = v[8].Value.Float64()
	r.GCCPU = v[9].Value.Float64()
	r.TotalCPU = v[10].Value.Float64()
	copy(r.pauses, v[pauseMetric].Value.Float64Histogram().Counts)
}

// GCDelta is what the collector did between two readings.
//
// STW and STWMax come from the stop-the-world pause histogram
// (/sched/pauses/total/gc:seconds), whose buckets are up to a quarter wide:
// each pause counts as its bucket's midpoint, and the maximum as the upper
// bound of the highest bucket that gained a pause. The CPU times are the
// runtime's estimates (/cpu/classes/gc/...), which it updates at the end of
// each GC cycle, so they land in the interval in which a cycle ended.
type GCDelta struct {
	Cycles       uint64        `json:"gc_cycles"`
	Pauses       uint64        `json:"stw_pauses"`
	STW          time.Duration `json:"stw_ns"`
	STWMax       time.Duration `json:"stw_max_ns"`
	AssistCPU    time.Duration `json:"assist_cpu_ns"`
	DedicatedCPU time.Duration `json:"dedicated_cpu_ns"`
	IdleCPU      time.Duration `json:"idle_cpu_ns"`
	PauseCPU     time.Duration `json:"pause_cpu_ns"`
	GCCPU        time.Duration `json:"gc_cpu_ns"`
	TotalCPU     time.Duration `json:"total_cpu_ns"`
	AllocBytes   uint64        `json:"alloc_bytes"`
	AllocObjects uint64        `json:"alloc_objects"`
	HeapLive     uint64        `json:"heap_live_bytes"` // at the end
	HeapGoal     uint64        `json:"heap_goal_bytes"` // at the end
}

// Overlapped reports whether the interval saw a GC cycle end or a
// stop-the-world pause (a cycle starting, or ending).
func (d GCDelta) Overlapped() bool { return d.Cycles > 0 || d.Pauses > 0 }

// Delta returns what happened between from and to. It does not allocate.
func (s *GCSampler) Delta(from, to *GCReading) GCDelta {
	secs := func(a, b float64) time.Duration {
		if b <= a {
			return 0
		}
		return time.Duration(math.Round((b - a) * 1e9))
	}
	d := GCDelta{
		Cycles:       to.Cycles - from.Cycles,
		AssistCPU:    secs(from.AssistCPU, to.AssistCPU),
		DedicatedCPU: secs(from.DedicatedCPU, to.DedicatedCPU),
		IdleCPU:      secs(from.IdleCPU, to.IdleCPU),
		PauseCPU:     secs(from.PauseCPU, to.PauseCPU),
		GCCPU:        secs(from.GCCPU, to.GCCPU),
		TotalCPU:     secs(from.TotalCPU, to.TotalCPU),
		AllocBytes:   to.AllocBytes - from.AllocBytes,
		AllocObjects: to.AllocObjects - from.AllocObjects,
		HeapLive:     to.HeapLive,
		HeapGoal:     to.HeapGoal,
	}
	var total float64
	for i := range to.pauses {
		n := to.pauses[i] - from.pauses[i]
		if n == 0 {
			continue
		}
		lo, hi := s.bucket(i)
		d.Pauses += n
		total += float64(n) * (lo + hi) / 2
		d.STWMax = time.Duration(hi * 1e9)
	}
	d.STW = time.Duration(math.Round(total * 1e9))
	return d
}

// PauseQuantile returns the nearest-rank q-quantile of the pauses between
// from and to, as the upper bound of its bucket; 0 when there were none.
func (s *GCSampler) PauseQuantile(from, to *GCReading, q float64) time.Duration {
	var n uint64
	for i := range to.pauses {
		n += to.pauses[i] - from.pauses[i]
	}
	if n == 0 {
		return 0
	}
	rank := uint64(math.Ceil(q * float64(n)))
	rank = min(max(rank, 1), n)
	var seen uint64
	for i := range to.pauses {
		seen += to.pauses[i] - from.pauses[i]
		if seen >= rank {
			_, hi := s.bucket(i)
			return time.Duration(hi * 1e9)
		}
	}
	return 0
}

// bucket returns the bounds of pause bucket i in seconds, with the open
// ends replaced by the finite neighbour.
func (s *GCSampler) bucket(i int) (lo, hi float64) {
	lo, hi = s.buckets[i], s.buckets[i+1]
	if math.IsInf(lo, -1) {
		lo = 0
	}
	if math.IsInf(hi, 1) {
		hi = lo
	}
	return lo, hi
}
