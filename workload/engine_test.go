package workload_test

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gcperf/gcperf/workload"
)

// Warmups run but are not recorded; timed runs are numbered from 1.
func TestWarmupsNotRecorded(t *testing.T) {
	tests := []struct {
		warmups, runs, threads, sample int
	}{
		{0, 1, 1, 0},
		{5, 25, 1, 0},
		{3, 10, 1, 2},
		{4, 12, 3, 0},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("w%d-r%d-t%d-s%d", tt.warmups, tt.runs, tt.threads, tt.sample), func(t *testing.T) {
			a, b := named("a"), named("b")
			cfg := testConfig(tt.runs)
			cfg.Warmups, cfg.Threads, cfg.Sample = tt.warmups, tt.threads, tt.sample
			res := mustRun(t, cfg, workload.Mix{a, b})
			k := cfg.OpsPerRun(2)
			if got, want := a.calls.Load()+b.calls.Load(), int64((tt.warmups+tt.runs)*k); got != want {
				t.Errorf("operations ran %d times, want (warmups+runs)*%d = %d", got, k, want)
			}
			if len(res.Runs) != tt.runs {
				t.Fatalf("%d runs recorded, want %d", len(res.Runs), tt.runs)
			}
			for i, r := range res.Runs {
				if r.Run != i+1 {
					t.Errorf("Runs[%d].Run = %d, want %d", i, r.Run, i+1)
				}
			}
			if len(res.Executions) != tt.runs*k {
				t.Errorf("%d executions, want %d", len(res.Executions), tt.runs*k)
			}
			if got := res.Operations[0].Stats.Runs + res.Operations[1].Stats.Runs; got != int64(tt.runs*k) {
				t.Errorf("operations' Stats.Runs add up to %d, want %d", got, tt.runs*k)
			}
			if res.Mix.Stats.Runs != int64(tt.runs) || res.Mix.Stats.Runtime.Count != int64(tt.runs) {
				t.Errorf("Mix Stats.Runs %d, Runtime.Count %d, want %d", res.Mix.Stats.Runs, res.Mix.Stats.Runtime.Count, tt.runs)
			}
			if !res.Complete() || res.Interrupted || res.Halted != "" {
				t.Errorf("Complete %v, Interrupted %v, Halted %q", res.Complete(), res.Interrupted, res.Halted)
			}
		})
	}
}

// Response time is up to Probe.Respond, runtime up to the return; a run's
// runtime is the sum of its operations' runtimes.
func TestResponseAndRuntime(t *testing.T) {
	responder := &fnOp{name: "responder", fn: func(_ context.Context, p *workload.Probe, _ int64) error {
		time.Sleep(2 * time.Millisecond)
		p.Respond()
		time.Sleep(5 * time.Millisecond)
		p.Respond() // ignored
		p.Results(2)
		return nil
	}}
	silent := &fnOp{name: "silent", fn: func(_ context.Context, p *workload.Probe, _ int64) error {
		spinIgnoringCtx(50 * time.Microsecond)
		p.Results(3)
		p.Results(4)
		return nil
	}}
	cfg := testConfig(4)
	res := mustRun(t, cfg, workload.Mix{responder, silent})

	for _, x := range res.Executions {
		switch x.Op {
		case 0:
			if x.Response < 2*time.Millisecond || x.Runtime-x.Response < 5*time.Millisecond {
				t.Errorf("responder: response %v, runtime %v; want response >= 2ms and runtime >= response+5ms", x.Response, x.Runtime)
			}
			if x.Results != 2 {
				t.Errorf("responder: %d results, want 2", x.Results)
			}
		case 1:
			if x.Response != x.Runtime {
				t.Errorf("silent: response %v != runtime %v", x.Response, x.Runtime)
			}
			if x.Runtime < 50*time.Microsecond {
				t.Errorf("silent: runtime %v below its 50µs spin", x.Runtime)
			}
			if x.Results != 7 {
				t.Errorf("silent: %d results, want 7", x.Results)
			}
		}
		if x.Failed() {
			t.Errorf("execution %+v failed", x)
		}
	}
	for i, r := range res.Runs {
		var rt, resp time.Duration
		var results int64
		for _, x := range res.Executions[2*i : 2*i+2] {
			rt += x.Runtime
			resp += x.Response
			results += x.Results
		}
		if r.Runtime != rt || r.Response != resp || r.Results != results {
			t.Errorf("run %d: runtime %v, response %v, results %d; its executions add up to %v, %v, %d",
				r.Run, r.Runtime, r.Response, r.Results, rt, resp, results)
		}
		if first := res.Executions[2*i].Start; r.Start != first {
			t.Errorf("run %d starts at %v, its first execution at %v", r.Run, r.Start, first)
		}
	}
	ops := res.Operations
	if ops[0].Stats.Results != 8 || ops[1].Stats.Results != 28 || res.Mix.Stats.Results != 36 {
		t.Errorf("results %d, %d, mix %d; want 8, 28, 36", ops[0].Stats.Results, ops[1].Stats.Results, res.Mix.Stats.Results)
	}
	if ops[0].Stats.AvgResults != 2 || ops[1].Stats.AvgResults != 7 || res.Mix.Stats.AvgResults != 9 {
		t.Errorf("average results %v, %v, mix %v; want 2, 7, 9", ops[0].Stats.AvgResults, ops[1].Stats.AvgResults, res.Mix.Stats.AvgResults)
	}
	if s := ops[0].Stats; s.Response.Total >= s.Runtime.Total || s.Response.Count != 4 || s.Runtime.Count != 4 {
		t.Errorf("responder: response total %v, runtime total %v, counts %d, %d", s.Response.Total, s.Runtime.Total, s.Response.Count, s.Runtime.Count)
	}
	if s := ops[1].Stats; s.Response != s.Runtime {
		t.Errorf("silent: response summary %+v differs from runtime summary %+v", s.Response, s.Runtime)
	}
	if res.Unit != "results" {
		t.Errorf("Unit = %q, want results", res.Unit)
	}
}

