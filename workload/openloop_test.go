package workload_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/gcperf/gcperf/workload"
)

func openConfig(runs int, rate float64) workload.Config {
	c := testConfig(runs)
	c.Rate = rate
	return c
}

// An injected stall, computed by hand. At 1000/s (one start a millisecond)
// call 100 takes 100ms; every other call takes about nothing. Runtimes: 299
// tiny values and one of 100ms, so the uncorrected P99 (the 297th smallest
// of 300) is tiny and the maximum is 100ms. From the intended starts: call
// 100 takes 100ms, and calls 101..199, due at 101..199ms, all start at about
// 200ms, 99, 98, ... 1ms late; call 200 is on time again. So the corrected
// values are 200 tiny ones and about 1, 2, ... 100ms: the 297th smallest is
// the 97th of those, about 97ms.
func TestOpenLoopStallCorrected(t *testing.T) {
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
	if unc.P99 >= 5*time.Millisecond {
		t.Errorf("uncorrected P99 = %v, want under 5ms", unc.P99)
	}
	if unc.Max < 100*time.Millisecond || unc.Max > 150*time.Millisecond {
		t.Errorf("uncorrected max = %v, want about 100ms", unc.Max)
	}
	if cor.P99 < 50*time.Millisecond || cor.P99 > 110*time.Millisecond {
		t.Errorf("corrected P99 = %v, want about 97ms (50ms..110ms)", cor.P99)
	}
	// About 100 values are 1ms or more: the P50 (150th) is not one of
	// them, the P90 (270th) is the 70th, about 70ms.
	if cor.P50 >= 5*time.Millisecond {
		t.Errorf("corrected P50 = %v, want under 5ms", cor.P50)
	}
	if cor.P90 < 35*time.Millisecond || cor.P90 > 90*time.Millisecond {
		t.Errorf("corrected P90 = %v, want about 70ms (35ms..90ms)", cor.P90)
	}
	ol := res.OpenLoop
	if ol == nil {
		t.Fatal("OpenLoop = nil")
	}
	if ol.MaxLateness < 90*time.Millisecond || ol.MaxLateness > 150*time.Millisecond {
		t.Errorf("MaxLateness = %v, want about 99ms", ol.MaxLateness)
	}
	if ol.LateStarts < 90 {
		t.Errorf("LateStarts = %d, want about 98", ol.LateStarts)
	}
}

// Operations start on the schedule: operation s no earlier than s/Rate.
func TestOpenLoopSchedule(t *testing.T) {
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
		ol := res.OpenLoop
		if ol == nil || ol.Rate != 200 || ol.Interval != 5*time.Millisecond {
			t.Fatalf("threads %d: OpenLoop = %+v", threads, ol)
		}
		if ol.Behind || ol.Achieved < 0.95*200 {
			t.Errorf("threads %d: achieved %v/s, behind %v; want about 200/s and keeping up", threads, ol.Achieved, ol.Behind)
		}
		for i, o := range res.Operations {
			if o.Corrected == nil || o.Corrected.Count() != 10 {
				t.Errorf("threads %d: operation %d: Corrected %v, want 10 values", threads, i, o.Corrected)
			}
		}
	}
}

// An operation of 1ms cannot keep up with 10000/s on one thread.
func TestOpenLoopCannotKeepUp(t *testing.T) {
	op := &fnOp{name: "slow", fn: func(context.Context, *workload.Probe, int64) error {
		time.Sleep(time.Millisecond)
		return nil
	}}
	res := mustRun(t, openConfig(50, 10000), workload.Mix{op})
	ol := res.OpenLoop
	if ol == nil {
		t.Fatal("OpenLoop = nil")
	}
	if !ol.Behind || ol.Achieved > 1000 {
		t.Errorf("achieved %v/s, behind %v; want at most 1000/s and behind", ol.Achieved, ol.Behind)
	}
	// Operation s starts at about s ms, due at s/10 ms.
	if ol.MaxLateness < 40*time.Millisecond || ol.LateStarts < 45 {
		t.Errorf("MaxLateness %v, LateStarts %d; want at least 40ms and 45", ol.MaxLateness, ol.LateStarts)
	}
	o := res.Operations[0]
	if o.CorrectedPercentiles.Max < ol.MaxLateness {
		t.Errorf("corrected max %v below the largest lateness %v", o.CorrectedPercentiles.Max, ol.MaxLateness)
	}
}

// Closed loop, nothing open-loop is reported.
func TestClosedLoopHasNoCorrection(t *testing.T) {
	res := mustRun(t, testConfig(5), workload.Mix{&fnOp{name: "fast"}})
	if res.OpenLoop != nil || res.Operations[0].Corrected != nil {
		t.Errorf("OpenLoop %+v, Corrected %v; want nil", res.OpenLoop, res.Operations[0].Corrected)
	}
}

// A stop during a long wait for the schedule ends the benchmark promptly.
func TestOpenLoopStopDuringWait(t *testing.T) {
	stop := make(chan struct{})
	cfg := openConfig(3, 0.5) // one start every 2s
	cfg.Stop = stop
	time.AfterFunc(100*time.Millisecond, func() { close(stop) })
	res := runWithin(t, 5*time.Second, func() *workload.Result { return mustRun(t, cfg, workload.Mix{&fnOp{name: "fast"}}) })
	if !res.Interrupted || len(res.Runs) == 3 {
		t.Errorf("Interrupted %v with %d runs; want interrupted before the third", res.Interrupted, len(res.Runs))
	}
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
