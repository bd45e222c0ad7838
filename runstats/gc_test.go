package runstats

import (
	"math"
	"os"
	"os/exec"
	"runtime"
	"strings"
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
	if d.HeapLive == 0 {
		t.Errorf("heap live %d after %d cycles, want > 0", d.HeapLive, d.Cycles)
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

// ReadFull reads, besides what Read does, the stopping histogram and the
// heap's objects: stopping the world is part of every pause.
func TestGCSamplerReadFull(t *testing.T) {
	s := NewGCSampler()
	a, b := s.NewReading(), s.NewReading()
	s.ReadFull(a)
	runtime.GC()
	sink = make([]byte, 1<<20)
	s.ReadFull(b)
	d := s.Delta(a, b)
	if st := s.Stopping(a, b); st <= 0 || st > d.STW {
		t.Errorf("stopping %v of STW %v, want in (0, STW]", st, d.STW)
	}
	if b.HeapObjects < 1<<20 || b.HeapObjects < d.HeapLive/2 {
		t.Errorf("heap objects %d with %d live, want at least the 1MiB just allocated", b.HeapObjects, d.HeapLive)
	}
	// Read leaves them as they were.
	c := s.NewReading()
	s.Read(c)
	if c.HeapObjects != 0 || s.Stopping(a, c) != 0 {
		t.Errorf("Read set heap objects %d, stopping %v; want 0, 0", c.HeapObjects, s.Stopping(a, c))
	}
}

// With no GC cycle since the process started (GOGC=off), /gc/heap/live:bytes
// is 0 while the heap holds what was allocated: HeapLive is unknown, and
// HeapObjects is what is known. The test runs itself in a child process
// started with GOGC=off, the only way to have a process no cycle has
// marked.
func TestGCSamplerNoCycleYet(t *testing.T) {
	if os.Getenv("GCPERF_TEST_NO_CYCLE") != "1" {
		cmd := exec.Command(os.Args[0], "-test.run=^TestGCSamplerNoCycleYet$", "-test.v")
		cmd.Env = append(os.Environ(), "GOGC=off", "GOMEMLIMIT=off", "GCPERF_TEST_NO_CYCLE=1")
		out, err := cmd.CombinedOutput()
		if err == nil && strings.Contains(string(out), "--- SKIP") {
			t.Skipf("child with GOGC=off skipped:\n%s", out)
		}
		if err != nil || !strings.Contains(string(out), "--- PASS: TestGCSamplerNoCycleYet") {
			t.Fatalf("child with GOGC=off: %v\n%s", err, out)
		}
		return
	}
	s := NewGCSampler()
	a, b := s.NewReading(), s.NewReading()
	s.ReadFull(a)
	sink = make([]byte, 4<<20)
	s.ReadFull(b)
	if b.Cycles != 0 {
		t.Skipf("%d GC cycles with GOGC=off (forced by something else in the process)", b.Cycles)
	}
	d := s.Delta(a, b)
	if d.HeapLive != 0 {
		t.Errorf("heap live %d with no cycle, want 0 (unknown)", d.HeapLive)
	}
	if b.HeapObjects < a.HeapObjects+4<<20 {
		t.Errorf("heap objects %d after allocating 4MiB on %d, want at least that much more", b.HeapObjects, a.HeapObjects)
	}
}

func TestGCSamplerReadDoesNotAllocate(t *testing.T) {
	s := NewGCSampler()
	r := s.NewReading()
	if n := testing.AllocsPerRun(100, func() { s.Read(r) }); n != 0 {
		t.Errorf("Read allocates %v times", n)
	}
	if n := testing.AllocsPerRun(100, func() { s.ReadFull(r) }); n != 0 {
		t.Errorf("ReadFull allocates %v times", n)
	}
	o := s.NewReading()
	if n := testing.AllocsPerRun(100, func() { _ = s.Delta(o, r) }); n != 0 {
		t.Errorf("Delta allocates %v times", n)
	}
}

// TestPauseBuckets checks the delta arithmetic on hand-made readings:
// 2 pauses in bucket [1ms, 2ms) and 1 in [2ms, 4ms), of which the stopping
// took [0, 1ms) twice and [1ms, 2ms) once.
func TestPauseBuckets(t *testing.T) {
	bounds := []float64{math.Inf(-1), 0, 0.001, 0.002, 0.004, math.Inf(1)}
	s := &GCSampler{buckets: bounds, stopBkt: bounds}
	a := &GCReading{pauses: []uint64{0, 5, 1, 0, 0}, stopping: []uint64{0, 6, 0, 0, 0}, full: true}
	b := &GCReading{pauses: []uint64{0, 5, 3, 1, 0}, stopping: []uint64{0, 8, 1, 0, 0}, full: true}
	d := s.Delta(a, b)
	// STW = 2×1.5ms + 1×3ms = 6ms; max = 4ms, the upper bound of [2ms, 4ms).
	if d.Pauses != 3 || d.STW != 6*time.Millisecond || d.STWMax != 4*time.Millisecond {
		t.Errorf("pauses %d, STW %v, max %v; want 3, 6ms, 4ms", d.Pauses, d.STW, d.STWMax)
	}
	// Stopping = 2×0.5ms + 1×1.5ms = 2.5ms.
	if st := s.Stopping(a, b); st != 2500*time.Microsecond {
		t.Errorf("stopping %v, want 2.5ms", st)
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

// BenchmarkGCSamplerRead is the cost of one reading: Read is what -gcstats
// run adds between two runs (with Delta, below), ReadFull what is read
// around the whole timed phase.
func BenchmarkGCSamplerRead(b *testing.B) {
	s := NewGCSampler()
	r := s.NewReading()
	for _, read := range []struct {
		name string
		fn   func(*GCReading)
	}{{"Read", s.Read}, {"ReadFull", s.ReadFull}} {
		b.Run(read.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				read.fn(r)
			}
		})
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
