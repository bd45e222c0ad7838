package runstats

import (
	"runtime"
	"syscall"
	"testing"
	"time"
)

func TestReadSystemCPU(t *testing.T) {
	tick := 10 * time.Millisecond
	tests := []struct {
		root string
		want SystemCPU
	}{
		// host1's cpu line: user 1843210 nice 1204 system 402117 idle
		// 38920154 iowait 12044 irq 0 softirq 8810 steal 3301, in ticks.
		{"testdata/host1", SystemCPU{CPUs: 4, Total: (1843210 + 1204 + 402117 + 38920154 + 12044 + 8810 + 3301) * tick, Steal: 3301 * tick}},
		{"testdata/host2", SystemCPU{CPUs: 1, Total: 950 * tick}},
	}
	for _, tt := range tests {
		got, err := ReadSystemCPU(tt.root)
		if err != nil || got != tt.want {
			t.Errorf("ReadSystemCPU(%s) = %+v, %v, want %+v", tt.root, got, err, tt.want)
		}
	}
	if _, err := ReadSystemCPU("testdata/none"); err == nil {
		t.Error("ReadSystemCPU of a root without proc/stat: no error")
	}
	a := SystemCPU{CPUs: 2, Total: 10 * time.Second, Steal: time.Second}
	b := SystemCPU{CPUs: 2, Total: 14 * time.Second, Steal: 2 * time.Second}
	if d := b.Sub(a); d != (SystemCPU{CPUs: 2, Total: 4 * time.Second, Steal: time.Second}) {
		t.Errorf("Sub = %+v", d)
	}
}

func TestRunSamplerReadDoesNotAllocate(t *testing.T) {
	for _, thread := range []bool{false, true} {
		if thread {
			runtime.LockOSThread()
		}
		s := NewRunSampler(thread)
		a, b := s.NewReading(), s.NewReading()
		if n := testing.AllocsPerRun(100, func() {
			s.Read(a)
			s.Read(b)
			s.Delta(a, b)
		}); n != 0 {
			t.Errorf("thread %v: Read and Delta allocate %v times", thread, n)
		}
		if thread {
			runtime.UnlockOSThread()
		}
	}
}

// TestRunSamplerCounts makes each thing a RunSampler counts happen between
// two readings, on this goroutine locked to its thread, and checks that it
// is counted in both scopes.
func TestRunSamplerCounts(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("page faults and context switches are read on Linux only")
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	for _, thread := range []bool{false, true} {
		s := NewRunSampler(thread)
		want := ScopeProcess
		if thread {
			want = ScopeThread
		}
		if s.Scope() != want {
			t.Fatalf("thread %v: scope %v", thread, s.Scope())
		}
		a, b := s.NewReading(), s.NewReading()

		// Fresh anonymous memory faults once per page when first written.
		const pages = 64
		mem, err := syscall.Mmap(-1, 0, pages*syscall.Getpagesize(), syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
		if err != nil {
			t.Fatal(err)
		}
		s.Read(a)
		for i := 0; i < len(mem); i += syscall.Getpagesize() {
			mem[i] = 1
		}
		s.Read(b)
		syscall.Munmap(mem)
		if _, d := s.Delta(a, b); d.MinorFaults < pages {
			t.Errorf("thread %v: %d minor faults after touching %d fresh pages", thread, d.MinorFaults, pages)
		}

		// A sleep blocks the thread: a voluntary switch.
		s.Read(a)
		time.Sleep(time.Millisecond)
		s.Read(b)
		if _, d := s.Delta(a, b); d.VoluntarySwitches == 0 {
			t.Errorf("thread %v: no voluntary switch across a sleep", thread)
		}
	}
}

// TestRunSamplerSched makes this goroutine wait for the only P while another
// spins, and checks the wait is counted as slow.
func TestRunSamplerSched(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	s := NewRunSampler(false)
	a, b := s.NewReading(), s.NewReading()
	spin := 5 * SchedSlow
	s.Read(a)
	// The runtime times one in eight of a goroutine's scheduling events
	// (runtime.gTrackingPeriod): wait sixteen times.
	for range 16 {
		done := make(chan struct{})
		go func() {
			for t0 := time.Now(); time.Since(t0) < spin; {
			}
			close(done)
		}()
		runtime.Gosched() // runnable behind the spinner until it ends
		<-done
	}
	s.Read(b)
	if _, d := s.Delta(a, b); d.SchedWaits == 0 || d.SchedMax < SchedSlow {
		t.Errorf("a goroutine waited %v for the only P: %d slow waits, max %v", spin, d.SchedWaits, d.SchedMax)
	}
	if _, d := s.Delta(b, b); d != (RunDelta{MarkAtStart: d.MarkAtStart}) {
		t.Errorf("delta of a reading with itself: %+v", d)
	}
}

func TestMarking(t *testing.T) {
	tests := []struct {
		cycles uint64
		pauses []uint64
		want   bool
	}{
		{0, []uint64{0, 0}, false},
		{0, []uint64{1, 0}, true},  // the first cycle's first pause
		{3, []uint64{4, 2}, false}, // three cycles, six pauses
		{3, []uint64{4, 3}, true},  // a fourth begun
		{3, []uint64{10, 0}, true}, // more pauses than cycles explain: read as marking (see RunDelta.MarkAtStart)
		{5, []uint64{4, 2}, false}, // fewer pauses than cycles: none in progress
	}
	for _, tt := range tests {
		r := GCReading{Cycles: tt.cycles, pauses: tt.pauses}
		if got := r.marking(); got != tt.want {
			t.Errorf("%d cycles, pauses %v: marking %v, want %v", tt.cycles, tt.pauses, got, tt.want)
		}
	}
}

// The cost of one reading between runs, as the engine takes it: a read and
// a delta, for the collector alone and for every cause (in both scopes).
func BenchmarkGCSamplerReadDelta(b *testing.B) {
	s := NewGCSampler()
	x, y := s.NewReading(), s.NewReading()
	s.Read(x)
	for b.Loop() {
		s.Read(y)
		s.Delta(x, y)
	}
}

func BenchmarkRunSamplerReadDelta(b *testing.B) { benchmarkRunSampler(b, false) }

func BenchmarkRunSamplerReadDeltaThread(b *testing.B) { benchmarkRunSampler(b, true) }

func benchmarkRunSampler(b *testing.B, thread bool) {
	if thread {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
	}
	s := NewRunSampler(thread)
	x, y := s.NewReading(), s.NewReading()
	s.Read(x)
	for b.Loop() {
		s.Read(y)
		s.Delta(x, y)
	}
}