// failure makes an error with a category of its own.
type failure struct{ cat string }

func (f failure) Error() string    { return "failed: " + f.cat }
func (f failure) Category() string { return f.cat }

func TestFailureCategories(t *testing.T) {
	errBoom := errors.New("boom")
	tests := []struct {
		name     string
		timeout  time.Duration
		fn       func(ctx context.Context, p *workload.Probe, call int64) error
		cat      string
		failures int64 // of 6 runs
		msg      string
	}{
		{
			name: "error every other call", cat: workload.CategoryError, failures: 3, msg: "boom",
			fn: func(_ context.Context, _ *workload.Probe, n int64) error {
				if n%2 == 0 {
					return fmt.Errorf("call %d: %w", n, errBoom)
				}
				return nil
			},
		},
		{
			name: "panic every third call", cat: workload.CategoryPanic, failures: 2, msg: "kaboom",
			fn: func(_ context.Context, _ *workload.Probe, n int64) error {
				if n%3 == 1 {
					panic("kaboom")
				}
				return nil
			},
		},
		{
			name: "sleep past the timeout", timeout: 2 * time.Millisecond, cat: workload.CategoryTimeout, failures: 6,
			msg: context.DeadlineExceeded.Error(),
			fn: func(ctx context.Context, _ *workload.Probe, _ int64) error {
				return sleepCtx(ctx, 50*time.Millisecond)
			},
		},
		{
			// time.Sleep does not look at the context.
			name: "sleep past the timeout ignoring the context", timeout: 50 * time.Millisecond, cat: workload.CategoryTimeout,
			failures: 3, msg: "without noticing its context",
			fn: func(_ context.Context, _ *workload.Probe, n int64) error {
				if n%2 == 1 {
					time.Sleep(150 * time.Millisecond)
				}
				return nil
			},
		},
		{
			name: "custom category", cat: "throttled", failures: 2, msg: "failed: throttled",
			fn: func(_ context.Context, _ *workload.Probe, n int64) error {
				if n == 1 || n == 4 {
					return fmt.Errorf("wrapped: %w", failure{"throttled"})
				}
				return nil
			},
		},
		{
			name: "empty custom category is an error", cat: workload.CategoryError, failures: 1, msg: "failed: ",
			fn: func(_ context.Context, _ *workload.Probe, n int64) error {
				if n == 0 {
					return failure{""}
				}
				return nil
			},
		},
	}
	// In a bubble: on the real clock, a no-op descheduled for 2ms would
	// count as a timeout.
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			inBubble(t, func(t *testing.T) {
				op := &fnOp{name: "op", fn: tt.fn}
				cfg := testConfig(6)
				cfg.Timeout = tt.timeout
				res := mustRun(t, cfg, workload.Mix{op, named("ok")})
				if len(res.Runs) != 6 || !res.Complete() {
					t.Fatalf("%d runs, complete %v: a failure must not stop the benchmark", len(res.Runs), res.Complete())
				}
				s := res.Operations[0].Stats
				if s.Runs != 6 || s.Errors != tt.failures || s.ErrorsByCategory[tt.cat] != tt.failures || len(s.ErrorsByCategory) != 1 {
					t.Errorf("Runs %d, Errors %d, ErrorsByCategory %v; want 6, %d, map[%s:%d]", s.Runs, s.Errors, s.ErrorsByCategory, tt.failures, tt.cat, tt.failures)
				}
				if ok := 6 - tt.failures; s.Runtime.Count != ok || s.Response.Count != ok || res.Operations[0].Runtime.Count() != ok {
					t.Errorf("Runtime.Count %d, Response.Count %d, recorder %d; want the %d successful executions",
						s.Runtime.Count, s.Response.Count, res.Operations[0].Runtime.Count(), ok)
				}
				if msg := res.Operations[0].FirstError[tt.cat]; !strings.Contains(msg, tt.msg) {
					t.Errorf("FirstError[%q] = %q, want it to contain %q", tt.cat, msg, tt.msg)
				}
				if fe := res.Operations[1].FirstError; fe != nil || res.Operations[1].Stats.Errors != 0 {
					t.Errorf("the other operation has FirstError %v, %d errors", fe, res.Operations[1].Stats.Errors)
				}
				ms := res.Mix.Stats
				if ms.Runs != 6 || ms.Errors != tt.failures || ms.ErrorsByCategory[tt.cat] != tt.failures {
					t.Errorf("mix: Runs %d, Errors %d, ErrorsByCategory %v; want 6, %d runs failed", ms.Runs, ms.Errors, ms.ErrorsByCategory, tt.failures)
				}
				if ms.Runtime.Count != 6-tt.failures || res.Mix.Runtime.Count() != 6-tt.failures || res.Mix.Response.Count() != 6-tt.failures {
					t.Errorf("mix: Runtime.Count %d, recorders %d, %d; want %d runs without failure",
						ms.Runtime.Count, res.Mix.Runtime.Count(), res.Mix.Response.Count(), 6-tt.failures)
				}
				var failedExecs, failedRuns int
				for _, r := range res.Runs {
					failedExecs += r.Errors
					if r.Errors > 0 {
						failedRuns++
					}
				}
				if failedExecs != int(tt.failures) || failedRuns != int(tt.failures) {
					t.Errorf("runs record %d failed executions in %d runs, want %d", failedExecs, failedRuns, tt.failures)
				}
				for _, x := range res.Executions {
					if x.Failed() && res.Categories[x.Category] != tt.cat {
						t.Errorf("execution %+v failed as %q", x, res.Categories[x.Category])
					}
					if x.Failed() && x.Op != 0 {
						t.Errorf("execution %+v of the other operation failed", x)
					}
				}
				if res.Categories[0] != "" {
					t.Errorf("Categories[0] = %q, want \"\" (success)", res.Categories[0])
				}
			})
		})
	}
}

