package latency

import "github.com/aclements/go-moremath/stats"

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
// The probabilities are computed exactly, as sums of the hypergeometric
// probabilities (go-moremath's stats.HypergeometicDist, the distribution
// benchmath's tests also come from), not by an approximation. Enrichment
// returns P = Floor = 1 when the arguments do not form a table (negative,
// or a part larger than its whole).
func Enrichment(all, with, chosen, chosenWith int) (p, floor float64) {
	if all <= 0 || with < 0 || with > all || chosen < 0 || chosen > all ||
		chosenWith < 0 || chosenWith > chosen || chosenWith > with ||
		chosen-chosenWith > all-with {
		return 1, 1
	}
	// P(X >= a) for X the chosen with the trait is P(Y <= chosen-a) for Y
	// the chosen without it: a lower tail, which the CDF sums without
	// the cancellation of 1 - CDF.
	without := stats.HypergeometicDist{N: all, K: all - with, Draws: chosen}
	tail := func(a int) float64 { return min(without.CDF(float64(chosen-a)), 1) }
	return tail(chosenWith), tail(min(chosen, with))
}
