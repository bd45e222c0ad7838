package workload

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/gcperf/gcperf/internal/bootstrap"
	"github.com/gcperf/gcperf/latency"
)

// How the tail's estimates are made and judged (Tail, CauseTail.Cost).
const (
	// TailShare is the least part of the P99 a cause must add to be named:
	// a cause adds to the P99 when its whole confidence interval is at or
	// above TailShare × the P99, and adds nothing measurable when its
	// whole interval is below it.
	TailShare = 0.10
	// TailLevel is the confidence level of the intervals.
	TailLevel = 0.95
	// TailResamples is how many bootstrap resamples of the runs the
	// intervals come from, for up to 10,000 runs; fewer beyond (never
	// fewer than 200), so that the estimate takes about as long.
	TailResamples = 1000
	// MinEstimateRuns is how many successful runs an estimate needs: fewer,
	// and the P99 is the slowest run.
	MinEstimateRuns = 100
)

// Method is how a cause's part of the tail is estimated.
type Method uint8

const (
	MethodNone    Method = iota // not estimated
	MethodDirect                // the cause is a time in each run's record (stop-the-world pauses)
	MethodPerUnit               // a cost per unit of the cause, fitted over all runs, times each run's amount
)

var methodNames = [...]string{"", "direct", "per_unit"}

// String is the method's name: "direct", "per_unit".
func (m Method) String() string {
	if int(m) < len(methodNames) {
		return methodNames[m]
	}
	return "method?"
}

// MarshalText is the method's name (String), as reports write it.
func (m Method) MarshalText() ([]byte, error) { return []byte(m.String()), nil }

// UnmarshalText reads a method's name, as MarshalText writes it.
func (m *Method) UnmarshalText(b []byte) error {
	i := slices.Index(methodNames[:], string(b))
	if i < 0 {
		return fmt.Errorf("workload: unknown method %q", b)
	}
	*m = Method(i)
	return nil
}

// Cost is what the estimate says of a cause: whether its confidence
// interval clears the least part of the P99 that counts (Tail.Least).
type Cost uint8

const (
	CostNone      Cost = iota // not estimated
	CostAdds                  // the whole interval is at or above Tail.Least
	CostUncertain             // the interval straddles Tail.Least
	CostNothing               // the whole interval is below Tail.Least
)

var costNames = [...]string{"", "adds", "uncertain", "nothing measurable"}

// String is the cost's name: "adds", "uncertain", "nothing measurable".
func (c Cost) String() string {
	if int(c) < len(costNames) {
		return costNames[c]
	}
	return "cost?"
}

// MarshalText is the cost's name (String), as reports write it.
func (c Cost) MarshalText() ([]byte, error) { return []byte(c.String()), nil }

// UnmarshalText reads a cost's name, as MarshalText writes it.
func (c *Cost) UnmarshalText(b []byte) error {
	i := slices.Index(costNames[:], string(b))
	if i < 0 {
		return fmt.Errorf("workload: unknown cost %q", b)
	}
	*c = Cost(i)
	return nil
}

// fitted are the causes whose cost in a run is fitted (a cost per unit
// times the run's amount): the collector's presence (a unit of 1), then
// the counts. The runtimes less their stop-the-world time are fitted on
// the collector's presence first (the difference of the medians of the
// runs with it and without), and what is left on the counts together: what
// comes with the collector (its threads parking and waking, a goroutine
// blocked in runtime.GC, fresh memory after a cycle) is the collector's
// cost, not charged to the switches or the faults it brings.
var fitted = []Cause{CauseGC, CauseMinorFaults, CauseMajorFaults, CauseInvoluntarySwitches, CauseVoluntarySwitches, CauseSched}

// estimator holds the runs' figures for the estimates: runtimes, each
// cause's amounts, the runs from the slowest, and the buffers the
// resamples reuse.
type estimator struct {
	y      []float64   // runtimes, ns
	yFit   []float64   // runtimes less the stop-the-world time
	stw    []float64   // stop-the-world time, ns
	x      [][]float64 // amounts of the fitted causes, by their order in fitted
	order  []int       // the runs from the slowest
	count  []int       // how many times a resample drew each run
	cost   [NumCauses][]float64
	gcFit  *bootstrap.Design    // the fit of yFit on x[0], the collector's presence
	counts *bootstrap.Design    // the fit of what is left on the counts, x[1:]
	left   []float64            // yFit less the collector's fitted cost
	band   [NumCauses][]float64 // the costs of the runs at the P99
}

