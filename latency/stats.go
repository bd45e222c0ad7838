package latency

import (
	"time"
)

// Quantiles are the fractions reported as percentiles for every
// distribution, besides its maximum: P50, P90, P99, P99.9 and P99.99.
var Quantiles = [...]float64{0.50, 0.90, 0.99, 0.999, 0.9999}

// Percentiles of one distribution, read from a Recorder holding every
// successful execution (no outlier is discarded: the tail is the point).
// Each is within 0.1% of the exact value (SignificantDigits); Max is exact.
type Percentiles struct {
	P50   time.Duration `json:"p50_ns" csv:"P50"`
	P90   time.Duration `json:"p90_ns" csv:"P90"`
	P99   time.Duration `json:"p99_ns" csv:"P99"`
	P999  time.Duration `json:"p999_ns" csv:"P99.9"`
	P9999 time.Duration `json:"p9999_ns" csv:"P99.99"`
	Max   time.Duration `json:"pmax_ns" csv:"Max"` // of every value, as the histogram holds it
}

// PercentilesOf reads the standard percentiles from r.
func PercentilesOf(r *Recorder) Percentiles {
	return Percentiles{
		P50:   r.Quantile(Quantiles[0]),
		P90:   r.Quantile(Quantiles[1]),
		P99:   r.Quantile(Quantiles[2]),
		P999:  r.Quantile(Quantiles[3]),
		P9999: r.Quantile(Quantiles[4]),
		Max:   r.Max(),
	}
}

// Summary holds the statistics of one distribution of durations (runtimes
// or response times), following the benchmark methodology: the best and
// worst Discarded values are dropped as outliers, and Total, Mean, GeoMean,
// Min, Max, Variance and StdDev are computed exactly (from nanosecond values,
// in floating point) over the Kept values that remain. Percentiles are read
// from the HdrHistogram of all Count values.
type Summary struct {
	Count     int64         `json:"count"`              // values measured
	Discarded int           `json:"outliers_discarded"` // values dropped as outliers at each end
	Kept      int64         `json:"kept"`               // Count - 2*Discarded
	Total     time.Duration `json:"total_ns"`           // sum of kept values
	Mean      time.Duration `json:"mean_ns"`            // arithmetic mean of kept values
	GeoMean   time.Duration `json:"geomean_ns"`         // geometric mean of kept values (a 0 counts as 1ns)
	Min       time.Duration `json:"min_ns"`             // smallest kept value
	Max       time.Duration `json:"max_ns"`             // largest kept value
	Variance  float64       `json:"variance_ns2"`       // population variance of kept values, in ns²
	StdDev    time.Duration `json:"stddev_ns"`          // population standard deviation, sqrt(Variance)

	// Percentiles, embedded so that its figures sit beside the others in
	// JSON; its Max (of every value) is Percentiles.Max, as Max is the
	// largest kept one.
	Percentiles
}

// Trim returns how many values to discard at each end of n values when
// outliers are requested: outliers itself when 2*outliers < n, otherwise the
// most that still keeps at least one value, (n-1)/2.
func Trim(n, outliers int) int {
	if outliers <= 0 || n <= 0 {
		return 0
	}
	if 2*outliers >= n {
		return (n - 1) / 2
	}
	return outliers
}

// Summarize computes the Summary of values, discarding Trim(len(values),
// outliers) values at each end, through an Accumulator (so the two agree to
// the last bit). r, which may be nil, supplies the percentiles; it should
// hold the same values.
func Summarize(values []time.Duration, outliers int, r *Recorder) Summary {
	a := NewAccumulator(outliers)
	for _, v := range values {
		a.Add(v)
	}
	return a.Summary(outliers, r)
}

// Stats are the statistics of the methodology for one operation, or for the
// whole operation mix (then each "operation" below is one run of the mix,
// whose runtime is the sum of its operations' runtimes).
//
// Only successful executions enter the timing statistics; failed ones are
// counted in Errors and ErrorsByCategory.
type Stats struct {
	Runs             int64            // executions measured, successful or not
	Errors           int64            // executions that failed
	ErrorsByCategory map[string]int64 // Errors split by category (error, timeout, panic, interrupt, ...)
	Results          int64            // results counted by successful executions
	AvgResults       float64          // Results / successful executions
	OpsPerRun        int              // operations in one execution: 1 for an operation, the mix size for the mix

	Runtime  Summary // from start to end of each execution
	Response Summary // from start to first response (equal to Runtime when an operation cannot tell them apart)

	OpsPerSecond  float64 // Runtime.Kept*OpsPerRun / Runtime.Total in seconds
	OpsPerHour    float64 // OpsPerSecond * 3600
	MixesPerHour  float64 // mix only: Runtime.Kept / Runtime.Total in hours (3600 / the mean in seconds)
	ActualRuntime *Actual // threads > 1 only: figures over wall time
}

// Actual are the multi-threaded figures of the methodology: the same rates,
// but over the wall time during which at least one execution was running
// (the union of their intervals), so they account for parallelism. They use
// every successful execution, as an interval union cannot drop outliers.
type Actual struct {
	Runtime      time.Duration `json:"runtime_ns"`               // union of the execution intervals
	Mean         time.Duration `json:"mean_ns"`                  // Runtime / executions
	OpsPerSecond float64       `json:"ops_per_sec"`              // executions*OpsPerRun / Runtime in seconds
	OpsPerHour   float64       `json:"ops_per_hour"`             // OpsPerSecond * 3600
	MixesPerHour float64       `json:"mixes_per_hour,omitempty"` // mix only: executions / Runtime in hours
}

// Finish derives the rates from Runtime, and the Actual figures from the
// union of the executions' intervals when actual is non-negative.
// executions is the number of successful executions the union covers.
func (s *Stats) Finish(mix bool, actual time.Duration, executions int64) {
	if s.OpsPerRun == 0 {
		s.OpsPerRun = 1
	}
	if ok := s.Runs - s.Errors; ok > 0 {
		s.AvgResults = float64(s.Results) / float64(ok)
	}
	if secs := s.Runtime.Total.Seconds(); secs > 0 {
		s.OpsPerSecond = float64(s.Runtime.Kept) * float64(s.OpsPerRun) / secs
		s.OpsPerHour = s.OpsPerSecond * 3600
	}
	if secs := s.Runtime.Total.Seconds(); mix && secs > 0 {
		// Kept runs per hour of their summed runtime: 3600 / the mean
		// runtime, without the mean's rounding to a whole nanosecond.
		s.MixesPerHour = float64(s.Runtime.Kept) / secs * 3600
	}
	if actual < 0 {
		return
	}
	a := &Actual{Runtime: actual}
	if executions > 0 {
		a.Mean = actual / time.Duration(executions)
	}
	if secs := actual.Seconds(); secs > 0 {
		a.OpsPerSecond = float64(executions) * float64(s.OpsPerRun) / secs
		a.OpsPerHour = a.OpsPerSecond * 3600
		if mix {
			a.MixesPerHour = float64(executions) / (secs / 3600)
		}
	}
	s.ActualRuntime = a
}
