package latency

import (
	"math"
	"math/big"
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

// exactSummary is the methodology's statistics computed the long way:
// sort, drop, and sum in exact rational arithmetic.
func exactSummary(values []time.Duration, outliers int) Summary {
	s := Summary{Count: int64(len(values))}
	if len(values) == 0 {
		return s
	}
	v := slices.Clone(values)
	slices.Sort(v)
	s.Discarded = Trim(len(v), outliers)
	kept := v[s.Discarded : len(v)-s.Discarded]
	s.Kept = int64(len(kept))
	s.Min, s.Max = kept[0], kept[len(kept)-1]
	sum := new(big.Rat)
	for _, x := range kept {
		sum.Add(sum, new(big.Rat).SetInt64(int64(x)))
		s.Total += x
	}
	n := new(big.Rat).SetInt64(s.Kept)
	mean := new(big.Rat).Quo(sum, n)
	// Rounded half up, as a duration.
	m, _ := new(big.Rat).Add(mean, big.NewRat(1, 2)).Float64()
	s.Mean = time.Duration(math.Floor(m))
	sq := new(big.Rat)
	for _, x := range kept {
		d := new(big.Rat).Sub(new(big.Rat).SetInt64(int64(x)), mean)
		sq.Add(sq, d.Mul(d, d))
	}
	s.Variance, _ = sq.Quo(sq, n).Float64()
	s.StdDev = time.Duration(math.Round(math.Sqrt(s.Variance)))
	var logs big.Float
	logs.SetPrec(200)
	for _, x := range kept {
		logs.Add(&logs, new(big.Float).SetPrec(200).SetFloat64(math.Log(float64(max(x, time.Nanosecond)))))
	}
	l, _ := logs.Float64()
	s.GeoMean = time.Duration(math.Round(math.Exp(l / float64(s.Kept))))
	return s
}

func TestAccumulatorIsExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	gen := map[string]func() time.Duration{
		"noop":     func() time.Duration { return time.Duration(40 + rng.IntN(30)) },
		"ms":       func() time.Duration { return time.Duration(8e6 + rng.Int64N(4e6)) },
		"tail":     func() time.Duration { return time.Duration(math.Exp(rng.Float64()*20) + 50) },
		"zeros":    func() time.Duration { return time.Duration(rng.IntN(3)) },
		"hours":    func() time.Duration { return time.Duration(rng.Int64N(int64(10 * time.Hour))) },
		"constant": func() time.Duration { return 777 },
	}
	for name, g := range gen {
		for _, n := range []int{1, 2, 3, 5, 10, 1000, 100000} {
			for _, outliers := range []int{0, 1, 2, 7} {
				values := make([]time.Duration, n)
				for i := range values {
					values[i] = g()
				}
				// Four goroutines' accumulators, merged, in arrival order.
				var parts [4]*Accumulator
				for i := range parts {
					parts[i] = NewAccumulator(outliers)
				}
				for i, v := range values {
					parts[i%4].Add(v)
				}
				for _, p := range parts[1:] {
					parts[0].Merge(p)
				}
				got := parts[0].Summary(outliers, nil)
				want := exactSummary(values, outliers)
				geo := got.GeoMean - want.GeoMean
				got.GeoMean = want.GeoMean
				if got != want {
					t.Errorf("%s, %d values, %d outliers:\n got %+v\nwant %+v", name, n, outliers, got, want)
				}
				if geo < -1 || geo > 1 {
					t.Errorf("%s, %d values, %d outliers: GeoMean %v off the exact one", name, n, outliers, geo)
				}
			}
		}
	}
}

func TestAccumulatorOutliersBound(t *testing.T) {
	// An accumulator for 1 outlier, asked for more, drops what it kept.
	a := NewAccumulator(1)
	for _, v := range []time.Duration{5, 1, 9, 3, 7} {
		a.Add(v)
	}
	if s := a.Summary(3, nil); s.Discarded != 1 || s.Min != 3 || s.Max != 7 || s.Total != 15 {
		t.Errorf("Summary(3) of an accumulator of 1 outlier: %+v", s)
	}
}

func TestAccumulatorAddDoesNotAllocate(t *testing.T) {
	a := NewAccumulator(3)
	v := time.Duration(0)
	if n := testing.AllocsPerRun(1000, func() { v += 37; a.Add(v % 1000) }); n != 0 {
		t.Errorf("Add allocates %v times", n)
	}
}

func BenchmarkAccumulatorAdd(b *testing.B) {
	a := NewAccumulator(1)
	v := time.Duration(0)
	for b.Loop() {
		v += 37
		a.Add(v % 100000)
	}
}