// A mix run counts once in the mix's Errors however many of its operations
// failed, and once under each category it failed with.
func TestMixErrorsCountRuns(t *testing.T) {
	fail := &fnOp{name: "fail", fn: func(_ context.Context, p *workload.Probe, _ int64) error {
		p.Results(10)
		return errors.New("no")
	}}
	fail2 := &fnOp{name: "fail", fn: func(_ context.Context, _ *workload.Probe, n int64) error {
		if n%2 == 0 {
			panic("no")
		}
		return errors.New("no")
	}}
	good := &fnOp{name: "good", fn: func(_ context.Context, p *workload.Probe, n int64) error {
		p.Results(1)
		if n == 0 {
			return errors.New("first call fails")
		}
		return nil
	}}
	// Every run fails twice: fail with an error, fail#2 with a panic in
	// runs 1 and 3 and an error in runs 2 and 4.
	res := mustRun(t, testConfig(4), workload.Mix{fail, fail2})
	ms := res.Mix.Stats
	if ms.Runs != 4 || ms.Errors != 4 {
		t.Errorf("mix: Runs %d, Errors %d; want 4 runs, all 4 failed", ms.Runs, ms.Errors)
	}
	if want := map[string]int64{"error": 4, "panic": 2}; !equalCounts(ms.ErrorsByCategory, want) {
		t.Errorf("mix: ErrorsByCategory %v, want %v (runs per category)", ms.ErrorsByCategory, want)
	}
	if ms.AvgResults != 0 || ms.Runtime.Count != 0 {
		t.Errorf("mix: AvgResults %v, Runtime.Count %d with no successful run", ms.AvgResults, ms.Runtime.Count)
	}
	if res.Operations[1].Name != "fail#2" {
		t.Errorf("second position named %q, want fail#2", res.Operations[1].Name)
	}

	res = mustRun(t, testConfig(4), workload.Mix{good, named("x")})
	ms = res.Mix.Stats
	if ms.Runs != 4 || ms.Errors != 1 || ms.Results != 3 || ms.AvgResults != 1 {
		t.Errorf("mix: Runs %d, Errors %d, Results %d, AvgResults %v; want 4, 1, 3, 1", ms.Runs, ms.Errors, ms.Results, ms.AvgResults)
	}
}

func equalCounts(a, b map[string]int64) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// Cancelling the context passed to Run interrupts the operation in progress.
func TestInterrupt(t *testing.T) {
	tests := []struct {
		name    string
		timeout time.Duration
		cause   error
	}{
		{"no timeout", 0, nil},
		{"with timeout", time.Hour, nil},
		{"cause, no timeout", 0, errors.New("user pressed ^C")},
		{"cause, with timeout", time.Hour, errors.New("user pressed ^C")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			inBubble(t, func(t *testing.T) {
				ctx, cancel := context.WithCancelCause(t.Context())
				defer cancel(nil)
				started := make(chan struct{})
				var once sync.Once
				op := &fnOp{name: "sleep", fn: func(ctx context.Context, _ *workload.Probe, _ int64) error {
					once.Do(func() { close(started) })
					return sleepCtx(ctx, time.Hour)
				}}
				go func() {
					<-started
					time.Sleep(time.Millisecond)
					cancel(tt.cause)
				}()
				cfg := testConfig(5)
				cfg.Timeout = tt.timeout
				res := runWithin(t, 10*time.Second, func() *workload.Result {
					res, _ := workload.Run(ctx, cfg, workload.Mix{op, named("next")})
					return res
				})
				if res == nil {
					t.Fatal("Run failed")
				}
				if !res.Interrupted || res.Complete() {
					t.Errorf("Interrupted %v, Complete %v; want true, false", res.Interrupted, res.Complete())
				}
				if len(res.Runs) != 1 {
					t.Fatalf("%d runs recorded, want the 1 in progress", len(res.Runs))
				}
				s := res.Operations[0].Stats
				if s.ErrorsByCategory[workload.CategoryInterrupt] != 1 || s.Errors != 1 {
					t.Errorf("ErrorsByCategory %v, want interrupt: 1 (first error %v)", s.ErrorsByCategory, res.Operations[0].FirstError)
				}
				if res.Operations[0].FirstError[workload.CategoryInterrupt] == "" {
					t.Errorf("no first interrupt message: %v", res.Operations[0].FirstError)
				}
				if res.Mix.Stats.Errors != 1 || res.Mix.Stats.ErrorsByCategory[workload.CategoryInterrupt] != 1 {
					t.Errorf("mix: Errors %d, ErrorsByCategory %v", res.Mix.Stats.Errors, res.Mix.Stats.ErrorsByCategory)
				}
			})
		})
	}
}

