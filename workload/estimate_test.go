package workload_test

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/gcperf/gcperf/workload"
)

// population makes n runs of about 3ms (and a tail of their own: an
// exponential 0.4ms on top) whose causes and costs set draws with rng.
func population(n int, seed uint64, set func(rng *rand.Rand, i int, r *workload.RunRecord)) []workload.RunRecord {
	rng := rand.New(rand.NewPCG(seed, 25))
	runs := make([]workload.RunRecord, n)
	for i := range runs {
		r := &runs[i]
		r.Run = i + 1
		r.Runtime = 3*time.Millisecond + time.Duration(rng.ExpFloat64()*float64(400*time.Microsecond))
		r.Causes.VoluntarySwitches = uint64(rng.IntN(3)) // a few of everything, costing nothing
		r.Causes.MinorFaults = uint64(rng.IntN(4))
		set(rng, i, r)
	}
	return runs
}

// gcRun gives r the collector beside it, with a pause of 50µs (in its
// runtime, as a pause is), and cost more.
func gcRun(r *workload.RunRecord, cost time.Duration) {
	r.GC.Cycles, r.GC.Pauses, r.GC.STW = 1, 2, 50*time.Microsecond
	r.Runtime += r.GC.STW + cost
}

// TestTailEstimates: constructed populations whose causes cost what they
// were built to cost come out so, for each of 10 seeds: the same
// population drawn again gives the same verdicts.
func TestTailEstimates(t *testing.T) {
	const (
		adds    = workload.CostAdds
		nothing = workload.CostNothing
	)
	tests := []struct {
		name string
		set  func(rng *rand.Rand, i int, r *workload.RunRecord)
		want map[workload.Cause]workload.Cost // the causes the case controls
	}{
		{"slow runs are exactly the GC runs", func(rng *rand.Rand, i int, r *workload.RunRecord) {
			if i%25 == 0 {
				gcRun(r, 8*time.Millisecond)
			}
		}, map[workload.Cause]workload.Cost{workload.CauseGC: adds, workload.CauseSTW: nothing,
			workload.CauseMinorFaults: nothing, workload.CauseVoluntarySwitches: nothing}},
		{"page faults on fresh memory cost", func(rng *rand.Rand, i int, r *workload.RunRecord) {
			if i%25 == 0 { // 2048 fresh pages at 2µs each
				r.Causes.MinorFaults += 2048
				r.Runtime += 2048 * 2 * time.Microsecond
			}
			if rng.IntN(10) < 3 {
				gcRun(r, 0)
			}
		}, map[workload.Cause]workload.Cost{workload.CauseMinorFaults: adds, workload.CauseGC: nothing,
			workload.CauseSTW: nothing, workload.CauseVoluntarySwitches: nothing}},
		{"neither: the slow runs are slow by themselves", func(rng *rand.Rand, i int, r *workload.RunRecord) {
			if rng.IntN(10) < 3 {
				gcRun(r, 0)
			}
			if rng.IntN(25) == 0 {
				r.Runtime += time.Duration(rng.IntN(8)) * time.Millisecond
			}
		}, map[workload.Cause]workload.Cost{workload.CauseGC: nothing, workload.CauseSTW: nothing,
			workload.CauseMinorFaults: nothing, workload.CauseVoluntarySwitches: nothing}},
		{"GC in 70% of runs costs 1ms", func(rng *rand.Rand, i int, r *workload.RunRecord) {
			if rng.IntN(10) < 7 {
				gcRun(r, time.Millisecond)
			}
		}, map[workload.Cause]workload.Cost{workload.CauseGC: adds, workload.CauseSTW: nothing,
			workload.CauseMinorFaults: nothing, workload.CauseVoluntarySwitches: nothing}},
		{"GC in 70% of runs costs nothing", func(rng *rand.Rand, i int, r *workload.RunRecord) {
			if rng.IntN(10) < 7 {
				gcRun(r, 0)
			}
		}, map[workload.Cause]workload.Cost{workload.CauseGC: nothing, workload.CauseSTW: nothing,
			workload.CauseMinorFaults: nothing, workload.CauseVoluntarySwitches: nothing}},
		{"switches in 70% of runs cost 1ms", func(rng *rand.Rand, i int, r *workload.RunRecord) {
			if rng.IntN(10) < 7 { // 5 at 200µs each
				r.Causes.InvoluntarySwitches = 5
				r.Runtime += 5 * 200 * time.Microsecond
			}
		}, map[workload.Cause]workload.Cost{workload.CauseInvoluntarySwitches: adds, workload.CauseGC: workload.CostNone,
			workload.CauseMinorFaults: nothing, workload.CauseVoluntarySwitches: nothing}},
		{"faults in 70% of runs cost nothing", func(rng *rand.Rand, i int, r *workload.RunRecord) {
			if rng.IntN(10) < 7 {
				r.Causes.MinorFaults += 500
			}
		}, map[workload.Cause]workload.Cost{workload.CauseMinorFaults: nothing, workload.CauseGC: workload.CostNone,
			workload.CauseVoluntarySwitches: nothing}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for seed := range uint64(10) {
				tail := workload.TailOf(population(1000, seed, tt.set))
				for c, want := range tt.want {
					if ct := tail.Causes[c]; ct.Cost != want {
						t.Errorf("seed %d: %v: %q, want %q: %s", seed, c, ct.Cost, want, estimateLine(tail, ct))
					}
				}
			}
		})
	}
}

func estimateLine(t workload.Tail, c workload.CauseTail) string {
	return fmt.Sprintf("%v at the P99 of %v (least %v): %v (%v..%v); slowest 1%% %v: %v (%v..%v); %.0fns a unit",
		c.Method, t.P99, t.Least, c.P99Adds, c.P99Low, c.P99High, t.Top, c.TopAdds, c.TopLow, c.TopHigh, c.PerUnit)
}
