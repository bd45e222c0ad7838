package latency

import (
	"math"
	"slices"
	"testing"
)

func TestCompare(t *testing.T) {
	six := []float64{105, 100, 103, 101, 104, 102} // median 102.5, unsorted on purpose
	sixUp := []float64{125, 120, 123, 121, 124, 122}
	inf := math.Inf(1)
	tests := []struct {
		name        string
		old, new    []float64
		alpha       float64
		tested      bool
		significant bool
		decidable   bool
		delta       float64
		p           float64 // 0: not checked
		oldEst      Estimate
		newEst      Estimate
		warnings    []string
	}{
		{
			name: "clearly slower", old: six, new: sixUp, alpha: 0.05,
			tested: true, decidable: true, significant: true, delta: 20.0 / 102.5,
			// Two samples of 6 that do not overlap: the U test's smallest
			// two-sided p-value, 2/C(12,6) = 2/924.
			p:      2.0 / 924,
			oldEst: Estimate{Center: 102.5, Lo: 100, Hi: 105, N: 6},
			newEst: Estimate{Center: 122.5, Lo: 120, Hi: 125, N: 6},
		},
		{
			name: "clearly faster", old: sixUp, new: six, alpha: 0.05,
			tested: true, decidable: true, significant: true, delta: -20.0 / 122.5, p: 2.0 / 924,
			oldEst: Estimate{Center: 122.5, Lo: 120, Hi: 125, N: 6},
			newEst: Estimate{Center: 102.5, Lo: 100, Hi: 105, N: 6},
		},
		{
			name: "stricter alpha", old: six, new: sixUp, alpha: 0.001,
			tested: true, significant: false, delta: 20.0 / 102.5, p: 2.0 / 924,
			oldEst:   Estimate{Center: 102.5, Lo: 100, Hi: 105, N: 6},
			newEst:   Estimate{Center: 122.5, Lo: 120, Hi: 125, N: 6},
			warnings: []string{"need >= 7 samples to detect a difference at alpha level 0.001"},
		},
		{
			name: "identical", old: six, new: six, alpha: 0.05,
			tested: true, decidable: true, significant: false, delta: 0, p: 1,
			oldEst: Estimate{Center: 102.5, Lo: 100, Hi: 105, N: 6},
			newEst: Estimate{Center: 102.5, Lo: 100, Hi: 105, N: 6},
		},
		{
			name: "all equal", old: []float64{5, 5, 5, 5, 5, 5}, new: []float64{5, 5, 5, 5, 5, 5}, alpha: 0.05,
			tested: true, decidable: true, significant: false, delta: 0, p: 1,
			oldEst:   Estimate{Center: 5, Lo: 5, Hi: 5, N: 6},
			newEst:   Estimate{Center: 5, Lo: 5, Hi: 5, N: 6},
			warnings: []string{"all samples are equal"},
		},
		{
			name: "too few samples", old: []float64{1, 2, 3}, new: []float64{4, 5, 6}, alpha: 0.05,
			tested: true, significant: false, delta: 1.5, p: 0.1,
			oldEst: Estimate{Center: 2, Lo: -inf, Hi: inf, N: 3},
			newEst: Estimate{Center: 5, Lo: -inf, Hi: inf, N: 3},
			warnings: []string{
				"need >= 6 samples for confidence interval at level 0.95",
				"need >= 4 samples to detect a difference at alpha level 0.05",
			},
		},
		{
			name: "one value per side", old: []float64{200}, new: []float64{150}, alpha: 0.05,
			tested: false, significant: false, delta: -0.25, p: 1,
			oldEst:   Estimate{Center: 200, Lo: -inf, Hi: inf, N: 1},
			newEst:   Estimate{Center: 150, Lo: -inf, Hi: inf, N: 1},
			warnings: []string{NoTest},
		},
		{
			name: "from zero", old: []float64{0}, new: []float64{3}, alpha: 0.05,
			tested: false, delta: inf, p: 1,
			oldEst:   Estimate{Center: 0, Lo: -inf, Hi: inf, N: 1},
			newEst:   Estimate{Center: 3, Lo: -inf, Hi: inf, N: 1},
			warnings: []string{NoTest},
		},
		{
			name: "empty new side", old: []float64{1, 2}, new: nil, alpha: 0.05,
			tested: false, delta: 0, p: 1,
			oldEst:   Estimate{Center: 1.5, Lo: -inf, Hi: inf, N: 2},
			newEst:   Estimate{Lo: -inf, Hi: inf},
			warnings: []string{"no values on the new side"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			oldCopy := slices.Clone(tt.old)
			c := Compare("BenchmarkX", "ns/op", tt.old, tt.new, tt.alpha)
			if c.Name != "BenchmarkX" || c.Unit != "ns/op" || c.Alpha != tt.alpha {
				t.Errorf("name %q, unit %q, alpha %v", c.Name, c.Unit, c.Alpha)
			}
			if c.Decidable != tt.decidable {
				t.Errorf("decidable %v, want %v", c.Decidable, tt.decidable)
			}
			if c.Tested != tt.tested || c.Significant != tt.significant {
				t.Errorf("tested %v, significant %v; want %v, %v", c.Tested, c.Significant, tt.tested, tt.significant)
			}
			if !sameFloat(c.Delta, tt.delta) {
				t.Errorf("delta %v, want %v", c.Delta, tt.delta)
			}
			if tt.p != 0 && !approx(c.P, tt.p, 1e-9) {
				t.Errorf("p %v, want %v", c.P, tt.p)
			}
			if !sameEstimate(c.Old, tt.oldEst) || !sameEstimate(c.New, tt.newEst) {
				t.Errorf("estimates %+v, %+v; want %+v, %+v", c.Old, c.New, tt.oldEst, tt.newEst)
			}
			if !slices.Equal(c.Warnings, tt.warnings) {
				t.Errorf("warnings %q, want %q", c.Warnings, tt.warnings)
			}
			if !slices.Equal(tt.old, oldCopy) {
				t.Errorf("Compare reordered its input: %v", tt.old)
			}
		})
	}
}

