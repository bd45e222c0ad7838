// Package latency records durations and computes the statistics gcperf
// reports. It imports nothing else of gcperf.
//
// A Recorder wraps an HdrHistogram tracking 1ns to 1h with three significant
// digits. Record never allocates and takes no lock: each goroutine records
// into its own Recorder, and the Recorders are merged when the goroutines are
// done.
//
// Summarize computes, from exact nanosecond values, the figures of the
// benchmark methodology gcperf follows: the best and worst N values are
// discarded as outliers (Trim), then the total, the arithmetic and geometric
// means, the minimum and maximum, the population variance and standard
// deviation are taken over what remains. The percentiles (P50, P90, P99,
// P99.9, P99.99) are nearest-rank values read from the Recorder of every
// value: no outlier is dropped from the tail. Stats.Finish derives the rates
// (operations per second and per hour, mixes per hour) and, for
// multi-threaded runs, the "actual" figures over the union of the execution
// intervals (Union).
//
// GCPerfP99 computes GCPerfP99's figures over the best 99% of runs, with
// nanoseconds and floating point where the Java original used milliseconds
// and integer division.
package latency
