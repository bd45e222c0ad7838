package workload

import (
	"time"

	"github.com/gcperf/gcperf/latency"
)

// p99Bounded computes GCPerfP99's figures (latency.P99Figures) of n runs that were too many to
// keep, each processing perRun units: their times sum to total, the fastest
// took fastest, worst holds the slowest of them (slowest first), and r
// holds them all. The figures are exact when worst holds every run
// latency.GCPerfP99 drops and one more; what it lacks comes from r (Estimated).
func p99Bounded(n int, total, fastest time.Duration, worst []latency.RunTime, r *latency.Recorder, perRun float64) latency.P99Figures {
	if n <= 0 || perRun <= 0 {
		return latency.P99Figures{}
	}
	f := latency.P99Figures{Runs: n, PerRun: perRun, Processed: float64(n) * perRun}
	f.Kept = max(n*99/100, 1)
	d := n - f.Kept
	var dropped time.Duration
	for _, w := range worst[:min(d, len(worst))] {
		dropped += w.Time
	}
	var slowestKept time.Duration
	if len(worst) > d {
		slowestKept = worst[d].Time
	} else {
		f.Estimated = true
		slowestKept = r.Quantile(float64(f.Kept) / float64(n))
		if d > len(worst) {
			// The dropped runs worst lacks, from the histogram.
			dropped += time.Duration(r.TopSum(int64(d)) - r.TopSum(int64(len(worst))))
		}
	}
	f.Total = total - dropped
	f.MeanPerRun = f.Total / time.Duration(f.Kept)
	rate := func(units float64, d time.Duration) float64 {
		if d <= 0 {
			return 0
		}
		return units / d.Seconds()
	}
	per1000 := func(d time.Duration) time.Duration {
		return time.Duration(float64(d) * 1000 / perRun)
	}
	f.Throughput = rate(float64(f.Kept)*perRun, f.Total)
	f.ThroughputMax = rate(perRun, fastest)
	f.ThroughputMin = rate(perRun, slowestKept)
	f.LatencyMin = per1000(fastest)
	f.LatencyAve = per1000(f.MeanPerRun)
	f.LatencyMax = per1000(slowestKept)
	f.Latency = f.LatencyMax
	shown := worst[:min(d, len(worst))]
	for i := len(shown) - 1; i >= 0; i-- { // fastest first, as latency.GCPerfP99 lists them
		f.Worst = append(f.Worst, latency.Worst{Run: shown[i].Run, Time: shown[i].Time, Throughput: rate(perRun, shown[i].Time)})
	}
	return f
}
