package workload_test

import (
	"context"
	"testing"
	"time"

	"github.com/gcperf/gcperf/workload"
)

var sink time.Duration

// BenchmarkClockPair is the cost of the two monotonic clock reads around
// every operation.
func BenchmarkClockPair(b *testing.B) {
	for b.Loop() {
		t := time.Now()
		sink = time.Since(t)
	}
}

// benchmarkEngine runs b.N timed runs of noop and reports the harness's cost
// per run (wall time of the timed runs over their number) and what the timed
// runs allocated.
func benchmarkEngine(b *testing.B, timeout time.Duration, gc workload.GCStats, pin bool) {
	noop, err := workload.New("noop", nil)
	if err != nil {
		b.Fatal(err)
	}
	cfg := workload.DefaultConfig()
	cfg.Warmups, cfg.Runs, cfg.Outliers, cfg.Timeout, cfg.GCStats = 0, b.N, 0, timeout, gc
	cfg.Pin = pin
	b.ResetTimer()
	res, err := workload.Run(context.Background(), cfg, workload.Mix{noop})
	if err != nil {
		b.Fatal(err)
	}
	b.StopTimer()
	if res.Done != b.N {
		b.Fatalf("%d runs, want %d", res.Done, b.N)
	}
	b.ReportMetric(float64(res.Elapsed.Nanoseconds())/float64(b.N), "harness-ns/op")
	b.ReportMetric(float64(res.HeapAllocBytes), "timed-B")
}

// -gcstats total: what a user of tiny operations runs with. -gcstats run (the
// default) adds one runtime/metrics read and one getrusage per run: of the
// process, or with -pin of the thread.
func BenchmarkEngineNoop(b *testing.B) { benchmarkEngine(b, 0, workload.GCStatsTotal, false) }
func BenchmarkEngineNoopTimeout(b *testing.B) {
	benchmarkEngine(b, time.Second, workload.GCStatsTotal, false)
}
func BenchmarkEngineNoopGCRun(b *testing.B) { benchmarkEngine(b, 0, workload.GCStatsRun, false) }
func BenchmarkEngineNoopGCRunPin(b *testing.B) {
	benchmarkEngine(b, 0, workload.GCStatsRun, true)
}

// BenchmarkHarnessRatio alternates blocks of bare clock pairs and of noop
// runs through the engine and reports the engine's cost per operation (the
// wall time of its timed runs over their number) as a multiple of a clock
// pair's, measured side by side so that the machine's drift hits both. The
// target is at most 2, with -gcstats total (per-run GC readings cost more
// than a clock pair, and are for operations that take far longer).
func BenchmarkHarnessRatio(b *testing.B) {
	const block = 100_000
	noop, _ := workload.New("noop", nil)
	cfg := workload.DefaultConfig()
	cfg.Warmups, cfg.Runs, cfg.Outliers, cfg.GCStats = 0, block, 0, workload.GCStatsTotal
	var pair, harness time.Duration
	for b.Loop() {
		start := time.Now()
		for range block {
			t := time.Now()
			sink = time.Since(t)
		}
		pair += time.Since(start)
		res, err := workload.Run(context.Background(), cfg, workload.Mix{noop})
		if err != nil {
			b.Fatal(err)
		}
		harness += res.Elapsed
	}
	b.ReportMetric(float64(harness)/float64(pair), "harness/clockpair")
	b.ReportMetric(float64(pair.Nanoseconds())/float64(b.N*block), "clockpair-ns")
	b.ReportMetric(float64(harness.Nanoseconds())/float64(b.N*block), "harness-ns/op")
}