// stat is one resample's figures: the P99 and the mean of the slowest 1%,
// and how much of them each cause accounts for.
type stat struct {
	p99, top     float64
	atP99, atTop [NumCauses]float64
	perUnit      [NumCauses]float64
}

func newEstimator(runs []*RunRecord) *estimator {
	n := len(runs)
	e := &estimator{y: make([]float64, n), yFit: make([]float64, n), stw: make([]float64, n),
		x: make([][]float64, len(fitted)), order: make([]int, n), count: make([]int, n), left: make([]float64, n)}
	for j := range e.x {
		e.x[j] = make([]float64, n)
	}
	for c := range e.cost {
		e.cost[c] = make([]float64, n)
	}
	for i, r := range runs {
		e.y[i] = float64(r.Runtime)
		e.stw[i] = float64(min(r.GC.STW, r.Runtime))
		e.yFit[i] = e.y[i] - e.stw[i]
		for j, c := range fitted {
			e.x[j][i] = float64(r.Amount(c))
		}
		e.order[i] = i
	}
	slices.SortStableFunc(e.order, func(a, b int) int { return cmp.Compare(e.y[b], e.y[a]) })
	e.gcFit = bootstrap.NewDesign(e.x[:1], n)
	e.counts = bootstrap.NewDesign(e.x[1:], n)
	return e
}

// fit is the costs per unit of the fitted causes, as the two fits give
// them (intercept first in each).
type fit struct{ gc, counts []float64 }

// perUnit is the fitted cost of one unit of the j-th of fitted.
func (f fit) perUnit(j int) float64 {
	if j == 0 {
		return f.gc[1]
	}
	return f.counts[j]
}

// fit fits the costs per unit over the runs count says (nil: each once),
// from start (zero: from scratch) in iters rounds.
func (e *estimator) fit(count []int, start fit, iters int) fit {
	var f fit
	f.gc = e.gcFit.Fit(e.yFit, count, start.gc, iters)
	for i, y := range e.yFit {
		e.left[i] = y - f.gc[1]*e.x[0][i]
	}
	f.counts = e.counts.Fit(e.left, count, start.counts, iters)
	return f
}

// stat computes the figures over the runs idx (nil: all), the costs per
// unit fitted from start (zero: from scratch) in iters rounds.
func (e *estimator) stat(idx []int, start fit, iters int) (stat, fit) {
	var s stat
	clear(e.count)
	var count []int // nil: every run once
	if idx != nil {
		for _, i := range idx {
			e.count[i]++
		}
		count = e.count
	} else {
		for i := range e.count {
			e.count[i] = 1
		}
	}
	b := e.fit(count, start, iters)
	// Each run's cost of each cause: its stop-the-world time (direct),
	// its amount times the fitted cost per unit, and for the collector
	// its pauses besides.
	for c := range NumCauses {
		clear(e.cost[c])
	}
	copy(e.cost[CauseSTW], e.stw)
	for j, c := range fitted {
		s.perUnit[c] = b.perUnit(j)
		for i, a := range e.x[j] {
			e.cost[c][i] = s.perUnit[c] * a
		}
	}
	for i, st := range e.stw {
		e.cost[CauseGC][i] += st
	}
	e.walk(&s)
	return s, b
}

