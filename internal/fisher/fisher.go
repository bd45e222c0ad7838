// Package fisher is the one-sided Fisher exact test the engine relates the
// worst runs to their causes with (workload's Tail): exact hypergeometric
// tails, however small.
package fisher

import (
	"math"

	"github.com/aclements/go-moremath/mathx"
)

// Enrichment is the one-sided Fisher exact test of whether a trait is more
// common in a chosen group than in the population it was chosen from: of
// all items, with trait have it, and of the chosen, chosenWith do. P is the
// probability that chosen items drawn at random, without regard to the
// trait, would hold chosenWith or more with it (the hypergeometric upper
// tail); Floor is the smallest P these margins allow at all, every chosen
// item holding the trait (as many as can), so that when Floor is not below
// a significance level no outcome could have been significant: there were
// too few items to tell.
//
// The probabilities are the hypergeometric tail summed term by term, each
// term from the binomial coefficients (go-moremath's mathx.Lchoose) and
// the ratio of neighbouring terms, not an approximation: they are exact to
// about nine significant digits, however small, and never negative. The
// tail summed is the one beyond the mode, whose terms shrink, so that a
// small P is never the difference of two numbers near 1 (go-moremath's
// HypergeometicDist.CDF is one: its P of 4e-38 comes out as -1.5e-10).
// Enrichment returns P = Floor = 1 when the arguments do not form a table
// (negative, or a part larger than its whole).
func Enrichment(all, with, chosen, chosenWith int) (p, floor float64) {
	if all <= 0 || with < 0 || with > all || chosen < 0 || chosen > all ||
		chosenWith < 0 || chosenWith > chosen || chosenWith > with ||
		chosen-chosenWith > all-with {
		return 1, 1
	}
	h := hypergeometric{n: all, k: with, draws: chosen}
	return h.upper(chosenWith), h.upper(min(chosen, with))
}

// hypergeometric is the distribution of the items with the trait among
// draws items drawn without replacement from n, of which k have it.
type hypergeometric struct{ n, k, draws int }

// upper is P(X >= a).
func (h hypergeometric) upper(a int) float64 {
	lo, hi := max(0, h.draws+h.k-h.n), min(h.draws, h.k)
	switch {
	case a <= lo:
		return 1
	case a > hi:
		return 0
	}
	mode := int(float64(h.draws+1) * float64(h.k+1) / float64(h.n+2))
	if a > mode {
		return min(h.tail(a, hi, 1), 1)
	}
	// P(X >= a) is then at least P(X = mode): 1 less the lower tail
	// loses nothing that matters.
	return max(0, 1-h.tail(a-1, lo, -1))
}

// pmf is P(X = x).
func (h hypergeometric) pmf(x int) float64 {
	return math.Exp(mathx.Lchoose(h.k, x) + mathx.Lchoose(h.n-h.k, h.draws-x) - mathx.Lchoose(h.n, h.draws))
}

// tail sums P(X = x) from x = from to x = to by step (±1), from beyond the
// mode outwards, where each term is smaller than the one before: it stops
// when the terms no longer change the sum.
func (h hypergeometric) tail(from, to, step int) float64 {
	term := h.pmf(from)
	sum := term
	for x := from; x != to && term > sum*1e-17; x += step {
		if step > 0 { // P(x+1) / P(x)
			term *= float64(h.k-x) * float64(h.draws-x) / (float64(x+1) * float64(h.n-h.k-h.draws+x+1))
		} else { // P(x-1) / P(x)
			term *= float64(x) * float64(h.n-h.k-h.draws+x) / (float64(h.k-x+1) * float64(h.draws-x+1))
		}
		sum += term
	}
	return sum
}
