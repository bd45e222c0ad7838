package workload_test

import (
	"context"
	"testing"
	"time"

	"github.com/gcperf/gcperf/workload"
)

// Issue 24, item 17: open loop, Duration bounds the timed runs however far
// behind the schedule they fall, and the starts that were due within it
// and not made are counted. At 1000/s (one start a millisecond) for 50ms,
// an operation of 5ms on one goroutine starts at 0, 5, ... 45ms: 10 of the
// 50 due, the timed runs end at 50ms and 40 starts are skipped. With two
// operations per run, the schedule holds 25 runs (50 starts) and a run
// takes 10ms: 5 runs, 10 starts made, 40 skipped.
func TestOpenLoopDurationBound(t *testing.T) {
	for _, tt := range []struct {
		name             string
		ops              int
		done             int
		started, skipped int64
		elapsed          time.Duration
	}{
		{"one operation", 1, 10, 10, 40, 50 * time.Millisecond},
		{"two operations", 2, 5, 10, 40, 50 * time.Millisecond},
	} {
		t.Run(tt.name, func(t *testing.T) {
			inBubble(t, func(t *testing.T) {
				cfg := testConfig(1)
				cfg.Runs, cfg.Duration, cfg.Rate = 0, 50*time.Millisecond, 1000
				var mix workload.Mix
				for range tt.ops {
					mix = append(mix, sleeper(5*time.Millisecond))
				}
				res, err := workload.Run(context.Background(), cfg, mix)
				if err != nil {
					t.Fatal(err)
				}
				if res.Done != tt.done || res.Elapsed != tt.elapsed || !res.Complete() {
					t.Errorf("done %d in %v (complete %v), want %d in %v", res.Done, res.Elapsed, res.Complete(), tt.done, tt.elapsed)
				}
				ol := res.OpenLoop
				if ol == nil || ol.SkippedStarts != tt.skipped {
					t.Fatalf("OpenLoop %+v, want %d skipped starts", ol, tt.skipped)
				}
				if !ol.Behind {
					t.Error("not behind, having made 10 of 50 starts")
				}
			})
		})
	}
}

// A schedule that is kept skips nothing.
func TestOpenLoopKeptSkipsNothing(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		cfg := testConfig(1)
		cfg.Runs, cfg.Duration, cfg.Rate = 0, 50*time.Millisecond, 100
		res, err := workload.Run(context.Background(), cfg, workload.Mix{sleeper(time.Millisecond)})
		if err != nil {
			t.Fatal(err)
		}
		if res.Done != 5 || res.OpenLoop == nil || res.OpenLoop.SkippedStarts != 0 {
			t.Errorf("done %d, open loop %+v; want 5 and no skipped start", res.Done, res.OpenLoop)
		}
	})
}

// Issue 24, item 25: a Duration shorter than a run still makes one timed
// run, closed loop and open loop, on every goroutine's count.
func TestDurationAtLeastOneRun(t *testing.T) {
	for _, tt := range []struct {
		name string
		edit func(c *workload.Config)
	}{
		{"closed loop", func(c *workload.Config) { c.Runs, c.Duration = 0, time.Nanosecond }},
		{"closed loop, runs too", func(c *workload.Config) { c.Runs, c.Duration = 10, time.Nanosecond }},
		{"two threads", func(c *workload.Config) { c.Runs, c.Duration, c.Threads = 0, time.Nanosecond, 2 }},
		{"open loop", func(c *workload.Config) { c.Runs, c.Duration, c.Rate = 0, time.Nanosecond, 10 }},
	} {
		t.Run(tt.name, func(t *testing.T) {
			// On the real clock: in a bubble, no time passes between the
			// start of the timed runs and the first claim of one.
			cfg := testConfig(1)
			cfg.Warmups = 0
			tt.edit(&cfg)
			res, err := workload.Run(context.Background(), cfg, workload.Mix{sleeper(time.Millisecond)})
			if err != nil {
				t.Fatal(err)
			}
			if res.Done < 1 || res.Mix.Stats.Runs < 1 || !res.Complete() {
				t.Errorf("done %d (statistics over %d runs), complete %v; want at least one timed run", res.Done, res.Mix.Stats.Runs, res.Complete())
			}
		})
	}
}
