package bootstrap

import "math"

// LAD fits y ≈ b[0] + Σ b[j+1]·x[j] by least absolute deviations over the
// rows idx (nil: every row), by iteratively reweighted least squares:
// iters rounds from start (nil: from least squares). A median fit: the
// few slowest runs do not pull it as they pull a least-squares line, and
// a covariate in two clusters (runs with none of a cause, runs with much)
// gets the slope between the clusters' medians. A covariate constant over
// the rows gets 0. b has len(x)+1 coefficients.
func LAD(x [][]float64, y []float64, idx []int, start []float64, iters int) []float64 {
	f := newFit(x, y, idx)
	b := make([]float64, f.p) // in scaled units
	if start != nil {
		for j := range b {
			if f.use[j] {
				b[j] = start[j] * f.scale[j]
			}
		}
	}
	for round := range iters + 1 {
		if round == 0 && start != nil {
			continue
		}
		f.normal(b, round > 0 || start != nil)
		solve(f.a, f.c, f.p)
		copy(b, f.c)
	}
	for j := range b {
		b[j] /= f.scale[j]
		if !f.use[j] {
			b[j] = 0
		}
	}
	return b
}

// fit is a least-absolute-deviations fit in progress: the rows, the
// columns' scales, and the normal equations' buffers.
type fit struct {
	x     [][]float64
	y     []float64
	rows  []int
	p     int
	scale []float64 // each column's largest magnitude: the scaled columns are within ±1
	use   []bool    // false for a column constant over the rows: left out
	a, c  []float64 // the normal equations, a p×p row-major
	xi    []float64
	eps   float64 // the least residual a weight divides by
}

func newFit(x [][]float64, y []float64, idx []int) *fit {
	p := len(x) + 1
	f := &fit{x: x, y: y, rows: idx, p: p, scale: make([]float64, p), use: make([]bool, p),
		a: make([]float64, p*p), c: make([]float64, p), xi: make([]float64, p)}
	if f.rows == nil {
		f.rows = make([]int, len(y))
		for i := range f.rows {
			f.rows[i] = i
		}
	}
	f.scale[0], f.use[0] = 1, true
	for j, col := range x {
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, r := range f.rows {
			v := col[r]
			lo, hi, f.scale[j+1] = min(lo, v), max(hi, v), max(f.scale[j+1], math.Abs(v))
		}
		f.use[j+1] = hi > lo
	}
	yScale := 0.0
	for _, r := range f.rows {
		yScale = max(yScale, math.Abs(y[r]))
	}
	f.eps = max(yScale*1e-6, 1e-12)
	return f
}

// normal sets the normal equations of the least squares weighted by the
// inverse of each row's residual under b (weighted), or unweighted.
func (f *fit) normal(b []float64, weighted bool) {
	clear(f.a)
	clear(f.c)
	p := f.p
	for _, r := range f.rows {
		f.xi[0] = 1
		for j, col := range f.x {
			f.xi[j+1] = 0
			if f.use[j+1] {
				f.xi[j+1] = col[r] / f.scale[j+1]
			}
		}
		w := 1.0
		if weighted {
			pred := 0.0
			for j := range p {
				pred += b[j] * f.xi[j]
			}
			w = 1 / max(math.Abs(f.y[r]-pred), f.eps)
		}
		for j := range p {
			f.c[j] += w * f.xi[j] * f.y[r]
			for k := range p {
				f.a[j*p+k] += w * f.xi[j] * f.xi[k]
			}
		}
	}
	for j := range p {
		if !f.use[j] {
			f.a[j*p+j] = 1 // b[j] = c[j] = 0
		} else {
			f.a[j*p+j] *= 1 + 1e-12
		}
	}
}

// solve solves a·z = c for z (a is p×p, row-major) by Gaussian
// elimination with partial pivoting, leaving z in c; a singular pivot
// gives 0 for its unknown.
func solve(a, c []float64, p int) {
	for k := range p {
		piv := k
		for i := k + 1; i < p; i++ {
			if math.Abs(a[i*p+k]) > math.Abs(a[piv*p+k]) {
				piv = i
			}
		}
		if piv != k {
			for j := range p {
				a[k*p+j], a[piv*p+j] = a[piv*p+j], a[k*p+j]
			}
			c[k], c[piv] = c[piv], c[k]
		}
		if a[k*p+k] == 0 {
			continue
		}
		for i := k + 1; i < p; i++ {
			f := a[i*p+k] / a[k*p+k]
			for j := k; j < p; j++ {
				a[i*p+j] -= f * a[k*p+j]
			}
			c[i] -= f * c[k]
		}
	}
	for k := p - 1; k >= 0; k-- {
		if a[k*p+k] == 0 {
			c[k] = 0
			continue
		}
		s := c[k]
		for j := k + 1; j < p; j++ {
			s -= a[k*p+j] * c[j]
		}
		c[k] = s / a[k*p+k]
	}
}