// walk sets the P99 and the mean of the slowest 1% of the runs e.count
// draws, and each cause's cost at them, from e.cost.
func (e *estimator) walk(s *stat) {
	n := len(e.y)
	for c := range e.band {
		e.band[c] = e.band[c][:0]
	}
	// Walk the runs from the slowest, each as many times as drawn, by
	// position from 0 (the slowest): the slowest 1% are positions
	// 0..top-1; the P99 is at position n-Rank(0.99, n), and the runs at
	// it are the band of positions within 2% of the runs of it (the 31
	// slowest of 1000), of whose costs the middle 60% are averaged: the
	// P99 is one run's runtime, and which run it is changes from one
	// resample to the next. (Within 0.5% or 1%, on 10 runs of the main
	// job on a loaded machine, one run's stretched pause set the answer:
	// the collector read "uncertain" in 3 or 4 of 10, "under" in the rest.)
	top := max(n-n*99/100, 1)
	at := n - latency.Rank(0.99, n)
	half := max(2, n/50)
	bandLo, bandHi := max(at-half, 0), min(at+half, n-1)
	pos := 0
	for _, i := range e.order {
		k := e.count[i]
		if k == 0 {
			continue
		}
		inTop := max(0, min(pos+k, top)-pos)
		inBand := max(0, min(pos+k, bandHi+1)-max(pos, bandLo))
		if pos <= at && at < pos+k {
			s.p99 = e.y[i]
		}
		s.top += float64(inTop) * e.y[i]
		for c := range NumCauses {
			s.atTop[c] += float64(inTop) * e.cost[c][i]
			for range inBand {
				e.band[c] = append(e.band[c], e.cost[c][i])
			}
		}
		pos += k
		if pos > bandHi && pos >= top {
			break
		}
	}
	s.top /= float64(top)
	for c := range NumCauses {
		s.atTop[c] /= float64(top)
		s.atP99[c] = trimmedMean(e.band[c])
	}
}

// estimate sets each cause's estimate in t (the causes already judged by
// Fisher's test, in Cause order), from the successful kept runs.
func (t *Tail) estimate(runs []*RunRecord) {
	n := len(runs)
	if n < MinEstimateRuns || len(t.Causes) != int(NumCauses) {
		return
	}
	e := newEstimator(runs)
	full, b := e.stat(nil, fit{}, 30)
	reps := TailResamples
	if n > 10_000 {
		reps = max(200, TailResamples*10_000/n)
	}
	seed := make([]int64, n)
	for i, r := range runs {
		seed[i] = int64(r.Runtime)
	}
	slices.Sort(seed) // the seed does not depend on the runs' order
	sampler := bootstrap.New(bootstrap.Seed(seed))
	idx := make([]int, n)
	atP99 := make([][]float64, NumCauses)
	atTop := make([][]float64, NumCauses)
	for c := range NumCauses {
		atP99[c], atTop[c] = make([]float64, reps), make([]float64, reps)
	}
	for r := range reps {
		sampler.Draw(idx)
		s, _ := e.stat(idx, b, 3)
		for c := range NumCauses {
			atP99[c][r], atTop[c][r] = s.atP99[c], s.atTop[c]
		}
	}
	t.P99 = time.Duration(math.Round(full.p99))
	t.Top = time.Duration(math.Round(full.top))
	t.TopRuns = max(n-n*99/100, 1)
	t.Least = time.Duration(math.Round(TailShare * full.p99))
	t.Resamples = reps
	for c := range NumCauses {
		t.Causes[c].estimated(full, c, atP99[c], atTop[c], t.Least)
	}
}

// estimated sets ct's estimate from the full sample's figures and the
// resamples'.
func (ct *CauseTail) estimated(full stat, c Cause, atP99, atTop []float64, least time.Duration) {
	ns := func(f float64) time.Duration { return time.Duration(math.Round(f)) }
	if ct.RunsWith == 0 || c == CauseGC && ct.RunsWith == ct.Runs {
		// No run had it, or every run had the collector beside it: no run
		// to compare with.
		return
	}
	ct.Method = MethodPerUnit
	if c == CauseSTW {
		ct.Method = MethodDirect
	}
	ct.PerUnit = full.perUnit[c]
	ct.P99Adds, ct.TopAdds = ns(full.atP99[c]), ns(full.atTop[c])
	lo, hi := bootstrap.Interval(atP99, TailLevel)
	ct.P99Low, ct.P99High = ns(lo), ns(hi)
	lo, hi = bootstrap.Interval(atTop, TailLevel)
	ct.TopLow, ct.TopHigh = ns(lo), ns(hi)
	switch {
	case ct.P99Low >= least:
		ct.Cost = CostAdds
	case ct.P99High < least:
		ct.Cost = CostNothing
	default:
		ct.Cost = CostUncertain
	}
}

// trimmedMean is the mean of the middle 60% of v (which it sorts): the
// cost of the runs at the P99, which one run does not set.
func trimmedMean(v []float64) float64 {
	slices.Sort(v)
	t := len(v) / 5
	v = v[t : len(v)-t]
	s := 0.0
	for _, x := range v {
		s += x
	}
	return s / float64(len(v))
}
