package latency_test

import (
	"fmt"
	"time"

	"github.com/gcperf/gcperf/latency"
)

// GCPerfP99's figures: 100 runs of 32 objects taking 1ms, 2ms ... 100ms. The
// slowest run (1%) is dropped; the kept ones total 1+2+...+99 = 4950ms, a mean
// of 50ms; their throughput is 99*32 objects / 4.95s = 640 objects/s, from
// 32000/s at the fastest run down to 32/99ms at the 99th-percentile run.
func ExampleGCPerfP99() {
	runs := make([]latency.RunTime, 100)
	for i := range runs {
		runs[i] = latency.RunTime{Run: i + 1, Time: time.Duration(i+1) * time.Millisecond}
	}
	f := latency.GCPerfP99(runs, 32)
	fmt.Println("kept:", f.Kept, "of", f.Runs, "processed:", f.Processed)
	fmt.Println("total:", f.Total, "mean per run:", f.MeanPerRun)
	fmt.Printf("throughput: %.0f/s (max %.0f, min %.2f)\n", f.Throughput, f.ThroughputMax, f.ThroughputMin)
	fmt.Println("latency per 1000:", latency.FormatDuration(f.Latency))
	for _, w := range f.Worst {
		fmt.Println("dropped: run", w.Run, w.Time)
	}
	// Output:
	// kept: 99 of 100 processed: 3200
	// total: 4.95s mean per run: 50ms
	// throughput: 640/s (max 32000, min 323.23)
	// latency per 1000: 3.09s
	// dropped: run 100 100ms
}

// Union is the wall time during which at least one execution ran: the
// "actual" runtime of a multi-threaded benchmark.
func ExampleUnion() {
	ms := int64(time.Millisecond)
	iv := []latency.Interval{
		{Start: 0, End: 10 * ms},       // thread 1
		{Start: 5 * ms, End: 15 * ms},  // thread 2, overlapping
		{Start: 20 * ms, End: 25 * ms}, // after a gap
	}
	fmt.Println(latency.Union(iv))
	// Output:
	// 20ms
}

// Durations print with three significant digits, the precision the
// recorders keep; AppendDuration does it without allocating.
func ExampleFormatDuration() {
	for _, d := range []time.Duration{789, 45_612 * time.Nanosecond, 1_234_567 * time.Nanosecond, 999_960 * time.Nanosecond, 12_345 * time.Millisecond} {
		fmt.Println(latency.FormatDuration(d))
	}
	// Output:
	// 789ns
	// 45.6µs
	// 1.23ms
	// 1.00ms
	// 12.3s
}

// PercentilesOf reads the percentiles gcperf reports from a Recorder: the
// nearest-rank values, within 0.1%, and the exact maximum.
func ExamplePercentilesOf() {
	r := latency.NewRecorder()
	for i := 1; i <= 1000; i++ {
		r.Record(time.Duration(i) * time.Microsecond)
	}
	p := latency.PercentilesOf(r)
	fmt.Println("P50:", latency.FormatDuration(p.P50), "P99:", latency.FormatDuration(p.P99),
		"P99.9:", latency.FormatDuration(p.P999), "max:", p.Max)
	// Output:
	// P50: 500µs P99: 990µs P99.9: 999µs max: 1ms
}
