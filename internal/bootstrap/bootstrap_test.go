package bootstrap

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestInterval(t *testing.T) {
	reps := make([]float64, 1001)
	for i := range reps {
		reps[i] = float64(1000 - i)
	}
	reps[3] = math.NaN()
	lo, hi := Interval(reps, 0.95)
	if lo != 25 || hi != 974 { // 997 is left out
		t.Errorf("0..1000 less 997: %v..%v, want 25..974", lo, hi)
	}
	if lo, hi := Interval([]float64{math.NaN()}, 0.95); !math.IsNaN(lo) || !math.IsNaN(hi) {
		t.Errorf("all NaN: %v..%v", lo, hi)
	}
}

// TestLAD: a median fit recovers the line under outliers above it, gives
// the slope between two clusters' medians, and 0 to a constant column.
func TestLAD(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	n := 1000
	x := [][]float64{make([]float64, n), make([]float64, n), make([]float64, n)}
	y := make([]float64, n)
	for i := range n {
		x[0][i] = float64(rng.IntN(100)) // costs 5 a unit
		x[1][i] = float64(i%10/7) * 1000 // 30% with 1000 units costing 0.002 each: 2
		x[2][i] = 7                      // constant
		y[i] = 100 + 5*x[0][i] + 0.002*x[1][i] + rng.NormFloat64()
		if i%20 == 0 {
			y[i] += 500 // the slow runs a mean fit would follow
		}
	}
	d := NewDesign(x, n)
	b := d.Fit(y, nil, nil, 30)
	want := []float64{100, 5, 0.002, 0}
	tol := []float64{1, 0.02, 0.0005, 0}
	for j := range want {
		if math.Abs(b[j]-want[j]) > tol[j] {
			t.Errorf("b[%d] = %v, want %v ± %v (all: %v)", j, b[j], want[j], tol[j], b)
		}
	}
	// A resample, warm started, agrees.
	idx, count := make([]int, n), make([]int, n)
	New(9).Draw(idx)
	for _, i := range idx {
		count[i]++
	}
	b2 := d.Fit(y, count, b, 3)
	if math.Abs(b2[1]-5) > 0.05 {
		t.Errorf("resample: %v", b2)
	}
}

// TestSeed: the same values give the same seed, others another.
func TestSeed(t *testing.T) {
	a, b := Seed([]int64{1, 2, 3}), Seed([]int64{1, 2, 3})
	if a != b || a == Seed([]int64{1, 2, 4}) {
		t.Errorf("seeds %x %x %x", a, b, Seed([]int64{1, 2, 4}))
	}
}
