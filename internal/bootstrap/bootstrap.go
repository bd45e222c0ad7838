// Package bootstrap is the resampling behind workload's tail estimates: a
// seed derived from the data (so that the same result always gives the
// same interval), draws of runs with replacement, percentile intervals,
// and a least-absolute-deviations fit (a per-unit cost the slowest runs do
// not pull).
package bootstrap

import (
	"hash/fnv"
	"math"
	"math/rand/v2"
	"slices"
)

// Seed is a seed derived from values (FNV-1a of their bytes): the same
// values, the same seed, so a report computed twice from one result says
// the same thing.
func Seed(values []int64) uint64 {
	h := fnv.New64a()
	var b [8]byte
	for _, v := range values {
		for i := range b {
			b[i] = byte(uint64(v) >> (8 * i))
		}
		h.Write(b[:])
	}
	return h.Sum64()
}

// Sampler draws indices with replacement from its own generator.
type Sampler struct{ rng *rand.Rand }

// New returns a Sampler seeded with seed.
func New(seed uint64) *Sampler {
	return &Sampler{rng: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))}
}

// Draw fills idx with len(idx) indices drawn uniformly, with replacement,
// from 0..len(idx)-1: one bootstrap resample of as many items.
func (s *Sampler) Draw(idx []int) {
	for i := range idx {
		idx[i] = s.rng.IntN(len(idx))
	}
}

// Interval is the percentile interval at level (0.95: from the 2.5th to the
// 97.5th percentile) of the replicates reps, which it sorts. NaN replicates
// (a resample the statistic was not defined on) are left out; with none
// left both ends are NaN.
func Interval(reps []float64, level float64) (lo, hi float64) {
	reps = slices.DeleteFunc(reps, math.IsNaN)
	if len(reps) == 0 {
		return math.NaN(), math.NaN()
	}
	slices.Sort(reps)
	a := (1 - level) / 2
	at := func(q float64) float64 {
		i := min(max(int(math.Round(q*float64(len(reps)-1))), 0), len(reps)-1)
		return reps[i]
	}
	return at(a), at(1 - a)
}