func TestHalt(t *testing.T) {
	// Each op fails (in its own way) on its third call only.
	failOnThird := func(kind string) func(context.Context, *workload.Probe, int64) error {
		return func(ctx context.Context, _ *workload.Probe, n int64) error {
			if n != 2 {
				return nil
			}
			switch kind {
			case "error":
				return errors.New("third call")
			case "panic":
				panic("third call")
			case "timeout":
				return sleepCtx(ctx, time.Minute)
			case "throttled":
				return failure{"throttled"}
			}
			return nil
		}
	}
	tests := []struct {
		policy workload.HaltPolicy
		kind   string
		halts  bool
	}{
		{0, "error", false},
		{0, "panic", false},
		{0, "timeout", false},
		{0, "throttled", false},
		{workload.HaltOnError, "error", true},
		{workload.HaltOnError, "panic", true},
		{workload.HaltOnError, "timeout", false},
		{workload.HaltOnError, "throttled", true}, // an operation's own category of error
		{workload.HaltOnTimeout, "throttled", false},
		{workload.HaltOnTimeout, "error", false},
		{workload.HaltOnTimeout, "panic", false},
		{workload.HaltOnTimeout, "timeout", true},
		{workload.HaltOnError | workload.HaltOnTimeout, "timeout", true},
		{workload.HaltOnError | workload.HaltOnTimeout, "error", true},
		{workload.HaltAny, "error", true},
		{workload.HaltAny, "panic", true},
		{workload.HaltAny, "timeout", true},
		{workload.HaltAny, "throttled", true},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%d-%s", tt.policy, tt.kind), func(t *testing.T) {
			// In a bubble: on the real clock, a no-op descheduled for
			// 2ms would time out.
			inBubble(t, func(t *testing.T) {
				op := &fnOp{name: "op", fn: failOnThird(tt.kind)}
				cfg := testConfig(8)
				cfg.Halt, cfg.Timeout = tt.policy, 2*time.Millisecond
				if tt.kind != "timeout" {
					cfg.Timeout = time.Minute
				}
				res := mustRun(t, cfg, workload.Mix{op})
				if !tt.halts {
					if len(res.Runs) != 8 || res.Halted != "" || !res.Complete() {
						t.Errorf("%d runs, Halted %q, Complete %v; want 8 runs, no halt", len(res.Runs), res.Halted, res.Complete())
					}
					if res.Operations[0].Stats.Errors != 1 {
						t.Errorf("%d errors, want 1", res.Operations[0].Stats.Errors)
					}
					return
				}
				if len(res.Runs) != 3 || res.Complete() || res.Interrupted {
					t.Errorf("%d runs, Complete %v, Interrupted %v; want the 3 runs up to the failure, incomplete, not interrupted",
						len(res.Runs), res.Complete(), res.Interrupted)
				}
				if !strings.Contains(res.Halted, tt.kind) || !strings.Contains(res.Halted, "run 3") {
					t.Errorf("Halted = %q, want it to name %s and run 3", res.Halted, tt.kind)
				}
				if n := op.calls.Load(); n != 3 {
					t.Errorf("the operation ran %d times after halting at call 3", n)
				}
				if s := res.Mix.Stats; s.Runs != 3 || s.Errors != 1 || s.Runtime.Count != 2 {
					t.Errorf("mix: Runs %d, Errors %d, Runtime.Count %d; want 3, 1, 2", s.Runs, s.Errors, s.Runtime.Count)
				}
			})
		})
	}
}

// A halt stops after the run in which the failure occurred: the rest of that
// run still runs.
func TestHaltFinishesTheRun(t *testing.T) {
	op := &fnOp{name: "fail", fn: func(context.Context, *workload.Probe, int64) error { return errors.New("no") }}
	after := named("after")
	cfg := testConfig(5)
	cfg.Random, cfg.Halt = false, workload.HaltOnError
	res := mustRun(t, cfg, workload.Mix{op, after})
	if len(res.Runs) != 1 || after.calls.Load() != 1 || res.Halted == "" {
		t.Errorf("%d runs, the next operation ran %d times, Halted %q; want 1, 1, set", len(res.Runs), after.calls.Load(), res.Halted)
	}
}

