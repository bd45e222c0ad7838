package profiles

import (
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

const mib = 1 << 20

// allocSink keeps what allocBefore keeps live; duringSink is where
// allocDuring's blocks escape to, for a while.
var allocSink, duringSink [][]byte

// allocBefore allocates 50 MiB in 1 MiB blocks before the session, keeping
// the last 4 MiB live through it.
//
//go:noinline
func allocBefore() {
	for i := range 50 {
		b := make([]byte, mib)
		b[0] = byte(i)
		if i >= 46 {
			allocSink = append(allocSink, b)
		}
	}
}

// allocDuring allocates 16 MiB during the session, in blocks of 4 MiB: the
// heap profile records an allocation of n bytes with the probability
// 1-exp(-n/runtime.MemProfileRate), 99.97% for 4 MiB at the default 512 KiB,
// so that its estimate is all but exact. It keeps nothing live.
//
//go:noinline
func allocDuring() {
	for i := range 4 {
		b := make([]byte, 4*mib)
		b[0] = byte(i)
		duringSink = append(duringSink, b)
	}
	duringSink = nil
}

// funcValue is a function's flat (or cumulative) value in a summary, 0
// when it is not there; names match as prefixes.
func funcValue(s Summary, name string, cum bool) int64 {
	var v int64
	for _, f := range s.Funcs {
		if strings.HasPrefix(f.Name, "github.com/gcperf/gcperf/profiles."+name) {
			if cum {
				v += f.Cum
			} else {
				v += f.Flat
			}
		}
	}
	return v
}

// TestHeapCoversSession: the heap profile holds what was allocated during
// the session, not before, while its in-use figures are the heap live at
// Stop, allocated before the session or not.
func TestHeapCoversSession(t *testing.T) {
	defer func() { allocSink = nil }()
	allocBefore()
	path := filepath.Join(t.TempDir(), "heap.pprof")
	before := time.Now()
	s, err := Start([]Request{{Heap, path}})
	if err != nil {
		t.Fatal(err)
	}
	after := time.Now()
	allocDuring()
	ps, err := s.Stop()
	if err != nil {
		t.Fatal(err)
	}
	runtime.KeepAlive(allocSink)

	sum, err := Summarize(path, 0, false)
	if err != nil {
		t.Fatal(err)
	}
	if sum.SampleType != "alloc_space" {
		t.Fatalf("sample type %s, want alloc_space", sum.SampleType)
	}
	if v := funcValue(sum, "allocBefore", true); v != 0 {
		t.Errorf("allocBefore allocated %d bytes during the session, want 0:\n%+v", v, sum.Funcs)
	}
	const during = 16 * mib
	if v := funcValue(sum, "allocDuring", false); v < during/2 || v > 2*during {
		t.Errorf("allocDuring allocated %d bytes, want about %d:\n%+v", v, during, sum.Funcs)
	}
	if sum.Total < during/2 || sum.Total > 2*during {
		t.Errorf("%d bytes allocated in all, want about %d (allocDuring's):\n%+v", sum.Total, during, sum.Funcs)
	}
	if funcValue(sum, "snapshot", true) != 0 {
		t.Errorf("the snapshots' allocations are in the profile:\n%+v", sum.Funcs)
	}

	p, err := readProfile(path)
	if err != nil {
		t.Fatal(err)
	}
	// The session's time range.
	if got := time.Unix(0, p.TimeNanos); got.Before(before) || got.After(after) {
		t.Errorf("time %v, want Start's, between %v and %v", got, before, after)
	}
	if p.DurationNanos != int64(ps[0].Duration) {
		t.Errorf("duration %v, want the session's, %v", time.Duration(p.DurationNanos), ps[0].Duration)
	}
	// No sample of all zeros, and no negative value.
	for _, sm := range p.Sample {
		if !slices.ContainsFunc(sm.Value, func(v int64) bool { return v != 0 }) || slices.ContainsFunc(sm.Value, func(v int64) bool { return v < 0 }) {
			t.Errorf("a sample with the values %v", sm.Value)
		}
	}
	// inuse_space is the heap live at Stop: allocBefore's 4 MiB, not less
	// what it freed before the session.
	p.DefaultSampleType = "inuse_space"
	inuse := summarize(p, 0, false)
	if inuse.SampleType != "inuse_space" {
		t.Fatalf("no inuse_space in %v", p.SampleType)
	}
	if v := funcValue(inuse, "allocBefore", false); v < 2*mib || v > 8*mib {
		t.Errorf("allocBefore holds %d bytes live at Stop, want about %d:\n%+v", v, 4*mib, inuse.Funcs)
	}
	if v := funcValue(inuse, "allocDuring", false); v != 0 {
		t.Errorf("allocDuring holds %d bytes live at Stop, want 0", v)
	}
}

// blockBefore and blockDuring wait n times for a goroutine that sends after
// d.
//
//go:noinline
func blockBefore(n int, d time.Duration) { waitFor(n, d) }

//go:noinline
func blockDuring(n int, d time.Duration) { waitFor(n, d) }

func waitFor(n int, d time.Duration) {
	c := make(chan int)
	go func() {
		for i := range n {
			time.Sleep(d)
			c <- i
		}
	}()
	for range n {
		<-c
	}
}

// contendBefore and contendDuring have 4 goroutines of their own take one
// mutex n times each, holding it for a while.
//
//go:noinline
func contendBefore(n int) {
	var mu sync.Mutex
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() { hold(&mu, n) })
	}
	wg.Wait()
}

//go:noinline
func contendDuring(n int) {
	var mu sync.Mutex
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() { hold(&mu, n) })
	}
	wg.Wait()
}

func hold(mu *sync.Mutex, n int) {
	for range n {
		mu.Lock()
		time.Sleep(100 * time.Microsecond)
		mu.Unlock()
	}
}

