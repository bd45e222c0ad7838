package workload_test

import (
	"fmt"
	"maps"
	"slices"
	"testing"
	"time"

	"github.com/gcperf/gcperf/workload"
)

// isPermutation reports whether order holds 0..n-1 once each.
func isPermutation(order []int, n int) bool {
	if len(order) != n {
		return false
	}
	s := slices.Sorted(slices.Values(order))
	for i, v := range s {
		if v != i {
			return false
		}
	}
	return true
}

// By default every operation runs exactly once per run, in a random order,
// and Result.Executions tells the order in which they ran.
func TestOrderDefault(t *testing.T) {
	var r recorder
	mix := r.mix("a", "b", "c", "d", "e")
	cfg := testConfig(20)
	res := mustRun(t, cfg, mix)

	ord := orders(t, res)
	identity, distinct := 0, map[string]bool{}
	var want []string
	for run := 1; run <= cfg.Runs; run++ {
		o := ord[run]
		if !isPermutation(o, len(mix)) {
			t.Fatalf("run %d ran %v, want each of the 5 operations once", run, o)
		}
		if slices.IsSorted(o) {
			identity++
		}
		distinct[fmt.Sprint(o)] = true
		for _, i := range o {
			want = append(want, mix[i].Name())
		}
	}
	if !slices.Equal(r.log, want) {
		t.Errorf("operations ran in the order\n%v\nExecutions say\n%v", r.log, want)
	}
	// 20 random permutations of 5: seeing the mix order every time, or
	// always the same order, would mean no shuffling happened.
	if identity == cfg.Runs || len(distinct) < 2 {
		t.Errorf("%d of %d runs in mix order, %d distinct orders: not random", identity, cfg.Runs, len(distinct))
	}
}

func TestOrderNotRandom(t *testing.T) {
	cfg := testConfig(10)
	cfg.Random = false
	res := mustRun(t, cfg, distinctMix(4))
	for run, o := range orders(t, res) {
		if !slices.Equal(o, []int{0, 1, 2, 3}) {
			t.Errorf("run %d ran %v, want the mix order [0 1 2 3]", run, o)
		}
	}
}

func TestOrderSeed(t *testing.T) {
	run := func(seed int64, delay time.Duration) map[int][]int {
		cfg := testConfig(20)
		cfg.Seed, cfg.MaxDelay = seed, delay
		return orders(t, mustRun(t, cfg, distinctMix(5)))
	}
	a, b := run(7, 0), run(7, 0)
	if !maps.EqualFunc(a, b, slices.Equal) {
		t.Errorf("seed 7 gave different orders:\n%v\n%v", a, b)
	}
	if c := run(8, 0); maps.EqualFunc(a, c, slices.Equal) {
		t.Errorf("seeds 7 and 8 gave the same orders over 20 runs: %v", a)
	}
	// Delays are drawn after the order: they do not change it.
	if d := run(7, 20*time.Microsecond); !maps.EqualFunc(a, d, slices.Equal) {
		t.Errorf("a delay changed the orders of seed 7:\n%v\n%v", a, d)
	}
}

// The order of timed run i depends on the seed and i only, not on which
// goroutine runs it.
func TestOrderIndependentOfThreads(t *testing.T) {
	tests := []struct {
		name string
		set  func(*workload.Config)
	}{
		{"shuffle", func(*workload.Config) {}},
		{"sample with repeats", func(c *workload.Config) { c.Sample, c.Repeats = 4, true }},
		{"sample without repeats", func(c *workload.Config) { c.Sample = 3 }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			run := func(threads int) map[int][]int {
				cfg := testConfig(30)
				cfg.Seed, cfg.Threads, cfg.Warmups = 42, threads, 3
				tt.set(&cfg)
				return orders(t, mustRun(t, cfg, distinctMix(5)))
			}
			one, three := run(1), run(3)
			if len(one) != 30 {
				t.Fatalf("%d runs with 1 thread, want 30", len(one))
			}
			for i := 1; i <= 30; i++ {
				if !slices.Equal(one[i], three[i]) {
					t.Errorf("run %d: %v with 1 thread, %v with 3", i, one[i], three[i])
				}
			}
		})
	}
}

