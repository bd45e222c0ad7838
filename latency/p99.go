package latency

import (
	"cmp"
	"slices"
	"time"
)

// A RunTime is the runtime of one timed run, with its 1-based run number.
type RunTime struct {
	Run  int
	Time time.Duration
}

// Worst is one of the runs GCPerfP99 drops: its run number, its time and its
// throughput in units per second.
type Worst struct {
	Run        int           `json:"run" csv:"Run"`
	Time       time.Duration `json:"time_ns" csv:"Time"`
	Throughput float64       `json:"throughput_per_sec" csv:"Throughput per Second"`
}

// P99Figures are the figures of GCPerfP99, computed over the best 99% of runs
// with nanosecond times and floating point (GCPerfP99 used millisecond clocks
// and integer division, so its figures are coarser). With n runs sorted from
// fastest to slowest, Kept = floor(n*99/100) (at least 1) and the rest are the
// Worst. A "unit" is what one run processes: PerRun of them (objects, for the
// linked-list workload).
type P99Figures struct {
	Runs      int     `json:"runs" csv:"Runs"`                      // timed runs
	Kept      int     `json:"kept" csv:"Runs Kept"`                 // the best 99%: floor(Runs*99/100), at least 1
	PerRun    float64 `json:"per_run" csv:"Per Run"`                // units processed by one run
	Processed float64 `json:"processed" csv:"Processed (All Runs)"` // Runs * PerRun, as GCPerfP99 prints it

	Total      time.Duration `json:"total_ns" csv:"Total Execution Time (Runs Kept)"` // sum of the kept runs ("total execution time")
	MeanPerRun time.Duration `json:"mean_per_run_ns" csv:"Average Time per Run"`      // Total / Kept ("average time per run")

	// Throughput in units per second.
	Throughput    float64 `json:"throughput_per_sec" csv:"Throughput per Second"`         // Kept*PerRun / Total: the average ("ave")
	ThroughputMax float64 `json:"throughput_max_per_sec" csv:"Throughput Max per Second"` // PerRun / the fastest run
	ThroughputMin float64 `json:"throughput_min_per_sec" csv:"Throughput Min per Second"` // PerRun / the slowest kept run (the 99th-percentile run)

	// Latency per 1000 units: 1000 units / throughput.
	Latency    time.Duration `json:"latency_per_1000_ns" csv:"Latency per 1000"`         // at the 99th-percentile run ("latency"), equal to LatencyMax
	LatencyMin time.Duration `json:"latency_min_per_1000_ns" csv:"Latency Min per 1000"` // at ThroughputMax
	LatencyAve time.Duration `json:"latency_ave_per_1000_ns" csv:"Latency Ave per 1000"` // at Throughput
	LatencyMax time.Duration `json:"latency_max_per_1000_ns" csv:"Latency Max per 1000"` // at ThroughputMin

	Worst []Worst `json:"-" csv:"-"` // the dropped runs, fastest first (the slowest of them only, when Estimated)

	// Estimated is set when the runs were too many to keep: the worst list
	// holds the slowest of the dropped runs only, and Total (with what
	// derives from it) and the slowest kept run come partly from a
	// histogram, within its precision (0.1%).
	Estimated bool `json:"estimated,omitzero" csv:"-"`
}

// GCPerfP99 computes the P99Figures of runs (in any order), each processing
// perRun units. It does not modify runs. It returns the zero value for no runs
// or perRun <= 0.
func GCPerfP99(runs []RunTime, perRun float64) P99Figures {
	if len(runs) == 0 || perRun <= 0 {
		return P99Figures{}
	}
	f := P99Figures{Runs: len(runs), PerRun: perRun, Processed: float64(len(runs)) * perRun}
	sorted := slices.Clone(runs)
	slices.SortStableFunc(sorted, func(a, b RunTime) int { return cmp.Compare(a.Time, b.Time) })
	f.Kept = max(len(sorted)*99/100, 1)
	for _, r := range sorted[:f.Kept] {
		f.Total += r.Time
	}
	f.MeanPerRun = f.Total / time.Duration(f.Kept)
	rate := func(units float64, d time.Duration) float64 {
		if d <= 0 {
			return 0 // GCPerfP99 prints 999999 for a zero-time run; we print nothing
		}
		return units / d.Seconds()
	}
	per1000 := func(d time.Duration) time.Duration {
		return time.Duration(float64(d) * 1000 / perRun)
	}
	f.Throughput = rate(float64(f.Kept)*perRun, f.Total)
	f.ThroughputMax = rate(perRun, sorted[0].Time)
	f.ThroughputMin = rate(perRun, sorted[f.Kept-1].Time)
	f.LatencyMin = per1000(sorted[0].Time)
	f.LatencyAve = per1000(f.MeanPerRun)
	f.LatencyMax = per1000(sorted[f.Kept-1].Time)
	f.Latency = f.LatencyMax
	for _, r := range sorted[f.Kept:] {
		f.Worst = append(f.Worst, Worst{Run: r.Run, Time: r.Time, Throughput: rate(perRun, r.Time)})
	}
	return f
}
