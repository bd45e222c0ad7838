package workload

import (
	"math"
	"math/rand/v2"
)

// orderer draws the operations of each run. The order of run i depends only
// on the seed, the phase and i, never on which goroutine runs it, so a
// multi-threaded benchmark is as repeatable as a single-threaded one.
type orderer struct {
	n       int  // operations in the mix
	k       int  // operations per run
	random  bool // shuffle / draw at random
	repeats bool // sampled with repetition
	sampled bool
	seed    uint64
	pcg     *rand.PCG
	rng     *rand.Rand
	buf     []int
}

func newOrderer(cfg Config, n int) *orderer {
	pcg := rand.NewPCG(0, 0)
	return &orderer{
		n: n, k: cfg.OpsPerRun(n),
		random: cfg.Random, repeats: cfg.Repeats, sampled: cfg.Sample > 0,
		seed: uint64(cfg.Seed),
		pcg:  pcg, rng: rand.New(pcg),
		buf: make([]int, max(n, cfg.OpsPerRun(n))),
	}
}

// Phase streams, so that warmup run 3 and timed run 3 differ.
const (
	streamWarmup = 0x5741524d55500000 // "WARMUP"
	streamTimed  = 0x54494d4544000000 // "TIMED"
)

// order returns the operation indexes of run i of a phase; the slice is
// reused by the next call. It also leaves the generator positioned for the
// run's delays (see delay).
func (o *orderer) order(stream uint64, i int) []int {
	o.pcg.Seed(o.seed, stream^uint64(i))
	out := o.buf[:o.k]
	switch {
	case !o.sampled:
		for j := range out {
			out[j] = j
		}
		if o.random {
			o.rng.Shuffle(len(out), func(a, b int) { out[a], out[b] = out[b], out[a] })
		}
	case o.random && o.repeats:
		for j := range out {
			out[j] = o.rng.IntN(o.n)
		}
	case o.random:
		// A partial Fisher-Yates shuffle: k distinct operations, k <= n
		// (Validate), in one pass, so it always ends.
		all := o.buf[:o.n]
		for j := range all {
			all[j] = j
		}
		for j := 0; j < o.k; j++ {
			r := j + o.rng.IntN(o.n-j)
			all[j], all[r] = all[r], all[j]
		}
		out = all[:o.k]
	default:
		// In order: walk the mix cyclically, run after run. Without repeats
		// k <= n, so no operation appears twice in a run.
		start := (i * o.k) % o.n
		for j := range out {
			out[j] = (start + j) % o.n
		}
	}
	return out
}

// delay draws a delay in [0, maxDelay] from the run's generator.
func (o *orderer) delay(maxDelay int64) int64 {
	if maxDelay <= 0 {
		return 0
	}
	if maxDelay == math.MaxInt64 {
		return o.rng.Int64() // [0, MaxInt64]: maxDelay+1 would overflow
	}
	return o.rng.Int64N(maxDelay + 1)
}
