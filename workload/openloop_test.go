package workload_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/gcperf/gcperf/workload"
)

func openConfig(runs int, rate float64) workload.Config {
	c := testConfig(runs)
	c.Rate = rate
	return c
}

// hdrEqual reports whether got is want as a latency.Recorder reports it: a
// percentile is the highest value of want's bucket, at most 0.1% above it
// (three significant digits).
func hdrEqual(got, want time.Duration) bool {
	return got >= want && got <= want+want/1000
}

// An injected stall, computed by hand, on the fake clock of a bubble where
// sleeps wake on time and the calls that do not sleep take no time at all.
// At 1000/s (one start a millisecond) call 100 takes 100ms; every other call
// takes nothing. Runtimes: 299 zeros and one of 100ms, so the uncorrected
// P99 (the 297th smallest of 300) is zero and the maximum is 100ms. From
// the intended starts: call 100 takes 100ms, and calls 101..199, due at
// 101..199ms, all start at 200ms, 99, 98, ... 1ms late; call 200 is on time
// again. So the corrected values are 200 zeros and 1, 2, ... 100ms: the
// 297th smallest is the 97th of those, 97ms, and the P90 (270th) the 70th.
func TestOpenLoopStallCorrected(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		op := &fnOp{name: "stall", fn: func(_ context.Context, _ *workload.Probe, call int64) error {
			if call == 100 {
				time.Sleep(100 * time.Millisecond)
			}
			return nil
		}}
		res := mustRun(t, openConfig(300, 1000), workload.Mix{op})
		o := res.Operations[0]
		if o.Corrected == nil || o.Corrected.Count() != 300 {
			t.Fatalf("Corrected = %v, want 300 values", o.Corrected)
		}
		unc := o.Stats.Runtime.Percentiles
		cor := o.CorrectedPercentiles
		t.Logf("uncorrected P50 %v P99 %v max %v; corrected P50 %v P90 %v P99 %v max %v",
			unc.P50, unc.P99, unc.Max, cor.P50, cor.P90, cor.P99, cor.Max)
		if unc.P99 != 0 || unc.Max != 100*time.Millisecond {
			t.Errorf("uncorrected P99 %v, max %v; want 0 and 100ms", unc.P99, unc.Max)
		}
		if cor.P50 != 0 || !hdrEqual(cor.P90, 70*time.Millisecond) || !hdrEqual(cor.P99, 97*time.Millisecond) || cor.Max != 100*time.Millisecond {
			t.Errorf("corrected P50 %v, P90 %v, P99 %v, max %v; want 0, 70ms, 97ms, 100ms", cor.P50, cor.P90, cor.P99, cor.Max)
		}
		ol := res.OpenLoop
		if ol == nil {
			t.Fatal("OpenLoop = nil")
		}
		// Call 101 is the latest, 99ms; calls 101..198 are more than an
		// interval late.
		if ol.MaxLateness != 99*time.Millisecond || ol.LateStarts != 98 {
			t.Errorf("MaxLateness %v, LateStarts %d; want 99ms and 98", ol.MaxLateness, ol.LateStarts)
		}
	})
}

// Operations start on the schedule: operation s at s/Rate, exactly, on the
// fake clock of a bubble where sleeps wake on time.
func TestOpenLoopSchedule(t *testing.T) {
	op := &fnOp{name: "fast"}
	mix := workload.Mix{op, op}
	for _, threads := range []int{1, 3} {
		t.Run(fmt.Sprintf("threads %d", threads), func(t *testing.T) {
			inBubble(t, func(t *testing.T) {
				cfg := openConfig(10, 200) // 20 operations, 5ms apart
				cfg.Threads = threads
				res := mustRun(t, cfg, mix)
				if len(res.Executions) != 20 {
					t.Fatalf("%d executions, want 20", len(res.Executions))
				}
				for s, x := range res.Executions {
					if want := time.Duration(s) * 5 * time.Millisecond; x.Start != want {
						t.Errorf("operation %d started at %v, want %v", s, x.Start, want)
					}
				}
				if res.Elapsed != 95*time.Millisecond {
					t.Errorf("elapsed %v, want 95ms (the last start)", res.Elapsed)
				}
				ol := res.OpenLoop
				if ol == nil || ol.Rate != 200 || ol.Interval != 5*time.Millisecond {
					t.Fatalf("OpenLoop = %+v", ol)
				}
				if ol.MaxLateness != 0 || ol.LateStarts != 0 || ol.Behind || math.Abs(ol.Achieved-200) > 1e-9 {
					t.Errorf("MaxLateness %v, LateStarts %d, achieved %v/s, behind %v; want 0, 0, 200/s (20 starts, 19 intervals in 95ms), keeping up",
						ol.MaxLateness, ol.LateStarts, ol.Achieved, ol.Behind)
				}
				for i, o := range res.Operations {
					if o.Corrected == nil || o.Corrected.Count() != 10 || o.Corrected.Max() != 0 {
						t.Errorf("operation %d: Corrected %v, want 10 values of 0", i, o.Corrected)
					}
				}
			})
		})
	}
}

