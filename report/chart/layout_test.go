package chart

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
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
	tail, _ := readFixture(t, "tail.json")
	cases = append(cases,
		chartCase{"causes_tail", func() ([]*plot.Plot, error) { return one(causesPlot(tail)) }},
		chartCase{"timeline_tail", func() ([]*plot.Plot, error) { return timelinePlots(tail) }},
	)
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

// TestPointsInside checks that every point and label of every chart lies
// inside its plotting area (their glyphs, within half a line's width),
// and that no point sits on an axis's end: the GOGC=off point was drawn
// on the edge of the Pareto and peak RSS charts, half of it cut off.
func TestPointsInside(t *testing.T) {
	forEachLayout(t, func(tc chartCase, panels []*plot.Plot, l *layout) {
		for i, p := range panels {
			dc := l.data[i]
			if !inside(dc.Rectangle, l.canvas.Rectangle, 0) || dc.Size().X < Width/3 || dc.Size().Y < Height/5 {
				t.Errorf("%s: panel %d's plotting area %v is not a fair part of the chart %v", tc.name, i, dc.Rectangle, l.canvas.Rectangle)
			}
			for _, b := range p.GlyphBoxes(p) {
				r := b.Rectangle.Add(vg.Point{X: dc.X(b.X), Y: dc.Y(b.Y)})
				if !inside(r, dc.Rectangle, vg.Points(fitSlack)) {
					t.Errorf("%s: panel %d: a glyph at (%.3f, %.3f) of the axes' range reaches %v, outside the plotting area %v",
						tc.name, i, b.X, b.Y, r, dc.Rectangle)
				}
				// A point (a glyph wider than a line) is off the ends.
				if b.Size().X > vg.Points(2) && (b.X <= 0 || b.X >= 1 || b.Y >= 1 || b.Y <= 0 && p.Y.Min != 0) {
					t.Errorf("%s: panel %d: a point at (%.3f, %.3f) of the axes' range sits on an end", tc.name, i, b.X, b.Y)
				}
			}
		}
	})
}

// TestPadOffPoint checks the GOGC=off point of the hand-made sweep (the
// highest peak RSS) is a margin inside the Pareto and peak RSS charts'
// ranges, not on their edge.
func TestPadOffPoint(t *testing.T) {
	s := readSweep(t)
	var off point
	for _, pt := range points(s) {
		if pt.GOGC == "off" && pt.MemLimit == "" {
			off = pt
		}
	}
	rss := float64(off.PeakRSS)
	lowest := rss
	for _, pt := range points(s) {
		if pt.PeakRSS > 0 && pt.P99 > 0 { // a point drawn
			lowest = min(lowest, float64(pt.PeakRSS))
		}
	}
	for _, kind := range []Kind{KindPareto, KindSweepRSS} {
		p, err := sweepPlot(points(s), kind, 0)
		if err != nil {
			t.Fatal(err)
		}
		layOut(canvas(), []*plot.Plot{p})
		a := &p.X
		if kind == KindSweepRSS {
			a = &p.Y
		}
		// A margin of the points' span above the highest: the Pareto
		// chart's labels, left of their points, may widen the axis
		// below the lowest, not above the highest.
		if room, want := a.Max-rss, margin*(rss-lowest); room < want*(1-1e-9) {
			t.Errorf("%v: GOGC=off at %v of an axis %v..%v: %.4g free above, want at least %.4g (%v of the points' span)",
				kind, rss, a.Min, a.Max, room, want, margin)
		}
	}
}

func TestPad(t *testing.T) {
	a := plot.Axis{Min: 100, Max: 200}
	padLinear(&a)
	if a.Min != 95 || a.Max != 205 {
		t.Errorf("padLinear(100..200) = %v..%v, want 95..205", a.Min, a.Max)
	}
	a = plot.Axis{Min: 0, Max: 200}
	padLinear(&a)
	if a.Min != 0 || a.Max != 210 {
		t.Errorf("padLinear(0..200) = %v..%v, want 0..210 (0 stays)", a.Min, a.Max)
	}
	// The labels of the padded range's ticks hold no needless decimals.
	a = plot.Axis{Min: 0, Max: 28524, Tick: plot.Axis{}.Tick}
	a.Tick.Marker = plot.DefaultTicks{}
	padLinear(&a)
	var labels []string
	for _, tick := range a.Tick.Marker.Ticks(a.Min, a.Max) {
		if tick.Label != "" {
			labels = append(labels, tick.Label)
		}
	}
	if got := strings.Join(labels, " "); got != "0 25000" {
		t.Errorf("padLinear(0..28524): ticks labelled %q, want \"0 25000\"", got)
	}
	// Trimmed, a label still reads as its tick's value.
	for _, r := range [][2]float64{{0, 0.5}, {0, 3}, {0.001, 0.0042}, {0, 2.5e7}, {-40, 41}} {
		for _, tick := range (trimmedTicks{}).Ticks(r[0], r[1]) {
			if v, err := strconv.ParseFloat(tick.Label, 64); tick.Label != "" && (err != nil || math.Abs(v-tick.Value) > 1e-9*math.Abs(tick.Value)) {
				t.Errorf("trimmedTicks(%v..%v): %v labelled %q", r[0], r[1], tick.Value, tick.Label)
			}
		}
	}
	a = plot.Axis{Min: 7, Max: 7}
	padLinear(&a)
	if !(a.Min < 7 && a.Max > 7) {
		t.Errorf("padLinear(7..7) = %v..%v, want around 7", a.Min, a.Max)
	}
	a = plot.Axis{Min: math.Inf(1), Max: math.Inf(-1)}
	padLinear(&a)
	if !math.IsInf(a.Min, 1) || !math.IsInf(a.Max, -1) {
		t.Errorf("padLinear of an axis without data = %v..%v, want it unchanged", a.Min, a.Max)
	}
	a = plot.Axis{Min: 1, Max: 1e4}
	padLog(&a)
	if lo, hi := math.Log10(a.Min), math.Log10(a.Max); math.Abs(lo+0.2) > 1e-9 || math.Abs(hi-4.2) > 1e-9 {
		t.Errorf("padLog(1..1e4) = 10^%v..10^%v, want 10^-0.2..10^4.2", lo, hi)
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
