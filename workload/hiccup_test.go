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

// TestHiccupNoStall: with the operations sleeping instead, nothing keeps
// the meter from waking on time. On the fake clock of a bubble, where
// sleeps wake exactly on time, every wake-up is recorded as zero lateness,
// and there is one every 7ms in the 150ms of five runs of 30ms: 21, the
// last at 147ms (none is due when the runs end and the meter stops). On
// the real clock the machine may take the CPU away at any time: what the
// meter sees there is the machine's doing, not the meter's.
func TestHiccupNoStall(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		sleepy := &fnOp{name: "sleepy", fn: func(context.Context, *workload.Probe, int64) error {
			time.Sleep(30 * time.Millisecond)
			return nil
		}}
		cfg := testConfig(5)
		cfg.Hiccup = 7 * time.Millisecond
		res := mustRun(t, cfg, workload.Mix{sleepy})
		h := res.Hiccup
		if h == nil || h.Interval != 7*time.Millisecond {
			t.Fatalf("Hiccup = %+v", h)
		}
		if res.Elapsed != 150*time.Millisecond || h.Recorder.Count() != 21 || h.Recorder.Max() != 0 {
			t.Errorf("in %v, the meter recorded %d hiccups, the largest %v; want 21 of 0 in 150ms",
				res.Elapsed, h.Recorder.Count(), h.Recorder.Max())
		}
	})
}

func TestHiccupOff(t *testing.T) {
	res := mustRun(t, testConfig(3), workload.Mix{named("op")})
	if res.Hiccup != nil {
		t.Errorf("Hiccup = %+v without a meter", res.Hiccup)
	}
}

// The meter allocates before the timed runs: with it, noop's timed runs
// allocate nothing, in every attempt. The attempts are repeats, not
// retries: an allocation that happens only sometimes fails the test too.
func TestHiccupAllocatesNothingTimed(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	noop, _ := workload.New("noop", nil)
	cfg := testConfig(20000)
	cfg.Hiccup = 200 * time.Microsecond
	for attempt := 1; attempt <= 3; attempt++ {
		runtime.GC()
		res := mustRun(t, cfg, workload.Mix{noop})
		if res.HeapAllocBytes != 0 || res.HeapAllocObjects != 0 {
			t.Errorf("attempt %d: the timed runs allocated %d bytes in %d objects with the hiccup meter on, want none",
				attempt, res.HeapAllocBytes, res.HeapAllocObjects)
		}
	}
}

// Stopping the meter does not wait out its interval: with a 30s interval,
// three runs of 1ms end 3ms after they begin on the fake clock of a bubble
// (waiting out the interval would move it on 30s). The meter is in its
// interval by then: the clock moves on only once it waits.
func TestHiccupStopsAtOnce(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		op := &fnOp{name: "op", fn: func(context.Context, *workload.Probe, int64) error {
			time.Sleep(time.Millisecond)
			return nil
		}}
		cfg := testConfig(3)
		cfg.Hiccup = 30 * time.Second
		start := time.Now()
		res := mustRun(t, cfg, workload.Mix{op})
		if took := time.Since(start); took != 3*time.Millisecond {
			t.Errorf("Run took %v on the fake clock with a 30s meter, want the 3ms of its runs", took)
		}
		if res.Hiccup == nil || res.Hiccup.Recorder.Count() != 0 {
			t.Errorf("a 30s meter over 3ms recorded %+v", res.Hiccup)
		}
	})
}

func TestHiccupMinimum(t *testing.T) {
	cfg := testConfig(3)
	cfg.Hiccup = 50 * time.Microsecond
	var ce *workload.ConfigError
	if err := cfg.Validate(1); !errors.As(err, &ce) || ce.Field != "hiccup" {
		t.Errorf("Validate with a 50µs hiccup interval = %v, want a ConfigError on hiccup", err)
	}
}
