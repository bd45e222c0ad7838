package latency_test

import (
	"fmt"
	"time"

	"github.com/gcperf/gcperf/latency"
)

func ExampleRecorder() {
	r := latency.NewRecorder()
	// Sorted: 1 1 2 3 3 4 5 5 6 9 ms; the median (rank 5 of 10) is 3ms.
	for _, n := range []int{3, 1, 4, 1, 5, 9, 2, 6, 5, 3} {
		r.Record(time.Duration(n) * time.Millisecond)
	}
	// Percentiles are within 0.1% (three significant digits); Max is exact.
	fmt.Println("count:", r.Count())
	fmt.Println("P50:", r.Quantile(0.50).Round(time.Microsecond))
	fmt.Println("max:", r.Max())
	// Output:
	// count: 10
	// P50: 3ms
	// max: 9ms
}

func ExampleSummarize() {
	// Sorted: 0 1 4 16 250 ms. outliers=1 drops 0 and 250ms, keeping 1, 4
	// and 16 ms: mean 21/3 = 7ms; population variance (36+9+81)/3 = 42 ms²,
	// so stddev sqrt(42) = 6.480741ms; geomean (1*4*16)^(1/3) = 4ms.
	values := []time.Duration{16 * time.Millisecond, 250 * time.Millisecond, time.Millisecond, 0, 4 * time.Millisecond}
	s := latency.Summarize(values, 1, nil)
	fmt.Println("count:", s.Count, "kept:", s.Kept, "discarded per side:", s.Discarded)
	fmt.Println("mean:", s.Mean)
	fmt.Println("stddev:", s.StdDev)
	fmt.Println("geomean:", s.GeoMean)
	// Output:
	// count: 5 kept: 3 discarded per side: 1
	// mean: 7ms
	// stddev: 6.480741ms
	// geomean: 4ms
}