func TestStop(t *testing.T) {
	t.Run("closed by an observer", func(t *testing.T) {
		stop := make(chan struct{})
		obs := observerFuncs{runEnd: func(ph workload.Phase, run int, _ *workload.RunRecord) {
			if ph == workload.Timed && run == 5 {
				close(stop)
			}
		}}
		cfg := testConfig(20)
		cfg.Warmups, cfg.Stop = 2, stop
		op := named("op")
		res := mustRun(t, cfg, workload.Mix{op, named("other")}, obs)
		checkStopped(t, res, 5, 5)
		if n := op.calls.Load(); n != 2+5 {
			t.Errorf("the operation ran %d times, want 2 warmups + 5 runs", n)
		}
		if res.Config.Stop != nil {
			t.Errorf("Result.Config.Stop is not cleared")
		}
	})
	t.Run("closed by another goroutine", func(t *testing.T) {
		stop := make(chan struct{})
		fifth := make(chan struct{})
		obs := observerFuncs{runEnd: func(ph workload.Phase, run int, _ *workload.RunRecord) {
			if ph == workload.Timed && run == 5 {
				close(fifth)
			}
		}}
		go func() {
			<-fifth
			close(stop)
		}()
		cfg := testConfig(40)
		cfg.Stop = stop
		op := &fnOp{name: "sleep", fn: func(ctx context.Context, _ *workload.Probe, _ int64) error {
			return sleepCtx(ctx, time.Millisecond)
		}}
		res := mustRun(t, cfg, workload.Mix{op}, obs)
		checkStopped(t, res, 5, 39)
	})
	t.Run("closed during warmups", func(t *testing.T) {
		stop := make(chan struct{})
		obs := observerFuncs{runEnd: func(ph workload.Phase, run int, _ *workload.RunRecord) {
			if ph == workload.Warmup && run == 2 {
				close(stop)
			}
		}}
		cfg := testConfig(10)
		cfg.Warmups, cfg.Stop = 5, stop
		op := named("op")
		res := mustRun(t, cfg, workload.Mix{op}, obs)
		if !res.Interrupted || len(res.Runs) != 0 || op.calls.Load() != 2 {
			t.Errorf("Interrupted %v, %d runs, %d calls; want true, 0, 2", res.Interrupted, len(res.Runs), op.calls.Load())
		}
	})
	t.Run("threads", func(t *testing.T) {
		stop := make(chan struct{})
		var once sync.Once
		obs := observerFuncs{runEnd: func(ph workload.Phase, run int, _ *workload.RunRecord) {
			if ph == workload.Timed && run >= 6 {
				once.Do(func() { close(stop) })
			}
		}}
		cfg := testConfig(100)
		cfg.Threads, cfg.Stop = 3, stop
		op := &fnOp{name: "sleep", fn: func(ctx context.Context, _ *workload.Probe, _ int64) error {
			return sleepCtx(ctx, time.Millisecond)
		}}
		res := mustRun(t, cfg, workload.Mix{op}, obs)
		checkStopped(t, res, 6, 8) // run 6 and at most the other two in progress
	})
}

// checkStopped checks a benchmark stopped after between lo and hi runs, and
// that its statistics cover exactly the runs kept.
func checkStopped(t *testing.T, res *workload.Result, lo, hi int) {
	t.Helper()
	n := len(res.Runs)
	if !res.Interrupted || res.Complete() || n < lo || n > hi {
		t.Fatalf("Interrupted %v, Complete %v, %d runs; want interrupted after %d to %d runs", res.Interrupted, res.Complete(), n, lo, hi)
	}
	for i, r := range res.Runs {
		if r.Run != i+1 {
			t.Errorf("Runs[%d].Run = %d, want %d", i, r.Run, i+1)
		}
	}
	k := res.Mix.Stats.OpsPerRun
	if len(res.Executions) != n*k {
		t.Errorf("%d executions for %d runs", len(res.Executions), n)
	}
	if ms := res.Mix.Stats; ms.Runs != int64(n) || ms.Runtime.Count != int64(n) || res.Mix.Runtime.Count() != int64(n) {
		t.Errorf("mix: Runs %d, Runtime.Count %d, recorder %d; want %d", ms.Runs, ms.Runtime.Count, res.Mix.Runtime.Count(), n)
	}
	var total time.Duration
	for _, r := range res.Runs {
		total += r.Runtime
	}
	if res.Mix.Stats.Runtime.Total != total {
		t.Errorf("mix runtime total %v, the kept runs add up to %v", res.Mix.Stats.Runtime.Total, total)
	}
	if s := res.Operations[0].Stats; s.Runs != int64(n) || s.Runtime.Count != int64(n) {
		t.Errorf("operation: Runs %d, Runtime.Count %d; want %d", s.Runs, s.Runtime.Count, n)
	}
	if res.P99.Runs != n {
		t.Errorf("P99 over %d runs, want %d", res.P99.Runs, n)
	}
}

// On the fake clock of a bubble, every thread takes a run at once (the
// clock moves on only when all of them wait), and the runs' sleeps overlap
// exactly.
func TestThreads(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		var mu sync.Mutex
		seen := map[int]int{}
		obs := observerFuncs{runEnd: func(ph workload.Phase, run int, r *workload.RunRecord) {
			if ph == workload.Timed {
				mu.Lock()
				seen[run]++
				mu.Unlock()
			}
		}}
		op := &fnOp{name: "sleep", fn: func(ctx context.Context, _ *workload.Probe, _ int64) error {
			return sleepCtx(ctx, 3*time.Millisecond)
		}}
		cfg := testConfig(40)
		cfg.Threads, cfg.Warmups = 4, 4
		res := mustRun(t, cfg, workload.Mix{op}, obs)
		if len(res.Runs) != 40 {
			t.Fatalf("%d runs, want 40", len(res.Runs))
		}
		threads := map[int]bool{}
		for i, r := range res.Runs {
			if r.Run != i+1 || seen[r.Run] != 1 {
				t.Errorf("Runs[%d].Run = %d, seen %d times by the observer", i, r.Run, seen[r.Run])
			}
			if r.Thread < 0 || r.Thread >= 4 {
				t.Errorf("run %d on thread %d", r.Run, r.Thread)
			}
			threads[r.Thread] = true
			if x := res.Executions[i]; int(x.Thread) != r.Thread || int(x.Run) != i {
				t.Errorf("execution %+v of run %d on thread %d", x, r.Run, r.Thread)
			}
		}
		if len(threads) != 4 {
			t.Errorf("40 runs of 3ms ran on %d of 4 threads", len(threads))
		}
		ms := res.Mix.Stats
		if ms.ActualRuntime == nil || res.Operations[0].Stats.ActualRuntime == nil {
			t.Fatalf("no ActualRuntime with 4 threads")
		}
		// Sleeps overlap: the time they cover is a quarter of their sum.
		if ms.ActualRuntime.Runtime != 30*time.Millisecond || ms.Runtime.Total != 120*time.Millisecond {
			t.Errorf("actual runtime %v, summed runtime %v; want 30ms, 120ms", ms.ActualRuntime.Runtime, ms.Runtime.Total)
		}
		if ms.Runtime.Kept != 40 {
			t.Errorf("mix runtime kept %d runs, want 40", ms.Runtime.Kept)
		}

		cfg.Threads = 1
		res = mustRun(t, cfg, workload.Mix{named("noop")})
		if res.Mix.Stats.ActualRuntime != nil || res.Operations[0].Stats.ActualRuntime != nil {
			t.Errorf("ActualRuntime set with 1 thread")
		}
	})
}