func TestOrderSample(t *testing.T) {
	tests := []struct {
		name    string
		mix     int
		sample  int
		random  bool
		repeats bool
		want    [][]int // exact orders of the first runs, when known
		check   func(o []int) string
	}{
		{
			name: "in order with repeats walks the mix", mix: 3, sample: 2, repeats: true,
			want: [][]int{{0, 1}, {2, 0}, {1, 2}, {0, 1}, {2, 0}, {1, 2}},
		},
		{
			name: "in order without repeats walks the mix", mix: 3, sample: 2,
			want: [][]int{{0, 1}, {2, 0}, {1, 2}, {0, 1}, {2, 0}, {1, 2}},
		},
		{
			name: "in order with repeats, sample above mix", mix: 2, sample: 3, repeats: true,
			want: [][]int{{0, 1, 0}, {1, 0, 1}, {0, 1, 0}, {1, 0, 1}},
		},
		{
			name: "in order, sample == mix", mix: 3, sample: 3,
			want: [][]int{{0, 1, 2}, {0, 1, 2}, {0, 1, 2}},
		},
		{
			name: "random without repeats", mix: 5, sample: 3, random: true,
			check: func(o []int) string {
				if len(o) != 3 || len(slices.Compact(slices.Sorted(slices.Values(o)))) != 3 {
					return "want 3 distinct operations"
				}
				return ""
			},
		},
		{
			name: "random without repeats, sample == mix", mix: 4, sample: 4, random: true,
			check: func(o []int) string {
				if !isPermutation(o, 4) {
					return "want each of the 4 operations once"
				}
				return ""
			},
		},
		{
			name: "random with repeats", mix: 2, sample: 6, random: true, repeats: true,
			check: func(o []int) string {
				if len(o) != 6 {
					return "want 6 operations"
				}
				for _, i := range o {
					if i < 0 || i >= 2 {
						return "operation out of the mix"
					}
				}
				return ""
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := testConfig(30)
			cfg.Sample, cfg.Random, cfg.Repeats, cfg.Warmups = tt.sample, tt.random, tt.repeats, 2
			res := runWithin(t, 10*time.Second, func() *workload.Result {
				res, err := workload.Run(t.Context(), cfg, distinctMix(tt.mix))
				if err != nil {
					return nil
				}
				return res
			})
			if res == nil {
				t.Fatal("Run failed")
			}
			if res.Mix.Stats.OpsPerRun != tt.sample || len(res.Executions) != 30*tt.sample {
				t.Fatalf("OpsPerRun %d, %d executions; want %d, %d", res.Mix.Stats.OpsPerRun, len(res.Executions), tt.sample, 30*tt.sample)
			}
			ord := orders(t, res)
			for i, w := range tt.want {
				if !slices.Equal(ord[i+1], w) {
					t.Errorf("run %d ran %v, want %v", i+1, ord[i+1], w)
				}
			}
			seen := map[string]bool{}
			repeated := false
			for run := 1; run <= 30; run++ {
				o := ord[run]
				if tt.check != nil {
					if why := tt.check(o); why != "" {
						t.Errorf("run %d ran %v: %s", run, o, why)
					}
				}
				seen[fmt.Sprint(o)] = true
				if len(slices.Compact(slices.Sorted(slices.Values(o)))) < len(o) {
					repeated = true
				}
			}
			if tt.random && len(seen) < 2 {
				t.Errorf("30 random runs all ran %v", ord[1])
			}
			if !tt.repeats && repeated {
				t.Errorf("an operation repeated within a run without Repeats")
			}
			if tt.random && tt.repeats && !repeated {
				t.Errorf("6 draws from 2 operations never repeated one")
			}
		})
	}
}
