package chart

import (
	"errors"
	"io"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/gcperf/gcperf/internal/reportparts"
	"github.com/gcperf/gcperf/report"
)

// ErrNoCauses is Causes' error for a result without per-run causes (run
// with -gcstats total or off, or by a gcperf before they were read).
var ErrNoCauses = errors.New("chart: " + errNoCauses.Error())

// errNoCauses is ReadPlot's, which names the file.
var errNoCauses = errors.New("no causes of slow runs in this result (they are read with -gcstats run)")

// ErrTooFewRuns is Causes' error for a result of fewer runs than a tail
// needs (fewer than 20 successful): no slowest runs were compared.
var ErrTooFewRuns = errors.New("chart: " + errTooFewRuns.Error())

var errTooFewRuns = errors.New("too few runs for causes of the slowest runs (at least 20 successful)")

// hasTail reports whether d compared its slowest runs with the others.
func hasTail(d *report.Document) bool {
	return d.Tail != nil && len(d.Tail.Causes) > 0 && d.Tail.Causes[0].Worst > 0
}

// Causes draws, for each cause of slow runs the result judged
// (report.Tail.Causes), the share of the slowest runs that had it beside
// the share of all runs, with the verdict under the cause's name (what
// the estimate says it adds to the P99, or Fisher's verdict in a result
// without estimates): a cause the slowest runs had more often stands
// taller among them than among all runs.
func Causes(w io.Writer, d *report.Document, format Format) error {
	p, err := causesPlot(d)
	if err != nil {
		return err
	}
	return render(w, format, p)
}

// causesPlot is the plot Causes draws.
func causesPlot(d *report.Document) (*plot.Plot, error) {
	if d.Tail == nil || len(d.Tail.Causes) == 0 {
		return nil, ErrNoCauses
	}
	if !hasTail(d) {
		return nil, ErrTooFewRuns
	}
	cs := d.Tail.Causes
	worst, all := make(plotter.Values, len(cs)), make(plotter.Values, len(cs))
	names := make([]string, len(cs))
	for i, c := range cs {
		if c.Worst > 0 {
			worst[i] = 100 * float64(c.WorstWith) / float64(c.Worst)
		}
		if c.Runs > 0 {
			all[i] = 100 * float64(c.RunsWith) / float64(c.Runs)
		}
		verdict := c.Cost.String() // the estimate's; Fisher's where there is none
		if verdict == "" {
			verdict = c.Verdict.String()
		}
		// In brackets: under a plural label ("stop-the-world pauses") the
		// bare words read as a sentence ("pauses does not explain").
		names[i] = wrap(reportparts.CauseLabel(c.Cause.String()), 14) + "\n" + wrap("("+verdict+")", 14)
	}
	p := newPlot("Causes of the slowest runs", "", "share of runs with it (%)")
	width := vg.Points(28)
	for j, bars := range []struct {
		name string
		v    plotter.Values
	}{{slowestName(cs[0]), worst}, {"all runs", all}} {
		b, err := plotter.NewBarChart(bars.v, width)
		if err != nil {
			return nil, err
		}
		b.Color = colorOf(j)
		b.LineStyle.Width = 0
		b.Offset = vg.Length(2*j-1) * width / 2
		p.Add(b)
		p.Legend.Add(bars.name, b)
	}
	p.NominalX(names...)
	p.X.Tick.Label.Font.Size = vg.Points(10)
	p.Y.Min, p.Y.Max = 0, 105 // a bar of 100% clear of the top
	p.Y.Tick.Marker = plot.ConstantTicks([]plot.Tick{{Value: 0, Label: "0"}, {Value: 25}, {Value: 50, Label: "50"}, {Value: 75}, {Value: 100, Label: "100"}})
	p.Legend.Left = false
	return p, nil
}

// slowestName names the bars of the slowest runs: "the 10 slowest runs".
func slowestName(c report.Cause) string {
	return "the " + strconv.Itoa(c.Worst) + " slowest runs"
}

// wrap breaks s into lines of at most n bytes at spaces (a longer word
// stands alone).
func wrap(s string, n int) string {
	var b strings.Builder
	line := 0
	for i, w := range strings.Fields(s) {
		if i > 0 {
			if line+1+len(w) > n {
				b.WriteByte('\n')
				line = 0
			} else {
				b.WriteByte(' ')
				line++
			}
		}
		b.WriteString(w)
		line += len(w)
	}
	return b.String()
}
