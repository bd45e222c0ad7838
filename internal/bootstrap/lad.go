package bootstrap

import "math"

// A Design is the data of a least-absolute-deviations fit, y ≈ b[0] +
// Σ b[j+1]·x[j], prepared once for the fits of many resamples: a median
// fit, which the few slowest runs do not pull as they pull a least-squares
// line, and which gives a covariate in two clusters (runs with none of a
// cause, runs with much) the slope between the clusters' medians.
type Design struct {
	n, p  int
	xs    []float64 // row-major n×p, the intercept's 1 first, each column scaled to at most 1 in magnitude
	y     []float64 // of the fit in progress
	scale []float64 // each column's largest magnitude
	cols  []int     // the columns in use: the others are constant over the rows, and get 0
	eps   float64   // the least residual a weight divides by
	a, c  []float64 // the normal equations, a p×p row-major
	b     []float64
}

// NewDesign prepares the fits of n values on the columns x (each n long).
func NewDesign(x [][]float64, n int) *Design {
	p := len(x) + 1
	d := &Design{n: n, p: p, xs: make([]float64, n*p), scale: make([]float64, p),
		a: make([]float64, p*p), c: make([]float64, p), b: make([]float64, p)}
	d.scale[0] = 1
	d.cols = append(d.cols, 0)
	for j, col := range x {
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, v := range col {
			lo, hi, d.scale[j+1] = min(lo, v), max(hi, v), max(d.scale[j+1], math.Abs(v))
		}
		if hi > lo {
			d.cols = append(d.cols, j+1)
		}
	}
	for i := range n {
		d.xs[i*p] = 1
		for _, j := range d.cols[1:] {
			d.xs[i*p+j] = x[j-1][i] / d.scale[j]
		}
	}
	return d
}

// Fit fits y (n values) by iteratively reweighted least squares, over the
// rows each counted as often as count says (nil: once; a bootstrap
// resample's draws), iters rounds from start (nil: from least squares).
// It returns the p coefficients, the intercept first; a column constant
// over all rows gets 0, and so does one a resample leaves no variation in.
func (d *Design) Fit(y []float64, count []int, start []float64, iters int) []float64 {
	d.y = y
	yScale := 0.0
	for _, v := range y {
		yScale = max(yScale, math.Abs(v))
	}
	d.eps = max(yScale*1e-6, 1e-12)
	b := d.b
	clear(b)
	if start != nil {
		for _, j := range d.cols {
			b[j] = start[j] * d.scale[j]
		}
	}
	for round := range iters + 1 {
		if round == 0 && start != nil {
			continue
		}
		d.normal(count, round > 0 || start != nil)
		solve(d.a, d.c, d.p)
		copy(b, d.c)
	}
	out := make([]float64, d.p)
	for _, j := range d.cols {
		out[j] = b[j] / d.scale[j]
	}
	return out
}

// normal sets the normal equations of the least squares weighted by the
// rows' counts and, when weighted, by the inverse of each row's residual
// under d.b, over the columns in use (the others get the equation b[j] =
// 0).
func (d *Design) normal(count []int, weighted bool) {
	clear(d.a)
	clear(d.c)
	p := d.p
	for r := range d.n {
		w := 1.0
		if count != nil {
			if count[r] == 0 {
				continue
			}
			w = float64(count[r])
		}
		xi := d.xs[r*p : r*p+p]
		if weighted {
			pred := 0.0
			for _, j := range d.cols {
				pred += d.b[j] * xi[j]
			}
			w /= max(math.Abs(d.y[r]-pred), d.eps)
		}
		for ji, j := range d.cols {
			wx := w * xi[j]
			d.c[j] += wx * d.y[r]
			for _, k := range d.cols[ji:] {
				d.a[j*p+k] += wx * xi[k]
			}
		}
	}
	for ji, j := range d.cols {
		for _, k := range d.cols[ji+1:] {
			d.a[k*p+j] = d.a[j*p+k]
		}
		d.a[j*p+j] *= 1 + 1e-12
	}
	for j := range p {
		if d.a[j*p+j] == 0 {
			d.a[j*p+j] = 1 // a column not in use
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
