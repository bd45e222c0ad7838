package runstats

import (
	"math"
	"runtime/metrics"
	"time"
)

// The runtime/metrics a GCSampler reads, in this order: Read reads those up
// to the pause histogram (a RunSampler's, up to the scheduler's latencies),
// ReadFull all of them.
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
	"/sched/latencies:seconds",
	"/memory/classes/heap/objects:bytes",
	"/sched/pauses/stopping/gc:seconds",
}

const (
	pauseMetric    = 11
	schedMetric    = 12
	objectsMetric  = 13
	stoppingMetric = 14
)

// A GCSampler reads the collector's counters from runtime/metrics. It owns
// its sample slice and reuses it: after the first Read, reading allocates
// nothing. A GCSampler is not safe for concurrent use; give each goroutine
// its own.
type GCSampler struct {
	samples []metrics.Sample
	reads   int       // how many of the samples Read reads
	buckets []float64 // boundaries of the pause histogram, fixed for the process
	stopBkt []float64 // and of the stopping histogram
}

// GCReading is one reading of the counters. Every field is cumulative since
// the process started, except HeapLive, HeapGoal and HeapObjects, which are
// levels.
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
	// HeapObjects (/memory/classes/heap/objects:bytes, ReadFull only) is
	// the bytes of the heap's objects: the live ones and the dead ones the
	// sweeper has not freed yet. Before the first GC cycle, when HeapLive
	// is 0 and unknown, it is every object allocated so far.
	HeapObjects uint64
	pauses      []uint64 // per bucket of /sched/pauses/total/gc:seconds
	stopping    []uint64 // per bucket of /sched/pauses/stopping/gc:seconds, ReadFull only
	full        bool     // filled by ReadFull
}

// NewGCSampler returns a sampler, having read once so that later reads do
// not allocate.
func NewGCSampler() *GCSampler {
	s := &GCSampler{samples: make([]metrics.Sample, len(gcMetrics)), reads: pauseMetric + 1}
	for i, name := range gcMetrics {
		s.samples[i].Name = name
	}
	metrics.Read(s.samples)
	s.buckets = s.samples[pauseMetric].Value.Float64Histogram().Buckets
	s.stopBkt = s.samples[stoppingMetric].Value.Float64Histogram().Buckets
	return s
}

// NewReading returns a reading with room for the histograms. Allocate the
// readings before the measured phase; Read and ReadFull fill them in place.
func (s *GCSampler) NewReading() *GCReading {
	return &GCReading{pauses: make([]uint64, len(s.buckets)-1), stopping: make([]uint64, len(s.stopBkt)-1)}
}

// Read fills r with the counters a GCDelta needs. It does not allocate.
func (s *GCSampler) Read(r *GCReading) {
	metrics.Read(s.samples[:s.reads])
	s.fill(r)
	r.HeapObjects, r.full = 0, false
}

// ReadFull fills r as Read does, and also with what a reading around a
// whole phase reports: HeapObjects and the stopping histogram (Stopping).
// It does not allocate; the histogram more makes it about 0.1µs slower
// than Read, which is why Read, between runs, leaves them out.
func (s *GCSampler) ReadFull(r *GCReading) {
	metrics.Read(s.samples)
	s.fill(r)
	r.HeapObjects = s.samples[objectsMetric].Value.Uint64()
	copy(r.stopping, s.samples[stoppingMetric].Value.Float64Histogram().Counts)
	r.full = true
}

// fill copies the counters Read reads from the samples into r.
func (s *GCSampler) fill(r *GCReading) {
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
// bound of the highest bucket that gained a pause. A pause there is the
// wall time from the runtime deciding to stop the world until it has
// started it again: first stopping it, until every P has stopped
// (goroutines not yet stopped still run; GCSampler.Stopping), then the
// world stopped.
//
// The CPU times are the runtime's estimates (/cpu/classes/gc/...), which it
// updates at the end of each GC cycle, so they land in the interval in which
// a cycle ended. PauseCPU is not STW in CPU terms: for each pause the
// runtime adds GOMAXPROCS × the time the world was stopped, and of the
// stopping only the time each P sat stopped waiting for the others
// (runtime/mgc.go: accumulateGCPauseTime with stopTheWorldWithSema's
// stoppingCPUTime; runtime/metrics' description, "GOMAXPROCS times the
// pause latency", predates that). So it is GOMAXPROCS × the time stopped
// plus less than GOMAXPROCS × the stopping, and can be well below
// GOMAXPROCS × STW when stopping the world takes long.
//
// HeapLive (/gc/heap/live:bytes) is what the last GC cycle marked: 0, and
// then unknown rather than empty, until a cycle has marked the heap (none
// has when GOGC=off and no memory limit was reached). Its JSON key is then
// left out.
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
	HeapLive     uint64        `json:"heap_live_bytes,omitzero"` // at the end; 0 until a cycle has marked the heap
	HeapGoal     uint64        `json:"heap_goal_bytes"`          // at the end
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
	var total, hi float64
	d.Pauses, total, hi = pauseSum(s.buckets, from.pauses, to.pauses)
	d.STW = time.Duration(math.Round(total * 1e9))
	d.STWMax = time.Duration(hi * 1e9)
	return d
}

// Stopping returns the part of the pauses between from and to (their STW)
// spent stopping the world, from /sched/pauses/stopping/gc:seconds counted
// as STW is: from the runtime deciding to stop the world until every P had
// stopped. The rest of STW the world was stopped. It is 0 unless both
// readings come from ReadFull.
func (s *GCSampler) Stopping(from, to *GCReading) time.Duration {
	if !from.full || !to.full {
		return 0
	}
	_, stopping, _ := pauseSum(s.stopBkt, from.stopping, to.stopping)
	_, total, _ := pauseSum(s.buckets, from.pauses, to.pauses)
	// Each pause's stopping is part of it, so in its bucket or a lower
	// one: at the midpoints the sum stays within STW.
	return time.Duration(math.Round(min(stopping, total) * 1e9))
}

// pauseSum returns the pauses a histogram gained from from to to, their
// total in seconds (each at its bucket's midpoint), and the upper bound of
// the highest bucket that gained one.
func pauseSum(buckets []float64, from, to []uint64) (n uint64, total, hi float64) {
	for i := range to {
		k := to[i] - from[i]
		if k == 0 {
			continue
		}
		lo, up := bucket(buckets, i)
		n += k
		total += float64(k) * (lo + up) / 2
		hi = up
	}
	return n, total, hi
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
			_, hi := bucket(s.buckets, i)
			return time.Duration(hi * 1e9)
		}
	}
	return 0
}

// bucket returns the bounds of bucket i of a histogram in seconds, with
// the open ends replaced by the finite neighbour.
func bucket(buckets []float64, i int) (lo, hi float64) {
	lo, hi = buckets[i], buckets[i+1]
	if math.IsInf(lo, -1) {
		lo = 0
	}
	if math.IsInf(hi, 1) {
		hi = lo
	}
	return lo, hi
}
