// Package latency records durations and computes the statistics gcperf
// reports. It imports nothing else of gcperf, so it can serve any Go program
// that measures latencies.
//
//	r := latency.NewRecorder()  // one per goroutine: Record takes no lock
//	for _, d := range durations {
//		r.Record(d)             // never allocates
//	}
//	s := latency.Summarize(durations, 1, r) // drop the best and worst value
//	fmt.Println(s.Mean, s.Percentiles.P99, latency.FormatDuration(s.Percentiles.Max))
//
// # Recording
//
// A [Recorder] wraps an HdrHistogram tracking 1ns to 1h with three
// significant digits ([LowestTrackable], [HighestTrackable],
// [SignificantDigits]): any value is reported within 0.1%, the maximum and
// minimum exactly. Record never allocates and takes no lock: each goroutine
// records into its own Recorder, and the Recorders are merged ([Recorder.Merge])
// when the goroutines are done. Values out of range are clamped and counted
// ([Recorder.Clamped]), never lost. [Recorder.Buckets] and [FromBuckets] save
// and rebuild a Recorder compactly, as gcperf's JSON results do.
//
// # Statistics
//
// [Summarize] computes, from exact nanosecond values, the figures of the
// benchmark methodology gcperf follows: the best and worst N values are
// discarded as outliers ([Trim]), then the total, the arithmetic and
// geometric means, the minimum and maximum, the population variance and
// standard deviation are taken over what remains ([Summary]). The percentiles
// (P50, P90, P99, P99.9, P99.99: [Quantiles], [Percentiles]) are nearest-rank
// values read from the Recorder of every value: no outlier is dropped from
// the tail. [Stats.Finish] derives the rates (operations per second and per
// hour, mixes per hour) and, for multi-threaded runs, the "actual" figures
// over the union of the execution intervals ([Union], [Actual]).
//
// [GCPerfP99] computes GCPerfP99's figures over the best 99% of runs
// ([P99Figures]), with nanoseconds and floating point where the Java
// original used milliseconds and integer division.
//
// [Compare] compares two samples of one metric as benchstat does (medians
// with confidence intervals and the Mann-Whitney U test), for gcperf's
// comparison of results.
//
// # Formatting
//
// [FormatDuration] and [AppendDuration] print a duration with three
// significant digits, the precision the recorders keep (1.23ms, 45.6µs);
// AppendDuration does not allocate, so it can print between timed runs.
package latency