// cloneOp counts its clones, setups and teardowns, and checks that no
// instance runs in two goroutines at once.
type cloneOp struct {
	counts  *cloneCounts
	running atomic.Bool
}

type cloneCounts struct {
	clones, setups, teardowns, overlaps atomic.Int64
	instances                           sync.Map
}

func (c *cloneOp) Name() string { return "clone" }
func (c *cloneOp) Clone() workload.Operation {
	c.counts.clones.Add(1)
	return &cloneOp{counts: c.counts}
}
func (c *cloneOp) Setup(context.Context) error {
	c.counts.setups.Add(1)
	if _, dup := c.counts.instances.LoadOrStore(c, true); dup {
		c.counts.overlaps.Add(100) // set up twice
	}
	return nil
}
func (c *cloneOp) Teardown() error { c.counts.teardowns.Add(1); return nil }
func (c *cloneOp) Run(ctx context.Context, _ *workload.Probe) error {
	if !c.running.CompareAndSwap(false, true) {
		c.counts.overlaps.Add(1)
	}
	err := sleepCtx(ctx, 100*time.Microsecond)
	c.running.Store(false)
	return err
}

// setupOp is shared by every goroutine: set up and torn down once.
type setupOp struct{ setups, teardowns atomic.Int64 }

func (*setupOp) Name() string                               { return "shared" }
func (*setupOp) Run(context.Context, *workload.Probe) error { return nil }
func (s *setupOp) Setup(context.Context) error              { s.setups.Add(1); return nil }
func (s *setupOp) Teardown() error                          { s.teardowns.Add(1); return nil }

func TestClonesAndSetup(t *testing.T) {
	for _, threads := range []int{1, 2, 4} {
		t.Run(fmt.Sprint(threads), func(t *testing.T) {
			counts := &cloneCounts{}
			shared := &setupOp{}
			cfg := testConfig(20)
			cfg.Threads, cfg.Warmups = threads, 2
			mustRun(t, cfg, workload.Mix{&cloneOp{counts: counts}, shared})
			if got := counts.clones.Load(); got != int64(threads-1) {
				t.Errorf("%d clones, want one per extra thread: %d", got, threads-1)
			}
			if s, d := counts.setups.Load(), counts.teardowns.Load(); s != int64(threads) || d != int64(threads) {
				t.Errorf("%d setups, %d teardowns of the cloned operation; want %d each", s, d, threads)
			}
			if n := counts.overlaps.Load(); n != 0 {
				t.Errorf("an instance ran in two goroutines at once or was set up twice (%d)", n)
			}
			if s, d := shared.setups.Load(), shared.teardowns.Load(); s != 1 || d != 1 {
				t.Errorf("shared operation: %d setups, %d teardowns; want 1 each", s, d)
			}
		})
	}
}

type failingSetup struct{ setupOp }

func (*failingSetup) Setup(context.Context) error { return errors.New("no database") }

type failingTeardown struct{ setupOp }

func (*failingTeardown) Teardown() error { return errors.New("cannot close") }

func TestSetupAndTeardownErrors(t *testing.T) {
	res, err := workload.Run(t.Context(), testConfig(3), workload.Mix{named("a"), &failingSetup{}})
	if err == nil || res != nil || !strings.Contains(err.Error(), "no database") || !strings.Contains(err.Error(), "shared") {
		t.Errorf("failing Setup: Run = %v, %v; want nil and an error naming the operation", res, err)
	}
	res, err = workload.Run(t.Context(), testConfig(3), workload.Mix{&failingTeardown{}})
	if err == nil || res == nil || len(res.Runs) != 3 || !strings.Contains(err.Error(), "cannot close") {
		t.Errorf("failing Teardown: Run = %v, %v; want the result and the teardown error", res, err)
	}
}

// Positions with the same name are told apart; Uniter and Describer are
// reported.
type unitOp struct{ fnOp }

func (*unitOp) Unit() string     { return "objects" }
func (*unitOp) Describe() string { return "size=8" }

func TestOperationNames(t *testing.T) {
	u := &unitOp{fnOp{name: "list", fn: func(_ context.Context, p *workload.Probe, _ int64) error {
		p.Results(5)
		return nil
	}}}
	var begun workload.Begin
	obs := beginObserver{&begun}
	res := mustRun(t, testConfig(3), workload.Mix{named("a"), u, named("a"), named("a")}, obs)
	want := []string{"a", "list", "a#2", "a#3"}
	for i, op := range res.Operations {
		if op.Name != want[i] {
			t.Errorf("Operations[%d].Name = %q, want %q", i, op.Name, want[i])
		}
		if begun.Operations[i] != want[i] {
			t.Errorf("Begin.Operations[%d] = %q, want %q", i, begun.Operations[i], want[i])
		}
	}
	if op := res.Operations[1]; op.Unit != "objects" || op.Params != "size=8" {
		t.Errorf("Unit %q, Params %q; want objects, size=8", op.Unit, op.Params)
	}
	if op := res.Operations[0]; op.Unit != "results" || op.Params != "" {
		t.Errorf("Unit %q, Params %q; want results, empty", op.Unit, op.Params)
	}
	if res.Unit != "results" { // mixed units
		t.Errorf("Result.Unit %q, want results", res.Unit)
	}
	if res.P99.PerRun != 5 {
		t.Errorf("P99.PerRun %v, want 5 results per run", res.P99.PerRun)
	}
	res = mustRun(t, testConfig(3), workload.Mix{u})
	if res.Unit != "objects" {
		t.Errorf("Result.Unit %q, want objects", res.Unit)
	}
	res = mustRun(t, testConfig(3), workload.Mix{named("a")})
	if res.Unit != "runs" || res.P99.PerRun != 1 {
		t.Errorf("without results: Unit %q, P99.PerRun %v; want runs, 1", res.Unit, res.P99.PerRun)
	}
}

