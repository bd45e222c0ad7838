package fisher

import (
	"math"
	"math/big"
	"testing"
)

func TestEnrichment(t *testing.T) {
	tests := []struct {
		name                          string
		all, with, chosen, chosenWith int
		p, floor                      float64
	}{
		// Fisher's lady tasting tea: 3 of the 4 cups she chose had milk
		// first, of 8 cups of which 4 did. R's fisher.test(TeaTasting,
		// alternative = "greater"): p-value = 0.2429 (17/70).
		{"tea", 8, 4, 4, 3, 17.0 / 70, 1.0 / 70},
		// Wikipedia's "Fisher's exact test" example: 9 of the 10 studying
		// were women, of 24 people of whom 12 were women. The observed
		// table has probability 0.001346, the one more extreme
		// 0.000033652, and the one-tailed p-value is their sum.
		{"wikipedia", 24, 12, 10, 9, 0.001346 + 0.000033652, 0.000033652},
		// GC in every one of the 10 worst of 1000 runs, 120 runs with GC.
		{"tail", 1000, 120, 10, 10, 4.406376838988475e-10, 4.406376838988475e-10},
		// Nothing chosen had it: certain to see that many or more.
		{"none", 100, 50, 10, 0, 1, 0.0005934},
		{"never", 100, 0, 10, 0, 1, 1},
		{"always", 100, 100, 10, 10, 1, 1},
		{"not a table", 10, 3, 5, 4, 1, 1},
		{"empty", 0, 0, 0, 0, 1, 1},
	}
	for _, tt := range tests {
		p, floor := Enrichment(tt.all, tt.with, tt.chosen, tt.chosenWith)
		if !close(p, tt.p) || !close(floor, tt.floor) {
			t.Errorf("%s: Enrichment(%d, %d, %d, %d) = %.6g, %.6g, want %.6g, %.6g",
				tt.name, tt.all, tt.with, tt.chosen, tt.chosenWith, p, floor, tt.p, tt.floor)
		}
	}
}

// close compares to the precision the published values are given to
// (four significant figures, or 1e-12 absolutely).
func close(a, b float64) bool {
	return math.Abs(a-b) <= max(1e-12, 5e-4*math.Abs(b)) || math.Abs(a-b) < 1e-12
}

// TestEnrichmentExact checks every table of small margins against the
// hypergeometric tail summed in exact rational arithmetic.
func TestEnrichmentExact(t *testing.T) {
	for all := 1; all <= 30; all += 7 {
		for with := 0; with <= all; with++ {
			for chosen := 0; chosen <= all; chosen += 3 {
				for a := max(0, chosen-(all-with)); a <= min(chosen, with); a++ {
					p, _ := Enrichment(all, with, chosen, a)
					want, _ := exactTail(all, with, chosen, a).Float64()
					if !closeRel(p, want) {
						t.Fatalf("Enrichment(%d, %d, %d, %d) = %.17g, exact %.17g", all, with, chosen, a, p, want)
					}
				}
			}
		}
	}
}

// TestEnrichmentSmallP checks the p-values of tails as large as the
// verdicts meet (the slowest 1% of 100,000 kept runs is 1,000) against the
// exact tail, to nine significant digits: a small p-value must not be lost
// in 1 less a number near 1 (go-moremath's CDF gave -1.5e-10 for the first).
func TestEnrichmentSmallP(t *testing.T) {
	tests := [][4]int{
		{100000, 50000, 1000, 700},
		{100000, 10000, 1000, 300},
		{100000, 50000, 1000, 520},
		{100000, 50000, 1000, 1000},
		{1000, 120, 10, 9},
		{5000, 2500, 50, 45},
		{5000, 2500, 50, 20},
		{100000, 99990, 1000, 999},
		{100000, 5, 1000, 2},
	}
	for _, tt := range tests {
		p, floor := Enrichment(tt[0], tt[1], tt[2], tt[3])
		want, _ := exactTail(tt[0], tt[1], tt[2], tt[3]).Float64()
		wantFloor, _ := exactTail(tt[0], tt[1], tt[2], min(tt[1], tt[2])).Float64()
		if !closeRel(p, want) || !closeRel(floor, wantFloor) {
			t.Errorf("Enrichment%v = %.10g, %.10g; exact %.10g, %.10g", tt, p, floor, want, wantFloor)
		}
	}
}

// closeRel compares to nine significant digits: the precision of the
// binomial coefficients' logarithms for populations of 10^5.
func closeRel(a, b float64) bool {
	return a >= 0 && math.Abs(a-b) <= 1e-9*math.Abs(b)
}

func exactTail(all, with, chosen, a int) *big.Rat {
	sum := new(big.Int)
	for x := a; x <= min(chosen, with); x++ {
		var c1, c2 big.Int
		c1.Binomial(int64(with), int64(x))
		c2.Binomial(int64(all-with), int64(chosen-x))
		sum.Add(sum, c1.Mul(&c1, &c2))
	}
	var n big.Int
	n.Binomial(int64(all), int64(chosen))
	return new(big.Rat).SetFrac(sum, &n)
}
