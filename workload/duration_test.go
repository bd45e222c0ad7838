package workload_test

import (
	"context"
	"testing"
	"time"

	"github.com/gcperf/gcperf/workload"
)

// sleeper sleeps d per call: in a testing/synctest bubble, exactly d.
func sleeper(d time.Duration) *fnOp {
	return &fnOp{name: "sleep", fn: func(context.Context, *workload.Probe, int64) error {
		time.Sleep(d)
		return nil
	}}
}

func TestDuration(t *testing.T) {
	tests := []struct {
		name    string
		edit    func(c *workload.Config)
		warm    int64 // warmup calls
		done    int   // timed runs
		elapsed time.Duration
	}{
		{"time-bounded", func(c *workload.Config) { c.Runs, c.Duration = 0, 100*time.Millisecond }, 0, 100, 100 * time.Millisecond},
		{"runs first", func(c *workload.Config) { c.Runs, c.Duration = 30, 100*time.Millisecond }, 0, 30, 30 * time.Millisecond},
		{"time first", func(c *workload.Config) { c.Runs, c.Duration = 500, 40*time.Millisecond }, 0, 40, 40 * time.Millisecond},
		{"two threads", func(c *workload.Config) { c.Runs, c.Duration, c.Threads = 0, 50*time.Millisecond, 2 }, 0, 100, 50 * time.Millisecond},
		{"time-bounded warmups", func(c *workload.Config) {
			c.Runs, c.Warmups, c.WarmupDuration = 10, 0, 25*time.Millisecond
		}, 25, 10, 10 * time.Millisecond},
		// Open loop, 1 op per run at 1000/s for 50ms: the schedule holds 50.
		{"open loop", func(c *workload.Config) { c.Runs, c.Duration, c.Rate = 0, 50*time.Millisecond, 1000 }, 0, 50, 50 * time.Millisecond},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			inBubble(t, func(t *testing.T) {
				cfg := testConfig(1)
				tt.edit(&cfg)
				op := sleeper(time.Millisecond)
				res, err := workload.Run(context.Background(), cfg, workload.Mix{op})
				if err != nil {
					t.Fatal(err)
				}
				if res.Done != tt.done || !res.Complete() || res.Interrupted {
					t.Errorf("done %d, want %d; complete %v, interrupted %v", res.Done, tt.done, res.Complete(), res.Interrupted)
				}
				if warm := op.calls.Load() - int64(res.Done); warm != tt.warm {
					t.Errorf("%d warmup calls, want %d", warm, tt.warm)
				}
				if res.Elapsed != tt.elapsed {
					t.Errorf("elapsed %v, want %v", res.Elapsed, tt.elapsed)
				}
				if res.Mix.Stats.Runs != int64(tt.done) || len(res.Runs) != tt.done {
					t.Errorf("statistics over %d runs, %d kept; want %d", res.Mix.Stats.Runs, len(res.Runs), tt.done)
				}
			})
		})
	}
}

// An interrupt ends a time-bounded benchmark early, as a counted one.
func TestDurationInterrupted(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		stop := make(chan struct{})
		cfg := testConfig(1)
		cfg.Runs, cfg.Duration, cfg.Stop = 0, time.Second, stop
		go func() {
			time.Sleep(20*time.Millisecond + time.Microsecond)
			close(stop)
		}()
		res, err := workload.Run(context.Background(), cfg, workload.Mix{sleeper(time.Millisecond)})
		if err != nil {
			t.Fatal(err)
		}
		if !res.Interrupted || res.Complete() || res.Done != 21 {
			t.Errorf("interrupted %v, complete %v, done %d (want 21)", res.Interrupted, res.Complete(), res.Done)
		}
	})
}
