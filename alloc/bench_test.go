package alloc

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gcperf/gcperf/workload"
)

// The engine's cost on the linked-list workload: the same runs through
// workload.Run and in a plain loop, at -size 1024 (GCPerfP99's default), so
// one run allocates 32 MiB.
//
// Within one process the two sides disturb each other: each side's list and
// garbage shift when the other side's collections fall, and the collector's
// phase against the runs swings per-run times by 20% either way. So
// BenchmarkListRatio measures each side in a fresh process, alternating
// plain and engine, and reports the median ratio of their throughputs.

const (
	sideEnv    = "GCPERF_LIST_SIDE"
	sideRuns   = 150
	sideWarmup = 16
)

// TestListSide is the child of BenchmarkListRatio: it runs one side and
// prints the wall time of its timed runs. It does nothing in a normal test run.
func TestListSide(t *testing.T) {
	side := os.Getenv(sideEnv)
	if side == "" {
		t.Skip("run by BenchmarkListRatio")
	}
	l, _ := NewList(DefaultSize, DefaultBase, DefaultChunk)
	var elapsed time.Duration
	switch side {
	case "plain":
		_ = l.Setup(context.Background())
		for range sideWarmup {
			l.Step()
		}
		start := time.Now()
		for range sideRuns {
			l.Step()
		}
		elapsed = time.Since(start)
	case "engine":
		cfg := workload.DefaultConfig()
		cfg.Warmups, cfg.Runs, cfg.Outliers = sideWarmup, sideRuns, 0
		res, err := workload.Run(context.Background(), cfg, workload.Mix{l})
		if err != nil {
			t.Fatal(err)
		}
		// The wall time of the timed runs, harness included.
		elapsed = res.Elapsed
	default:
		t.Fatalf("%s=%q", sideEnv, side)
	}
	fmt.Printf("elapsed-ns %d\n", elapsed.Nanoseconds())
}

func runSide(b *testing.B, side string) time.Duration {
	cmd := exec.Command(os.Args[0], "-test.run=^TestListSide$", "-test.count=1")
	cmd.Env = append(os.Environ(), sideEnv+"="+side)
	out, err := cmd.CombinedOutput()
	if err != nil {
		b.Fatalf("%s: %v\n%s", side, err, out)
	}
	for _, line := range strings.Split(string(out), "\n") {
		if v, ok := strings.CutPrefix(line, "elapsed-ns "); ok {
			ns, err := strconv.ParseInt(v, 10, 64)
			if err != nil {
				b.Fatal(err)
			}
			return time.Duration(ns)
		}
	}
	b.Fatalf("%s printed no elapsed-ns:\n%s", side, out)
	return 0
}

// BenchmarkListRatio reports engine/plain: the throughput through the engine
// over the throughput of a plain loop (1 means the engine costs nothing),
// the median over pairs of fresh processes run one after the other.
func BenchmarkListRatio(b *testing.B) {
	var ratios []float64
	var plain, engine time.Duration
	for b.Loop() {
		for range 3 {
			p := runSide(b, "plain")
			e := runSide(b, "engine")
			plain += p
			engine += e
			ratios = append(ratios, float64(p)/float64(e))
		}
	}
	slices.Sort(ratios)
	b.ReportMetric(ratios[len(ratios)/2], "engine/plain")
	b.ReportMetric(float64(plain.Nanoseconds())/float64(len(ratios)*sideRuns), "plain-ns/run")
	b.ReportMetric(float64(engine.Nanoseconds())/float64(len(ratios)*sideRuns), "engine-ns/run")
}

// BenchmarkWorkloads runs each registered alloc workload at its defaults:
// Setup outside the timing, then one Step (one run, without the engine) per
// iteration. It reports B/op as the heap counts it (runtime/metrics
// /gc/heap/allocs:bytes, so size-class rounding included) and the
// workload's results per second (nodes/s, objects/s, buffers/s, entries/s).
func BenchmarkWorkloads(b *testing.B) {
	for _, s := range workload.Specs() {
		if !strings.HasPrefix(s.Name, "alloc.") {
			continue
		}
		b.Run(strings.TrimPrefix(s.Name, "alloc."), func(b *testing.B) {
			op := newOp(b, s.Name, nil)
			if err := op.Setup(context.Background()); err != nil {
				b.Fatal(err)
			}
			defer op.Teardown()
			runtime.GC()
			before := readMetric("/gc/heap/allocs:bytes")
			n := 0
			for b.Loop() {
				op.Step()
				n++
			}
			allocated := readMetric("/gc/heap/allocs:bytes") - before
			b.ReportMetric(float64(allocated)/float64(n), "B/op")
			b.ReportMetric(float64(resultsPerRun(op))*float64(n)/b.Elapsed().Seconds(), op.Unit()+"/s")
		})
	}
}

// resultsPerRun is what one run of op counts as results.
func resultsPerRun(op stepper) int64 {
	switch o := op.(type) {
	case *List:
		return int64(o.Chunk)
	case *Tree:
		return treeNodes(o.Depth)
	case *Small:
		return int64(o.N)
	case *Ring:
		return int64(o.Per)
	case *Map:
		return int64(o.Replaced())
	}
	panic(fmt.Sprintf("resultsPerRun: %T", op))
}
