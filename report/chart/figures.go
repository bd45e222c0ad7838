package chart

import (
	"errors"
	"fmt"
	"slices"

	"github.com/gcperf/gcperf/report"
	"github.com/gcperf/gcperf/sweep"
)

// ErrNoFigure is wrapped by ReadPlot's error (a *NoFigureError in a
// FileError) for a sweep whose points lack the figure the chart draws: a
// sweep over a command (gcperf sweep -- CMD) has no throughput, which the
// chart would draw as 0/s at every GOGC.
var ErrNoFigure = errors.New("no such figure")

// A NoFigureError is a sweep that lacks the figure of a chart.
type NoFigureError struct {
	Kind   Kind   // the chart asked for
	Figure string // the figure it draws: "throughput", "peak RSS", ...
	Has    []Kind // the charts of the sweep's figures; none when no point has any
}

// Error is "the sweep has no throughput figure (its charts: sweep-p99,
// sweep-rss, pareto)".
func (e *NoFigureError) Error() string {
	if len(e.Has) == 0 {
		return fmt.Sprintf("the sweep has no %s figure (nor any other: no point has one)", e.Figure)
	}
	return fmt.Sprintf("the sweep has no %s figure (its charts: %s)", e.Figure, joinKinds(e.Has))
}

// Is makes a NoFigureError match ErrNoFigure.
func (e *NoFigureError) Is(target error) bool { return target == ErrNoFigure }

// figureNames are the figures the charts of a sweep draw against GOGC or
// peak RSS, as NoFigureError names them.
var figureNames = map[Kind]string{
	KindSweepP99:        "P99",
	KindSweepRSS:        "peak RSS",
	KindSweepThroughput: "throughput",
	KindPareto:          "P99 and peak RSS",
}

// SweepKinds are the charts of a sweep that s has the figures of: those
// of sweepKinds of which at least one point that the charts draw (one with
// a successful repeat) has a figure other than 0. A sweep over a command
// has no throughput; a sweep whose points all failed has none at all.
func SweepKinds(s *sweep.Summary) []Kind {
	var has []Kind
	for _, k := range sweepKinds {
		if slices.ContainsFunc(points(s), func(pt point) bool { return hasFigure(pt, k) }) {
			has = append(has, k)
		}
	}
	return has
}

// hasFigure reports whether the chart of kind draws pt with a figure of
// its own (not a 0 standing for none).
func hasFigure(pt point, kind Kind) bool {
	if pt.P99 <= 0 {
		return false // not drawn: no successful repeat
	}
	switch kind {
	case KindSweepRSS, KindPareto:
		return pt.PeakRSS > 0
	case KindSweepThroughput:
		return pt.Throughput > 0
	}
	return true
}

// checkFigures is nil when s has the figure of the chart of kind, or when
// no point of s has any (the chart is empty, not zeros); else a
// *NoFigureError.
func checkFigures(s *sweep.Summary, kind Kind) error {
	has := SweepKinds(s)
	if len(has) == 0 || slices.Contains(has, kind) {
		return nil
	}
	return &NoFigureError{Kind: kind, Figure: figureNames[kind], Has: has}
}

// ErrNoRuntime is wrapped by ReadPlot's error (in a FileError) for a
// result without a successful run: its spectrum, histogram and timeline
// would be empty, or runtimes of 0 at every run.
var ErrNoRuntime = errors.New("no successful run: no runtime to chart (every run failed)")

// hasRuntime reports whether some operation of d has a successful run.
func hasRuntime(d *report.Document) bool {
	return slices.ContainsFunc(d.Operations, func(op report.Operation) bool { return op.Runtime.Count > 0 })
}