// TestBlockMutexCoverSession: the block and mutex profiles hold the
// blocking and contention of the session, not what came before.
func TestBlockMutexCoverSession(t *testing.T) {
	runtime.SetBlockProfileRate(1)
	defer runtime.SetBlockProfileRate(0)
	fraction := runtime.SetMutexProfileFraction(1)
	defer runtime.SetMutexProfileFraction(fraction)
	blockBefore(10, 10*time.Millisecond)
	contendBefore(20)

	dir := t.TempDir()
	s, err := Start([]Request{{Block, filepath.Join(dir, "block.pprof")}, {Mutex, filepath.Join(dir, "mutex.pprof")}})
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	blockDuring(3, 10*time.Millisecond)
	took := time.Since(start)
	contendDuring(20)
	ps, err := s.Stop()
	if err != nil {
		t.Fatal(err)
	}

	// Block: blockDuring waited about 30ms (no more than the call took),
	// blockBefore 100ms; the goroutines of contendBefore and contendDuring
	// waited for their mutexes and contendBefore and contendDuring for
	// their goroutines.
	block, err := Summarize(ps[0].File, 0, true)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"blockBefore", "contendBefore"} {
		if v := funcValue(block, name, true); v != 0 {
			t.Errorf("%s blocked %v during the session, want 0:\n%+v", name, time.Duration(v), block.Funcs)
		}
	}
	during := funcValue(block, "blockDuring", true)
	// Not more than the call took, a ratio rather than a bound of real
	// time: half as much again leaves room for the runtime's estimate of
	// the CPU tick rate the profile is converted with, not for blocking
	// counted twice or in CPU ticks (two or three a nanosecond).
	if during < int64(25*time.Millisecond) || during > int64(took)*3/2 {
		t.Errorf("blockDuring blocked %v in a call of %v, want about 30ms:\n%+v", time.Duration(during), took, block.Funcs)
	}
	// The session's blocking is all theirs, give or take Start's and Stop's.
	if c := funcValue(block, "contendDuring", true); during+c < block.Total*9/10 {
		t.Errorf("%v blocked in all, blockDuring %v and contendDuring %v of it:\n%+v",
			time.Duration(block.Total), time.Duration(during), time.Duration(c), block.Funcs)
	}

	// Mutex: the contention is the unlocking goroutines', under
	// contendDuring.func1, give or take the runtime's own locks'.
	mutex, err := Summarize(ps[1].File, 0, true)
	if err != nil {
		t.Fatal(err)
	}
	if v := funcValue(mutex, "contendBefore", true); v != 0 {
		t.Errorf("contendBefore's contention %v during the session, want 0:\n%+v", time.Duration(v), mutex.Funcs)
	}
	if v := funcValue(mutex, "contendDuring", true); v <= 0 || v < mutex.Total*9/10 {
		t.Errorf("contention %v in contendDuring, %v in all; want most of it, and some:\n%+v",
			time.Duration(v), time.Duration(mutex.Total), mutex.Funcs)
	}
}

// TestDelta subtracts hand-built heap profiles: alloc_* less the base's,
// inuse_* the end's, the samples that did not change left out.
func TestDelta(t *testing.T) {
	dir := t.TempDir()
	types := []string{"alloc_objects/count", "alloc_space/bytes", "inuse_objects/count", "inuse_space/bytes"}
	writeHand(t, filepath.Join(dir, "base"), types, "alloc_space", []handSample{
		{[]string{"gone", "main"}, []int64{10, 1000, 5, 500}},  // freed during the session
		{[]string{"still", "main"}, []int64{10, 1000, 5, 500}}, // still live
		{[]string{"grew", "main"}, []int64{3, 300, 1, 100}},
		{[]string{snapshotFunc}, []int64{1, 100, 1, 100}},
	})
	writeHand(t, filepath.Join(dir, "end"), types, "alloc_space", []handSample{
		{[]string{"gone", "main"}, []int64{10, 1000, 0, 0}},
		{[]string{"still", "main"}, []int64{10, 1000, 5, 500}},
		{[]string{"grew", "main"}, []int64{7, 700, 2, 200}},
		{[]string{"new", "main"}, []int64{2, 200, 0, 0}},
		{[]string{"alloc", snapshotFunc, "Start"}, []int64{2, 200, 2, 200}},
	})
	base, err := readProfile(filepath.Join(dir, "base"))
	if err != nil {
		t.Fatal(err)
	}
	end, err := readProfile(filepath.Join(dir, "end"))
	if err != nil {
		t.Fatal(err)
	}
	p, err := delta(base, end)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string][]int64{}
	for _, s := range p.Sample {
		got[s.Location[0].Line[0].Function.Name] = s.Value
	}
	want := map[string][]int64{
		"still": {0, 0, 5, 500},
		"grew":  {4, 400, 2, 200},
		"new":   {2, 200, 0, 0},
	}
	if len(got) != len(want) {
		t.Errorf("samples %v, want %v", got, want)
	}
	for name, w := range want {
		if !slices.Equal(got[name], w) {
			t.Errorf("%s: %v, want %v", name, got[name], w)
		}
	}
	if p.DefaultSampleType != "alloc_space" || len(p.SampleType) != 4 {
		t.Errorf("sample types %v, default %s", p.SampleType, p.DefaultSampleType)
	}

	// Profiles of different kinds do not subtract.
	writeHand(t, filepath.Join(dir, "cpu"), []string{"samples/count", "cpu/nanoseconds"}, "", nil)
	cpu, err := readProfile(filepath.Join(dir, "cpu"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := delta(cpu, end); err == nil {
		t.Error("a CPU profile subtracted from a heap profile")
	}
}
