package workload_test

import (
	"context"
	"errors"
	"runtime"
	"runtime/debug"
	"testing"
	"time"

	"github.com/gcperf/gcperf/workload"
)

// spinFor holds the processor without a function call the scheduler could
// use, so that only asynchronous preemption (every 10ms or so) interrupts it.
func spinFor(d time.Duration) {
	for start := time.Now(); time.Since(start) < d; {
	}
}

// TestHiccupSeesStall: with one processor, an operation that spins for
// 30ms keeps the meter's goroutine from waking on time, so the meter sees a
// hiccup of several milliseconds, far beyond its 1ms interval.
func TestHiccupSeesStall(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	stall := &fnOp{name: "stall", fn: func(context.Context, *workload.Probe, int64) error {
		spinFor(30 * time.Millisecond)
		return nil
	}}
	cfg := testConfig(5)
	cfg.Hiccup = time.Millisecond
	res := mustRun(t, cfg, workload.Mix{stall})
	h := res.Hiccup
	if h == nil || h.Interval != time.Millisecond {
		t.Fatalf("Hiccup = %+v", h)
	}
	if h.Recorder.Count() == 0 {
		t.Fatal("the meter recorded nothing")
	}
	// Asynchronous preemption lets the meter run after about 10ms at worst
	// and 20ms at best on a loaded machine: a stall of at least 5ms must show.
	if h.Percentiles.Max < 5*time.Millisecond {
		t.Errorf("the largest hiccup is %v with an operation hogging the only processor for 30ms, want at least 5ms", h.Percentiles.Max)
	}
}

// TestHiccupNoStall: with the operations sleeping instead, the meter's
// typical lateness stays far below the stall above (no upper bound is
// asserted on the maximum: the machine may take the CPU away at any time).
func TestHiccupNoStall(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	sleepy := &fnOp{name: "sleepy", fn: func(context.Context, *workload.Probe, int64) error {
		time.Sleep(30 * time.Millisecond)
		return nil
	}}
	cfg := testConfig(5)
	cfg.Hiccup = time.Millisecond
	res := mustRun(t, cfg, workload.Mix{sleepy})
	if p50 := res.Hiccup.Percentiles.P50; p50 >= 5*time.Millisecond {
		t.Errorf("median hiccup %v with nothing hogging the processor", p50)
	}
}

func TestHiccupOff(t *testing.T) {
	res := mustRun(t, testConfig(3), workload.Mix{named("op")})
	if res.Hiccup != nil {
		t.Errorf("Hiccup = %+v without a meter", res.Hiccup)
	}
}

// The meter allocates before the timed runs: with it, noop's timed runs
// still allocate nothing (the same three-attempt rule as
// TestTimedRunsDoNotAllocate).
func TestHiccupAllocatesNothingTimed(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	noop, _ := workload.New("noop", nil)
	cfg := testConfig(20000)
	cfg.Hiccup = 200 * time.Microsecond
	for range 3 {
		runtime.GC()
		res := mustRun(t, cfg, workload.Mix{noop})
		if res.HeapAllocBytes == 0 {
			return
		}
		t.Logf("timed runs allocated %d bytes", res.HeapAllocBytes)
	}
	t.Error("every attempt allocated during the timed runs with the hiccup meter on")
}

// Stopping the meter does not wait out its interval: a 30s interval and a
// few fast runs end well within the test's deadline.
func TestHiccupStopsAtOnce(t *testing.T) {
	cfg := testConfig(3)
	cfg.Hiccup = 30 * time.Second
	res := runWithin(t, 10*time.Second, func() *workload.Result {
		return mustRun(t, cfg, workload.Mix{named("op")})
	})
	if res.Hiccup == nil || res.Hiccup.Recorder.Count() != 0 {
		t.Errorf("a 30s meter over a few microseconds recorded %+v", res.Hiccup)
	}
}

func TestHiccupMinimum(t *testing.T) {
	cfg := testConfig(3)
	cfg.Hiccup = 50 * time.Microsecond
	var ce *workload.ConfigError
	if err := cfg.Validate(1); !errors.As(err, &ce) || ce.Field != "hiccup" {
		t.Errorf("Validate with a 50µs hiccup interval = %v, want a ConfigError on hiccup", err)
	}
}
