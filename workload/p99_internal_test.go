package workload

import (
	"cmp"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/gcperf/gcperf/latency"
)

// p99Bounded gives GCPerfP99's figures from the bounded state of runs too
// many to keep: exactly when the slowest runs it keeps suffice, within the
// histogram's precision otherwise.
func TestP99Bounded(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{1, 50, 100, 1000, 20000} {
		runs := make([]latency.RunTime, n)
		r := latency.NewRecorder()
		var total, fastest time.Duration
		fastest = time.Hour
		for i := range runs {
			d := time.Duration(1e6 + rng.Int64N(1e6))
			if rng.IntN(50) == 0 {
				d *= 20
			}
			runs[i] = latency.RunTime{Run: i + 1, Time: d}
			r.Record(d)
			total += d
			fastest = min(fastest, d)
		}
		exact := latency.GCPerfP99(runs, 32)
		slowest := slices.Clone(runs)
		slices.SortStableFunc(slowest, func(a, b latency.RunTime) int { return cmp.Compare(a.Time, b.Time) })
		slices.Reverse(slowest) // slowest first; a tie goes to the later run
		d := n - exact.Kept
		// Enough of the slowest: the same figures, to the last bit.
		got := p99Bounded(n, total, fastest, slowest[:min(d+1, n)], r, 32)
		if !reflect.DeepEqual(got, exact) {
			t.Errorf("%d runs, the %d slowest kept:\n got %+v\nwant %+v", n, min(d+1, n), got, exact)
		}
		if d < 10 {
			continue
		}
		// Too few: estimated from the histogram, within its precision.
		est := p99Bounded(n, total, fastest, slowest[:5], r, 32)
		if !est.Estimated || len(est.Worst) != 5 || est.Kept != exact.Kept {
			t.Errorf("%d runs, 5 kept: estimated %v, %d worst", n, est.Estimated, len(est.Worst))
		}
		for _, c := range []struct {
			name      string
			got, want float64
		}{
			{"Total", float64(est.Total), float64(exact.Total)},
			{"ThroughputMin", est.ThroughputMin, exact.ThroughputMin},
			{"LatencyMax", float64(est.LatencyMax), float64(exact.LatencyMax)},
		} {
			if math.Abs(c.got-c.want) > 0.001*c.want {
				t.Errorf("%d runs, 5 kept: %s %v, exact %v: off by more than 0.1%%", n, c.name, c.got, c.want)
			}
		}
	}
}
