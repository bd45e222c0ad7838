package latency

import (
	"fmt"
	"math"
	"slices"

	"golang.org/x/perf/benchmath"
)

// Confidence is the level of the confidence intervals Compare gives around
// each median, as benchstat's default.
const Confidence = 0.95

// NoTest is the warning of a comparison of one sample per side, which no
// statistical test can judge: only the centers and the delta are given.
const NoTest = "no test: one sample per side"

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

	// Tested reports whether the U test ran: not with one sample per side
	// (Warnings then holds NoTest) nor with an empty side.
	Tested bool
	// P is the test's p-value, 1 when untested.
	P     float64
	Alpha float64
	// Significant reports P < Alpha: the samples differ.
	Significant bool
	// Decidable reports whether the samples are large enough for the
	// test to find a difference at Alpha at all: the smallest p-value
	// their sizes allow (SmallestP) is below Alpha. A comparison that is
	// not decidable says nothing about a difference, whatever its Delta:
	// one sample per side never is, nor 3 and 3 at alpha 0.05.
	Decidable bool

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
		e, s, warnings := summarize(values, th)
		summaryWarnings = append(summaryWarnings, warnings...)
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
	c.Decidable = SmallestP(len(old), len(new)) < alpha
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
	if !c.Decidable && len(cmp.Warnings) == 0 {
		// benchmath warns only when both sides are too small; 1 and 6
		// cannot tell either.
		warn(fmt.Sprintf("too few samples to detect a difference at alpha level %v (%d and %d)", alpha, len(old), len(new)))
	}
	return c
}

// SmallestP is the smallest p-value the two-sided Mann-Whitney U test can
// give for samples of n1 and n2 values, when every value of one lies
// above every value of the other: 2/C(n1+n2, n1), at most 1 (1 with an
// empty sample). 4 and 4 values give 2/70, below 0.05; 3 and 3, 2/20.
func SmallestP(n1, n2 int) float64 {
	if n1 < 1 || n2 < 1 {
		return 1
	}
	c := 1.0 // C(n1+n2, n1), built as a product of ratios
	for i := 1; i <= min(n1, n2) && c < 1e300; i++ {
		c = c * float64(max(n1, n2)+i) / float64(i)
	}
	return min(1, 2/c)
}

// SamplesNeeded is the fewest samples a side with which a comparison at
// significance level alpha is Decidable: 4 at 0.05, 5 at 0.01.
func SamplesNeeded(alpha float64) int {
	n := 1
	for SmallestP(n, n) >= alpha && n < 1000 {
		n++
	}
	return n
}

// Median is the median of values with its confidence interval at
// Confidence, as benchstat gives it (benchmath.AssumeNothing): Lo and Hi
// are infinite when the values are too few for an interval at that level
// (fewer than 6). It does not modify values.
func Median(values []float64) Estimate {
	e, _, _ := summarize(values, &benchmath.DefaultThresholds)
	return e
}

// summarize is Median, with the sample for a comparison (nil without
// values) and benchmath's warnings.
func summarize(values []float64, th *benchmath.Thresholds) (Estimate, *benchmath.Sample, []error) {
	e := Estimate{N: len(values), Lo: math.Inf(-1), Hi: math.Inf(1)}
	if len(values) == 0 {
		return e, nil, nil
	}
	s := benchmath.NewSample(slices.Clone(values), th)
	sum := benchmath.AssumeNothing.Summary(s, Confidence)
	e.Center, e.Lo, e.Hi = sum.Center, sum.Lo, sum.Hi
	return e, s, sum.Warnings
}

// Spread is how far apart values are relative to their median,
// (max-min)/|median|: 0 for fewer than two values or all equal, +Inf
// when the median is 0 and they differ.
func Spread(values []float64) float64 {
	if len(values) < 2 {
		return 0
	}
	lo, hi := slices.Min(values), slices.Max(values)
	switch med := Median(values).Center; {
	case lo == hi:
		return 0
	case med == 0:
		return math.Inf(1)
	default:
		return (hi - lo) / math.Abs(med)
	}
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
