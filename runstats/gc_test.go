package runstats

import (
	"math"
	"runtime"
	"testing"
	"time"
)

// These tests drive the live runtime's collector (the process's own
// counters), not the machine: runtime.GC makes the activity they check.

func TestGCSamplerDelta(t *testing.T) {
	s := NewGCSampler()
	a, b := s.NewReading(), s.NewReading()
	s.Read(a)
	const forced = 3
	for range forced {
		runtime.GC()
	}
	buf := make([]byte, 1<<20)
	sink = buf
	s.Read(b)
	d := s.Delta(a, b)
	if d.Cycles < forced {
		t.Errorf("%d cycles, want at least %d", d.Cycles, forced)
	}
	// Every cycle stops the world twice (sweep termination, mark termination).
	if d.Pauses < 2*forced {
		t.Errorf("%d pauses, want at least %d", d.Pauses, 2*forced)
	}
	if d.STW <= 0 || d.STWMax <= 0 || d.STWMax > d.STW+d.STW {
		t.Errorf("STW %v, max %v", d.STW, d.STWMax)
	}
	if d.AllocBytes < 1<<20 {
		t.Errorf("allocated %d bytes, want at least 1MiB", d.AllocBytes)
	}
	if !d.Overlapped() {
		t.Error("an interval with GC cycles must overlap a cycle")
	}
	if d.HeapGoal == 0 || d.GCCPU <= 0 || d.TotalCPU < d.GCCPU {
		t.Errorf("heap goal %d, GC CPU %v, total CPU %v", d.HeapGoal, d.GCCPU, d.TotalCPU)
	}
	if p50, max := s.PauseQuantile(a, b, 0.5), s.PauseQuantile(a, b, 1); p50 <= 0 || p50 > max || max != d.STWMax {
		t.Errorf("pause P50 %v, max %v, STWMax %v", p50, max, d.STWMax)
	}
	// Nothing between two identical readings.
	if z := s.Delta(b, b); z.Overlapped() || z.STW != 0 || z.AllocBytes != 0 || s.PauseQuantile(b, b, 0.5) != 0 {
		t.Errorf("delta of a reading with itself: %+v", z)
	}
}

var sink []byte

func TestGCSamplerReadDoesNotAllocate(t *testing.T) {
	s := NewGCSampler()
	r := s.NewReading()
	if n := testing.AllocsPerRun(100, func() { s.Read(r) }); n != 0 {
		t.Errorf("Read allocates %v times", n)
	}
	o := s.NewReading()
	if n := testing.AllocsPerRun(100, func() { _ = s.Delta(o, r) }); n != 0 {
		t.Errorf("Delta allocates %v times", n)
	}
}

// TestPauseBuckets checks the delta arithmetic on hand-made readings:
// 2 pauses in bucket [1ms, 2ms) and 1 in [2ms, 4ms).
func TestPauseBuckets(t *testing.T) {
	s := &GCSampler{buckets: []float64{math.Inf(-1), 0, 0.001, 0.002, 0.004, math.Inf(1)}}
	a := &GCReading{pauses: []uint64{0, 5, 1, 0, 0}}
	b := &GCReading{pauses: []uint64{0, 5, 3, 1, 0}}
	d := s.Delta(a, b)
	// STW = 2×1.5ms + 1×3ms = 6ms; max = 4ms, the upper bound of [2ms, 4ms).
	if d.Pauses != 3 || d.STW != 6*time.Millisecond || d.STWMax != 4*time.Millisecond {
		t.Errorf("pauses %d, STW %v, max %v; want 3, 6ms, 4ms", d.Pauses, d.STW, d.STWMax)
	}
	// Nearest rank: P50 is the 2nd of 3 → [1ms, 2ms) → 2ms; P90 the 3rd → 4ms.
	if q := s.PauseQuantile(a, b, 0.5); q != 2*time.Millisecond {
		t.Errorf("P50 %v, want 2ms", q)
	}
	if q := s.PauseQuantile(a, b, 0.9); q != 4*time.Millisecond {
		t.Errorf("P90 %v, want 4ms", q)
	}
	// A pause in the open last bucket counts at its finite lower bound.
	c := &GCReading{pauses: []uint64{0, 5, 1, 0, 1}}
	if d := s.Delta(a, c); d.STWMax != 4*time.Millisecond || d.STW != 4*time.Millisecond {
		t.Errorf("open bucket: STW %v, max %v; want 4ms, 4ms", d.STW, d.STWMax)
	}
}

// BenchmarkGCSamplerRead is the cost of one reading: what -gcstats run adds
// between two runs (with Delta, below).
func BenchmarkGCSamplerRead(b *testing.B) {
	s := NewGCSampler()
	r := s.NewReading()
	b.ReportAllocs()
	for b.Loop() {
		s.Read(r)
	}
}

func BenchmarkGCSamplerDelta(b *testing.B) {
	s := NewGCSampler()
	from, to := s.NewReading(), s.NewReading()
	s.Read(from)
	s.Read(to)
	b.ReportAllocs()
	for b.Loop() {
		_ = s.Delta(from, to)
	}
}