type beginObserver struct{ b *workload.Begin }

func (o beginObserver) Begin(b workload.Begin)                        { *o.b = b }
func (beginObserver) End(*workload.Result)                            {}
func (beginObserver) RunStart(workload.Phase, int)                    {}
func (beginObserver) RunEnd(workload.Phase, int, *workload.RunRecord) {}

// Outliers are dropped from the mean-based statistics.
// In a bubble, the other runs take no time at all.
func TestOutliers(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		op := &fnOp{name: "op", fn: func(_ context.Context, _ *workload.Probe, n int64) error {
			if n == 3 {
				time.Sleep(20 * time.Millisecond)
			}
			return nil
		}}
		cfg := testConfig(9)
		cfg.Outliers = 2
		res := mustRun(t, cfg, workload.Mix{op})
		s := res.Mix.Stats.Runtime
		if s.Count != 9 || s.Discarded != 2 || s.Kept != 5 {
			t.Errorf("Count %d, Discarded %d, Kept %d; want 9, 2, 5", s.Count, s.Discarded, s.Kept)
		}
		if s.Max != 0 || s.Percentiles.Max != 20*time.Millisecond {
			t.Errorf("kept max %v, percentile max %v: the 20ms run must be dropped from the first only", s.Max, s.Percentiles.Max)
		}
	})
}

// TestInterruptByDeadline: when the caller's own context reaches its
// deadline, the operation in progress was interrupted, not timed out, even
// with a per-operation timeout set.
func TestInterruptByDeadline(t *testing.T) {
	for _, timeout := range []time.Duration{0, time.Hour} {
		inBubble(t, func(t *testing.T) {
			// On the fake clock, the first timed run starts at 0 and its
			// operation blocks until the deadline.
			ctx, cancel := context.WithTimeout(t.Context(), 300*time.Millisecond)
			defer cancel()
			op := &fnOp{name: "sleep", fn: func(ctx context.Context, _ *workload.Probe, _ int64) error {
				return sleepCtx(ctx, time.Hour)
			}}
			cfg := testConfig(5)
			cfg.Timeout = timeout
			res := runWithin(t, 10*time.Second, func() *workload.Result {
				res, _ := workload.Run(ctx, cfg, workload.Mix{op})
				return res
			})
			s := res.Operations[0].Stats
			if !res.Interrupted || s.ErrorsByCategory[workload.CategoryInterrupt] != 1 || s.Errors != 1 {
				t.Errorf("timeout %v: Interrupted %v, ErrorsByCategory %v; want interrupted, interrupt: 1",
					timeout, res.Interrupted, s.ErrorsByCategory)
			}
		})
	}
}

// TestStopAfterLastRun: a stop that comes once every run is done
// interrupted nothing.
func TestStopAfterLastRun(t *testing.T) {
	stop := make(chan struct{})
	obs := observerFuncs{runEnd: func(ph workload.Phase, run int, _ *workload.RunRecord) {
		if ph == workload.Timed && run == 4 {
			close(stop)
		}
	}}
	cfg := testConfig(4)
	cfg.Random = false
	cfg.Stop = stop
	res := mustRun(t, cfg, workload.Mix{named("op")}, obs)
	if res.Interrupted || !res.Complete() || len(res.Runs) != 4 {
		t.Errorf("Interrupted %v, Complete %v, %d runs; want false, true, 4", res.Interrupted, res.Complete(), len(res.Runs))
	}
}

// A context closed by a timeout stays closed, even after the goroutine's
// next operation started: something the timed-out operation left running
// must still see it done.
//
// In a bubble: on the real clock, a no-op descheduled for 2ms would time
// out.
func TestTimedOutContextStaysClosed(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		var held context.Context
		var reopened atomic.Int64
		op := &fnOp{name: "op", fn: func(ctx context.Context, _ *workload.Probe, n int64) error {
			if held != nil && (held.Err() == nil || !isClosed(held.Done())) {
				reopened.Add(1)
			}
			if n%2 == 0 {
				held = ctx
				<-ctx.Done() // times out
				return ctx.Err()
			}
			return nil
		}}
		cfg := testConfig(10)
		cfg.Timeout = 2 * time.Millisecond
		res := mustRun(t, cfg, workload.Mix{op})
		if n := res.Operations[0].Stats.ErrorsByCategory[workload.CategoryTimeout]; n != 5 {
			t.Errorf("%d timeouts, want 5", n)
		}
		if n := reopened.Load(); n != 0 {
			t.Errorf("a timed-out context was open again %d times", n)
		}
	})
}

func isClosed(c <-chan struct{}) bool {
	select {
	case <-c:
		return true
	default:
		return false
	}
}