func sameFloat(a, b float64) bool {
	if math.IsInf(b, 0) {
		return a == b
	}
	return approx(a, b, 1e-12)
}

func sameEstimate(a, b Estimate) bool {
	return a.N == b.N && sameFloat(a.Center, b.Center) && sameFloat(a.Lo, b.Lo) && sameFloat(a.Hi, b.Hi)
}

// TestSmallestP checks the U test's smallest p-values against the exact
// ones, 2/C(n1+n2, n1), and benchmath's sample sizes.
func TestSmallestP(t *testing.T) {
	for _, tt := range []struct {
		n1, n2 int
		want   float64
	}{
		{0, 5, 1}, {5, 0, 1}, {1, 1, 1}, {2, 2, 2.0 / 6}, {3, 3, 2.0 / 20}, {4, 4, 2.0 / 70},
		{6, 6, 2.0 / 924}, {1, 39, 2.0 / 40}, {39, 1, 2.0 / 40}, {3, 5, 2.0 / 56},
	} {
		if got := SmallestP(tt.n1, tt.n2); !approx(got, tt.want, 1e-12) {
			t.Errorf("SmallestP(%d, %d) = %v, want %v", tt.n1, tt.n2, got, tt.want)
		}
	}
	if p := SmallestP(5000, 5000); p < 0 || p > 1e-200 {
		t.Errorf("SmallestP(5000, 5000) = %v, want a tiny positive value", p)
	}
	// The sizes benchmath names in its "need >= N samples" warning.
	for alpha, want := range map[float64]int{0.2: 3, 0.05: 4, 0.01: 5, 0.001: 7} {
		if got := SamplesNeeded(alpha); got != want {
			t.Errorf("SamplesNeeded(%v) = %d, want %d", alpha, got, want)
		}
	}
}

// TestCompareUndecidable: 1 and 6 samples, wholly apart, cannot be told
// apart at 0.05 (p 2/7), and the comparison says so.
func TestCompareUndecidable(t *testing.T) {
	c := Compare("X", "ns/op", []float64{1}, []float64{5, 6, 7, 8, 9, 10}, 0.05)
	if c.Decidable || c.Significant || !c.Tested {
		t.Errorf("decidable %v, significant %v, tested %v", c.Decidable, c.Significant, c.Tested)
	}
	want := "too few samples to detect a difference at alpha level 0.05 (1 and 6)"
	if !slices.Contains(c.Warnings, want) {
		t.Errorf("warnings %q, want %q among them", c.Warnings, want)
	}
}

func TestMedianSpread(t *testing.T) {
	six := []float64{105, 100, 103, 101, 104, 102}
	if e := Median(six); !sameEstimate(e, Estimate{Center: 102.5, Lo: 100, Hi: 105, N: 6}) {
		t.Errorf("Median(six) = %+v", e)
	}
	inf := math.Inf(1)
	if e := Median([]float64{3, 1, 2}); !sameEstimate(e, Estimate{Center: 2, Lo: -inf, Hi: inf, N: 3}) {
		t.Errorf("Median of 3 = %+v", e)
	}
	for _, tt := range []struct {
		values []float64
		want   float64
	}{
		{nil, 0}, {[]float64{5}, 0}, {[]float64{5, 5, 5}, 0}, {six, 5 / 102.5},
		{[]float64{-1, 0, 1}, inf}, {[]float64{-2, -4, -3}, 2.0 / 3},
	} {
		if got := Spread(tt.values); !sameFloat(got, tt.want) {
			t.Errorf("Spread(%v) = %v, want %v", tt.values, got, tt.want)
		}
	}
}
