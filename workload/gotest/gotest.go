// Package gotest runs the engine inside a go test benchmark: [Benchmark]
// is one [workload.Run] with b.N timed runs, the benchmark timer running
// during the timed runs only, and the engine's figures reported as
// benchmark metrics (p50-ns, p99-ns, max-ns, gc-cycles/op, stw-ns/op...):
//
//	func BenchmarkCache(b *testing.B) {
//		cfg := workload.DefaultConfig()
//		cfg.Seed = 1
//		gotest.Benchmark(b, cfg, workload.Mix{newCacheOp()})
//	}
//
// It is a package of its own so that the engine does not link package
// testing (and its flags) into every program that runs a workload.
package gotest

import (
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/gcperf/gcperf/internal/gobench"
	"github.com/gcperf/gcperf/workload"
)

// Benchmark runs mix as a Go benchmark, inside a BenchmarkXxx function of a
// _test.go file:
//
//	func BenchmarkCache(b *testing.B) {
//		cfg := workload.DefaultConfig()
//		cfg.Seed = 1
//		gotest.Benchmark(b, cfg, workload.Mix{newCacheOp()})
//	}
//
// Each call is one workload.Run of the whole benchmark with cfg.Runs = b.N timed runs
// (cfg.Warmups first, as configured), so that b.N counts runs of the mix and
// nothing is timed twice. The benchmark timer runs from the start of the
// first timed run to the end of the last one: Setup, the warmups, the
// allocation of the engine's records and Teardown are outside it, and b.N
// grows as go test expects. The timer is left stopped on return.
//
// go test calls a benchmark function several times with a growing b.N, so
// the operations are set up, warmed up and torn down once per call. Run
// allocates its records before the timed runs (Config.Footprint, about 48
// bytes per operation executed): for operations well under a microsecond,
// bound b.N with -benchtime=100000x.
//
// cfg.Runs is replaced by b.N, and cfg.Outliers lowered when b.N is too
// small to discard that many runs at each end (go test starts with b.N=1).
// The benchmark fails (b.Fatal) when Run cannot start or a Teardown fails,
// and is marked failed (b.Error) when a run failed, was halted or was
// interrupted; its figures are reported all the same.
//
// The figures are those of report.Bench (gcperf -bench), each for one run of
// the mix, which for a mix of one operation is one operation, so that
// benchstat compares the two:
//
//	ns/op                  the mean runtime of a run (the sum of its
//	                       operations' runtimes), without the cfg.Outliers
//	                       best and worst runs; the harness is not in it
//	p50-ns p99-ns p99.9-ns max-ns
//	                       percentiles and maximum of the runs' runtimes
//	B/op allocs/op         go test's own, with -benchmem: what the timed
//	                       runs allocated, exactly, per run
//	gc-cycles/op stw-ns/op GC cycles and stop-the-world time during the
//	                       timed runs, per run (unless cfg.GCStats is off)
//	<unit>/s               results per second of runtime, when the
//	                       operations count results (Probe.Results)
//
// Only runs without a failed operation enter the timing figures. Benchmark
// returns the Result, for more checks or metrics of the caller's own. Its
// HeapAllocBytes and HeapAllocObjects are less exact than B/op and
// allocs/op: starting the timer reads the memory statistics, which flushes
// the per-processor allocation caches, so allocations made before the timed
// runs (by Setup, the warmups) but not yet accounted for land in them.
func Benchmark(b *testing.B, cfg workload.Config, mix workload.Mix, obs ...workload.Observer) *workload.Result {
	b.Helper()
	b.StopTimer()
	cfg.Runs = b.N
	if cfg.Outliers > 0 && 2*cfg.Outliers >= cfg.Runs {
		cfg.Outliers = (cfg.Runs - 1) / 2
	}
	t := &benchTimer{b: b, n: int64(b.N)}
	t.startFn = b.StartTimer // made once: RunStart must not allocate
	obs = append(obs[:len(obs):len(obs)], t)
	res, err := workload.Run(b.Context(), cfg, mix, obs...)
	b.StopTimer()
	if err != nil {
		b.Fatal(err)
	}
	switch {
	case res.Halted != "":
		b.Errorf("workload: halted after %d of %d runs: %s", len(res.Runs), cfg.Runs, res.Halted)
	case res.Interrupted:
		b.Errorf("workload: interrupted after %d of %d runs", res.Done, cfg.Runs)
	}
	if failed := res.Mix.Stats.Errors; failed > 0 {
		var msgs []string
		for _, op := range res.Operations {
			for _, cat := range res.Categories[1:] {
				if msg, ok := op.FirstError[cat]; ok {
					msgs = append(msgs, op.Name+": "+cat+": "+msg)
				}
			}
		}
		b.Errorf("workload: %d of %d runs failed; first failures: %s", failed, res.Done, strings.Join(msgs, "; "))
	}
	reportBenchmark(b, res)
	return res
}

// reportBenchmark reports a Result's figures per run of the mix.
func reportBenchmark(b *testing.B, res *workload.Result) {
	runs := float64(res.Done)
	if runs == 0 {
		return
	}
	if res.Config.GCStats != workload.GCStatsOff {
		b.ReportMetric(float64(res.GC.Cycles)/runs, "gc-cycles/op")
		b.ReportMetric(float64(res.GC.STW)/runs, "stw-ns/op")
	}
	s := res.Mix.Stats
	if s.Runtime.Count == 0 {
		b.ReportMetric(0, "ns/op") // no successful run: no timing to show
		return
	}
	p := s.Runtime.Percentiles
	b.ReportMetric(float64(s.Runtime.Mean), "ns/op")
	b.ReportMetric(float64(p.P50), "p50-ns")
	b.ReportMetric(float64(p.P99), "p99-ns")
	b.ReportMetric(float64(p.P999), "p99.9-ns")
	b.ReportMetric(float64(p.Max), "max-ns")
	if s.Results > 0 && s.MixesPerHour > 0 {
		// As report.Bench: results per run × runs per second of runtime,
		// over the runs kept after the outliers.
		b.ReportMetric(s.AvgResults*s.MixesPerHour/3600, gobench.Unit(res.Unit)+"/s")
	}
}

// benchTimer is the Observer that runs the benchmark timer around the timed
// runs only: it starts it as the first timed run starts (the other
// goroutines wait in the Once until it is on) and stops it as the last one
// ends. It neither allocates nor locks after that.
type benchTimer struct {
	b       *testing.B
	n       int64
	startFn func()
	start   sync.Once
	ended   atomic.Int64
}

func (t *benchTimer) Begin(workload.Begin) {}
func (t *benchTimer) End(*workload.Result) {}

func (t *benchTimer) RunStart(phase workload.Phase, _ int) {
	if phase == workload.Timed {
		t.start.Do(t.startFn)
	}
}

func (t *benchTimer) RunEnd(phase workload.Phase, _ int, _ *workload.RunRecord) {
	if phase == workload.Timed && t.ended.Add(1) == t.n {
		t.b.StopTimer()
	}
}
