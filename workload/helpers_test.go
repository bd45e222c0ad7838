package workload_test

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/gcperf/gcperf/workload"
)

// testConfig is a small single-threaded configuration: no warmups, no
// outliers, in random order with a fixed seed.
func testConfig(runs int) workload.Config {
	c := workload.DefaultConfig()
	c.Warmups, c.Runs, c.Outliers, c.Seed = 0, runs, 0, 1
	return c
}

// fnOp is a test operation: it counts its calls and runs fn, which gets the
// 0-based number of the call.
type fnOp struct {
	name  string
	fn    func(ctx context.Context, p *workload.Probe, call int64) error
	calls atomic.Int64
}

func (o *fnOp) Name() string { return o.name }
func (o *fnOp) Run(ctx context.Context, p *workload.Probe) error {
	n := o.calls.Add(1) - 1
	if o.fn == nil {
		return nil
	}
	return o.fn(ctx, p, n)
}

func named(name string) *fnOp { return &fnOp{name: name} }

// recorder is a mix whose operations append their names to a shared log.
type recorder struct {
	mu  sync.Mutex
	log []string
}

type recOp struct {
	name string
	r    *recorder
}

func (o recOp) Name() string { return o.name }
func (o recOp) Run(context.Context, *workload.Probe) error {
	o.r.mu.Lock()
	o.r.log = append(o.r.log, o.name)
	o.r.mu.Unlock()
	return nil
}

func (r *recorder) mix(names ...string) workload.Mix {
	m := make(workload.Mix, len(names))
	for i, n := range names {
		m[i] = recOp{name: n, r: r}
	}
	return m
}

// distinctMix returns n no-op operations named a, b, c...
func distinctMix(n int) workload.Mix {
	m := make(workload.Mix, n)
	for i := range m {
		m[i] = named(string(rune('a' + i)))
	}
	return m
}

// sleepCtx sleeps for d or until ctx is done.
func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// spinIgnoringCtx busy-waits for d without looking at any context.
func spinIgnoringCtx(d time.Duration) {
	start := time.Now()
	for time.Since(start) < d {
	}
}

// inBubble runs f in a testing/synctest bubble: its clock is fake and
// advances only when every goroutine of the bubble is blocked, so what the
// engine measures of an operation that sleeps is exactly what it slept, and
// a wait that would take hours takes none. The open loop sleeps only
// (workload.SleepOnlyOpenLoop): spinning on a clock that stands still never
// ends. Nothing in f may spin on the clock either.
func inBubble(t *testing.T, f func(t *testing.T)) {
	t.Helper()
	workload.SleepOnlyOpenLoop(t)
	synctest.Test(t, f)
}

// mustRun runs a benchmark that must not fail to start.
func mustRun(t *testing.T, cfg workload.Config, mix workload.Mix, obs ...workload.Observer) *workload.Result {
	t.Helper()
	res, err := workload.Run(context.Background(), cfg, mix, obs...)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	return res
}

// runWithin runs f in a goroutine and fails the test if it has not returned
// after d (the reference tool looped forever on some configurations).
func runWithin[T any](t *testing.T, d time.Duration, f func() T) T {
	t.Helper()
	done := make(chan T, 1)
	go func() { done <- f() }()
	select {
	case v := <-done:
		return v
	case <-time.After(d):
		t.Fatalf("did not return within %v", d)
		panic("unreachable")
	}
}

// orders returns the operation indexes of each timed run, by 1-based run
// number, read from Result.Executions.
func orders(t *testing.T, res *workload.Result) map[int][]int {
	t.Helper()
	k := res.Mix.Stats.OpsPerRun
	if len(res.Executions) != len(res.Runs)*k {
		t.Fatalf("%d executions for %d runs of %d operations", len(res.Executions), len(res.Runs), k)
	}
	out := make(map[int][]int, len(res.Runs))
	for i, r := range res.Runs {
		for _, x := range res.Executions[i*k : (i+1)*k] {
			if int(x.Run)+1 != r.Run {
				t.Fatalf("execution of run index %d grouped under run %d", x.Run, r.Run)
			}
			out[r.Run] = append(out[r.Run], int(x.Op))
		}
	}
	return out
}

// observerFuncs is an Observer made of optional functions.
type observerFuncs struct {
	runStart func(workload.Phase, int)
	runEnd   func(workload.Phase, int, *workload.RunRecord)
}

func (o observerFuncs) Begin(workload.Begin) {}
func (o observerFuncs) End(*workload.Result) {}
func (o observerFuncs) RunStart(ph workload.Phase, run int) {
	if o.runStart != nil {
		o.runStart(ph, run)
	}
}
func (o observerFuncs) RunEnd(ph workload.Phase, run int, r *workload.RunRecord) {
	if o.runEnd != nil {
		o.runEnd(ph, run, r)
	}
}
