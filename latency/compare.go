package latency

import (
	"math"
	"slices"

	"golang.org/x/perf/benchmath"
)

// Confidence is the level of the confidence intervals Compare gives around
// each median, as benchstat's default.
const Confidence = 0.95

// NoTest is the warning of a comparison of one value per side, which no
// statistical test can judge: only the centers and the delta are given.
const NoTest = "no test: one value per side"

// Estimate is the center of one side's sample, the median, with its
// confidence interval at Confidence. Lo and Hi are -Inf and +Inf when the
// sample is too small for an interval at that level.
type Estimate struct {
	Center float64
	Lo, Hi float64
	N      int // values in the sample
}

// Comparison compares one metric (Name and Unit) between an old and a new
// sample, following benchstat (golang.org/x/perf/benchmath.AssumeNothing):
// medians with confidence intervals, and the Mann-Whitney U test of whether
// the two samples come from the same distribution.
type Comparison struct {
	Name, Unit string
	Old, New   Estimate

	// Delta is the relative change of the centers, (new-old)/old: +0.2 is
	// 20% more. It is 0 when both centers are 0, and ±Inf when only the old
	// one is.
	Delta float64

	// Tested reports whether the U test ran: not with one value per side
	// (Warnings then holds NoTest) nor with an empty side.
	Tested bool
	// P is the test's p-value, 1 when untested.
	P     float64
	Alpha float64
	// Significant reports P < Alpha: the samples differ.
	Significant bool

	// Warnings are benchmath's (too few samples for an interval or to
	// detect a difference at Alpha, all values equal) and NoTest, without
	// repeats.
	Warnings []string
}

// Compare compares the samples old and new of one metric at significance
// level alpha (typically 0.05). It does not modify old or new.
func Compare(name, unit string, old, new []float64, alpha float64) Comparison {
	c := Comparison{Name: name, Unit: unit, P: 1, Alpha: alpha}
	warn := func(msg string) {
		if !slices.Contains(c.Warnings, msg) {
			c.Warnings = append(c.Warnings, msg)
		}
	}
	th := &benchmath.Thresholds{CompareAlpha: alpha}
	var summaryWarnings []error
	estimate := func(values []float64) (Estimate, *benchmath.Sample) {
		e := Estimate{N: len(values), Lo: math.Inf(-1), Hi: math.Inf(1)}
		if len(values) == 0 {
			return e, nil
		}
		s := benchmath.NewSample(slices.Clone(values), th)
		sum := benchmath.AssumeNothing.Summary(s, Confidence)
		e.Center, e.Lo, e.Hi = sum.Center, sum.Lo, sum.Hi
		summaryWarnings = append(summaryWarnings, sum.Warnings...)
		return e, s
	}
	var so, sn *benchmath.Sample
	c.Old, so = estimate(old)
	c.New, sn = estimate(new)
	switch {
	case so == nil && sn == nil:
		warn("no values on either side")
		return c
	case so == nil:
		warn("no values on the old side")
		return c
	case sn == nil:
		warn("no values on the new side")
		return c
	}
	c.Delta = delta(c.Old.Center, c.New.Center)
	if len(old) == 1 && len(new) == 1 {
		warn(NoTest) // rather than "need >= 6 samples" for the intervals
		return c
	}
	for _, w := range summaryWarnings {
		warn(w.Error())
	}
	cmp := benchmath.AssumeNothing.Compare(so, sn)
	c.Tested = true
	c.P = cmp.P
	c.Significant = cmp.P < alpha
	for _, w := range cmp.Warnings {
		warn(w.Error())
	}
	return c
}

// delta is (new-old)/old, 0 when both are 0 and ±Inf when only old is.
func delta(old, new float64) float64 {
	switch {
	case old == new:
		return 0
	case old == 0:
		return math.Inf(int(math.Copysign(1, new)))
	}
	return (new - old) / math.Abs(old)
}
