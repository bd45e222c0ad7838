package workload_test

import (
	"context"
	"errors"
	"math"
	"testing"
	"time"
	"unsafe"

	"github.com/gcperf/gcperf/workload"
)

func TestDefaultConfig(t *testing.T) {
	got := workload.DefaultConfig()
	want := workload.Config{Warmups: 5, Runs: 25, Outliers: 1, Threads: 1, Random: true}
	if got != want {
		t.Errorf("DefaultConfig() = %+v, want %+v", got, want)
	}
	if err := got.Validate(1); err != nil {
		t.Errorf("DefaultConfig().Validate(1) = %v", err)
	}
}

func TestValidate(t *testing.T) {
	with := func(f func(*workload.Config)) workload.Config {
		c := workload.DefaultConfig()
		f(&c)
		return c
	}
	tests := []struct {
		name  string
		cfg   workload.Config
		mix   int
		field string // "" when valid
	}{
		{"default", workload.DefaultConfig(), 3, ""},
		{"one run", with(func(c *workload.Config) { c.Runs, c.Outliers = 1, 0 }), 1, ""},
		{"runs 0", with(func(c *workload.Config) { c.Runs, c.Outliers = 0, 0 }), 3, "runs"},
		{"runs negative", with(func(c *workload.Config) { c.Runs = -3 }), 3, "runs"},
		{"warmups negative", with(func(c *workload.Config) { c.Warmups = -1 }), 3, "warmup"},
		{"warmups 0", with(func(c *workload.Config) { c.Warmups = 0 }), 3, ""},
		{"outliers negative", with(func(c *workload.Config) { c.Outliers = -1 }), 3, "outliers"},
		{"outliers 2*o == runs", with(func(c *workload.Config) { c.Runs, c.Outliers = 4, 2 }), 3, "outliers"},
		{"outliers 2*o > runs", with(func(c *workload.Config) { c.Runs, c.Outliers = 3, 2 }), 3, "outliers"},
		{"outliers 2*o == runs-1", with(func(c *workload.Config) { c.Runs, c.Outliers = 5, 2 }), 3, ""},
		{"outliers 0 with 1 run", with(func(c *workload.Config) { c.Runs, c.Outliers = 1, 0 }), 3, ""},
		{"threads 0", with(func(c *workload.Config) { c.Threads = 0 }), 3, "threads"},
		{"threads 4", with(func(c *workload.Config) { c.Threads = 4 }), 3, ""},
		{"sample negative", with(func(c *workload.Config) { c.Sample = -1 }), 3, "sample"},
		{"sample > mix without repeats", with(func(c *workload.Config) { c.Sample = 4 }), 3, "sample"},
		{"sample == mix without repeats", with(func(c *workload.Config) { c.Sample = 3 }), 3, ""},
		{"sample > mix with repeats", with(func(c *workload.Config) { c.Sample, c.Repeats = 7, true }), 3, ""},
		{"sample > mix in order without repeats", with(func(c *workload.Config) { c.Sample, c.Random = 4, false }), 3, "sample"},
		{"delay negative", with(func(c *workload.Config) { c.MaxDelay = -time.Nanosecond }), 3, "delay"},
		{"delay positive", with(func(c *workload.Config) { c.MaxDelay = time.Millisecond }), 3, ""},
		{"timeout negative", with(func(c *workload.Config) { c.Timeout = -time.Second }), 3, "timeout"},
		{"timeout positive", with(func(c *workload.Config) { c.Timeout = time.Second }), 3, ""},
		{"empty mix", workload.DefaultConfig(), 0, "mix"},
		{"too many executions", with(func(c *workload.Config) { c.Runs = 1 << 30 }), 3, "runs"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.cfg.Validate(tt.mix)
			if tt.field == "" {
				if err != nil {
					t.Fatalf("Validate(%d) = %v, want nil", tt.mix, err)
				}
				return
			}
			if err == nil {
				t.Fatalf("Validate(%d) = nil, want an error on %q", tt.mix, tt.field)
			}
			if !errors.Is(err, workload.ErrConfig) {
				t.Errorf("error %v does not wrap ErrConfig", err)
			}
			var ce *workload.ConfigError
			if !errors.As(err, &ce) {
				t.Fatalf("error %v is not a *ConfigError", err)
			}
			if ce.Field != tt.field {
				t.Errorf("Field = %q, want %q (error %v)", ce.Field, tt.field, err)
			}
		})
	}
}