// On the real clock, where a sleep wakes late and the open loop spins for
// what it learned of that lateness, no operation starts before its intended
// start. How late they start depends on the machine: not tested.
func TestOpenLoopNeverEarly(t *testing.T) {
	op := &fnOp{name: "fast"}
	mix := workload.Mix{op, op}
	for _, threads := range []int{1, 3} {
		cfg := openConfig(10, 200) // 20 operations, 5ms apart
		cfg.Threads = threads
		res := mustRun(t, cfg, mix)
		if len(res.Executions) != 20 {
			t.Fatalf("threads %d: %d executions, want 20", threads, len(res.Executions))
		}
		for s, x := range res.Executions {
			if want := time.Duration(s) * 5 * time.Millisecond; x.Start < want {
				t.Errorf("threads %d: operation %d started at %v, before its intended %v", threads, s, x.Start, want)
			}
		}
		if res.Elapsed < 95*time.Millisecond {
			t.Errorf("threads %d: elapsed %v, want at least 95ms", threads, res.Elapsed)
		}
		if ol := res.OpenLoop; ol == nil || ol.MaxLateness < 0 {
			t.Errorf("threads %d: OpenLoop = %+v", threads, ol)
		}
	}
}

// An operation of 1ms cannot keep up with 10000/s on one thread: operation
// s starts at s ms, due at s/10 ms, 0.9*s ms late.
func TestOpenLoopCannotKeepUp(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		op := &fnOp{name: "slow", fn: func(context.Context, *workload.Probe, int64) error {
			time.Sleep(time.Millisecond)
			return nil
		}}
		res := mustRun(t, openConfig(50, 10000), workload.Mix{op})
		ol := res.OpenLoop
		if ol == nil {
			t.Fatal("OpenLoop = nil")
		}
		if !ol.Behind || math.Abs(ol.Achieved-1000) > 1e-9 {
			t.Errorf("achieved %v/s, behind %v; want 1000/s and behind", ol.Achieved, ol.Behind)
		}
		// Operations 1..49 start more than the 0.1ms interval late.
		if want := 49 * 900 * time.Microsecond; ol.MaxLateness != want || ol.LateStarts != 49 {
			t.Errorf("MaxLateness %v, LateStarts %d; want %v and 49", ol.MaxLateness, ol.LateStarts, want)
		}
		// Operation 49's latency from its intended start: its lateness and
		// its millisecond.
		o := res.Operations[0]
		if want := ol.MaxLateness + time.Millisecond; o.CorrectedPercentiles.Max != want {
			t.Errorf("corrected max %v, want %v", o.CorrectedPercentiles.Max, want)
		}
	})
}

// Closed loop, nothing open-loop is reported.
func TestClosedLoopHasNoCorrection(t *testing.T) {
	res := mustRun(t, testConfig(5), workload.Mix{&fnOp{name: "fast"}})
	if res.OpenLoop != nil || res.Operations[0].Corrected != nil {
		t.Errorf("OpenLoop %+v, Corrected %v; want nil", res.OpenLoop, res.Operations[0].Corrected)
	}
}

// A stop during a long wait for the schedule ends the benchmark promptly:
// the wait sleeps 10ms at a time and looks for the stop in between.
func TestOpenLoopStopDuringWait(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		stop := make(chan struct{})
		cfg := openConfig(3, 0.5) // one start every 2s
		cfg.Stop = stop
		time.AfterFunc(100*time.Millisecond, func() { close(stop) })
		start := time.Now()
		res := mustRun(t, cfg, workload.Mix{&fnOp{name: "fast"}})
		took := time.Since(start)
		if !res.Interrupted || len(res.Runs) == 3 {
			t.Errorf("Interrupted %v with %d runs; want interrupted before the third", res.Interrupted, len(res.Runs))
		}
		if took < 100*time.Millisecond || took > 110*time.Millisecond {
			t.Errorf("Run took %v with a stop at 100ms; want 100ms..110ms", took)
		}
	})
}

func TestOpenLoopValidate(t *testing.T) {
	for _, tt := range []struct {
		name string
		cfg  func(*workload.Config)
		msg  string
	}{
		{"negative", func(c *workload.Config) { c.Rate = -1 }, "rate"},
		{"delay", func(c *workload.Config) { c.Rate, c.MaxDelay = 100, time.Millisecond }, "rate"},
		{"too slow", func(c *workload.Config) { c.Rate = 1e-12 }, "rate"},
		{"ok", func(c *workload.Config) { c.Rate = 100 }, ""},
	} {
		c := workload.DefaultConfig()
		tt.cfg(&c)
		err := c.Validate(1)
		var ce *workload.ConfigError
		switch {
		case tt.msg == "" && err != nil:
			t.Errorf("%s: Validate = %v, want nil", tt.name, err)
		case tt.msg != "" && (!errors.As(err, &ce) || ce.Field != tt.msg):
			t.Errorf("%s: Validate = %v, want a ConfigError on %q", tt.name, err, tt.msg)
		}
	}
}
