package gotest_test

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/gcperf/gcperf/workload"
	"github.com/gcperf/gcperf/workload/gotest"
)

// Use the engine inside a Go benchmark: Benchmark runs b.N timed runs of
// the mix in one Run, times only them and reports the engine's figures.
// In a _test.go file, that is a BenchmarkXxx function such as
// BenchmarkSpin below; testing.Benchmark runs one from any program.
func ExampleBenchmark() {
	var res *workload.Result
	r := testing.Benchmark(func(b *testing.B) {
		cfg := workload.DefaultConfig()
		cfg.Seed = 1
		res = gotest.Benchmark(b, cfg, workload.Mix{workload.Spin{D: 20 * time.Microsecond}})
	})
	fmt.Println("b.N timed runs:", r.N == len(res.Runs))
	fmt.Println(r.N > 1, r.T > 0) // go test grew b.N, and its timer ran
	fmt.Println(metricNames(r))
	// Output:
	// b.N timed runs: true
	// true true
	// [gc-cycles/op max-ns ns/op p50-ns p99-ns p99.9-ns stw-ns/op]
}

func metricNames(r testing.BenchmarkResult) []string {
	var names []string
	for k := range r.Extra {
		names = append(names, k)
	}
	slices.Sort(names)
	return names
}

// BenchmarkSpin is how a package benchmarks its operations with the
// engine: go test -run '^$' -bench Spin -benchmem ./workload/gotest.
func BenchmarkSpin(b *testing.B) {
	cfg := workload.DefaultConfig()
	cfg.Seed = 1
	gotest.Benchmark(b, cfg, workload.Mix{workload.Spin{D: time.Microsecond}})
}