// A Setup that fails on the third goroutine's clone undoes the setups
// that succeeded before it.
type setupCounter struct {
	fnOp
	id                *int
	setups, teardowns *atomic.Int64
}

func (s *setupCounter) Clone() workload.Operation {
	*s.id++
	return &setupCounter{fnOp: fnOp{name: s.name}, id: s.id, setups: s.setups, teardowns: s.teardowns}
}
func (s *setupCounter) Setup(context.Context) error {
	if s.setups.Load() == 2 {
		return errors.New("out of connections")
	}
	s.setups.Add(1)
	return nil
}
func (s *setupCounter) Teardown() error { s.teardowns.Add(1); return nil }

func TestSetupFailureUndoes(t *testing.T) {
	var setups, teardowns atomic.Int64
	id := 0
	op := &setupCounter{fnOp: fnOp{name: "db"}, id: &id, setups: &setups, teardowns: &teardowns}
	cfg := testConfig(4)
	cfg.Threads = 4
	res, err := workload.Run(t.Context(), cfg, workload.Mix{op})
	if res != nil || err == nil || !strings.Contains(err.Error(), "out of connections") {
		t.Fatalf("Run = %v, %v; want no result and the setup error", res, err)
	}
	if setups.Load() != 2 || teardowns.Load() != 2 {
		t.Errorf("%d setups, %d teardowns; want the 2 that succeeded torn down", setups.Load(), teardowns.Load())
	}
}

// The mix's actual runtime is the wall time of its runs without failures,
// the same runs its mean and rates count.
func TestMixActualCoversSuccessfulRuns(t *testing.T) {
	flaky := &fnOp{name: "flaky", fn: func(ctx context.Context, _ *workload.Probe, n int64) error {
		time.Sleep(time.Millisecond)
		if n%2 == 0 {
			return errors.New("every other call")
		}
		return nil
	}}
	cfg := testConfig(20)
	cfg.Threads = 2
	res := mustRun(t, cfg, workload.Mix{flaky, named("ok")})
	// The union, computed here from the intervals of the executions of the
	// runs without errors.
	type iv struct{ s, e time.Duration }
	var ivs []iv
	ok := 0
	for i, r := range res.Runs {
		if r.Errors > 0 {
			continue
		}
		ok++
		for _, x := range res.Executions[i*2 : i*2+2] {
			ivs = append(ivs, iv{x.Start, x.Start + x.Runtime})
		}
	}
	slices.SortFunc(ivs, func(a, b iv) int { return cmp.Compare(a.s, b.s) })
	var want, end time.Duration
	for _, x := range ivs {
		switch {
		case x.s >= end:
			want += x.e - x.s
			end = x.e
		case x.e > end:
			want += x.e - end
			end = x.e
		}
	}
	a := res.Mix.Stats.ActualRuntime
	if ok == 0 || ok == len(res.Runs) {
		t.Fatalf("%d of %d runs succeeded; the test needs some of each", ok, len(res.Runs))
	}
	if a == nil || a.Runtime != want || a.Mean != want/time.Duration(ok) {
		t.Errorf("actual %+v; want runtime %v over the %d successful runs, mean %v", a, want, ok, want/time.Duration(ok))
	}
}

// The process's counters are read just before and just after the timed
// runs: pages first touched inside them are minor faults between the two.
func TestProcessCountersAroundTimedRuns(t *testing.T) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("no /proc:", err)
	}
	var keep [][]byte
	touch := &fnOp{name: "touch", fn: func(context.Context, *workload.Probe, int64) error {
		b := make([]byte, 1<<20)
		for i := range b {
			b[i] = 1
		}
		keep = append(keep, b)
		return nil
	}}
	res, err := workload.Run(t.Context(), testConfig(8), workload.Mix{touch})
	if err != nil {
		t.Fatal(err)
	}
	b, a := res.ProcessBefore, res.ProcessAfter
	// VmHWM is not monotonic as read: the kernel reports max(hiwater, rss)
	// and updates hiwater lazily (at munmap), so a peak seen once as rss
	// can read lower later, once the scavenger returned memory. Only its
	// presence is checked.
	if b.RSSBytes == 0 || a.PeakRSSBytes == 0 || a.MinorFaults < b.MinorFaults+8 || a.UserCPU < b.UserCPU {
		t.Errorf("%dMiB touched in the timed runs:\nbefore %+v\n after %+v", len(keep), b, a)
	}
}

// The GC summary splits the pauses' time: the part spent stopping the world
// (from the decision to stop until every P stopped) is within it, and the
// heap's objects are read at the end whatever the collector marked.
func TestGCSummaryStoppingAndHeapObjects(t *testing.T) {
	collect := &fnOp{name: "gc", fn: func(context.Context, *workload.Probe, int64) error {
		runtime.GC()
		return nil
	}}
	for _, mode := range []workload.GCStats{workload.GCStatsRun, workload.GCStatsTotal} {
		cfg := testConfig(3)
		cfg.GCStats = mode
		res, err := workload.Run(t.Context(), cfg, workload.Mix{collect})
		if err != nil {
			t.Fatal(err)
		}
		g := res.GC
		if g.Pauses < 6 || g.Stopping <= 0 || g.Stopping > g.STW {
			t.Errorf("-gcstats %v: %d pauses totalling %v, stopping %v; want at least 6, stopping in (0, STW]", mode, g.Pauses, g.STW, g.Stopping)
		}
		if g.HeapObjects == 0 || g.HeapLive == 0 {
			t.Errorf("-gcstats %v: heap objects %d, live %d after forced cycles; want both > 0", mode, g.HeapObjects, g.HeapLive)
		}
	}
}