// Run refuses an invalid configuration with an error wrapping ErrConfig,
// before running anything.
func TestRunRejectsInvalidConfig(t *testing.T) {
	op := named("a")
	cfg := testConfig(0)
	res, err := workload.Run(t.Context(), cfg, workload.Mix{op})
	if !errors.Is(err, workload.ErrConfig) || res != nil {
		t.Fatalf("Run with runs=0 = %v, %v; want nil, ErrConfig", res, err)
	}
	if n := op.calls.Load(); n != 0 {
		t.Errorf("the operation ran %d times", n)
	}
}

func TestOpsPerRun(t *testing.T) {
	tests := []struct {
		sample, n, want int
	}{
		{0, 3, 3}, {2, 3, 2}, {5, 3, 5}, {0, 1, 1},
	}
	for _, tt := range tests {
		c := workload.Config{Sample: tt.sample}
		if got := c.OpsPerRun(tt.n); got != tt.want {
			t.Errorf("Config{Sample: %d}.OpsPerRun(%d) = %d, want %d", tt.sample, tt.n, got, tt.want)
		}
	}
}

// Footprint grows by one Execution per operation run and one RunRecord per
// run kept, and one RunRecord per run among the slowest kept whole: 3*48 +
// 2*232 bytes per run for a mix of 3 on 64-bit platforms (a RunRecord is
// 64 bytes of its own, a 112-byte runstats.GCDelta and a 56-byte
// runstats.RunDelta); past KeepRuns and MaxWorst+1, nothing.
func TestFootprint(t *testing.T) {
	if unsafe.Sizeof(uintptr(0)) != 8 {
		t.Skip("sizes hand-computed for 64-bit platforms")
	}
	c := workload.Config{Runs: 1, Threads: 1}
	one := c.Footprint(3)
	c.Runs = 2
	if got := c.Footprint(3) - one; got != 3*48+2*232 {
		t.Errorf("Footprint per run = %d, want %d", got, 3*48+2*232)
	}
	c.KeepRuns, c.Runs = 10, 10
	ten := c.Footprint(3)
	for _, runs := range []int{11, 1e6, 1e9} {
		c.Runs = runs
		if got, want := c.Footprint(3)-ten, int64(min(runs, workload.MaxWorst+1)-10)*232; got != want {
			t.Errorf("%d runs, 10 kept: Footprint grows by %d, want %d (the slowest runs kept whole)", runs, got, want)
		}
	}
	c.KeepRuns = 0
	c.Runs, c.Threads = 1, 2
	perThread := c.Footprint(3) - one
	if want := int64(8*workload.HistResident + workload.StackResident); perThread != want { // 2*3+2 histograms per goroutine
		t.Errorf("Footprint per thread = %d, want 8 histograms and a stack, %d", perThread, want)
	}
	c.Threads = 3
	if got := c.Footprint(3) - one; got != 2*perThread {
		t.Errorf("Footprint of 2 extra threads = %d, want %d", got, 2*perThread)
	}
}

// fatOp keeps n bytes alive; fatCloner is one that clones itself per
// goroutine.
type fatOp struct{ n int64 }

func (f fatOp) Name() string                               { return "fat" }
func (f fatOp) Run(context.Context, *workload.Probe) error { return nil }
func (f fatOp) LiveBytes() int64                           { return f.n }

type fatCloner struct{ fatOp }

func (f fatCloner) Clone() workload.Operation { return f }

func TestNeed(t *testing.T) {
	c := workload.Config{Runs: 10, Threads: 3}
	shared, perThread := fatOp{n: 100}, fatCloner{fatOp{n: 50}}
	n := c.Need(workload.Mix{shared, perThread, workload.Noop{}})
	if n.Live != 100+3*50 || n.Biggest != workload.Operation(perThread) || n.Most != 150 {
		t.Errorf("Need: live %d, biggest %v with %d; want 250, the cloner with 150", n.Live, n.Biggest, n.Most)
	}
	if n.Engine != c.Footprint(3) || n.Total() != n.Live+n.Engine {
		t.Errorf("Need: engine %d, total %d", n.Engine, n.Total())
	}
	huge := c.Need(workload.Mix{fatCloner{fatOp{n: math.MaxInt64 / 2}}})
	if huge.Live != math.MaxInt64 || huge.Total() != math.MaxInt64 {
		t.Errorf("Need saturates: live %d, total %d", huge.Live, huge.Total())
	}
	if none := c.Need(workload.Mix{workload.Noop{}}); none.Live != 0 || none.Biggest != nil {
		t.Errorf("Need of a noop: %+v", none)
	}
}
