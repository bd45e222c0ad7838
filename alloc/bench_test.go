package alloc

import (
	"context"
	"testing"
	"time"

	"github.com/gcperf/gcperf/workload"
)

// The engine's cost on the linked-list workload: the same runs through
// workload.Run and in a plain loop. -size 1024 (GCPerfP99's default), so
// one run allocates 32 MiB. Compare the two sub-benchmarks' medians, or read
// engine/plain from BenchmarkListRatio, where both alternate in one loop.

func BenchmarkList(b *testing.B) {
	b.Run("plain", func(b *testing.B) {
		l, _ := NewList(DefaultSize, DefaultBase, DefaultChunk)
		_ = l.Setup(context.Background())
		b.SetBytes(int64(DefaultChunk) * DefaultSize * 1024)
		for b.Loop() {
			l.Step()
		}
	})
	b.Run("engine", func(b *testing.B) {
		l, _ := NewList(DefaultSize, DefaultBase, DefaultChunk)
		cfg := workload.DefaultConfig()
		cfg.Warmups, cfg.Runs, cfg.Outliers = 0, b.N, 0
		b.SetBytes(int64(DefaultChunk) * DefaultSize * 1024)
		b.ResetTimer()
		if _, err := workload.Run(context.Background(), cfg, workload.Mix{l}); err != nil {
			b.Fatal(err)
		}
	})
}

// BenchmarkListRatio alternates blocks of plain and engine runs and reports
// their throughput ratio (engine/plain: 1 means the engine costs nothing), so
// that drift on a shared machine hits both sides alike. The engine side is
// the wall time of its timed runs (Result.Elapsed): every run's ordering,
// clock reads and recording, but not the one-off Setup and statistics.
func BenchmarkListRatio(b *testing.B) {
	const block = 8
	plain, _ := NewList(DefaultSize, DefaultBase, DefaultChunk)
	eng, _ := NewList(DefaultSize, DefaultBase, DefaultChunk)
	cfg := workload.DefaultConfig()
	cfg.Warmups, cfg.Runs, cfg.Outliers = 0, block, 0
	var tPlain, tEngine time.Duration
	for b.Loop() {
		// Both sides start each block from a fresh base list, as Run's
		// Setup gives the engine, so both leave the same garbage behind.
		_ = plain.Setup(context.Background())
		start := time.Now()
		for range block {
			plain.Step()
		}
		tPlain += time.Since(start)
		res, err := workload.Run(context.Background(), cfg, workload.Mix{eng})
		if err != nil {
			b.Fatal(err)
		}
		// The wall time of the timed runs, harness included; Setup (the base
		// list) and the statistics at the end are not part of a run.
		tEngine += res.Elapsed
	}
	b.ReportMetric(float64(tPlain)/float64(tEngine), "engine/plain")
}
