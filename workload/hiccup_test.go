package workload_test

import (
	"context"
	"runtime"
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
