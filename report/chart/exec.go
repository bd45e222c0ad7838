package chart

import (
	"errors"
	"io"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/gcperf/gcperf/report"
)

// ExecRSS draws the resident set of a command's process tree over its run
// (gcperf exec: the document's Exec section), the RSS samples against the
// seconds since it started, the peak drawn as a dashed line. It returns an
// error for a document that is not a command's result or holds no sample
// (a command shorter than the sampling interval).
func ExecRSS(w io.Writer, d *report.Document, format Format) error {
	p, err := execRSSPlot(d)
	if err != nil {
		return err
	}
	return render(w, format, p)
}

func execRSSPlot(d *report.Document) (*plot.Plot, error) {
	if d.Kind() != report.CommandDocument {
		return nil, errors.New("chart: not the result of a command (gcperf exec)")
	}
	e := d.Exec
	if len(e.RSS.Points) == 0 {
		return nil, errors.New("chart: no RSS sample (the command ended within the first sampling interval)")
	}
	p := newPlot("Resident set of the process tree", "seconds since the command started", "RSS")
	p.Y.Tick.Marker = byteTicks{}
	var xys plotter.XYs
	for _, s := range e.RSS.Points {
		xys = append(xys, plotter.XY{X: float64(s.At) / 1e9, Y: float64(s.RSSBytes)})
	}
	if err := addPlainLine(p, "RSS", xys, 0, false); err != nil {
		return nil, err
	}
	if e.PeakRSSBytes > 0 {
		peak := plotter.XYs{{X: 0, Y: float64(e.PeakRSSBytes)}, {X: xys[len(xys)-1].X, Y: float64(e.PeakRSSBytes)}}
		if err := addPlainLine(p, "peak", peak, 1, true); err != nil {
			return nil, err
		}
	}
	p.X.Min, p.Y.Min = 0, 0
	padLinear(&p.X)
	padLinear(&p.Y)
	return p, nil
}

// ExecGoal draws a command's heap goal over its run, as its
// GODEBUG=gctrace=1 lines gave it: each cycle's goal against the seconds
// since the program started (a step per cycle). It returns an error for
// a document that is not a command's result or whose trace was not read.
func ExecGoal(w io.Writer, d *report.Document, format Format) error {
	p, err := execGoalPlot(d)
	if err != nil {
		return err
	}
	return render(w, format, p)
}

func execGoalPlot(d *report.Document) (*plot.Plot, error) {
	if d.Kind() != report.CommandDocument {
		return nil, errors.New("chart: not the result of a command (gcperf exec)")
	}
	e := d.Exec
	if e.GC == nil || len(e.GC.Goal) == 0 {
		why := "no GC cycle in its trace"
		if e.GCUnavailable != "" {
			why = e.GCUnavailable
		}
		return nil, errors.New("chart: no heap goal: " + why)
	}
	p := newPlot("Heap goal per GC cycle", "seconds since the program started", "heap goal")
	p.Y.Tick.Marker = byteTicks{}
	var xys plotter.XYs
	for _, g := range e.GC.Goal {
		xys = append(xys, plotter.XY{X: float64(g.At) / 1e9, Y: float64(g.GoalMiB << 20)})
	}
	l, err := plotter.NewLine(xys)
	if err != nil {
		return nil, err
	}
	l.StepStyle = plotter.PostStep
	l.Color = colorOf(2)
	p.Add(l)
	p.Legend.Add("heap goal (MiB, rounded down)", l)
	p.X.Min, p.Y.Min = 0, 0
	padLinear(&p.X)
	padLinear(&p.Y)
	return p, nil
}

// addPlainLine adds a line without point glyphs (a series of many points)
// in the palette's colour i, named in the legend.
func addPlainLine(p *plot.Plot, name string, xys plotter.XYs, i int, dashed bool) error {
	l, err := plotter.NewLine(xys)
	if err != nil {
		return err
	}
	l.Color = colorOf(i)
	if dashed {
		l.Dashes = []vg.Length{vg.Points(6), vg.Points(3)}
	}
	p.Add(l)
	p.Legend.Add(name, l)
	return nil
}
