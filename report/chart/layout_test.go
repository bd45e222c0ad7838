package chart

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/recorder"

	"github.com/gcperf/gcperf/report"
	"github.com/gcperf/gcperf/sweep"
)

// chartCase is one chart as a page draws it: its panels, top to bottom.
type chartCase struct {
	name   string
	panels func() ([]*plot.Plot, error)
}

// one makes a chart of one panel a chart case's panels.
func one(p *plot.Plot, err error) ([]*plot.Plot, error) { return []*plot.Plot{p}, err }

// thousandRuns is list.json with its 200 runs repeated to 1000, the
// timeline the issue saw smeared by its legend.
func thousandRuns(t *testing.T) *report.Document {
	d, _ := readFixture(t, "list.json")
	runs := d.Runs
	for len(d.Runs) < 1000 {
		d.Runs = append(d.Runs, runs...)
	}
	d.Runs = d.Runs[:1000]
	return d
}

// chartCases are every chart of the fixtures: of each result, of the
// hand-made sweep (with its SLO and without), of 1000 runs, of runs past
// the kept ones, and of legends too long for their column.
func chartCases(t *testing.T) []chartCase {
	var cases []chartCase
	var docs []*report.Document
	for _, f := range plotFixtures {
		d, _ := readFixture(t, f+".json")
		docs = append(docs, d)
		cases = append(cases,
			chartCase{"hist_" + f, func() ([]*plot.Plot, error) { return one(histogramPlot(d)) }},
			chartCase{"spectrum_" + f, func() ([]*plot.Plot, error) { return one(spectrumPlot([]*report.Document{d}, nil)) }},
			chartCase{"timeline_" + f, func() ([]*plot.Plot, error) { return timelinePlots(d) }},
		)
	}
	cases = append(cases, chartCase{"spectrum_all", func() ([]*plot.Plot, error) { return one(spectrumPlot(docs, plotFixtures)) }})
	long := []string{strings.Repeat("a-very-long-result-file-name-", 4), "b", "c"}
	cases = append(cases, chartCase{"spectrum_long_names", func() ([]*plot.Plot, error) { return one(spectrumPlot(docs, long)) }})
	big := thousandRuns(t)
	cases = append(cases, chartCase{"timeline_1000", func() ([]*plot.Plot, error) { return timelinePlots(big) }})
	spans, _ := readFixture(t, "list.json")
	spans.Timeline = []report.Span{
		{FirstRun: 200, Runs: 500, Mean: 2e6, Max: 9e6},
		{FirstRun: 700, Runs: 500, Mean: 3e6, Max: 4e7, GCRuns: 12},
	}
	cases = append(cases, chartCase{"timeline_spans", func() ([]*plot.Plot, error) { return timelinePlots(spans) }})
	s := readSweep(t)
	for _, kind := range sweepKinds {
		for _, slo := range []time.Duration{0, 5 * time.Millisecond, time.Microsecond} {
			cases = append(cases, chartCase{fmt.Sprintf("%v_slo_%v", kind, slo), func() ([]*plot.Plot, error) {
				return one(sweepPlot(points(s), kind, slo))
			}})
		}
	}
	// Many lines: GOMAXPROCS as a third axis, 20 legend entries on the
	// P99 chart.
	many := readSweep(t)
	var rows []sweep.Row
	for procs := 1; procs <= 4; procs++ {
		for _, r := range many.Rows {
			r.Point.GOMAXPROCS = procs
			rows = append(rows, r)
		}
	}
	many.Rows = rows
	for _, kind := range sweepKinds {
		cases = append(cases, chartCase{fmt.Sprintf("%v_gomaxprocs", kind), func() ([]*plot.Plot, error) {
			return one(sweepPlot(points(many), kind, 0))
		}})
	}
	return cases
}

// canvas is a Width × Height canvas that records nothing worth keeping.
func canvas() draw.Canvas {
	return draw.NewCanvas(new(recorder.Canvas), Width, Height)
}

// inside reports whether r lies inside o, within slack points.
func inside(r, o vg.Rectangle, slack vg.Length) bool {
	return r.Min.X >= o.Min.X-slack && r.Min.Y >= o.Min.Y-slack && r.Max.X <= o.Max.X+slack && r.Max.Y <= o.Max.Y+slack
}

func overlap(a, b vg.Rectangle) bool {
	return a.Min.X < b.Max.X && b.Min.X < a.Max.X && a.Min.Y < b.Max.Y && b.Min.Y < a.Max.Y
}

// TestLegendBesideData checks that no chart's legend covers a plotting
// area: each lies in the chart, beside every panel's plotting area, and
// holds its entries (a legend drawn inside the plot hid a band of points
// of the 1000-run timeline).
func TestLegendBesideData(t *testing.T) {
	forEachLayout(t, func(tc chartCase, panels []*plot.Plot, l *layout) {
		for i := range panels {
			r := l.legendRect(i)
			if legendSize(&l.legends[i]).X == 0 {
				continue
			}
			if !inside(r, l.canvas.Rectangle, 0) {
				t.Errorf("%s: panel %d's legend %v is not inside the chart %v", tc.name, i, r, l.canvas.Rectangle)
			}
			for j, dc := range l.data {
				if overlap(r, dc.Rectangle) {
					t.Errorf("%s: panel %d's legend %v covers panel %d's plotting area %v", tc.name, i, r, j, dc.Rectangle)
				}
			}
			for j := range panels {
				if j != i && legendSize(&l.legends[j]).X > 0 && overlap(r, l.legendRect(j)) {
					t.Errorf("%s: the legends of panels %d and %d overlap", tc.name, i, j)
				}
			}
			if f := l.legends[i].TextStyle.Font.Size; f < vg.Points(legendMinFont) {
				t.Errorf("%s: legend font %v, below %vpt", tc.name, f, legendMinFont)
			}
		}
		for i, p := range panels {
			if p.Legend.Rectangle(l.data[i]).Size().X != 0 {
				t.Errorf("%s: panel %d still draws a legend inside", tc.name, i)
			}
		}
	})
}

// forEachLayout lays out every chart case on a Width × Height canvas and
// calls check with it.
func forEachLayout(t *testing.T, check func(tc chartCase, panels []*plot.Plot, l *layout)) {
	t.Helper()
	for _, tc := range chartCases(t) {
		panels, err := tc.panels()
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		check(tc, panels, layOut(canvas(), panels))
	}
}

// TestChartPNGs writes every chart case as a PNG into the directory
// GCPERF_CHART_PNGS names, to look at; it is skipped without it.
func TestChartPNGs(t *testing.T) {
	dir := os.Getenv("GCPERF_CHART_PNGS")
	if dir == "" {
		t.Skip("GCPERF_CHART_PNGS=DIR writes every chart case into DIR as PNG")
	}
	for _, tc := range chartCases(t) {
		panels, err := tc.panels()
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		var b bytes.Buffer
		if err := render(&b, PNG, panels...); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if err := os.WriteFile(filepath.Join(dir, tc.name+".png"), b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
