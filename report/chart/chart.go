package chart

import (
	"cmp"
	"fmt"
	"image/color"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"

	"github.com/gcperf/gcperf/latency"
	"github.com/gcperf/gcperf/report"
	"github.com/gcperf/gcperf/sweep"
)

// The size of every chart: fixed, so that the output is reproducible. At
// 96 dpi (a PNG, or an SVG in a browser) it is 1152 × 576 pixels, the
// width of the HTML page's column, where the text is drawn at its size
// (12 points, 10 for the ticks).
const (
	Width  = 12 * vg.Inch
	Height = 6 * vg.Inch
)

// render draws panels, stacked top to bottom and sharing their x axis, on
// a Width × Height canvas, laid out by layOut: the legends beside the
// plotting areas, the axes wide enough for every point and label. It
// writes the chart to w as SVG (fonts embedded, so that the file looks the
// same anywhere) or PNG. Neither holds a timestamp: the same plot gives the
// same bytes.
func render(w io.Writer, format Format, panels ...*plot.Plot) error {
	return renderWith(w, format, func(c draw.Canvas) { layOut(c, panels).draw(panels) })
}

// renderWith draws paint's drawing on a Width × Height canvas and writes
// it to w in the format.
func renderWith(w io.Writer, format Format, paint func(draw.Canvas)) error {
	switch format {
	case SVG:
		c := vgsvg.NewWith(vgsvg.UseWH(Width, Height), vgsvg.EmbedFonts(true))
		paint(draw.New(c))
		_, err := c.WriteTo(w)
		return err
	case PNG:
		c := vgimg.New(Width, Height)
		paint(draw.New(c))
		_, err := vgimg.PngCanvas{Canvas: c}.WriteTo(w)
		return err
	}
	return fmt.Errorf("chart: unknown format %v (svg or png)", format)
}

// palette is the colours of the series, in turn.
var palette = []color.Color{
	color.RGBA{R: 0x1f, G: 0x77, B: 0xb4, A: 0xff},
	color.RGBA{R: 0xd6, G: 0x27, B: 0x28, A: 0xff},
	color.RGBA{R: 0x2c, G: 0xa0, B: 0x2c, A: 0xff},
	color.RGBA{R: 0xff, G: 0x7f, B: 0x0e, A: 0xff},
	color.RGBA{R: 0x94, G: 0x67, B: 0xbd, A: 0xff},
	color.RGBA{R: 0x8c, G: 0x56, B: 0x4b, A: 0xff},
	color.RGBA{R: 0xe3, G: 0x77, B: 0xc2, A: 0xff},
	color.RGBA{R: 0x7f, G: 0x7f, B: 0x7f, A: 0xff},
}

func colorOf(i int) color.Color { return palette[i%len(palette)] }

func newPlot(title, x, y string) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = x
	p.Y.Label.Text = y
	p.Legend.Top = true
	p.Legend.Left = true
	p.Add(plotter.NewGrid())
	return p
}

// addLine adds a line (with point glyphs) of the given colour and dashes,
// named in the legend.
func addLine(p *plot.Plot, name string, xys plotter.XYs, c color.Color, dashed bool) error {
	if len(xys) == 0 {
		return nil
	}
	l, s, err := plotter.NewLinePoints(xys)
	if err != nil {
		return err
	}
	l.Color, s.Color = c, c
	s.Radius = vg.Points(2)
	if dashed {
		l.Dashes = []vg.Length{vg.Points(4), vg.Points(2)}
		s.Shape = draw.BoxGlyph{}
	}
	p.Add(l, s)
	if name != "" {
		p.Legend.Add(name, l, s)
	}
	return nil
}

// positive makes v fit a log axis.
func positive(v float64) float64 { return max(v, 1) }

// logRange sets a log axis's range to cover [lo, hi], at least a factor
// of 10 wide, as the log scale needs a positive, non-empty range.
func logRange(a *plot.Axis, lo, hi float64) {
	lo, hi = positive(lo), positive(hi)
	if hi/lo < 10 {
		mid := math.Sqrt(lo * hi)
		lo, hi = mid/math.Sqrt(10), mid*math.Sqrt(10)
	}
	a.Min, a.Max = lo, hi
}

// durationTicks marks a log axis of nanoseconds at 1, 2 and 5 times each
// power of ten, the powers labelled as durations (1µs, 10µs, 100µs, 1ms...).
type durationTicks struct{}

func (durationTicks) Ticks(lo, hi float64) []plot.Tick {
	var ticks []plot.Tick
	for dec := math.Pow(10, math.Floor(math.Log10(positive(lo)))); dec <= hi; dec *= 10 {
		for _, m := range []float64{1, 2, 5} {
			v := dec * m
			if v < lo || v > hi {
				continue
			}
			t := plot.Tick{Value: v}
			// Label the powers, and 2 and 5 as well when the axis spans
			// less than two decades.
			if m == 1 || hi/lo < 100 {
				t.Label = latency.FormatDuration(time.Duration(math.Round(v)))
			}
			ticks = append(ticks, t)
		}
	}
	return ticks
}

// byteTicks are round numbers of the binary unit that suits the axis's
// range (KiB, MiB, GiB...), labelled as such: 100MiB, 200MiB, not 95.37MiB.
type byteTicks struct{}

func (byteTicks) Ticks(lo, hi float64) []plot.Tick {
	units := []string{"B", "KiB", "MiB", "GiB", "TiB"}
	i, scale := 0, 1.0
	for i < len(units)-1 && math.Abs(hi)/scale >= 1024 {
		scale *= 1024
		i++
	}
	ticks := plot.DefaultTicks{}.Ticks(lo/scale, hi/scale)
	for k := range ticks {
		v := ticks[k].Value
		ticks[k].Value = v * scale
		if ticks[k].Label != "" {
			ticks[k].Label = strconv.FormatFloat(v, 'g', -1, 64) + units[i]
		}
	}
	return ticks
}

// durationAxis makes a log axis of nanoseconds over [lo, hi], and a
// margin beyond.
func durationAxis(a *plot.Axis, lo, hi float64) {
	a.Scale = plot.LogScale{}
	a.Tick.Marker = durationTicks{}
	logRange(a, lo, hi)
	padLog(a)
}

// histBinsPerDecade is the histogram's resolution on its log time axis.
const histBinsPerDecade = 10

// Histogram draws the runtime histogram of every operation of d: the
// share of its successful runs (%) in each of 10 bins per decade of a
// logarithmic time axis, one stepped line per operation. The buckets are
// those of the document's runtime_histogram.
func Histogram(w io.Writer, d *report.Document, format Format) error {
	p, err := histogramPlot(d)
	if err != nil {
		return err
	}
	return render(w, format, p)
}

// histogramPlot is the plot Histogram draws.
func histogramPlot(d *report.Document) (*plot.Plot, error) {
	p := newPlot("Runtime histogram", "runtime", "share of runs (%)")
	lo, hi := math.Inf(1), math.Inf(-1)
	for i := range d.Operations {
		o := &d.Operations[i]
		var total int64
		bins := map[int]int64{}
		for _, b := range o.Histogram {
			if b.Count <= 0 {
				continue
			}
			total += b.Count
			bins[int(math.Floor(histBinsPerDecade*math.Log10(positive(float64(b.Value)))))] += b.Count
		}
		if total == 0 {
			continue
		}
		keys := slices.Sorted(func(yield func(int) bool) {
			for k := range bins {
				if !yield(k) {
					return
				}
			}
		})
		// A step per bin, from its lower to its upper edge, dropping to 0
		// at both ends.
		edge := func(k int) float64 { return math.Pow(10, float64(k)/histBinsPerDecade) }
		var xys plotter.XYs
		for j := keys[0]; j <= keys[len(keys)-1]; j++ {
			share := 100 * float64(bins[j]) / float64(total)
			xys = append(xys, plotter.XY{X: edge(j), Y: share}, plotter.XY{X: edge(j + 1), Y: share})
		}
		xys = slices.Insert(xys, 0, plotter.XY{X: edge(keys[0]), Y: 0})
		xys = append(xys, plotter.XY{X: edge(keys[len(keys)-1] + 1), Y: 0})
		lo, hi = min(lo, edge(keys[0])), max(hi, edge(keys[len(keys)-1]+1))
		l, err := plotter.NewLine(xys)
		if err != nil {
			return nil, err
		}
		l.Color = colorOf(i)
		p.Add(l)
		p.Legend.Add(o.Name, l)
	}
	if math.IsInf(lo, 1) {
		lo, hi = 1e3, 1e6
	}
	durationAxis(&p.X, lo, hi)
	p.Y.Min = 0
	padLinear(&p.Y)
	p.Legend.Left = false
	return p, nil
}

// SpectrumQuantiles are the quantiles Spectrum draws.
var SpectrumQuantiles = []float64{0, 0.5, 0.75, 0.9, 0.95, 0.99, 0.995, 0.999, 0.9995, 0.9999}

// spectrumTicks mark 1/(1-p) at the round percentiles.
var spectrumTicks = plot.ConstantTicks([]plot.Tick{
	{Value: 1, Label: "0%"}, {Value: 2, Label: "50%"}, {Value: 10, Label: "90%"}, {Value: 100, Label: "99%"},
	{Value: 1000, Label: "99.9%"}, {Value: 10000, Label: "99.99%"},
})

// Spectrum draws the percentile spectrum of every operation of every
// document: latency against the percentile, x = 1/(1-p) on a log axis, at
// SpectrumQuantiles, each quantile that of the recorder rebuilt from the
// runtime_histogram (report.Operation.Recorder, latency.Recorder.Quantile;
// p = 0 is the minimum). With several documents, the lines are named
// "file:operation", file being names[i] for the i-th document (the name
// of its file) or, without one, its number (1, 2...).
func Spectrum(w io.Writer, docs []*report.Document, names []string, format Format) error {
	p, err := spectrumPlot(docs, names)
	if err != nil {
		return err
	}
	return render(w, format, p)
}

// spectrumPlot is the plot Spectrum draws.
func spectrumPlot(docs []*report.Document, names []string) (*plot.Plot, error) {
	p := newPlot("Latency by percentile", "percentile", "runtime")
	p.X.Scale = plot.LogScale{}
	p.X.Tick.Marker = spectrumTicks
	p.X.Min, p.X.Max = 1, 1e4
	padLog(&p.X)
	lo, hi := math.Inf(1), math.Inf(-1)
	n := 0
	for di, d := range docs {
		for i := range d.Operations {
			o := &d.Operations[i]
			r := o.Recorder()
			if r == nil {
				continue
			}
			var xys plotter.XYs
			for _, q := range SpectrumQuantiles {
				v := r.Min()
				if q > 0 {
					v = r.Quantile(q)
				}
				y := positive(float64(v))
				xys = append(xys, plotter.XY{X: 1 / (1 - q), Y: y})
				lo, hi = min(lo, y), max(hi, y)
			}
			name := o.Name
			if len(docs) > 1 {
				file := strconv.Itoa(di + 1)
				if di < len(names) {
					file = names[di]
				}
				name = file + ":" + name
			}
			if err := addLine(p, name, xys, colorOf(n), di%2 == 1); err != nil {
				return nil, err
			}
			n++
		}
	}
	if math.IsInf(lo, 1) {
		lo, hi = 1e3, 1e6
	}
	durationAxis(&p.Y, lo, hi)
	return p, nil
}

// Timeline draws the runtime of every run in the document's order (run
// number on x), then the timeline's spans of the runs past the kept ones
// (their mean and slowest), the runs with a garbage collection (gc_cycles > 0, known
// with -gcstats run) marked in red, and each run's stop-the-world time as
// a second series on the same log axis. When the runs carry their heap
// goal (-gcstats run), a second panel below, on the same run axis, draws
// the heap goal at the end of each run; runs without a goal (GOGC=off and
// no memory limit) are left out of it.
func Timeline(w io.Writer, d *report.Document, format Format) error {
	panels, err := timelinePlots(d)
	if err != nil {
		return err
	}
	return render(w, format, panels...)
}

// timelinePlots are the panels Timeline draws, top to bottom.
func timelinePlots(d *report.Document) ([]*plot.Plot, error) {
	p := newPlot("Runs", "run", "time")
	all, stw, goal, lo, hi := timelineRuns(d)
	if len(all) > 0 {
		l, err := plotter.NewLine(all)
		if err != nil {
			return nil, err
		}
		l.Color = colorOf(0)
		p.Add(l)
		p.Legend.Add("runtime", l)
	}
	spanMean, spanMax, n := timelineSpans(d)
	for _, xy := range spanMean {
		lo = min(lo, xy.Y)
	}
	for _, xy := range spanMax {
		hi = max(hi, xy.Y)
	}
	if len(spanMean) > 0 {
		if err := addLine(p, "mean of each span past the kept runs", spanMean, colorOf(3), false); err != nil {
			return nil, err
		}
		if err := addLine(p, "slowest of each span", spanMax, colorOf(5), true); err != nil {
			return nil, err
		}
	}
	if len(stw) > 0 {
		s, err := plotter.NewScatter(stw)
		if err != nil {
			return nil, err
		}
		s.Color, s.Shape, s.Radius = colorOf(2), draw.TriangleGlyph{}, vg.Points(2.5)
		p.Add(s)
		p.Legend.Add("stop-the-world in the run", s)
	}
	if math.IsInf(lo, 1) {
		lo, hi = 1e3, 1e6
	}
	durationAxis(&p.Y, lo, hi)
	p.X.Min, p.X.Max = 0, max(n, 1)+1
	p.Legend.Left = false
	panels := []*plot.Plot{p}
	strip, err := causeStrip(timelineCauses(d), p.X.Min, p.X.Max)
	if err != nil {
		return nil, err
	}
	if strip != nil {
		p.X.Label.Text = ""
		panels = append(panels, strip)
	}
	if len(goal) == 0 {
		return panels, nil
	}
	g, err := heapGoalPanel(goal, p.X.Min, p.X.Max)
	if err != nil {
		return nil, err
	}
	for _, q := range panels {
		q.X.Label.Text = ""
	}
	return append(panels, g), nil
}

// timelineRuns are the kept runs' points: their runtimes, their
// stop-the-world time and the heap goal at their end (-gcstats run), and
// the least and greatest of the times.
func timelineRuns(d *report.Document) (all, stw, goal plotter.XYs, lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for i, r := range d.Runs {
		x := float64(i + 1)
		y := positive(float64(r.Runtime))
		all = append(all, plotter.XY{X: x, Y: y})
		lo, hi = min(lo, y), max(hi, y)
		if g := r.GCDelta; g != nil {
			if g.STW > 0 {
				s := positive(float64(g.STW))
				stw = append(stw, plotter.XY{X: x, Y: s})
				lo, hi = min(lo, s), max(hi, s)
			}
			if g.HeapGoal > 0 && g.HeapGoal < 1<<62 {
				goal = append(goal, plotter.XY{X: x, Y: float64(g.HeapGoal)})
			}
		}
	}
	return all, stw, goal, lo, hi
}

// timelineSpans are the runs past the kept ones (-keep-runs), as the
// timeline's spans: each at the middle of the runs it holds, counted on
// from the kept; n is the number of runs, kept or not.
func timelineSpans(d *report.Document) (mean, slowest plotter.XYs, n float64) {
	n = float64(len(d.Runs))
	for _, sp := range d.Timeline {
		x := n + float64(sp.Runs)/2
		n += float64(sp.Runs)
		if sp.Runs == sp.Failed {
			continue
		}
		mean = append(mean, plotter.XY{X: x, Y: positive(float64(sp.Mean))})
		slowest = append(slowest, plotter.XY{X: x, Y: positive(float64(sp.Max))})
	}
	return mean, slowest, n
}

// heapGoalPanel is the timeline's panel of the heap goal: gonum/plot has
// no second y axis, so it is a panel of its own below, sharing the run
// axis.
func heapGoalPanel(goal plotter.XYs, xmin, xmax float64) (*plot.Plot, error) {
	g := newPlot("", "run", TimelineHeapGoalLabel)
	g.Y.Tick.Marker = byteTicks{}
	g.Y.Min = 0
	g.X.Min, g.X.Max = xmin, xmax
	g.Legend.Left = false
	if err := addLine(g, "heap goal at the end of the run", goal, colorOf(4), false); err != nil {
		return nil, err
	}
	padLinear(&g.Y)
	return g, nil
}

// A causeRow is one row of the timeline's strip of causes: the runs (X)
// that had the cause, drawn as glyphs in the row.
type causeRow struct {
	name  string
	runs  plotter.XYs
	glyph draw.GlyphDrawer
	color int
}

// timelineCauses are the rows of the timeline's strip of causes: the kept
// runs that had each, counted as the verdicts count them (from each
// cause's threshold).
func timelineCauses(d *report.Document) []causeRow {
	rows := []causeRow{
		{"GC", nil, draw.CircleGlyph{}, 1},
		{"page faults", nil, draw.SquareGlyph{}, 6},
		{"preempted", nil, draw.PlusGlyph{}, 7},
		{"sched wait", nil, draw.CrossGlyph{}, 5},
	}
	th := causeThresholds(d)
	for i, r := range d.Runs {
		c, g := r.RunDelta, r.GCDelta
		if c == nil || g == nil {
			continue
		}
		at := plotter.XY{X: float64(i + 1)}
		for k, had := range []bool{
			g.Cycles > 0 || g.Pauses > 0 || c.MarkAtStart,
			c.MinorFaults >= th["minor_faults"] || c.MajorFaults >= th["major_faults"],
			c.InvoluntarySwitches >= th["involuntary_switches"],
			c.SchedWaits >= th["sched_waits"],
		} {
			if had {
				rows[k].runs = append(rows[k].runs, at)
			}
		}
	}
	return rows
}

// causeStrip is the timeline's panel of causes: one row per cause, a glyph
// at each run that had it (as the verdicts count it), so that a reader
// sees which causes line up with the slow runs above. Nil when no run had
// any.
func causeStrip(rows []causeRow, xmin, xmax float64) (*plot.Plot, error) {
	some := false
	for _, r := range rows {
		some = some || len(r.runs) > 0
	}
	if !some {
		return nil, nil
	}
	p := newPlot("", "run", "")
	var ticks []plot.Tick
	for i, r := range rows {
		y := float64(len(rows) - 1 - i) // the first row on top
		ticks = append(ticks, plot.Tick{Value: y, Label: r.name})
		if len(r.runs) == 0 {
			continue
		}
		xys := make(plotter.XYs, len(r.runs))
		for k, xy := range r.runs {
			xys[k] = plotter.XY{X: xy.X, Y: y}
		}
		sc, err := plotter.NewScatter(xys)
		if err != nil {
			return nil, err
		}
		sc.Color, sc.Shape, sc.Radius = colorOf(r.color), r.glyph, vg.Points(2)
		p.Add(sc)
	}
	p.Y.Tick.Marker = plot.ConstantTicks(ticks)
	p.Y.Min, p.Y.Max = -0.5, float64(len(rows))-0.5
	p.X.Min, p.X.Max = xmin, xmax
	return p, nil
}

// causeThresholds are the amounts from which the verdicts counted a run as
// having each cause (report.Cause.Threshold), 1 for a cause not judged.
func causeThresholds(d *report.Document) map[string]uint64 {
	t := map[string]uint64{}
	for _, n := range []string{"minor_faults", "major_faults", "involuntary_switches", "sched_waits"} {
		t[n] = 1
	}
	if d.Tail != nil {
		for _, c := range d.Tail.Causes {
			t[c.Cause.String()] = max(c.Threshold, 1)
		}
	}
	return t
}

// TimelineHeapGoalLabel is the y axis label of the timeline's heap goal panel.
const TimelineHeapGoalLabel = "heap goal"

// A point is one row of a sweep as the sweep charts draw it. A zero P99 is
// a point without a successful repeat: it is not drawn.
type point struct {
	GOGC, MemLimit string // MemLimit names the point's line: its GOMEMLIMIT, and GOMAXPROCS when that is an axis too
	P99, P999      time.Duration
	PeakRSS        uint64
	Throughput     float64
	Frontier       bool // on the Pareto frontier of P99 against peak RSS
	Recommended    bool // the setting the advice picked
	// Time names the figure in P99 for a sweep over a command (gcperf
	// sweep -- CMD: sweep.TimeLabel, "wall" or "sec/op"), whose P99 is
	// its Row.Time; "" for gcperf's own benchmark.
	Time string
	// Server is set for a server under load: P99 is the client's latency,
	// corrected for coordinated omission in open loop; PeakRSS the
	// server's.
	Server bool
}

// timeName is what the points' P99 is: "P99", or a command's time figure.
func timeName(points []point) string {
	for _, pt := range points {
		if pt.Time != "" {
			return pt.Time
		}
	}
	return "P99"
}

// points are the rows of s as the charts draw them, the recommended point
// being the advice's best setting, when there is one.
func points(s *sweep.Summary) []point {
	best := -1
	if a := s.Advice; a != nil && a.Best != nil {
		best = a.Best.Point.Index
	}
	var pts []point
	for _, r := range s.Rows {
		limit := r.Point.MemLimit.String()
		if r.Point.GOMAXPROCS > 0 {
			// A third axis: one line per GOMEMLIMIT and GOMAXPROCS.
			limit = cmp.Or(limit, "unset") + fmt.Sprintf(", GOMAXPROCS=%d", r.Point.GOMAXPROCS)
		}
		pt := point{
			GOGC: r.Point.GOGC.String(), MemLimit: limit,
			P99: r.P99, P999: r.P999, PeakRSS: r.PeakRSS, Throughput: r.Throughput,
			Frontier: r.Frontier, Recommended: r.Point.Index == best && r.OK() > 0,
			Server: r.Server,
		}
		if r.Command {
			// A command's time stands for the P99: its wall time, or
			// its first benchmark's sec/op; it has no P99.9.
			pt.P99, pt.P999, pt.Time = 0, 0, sweep.TimeLabel(s.Rows)
			if r.OK() > 0 {
				pt.P99 = r.TimeIn(pt.Time)
			}
		}
		pts = append(pts, pt)
	}
	return pts
}

// gogcOrder orders GOGC values numerically, "off" after every number,
// anything else after it by name.
func gogcOrder(a, b string) int {
	key := func(s string) (int, float64) {
		if v, err := strconv.ParseFloat(s, 64); err == nil {
			return 0, v
		}
		if s == "off" {
			return 1, 0
		}
		return 2, 0
	}
	ra, va := key(a)
	rb, vb := key(b)
	if c := cmp.Compare(ra, rb); c != 0 {
		return c
	}
	if c := cmp.Compare(va, vb); c != 0 {
		return c
	}
	return strings.Compare(a, b)
}

// Sweep draws one chart of a sweep's rows (the medians of each point):
// KindSweepP99 (P99, solid, and P99.9, dashed, against GOGC, one colour per
// GOMEMLIMIT), KindSweepRSS (peak RSS against GOGC), KindSweepThroughput
// (against GOGC), or KindPareto (P99 against peak RSS, every point labelled
// with its GOGC, the frontier connected, the setting the advice picked
// labelled). GOGC values are evenly spaced in numerical order, "off" last;
// a point without a successful repeat is not drawn. The sweep-p99 and
// pareto charts draw the P99 bound of the advice's SLO
// (sweep.Advice.P99Bound), when there is one, as SweepSLO does. For a
// sweep over a command (Row.Command), the command's time (Row.Time, named
// by sweep.TimeLabel) takes the P99's place, without a P99.9.
func Sweep(w io.Writer, s *sweep.Summary, kind Kind, format Format) error {
	return SweepSLO(w, s, kind, format, s.Advice.P99Bound())
}

// SweepSLO is Sweep with the P99 bound of an SLO other than the advice's:
// when slo > 0, the sweep-p99 and pareto charts draw it as a horizontal
// dashed line, named SLOLabel(slo) in the legend; 0 draws none. The other
// charts ignore it.
func SweepSLO(w io.Writer, s *sweep.Summary, kind Kind, format Format, slo time.Duration) error {
	return drawSweep(w, points(s), kind, format, slo)
}

// drawSweep draws the chart of SweepSLO.
func drawSweep(w io.Writer, points []point, kind Kind, format Format, slo time.Duration) error {
	p, err := sweepPlot(points, kind, slo)
	if err != nil {
		return err
	}
	return render(w, format, p)
}

// sweepPlot is the plot drawSweep draws.
func sweepPlot(points []point, kind Kind, slo time.Duration) (*plot.Plot, error) {
	switch kind {
	case KindSweepP99, KindSweepRSS, KindSweepThroughput:
		return plotByGOGC(points, kind, slo)
	case KindPareto:
		return plotPareto(points, slo)
	}
	return nil, fmt.Errorf("chart: %v is not a chart of a sweep (%s)", kind, joinKinds(sweepKinds))
}

func memLimitName(m string) string {
	if m == "" {
		return "GOMEMLIMIT unset"
	}
	return "GOMEMLIMIT=" + m
}

// SLOLabel is how the sweep charts name the line of a P99 SLO:
// "SLO p99 <= 5ms".
func SLOLabel(slo time.Duration) string {
	return "SLO p99 <= " + slo.String()
}

// addSLO draws the P99 SLO as a horizontal dashed line across p, when
// slo > 0, and widens [lo, hi] (the log y axis's range) to show it.
func addSLO(p *plot.Plot, slo time.Duration, lo, hi *float64) error {
	if slo <= 0 {
		return nil
	}
	y := positive(float64(slo))
	f := plotter.NewFunction(func(float64) float64 { return y })
	f.Color = colorOf(1)
	f.Width = vg.Points(1)
	f.Dashes = []vg.Length{vg.Points(6), vg.Points(3)}
	p.Add(f)
	p.Legend.Add(SLOLabel(slo), f)
	if math.IsInf(*lo, 1) {
		*lo, *hi = y, y
	}
	*lo, *hi = min(*lo, y), max(*hi, y)
	return nil
}

// sweepSettings are the GOGC values of the points, in GOGC order, and
// their GOMEMLIMIT values, in the order they first appear.
func sweepSettings(points []point) (gogcs, limits []string) {
	for _, pt := range points {
		if !slices.Contains(gogcs, pt.GOGC) {
			gogcs = append(gogcs, pt.GOGC)
		}
		if !slices.Contains(limits, pt.MemLimit) {
			limits = append(limits, pt.MemLimit)
		}
	}
	slices.SortFunc(gogcs, gogcOrder)
	return gogcs, limits
}

// newSweepPlot is the empty chart of a sweep of the kind, by GOGC.
func newSweepPlot(points []point, kind Kind) *plot.Plot {
	var p *plot.Plot
	switch kind {
	case KindSweepP99:
		p = newPlot("Tail latency by GOGC", "GOGC", "runtime")
		if t := timeName(points); t != "P99" {
			p = newPlot("The command's "+t+" by GOGC", "GOGC", t)
		}
	case KindSweepRSS:
		p = newPlot("Peak RSS by GOGC", "GOGC", "peak RSS")
		p.Y.Tick.Marker = byteTicks{}
	case KindSweepThroughput:
		p = newPlot("Throughput by GOGC", "GOGC", "throughput (per second)")
	}
	return p
}

func plotByGOGC(points []point, kind Kind, slo time.Duration) (*plot.Plot, error) {
	gogcs, limits := sweepSettings(points)
	var ticks []plot.Tick
	for i, g := range gogcs {
		ticks = append(ticks, plot.Tick{Value: float64(i), Label: g})
	}
	p := newSweepPlot(points, kind)
	p.X.Tick.Marker = plot.ConstantTicks(ticks)
	p.X.Min, p.X.Max = -0.5, float64(len(gogcs))-0.5
	lo, hi := math.Inf(1), math.Inf(-1)
	for li, m := range limits {
		var main, tail plotter.XYs
		for _, pt := range points {
			if pt.MemLimit != m || pt.P99 <= 0 {
				continue
			}
			x := float64(slices.Index(gogcs, pt.GOGC))
			switch kind {
			case KindSweepP99:
				main = append(main, plotter.XY{X: x, Y: positive(float64(pt.P99))})
				lo, hi = min(lo, positive(float64(pt.P99))), max(hi, positive(float64(pt.P99)))
				if pt.P999 > 0 {
					tail = append(tail, plotter.XY{X: x, Y: positive(float64(pt.P999))})
					hi = max(hi, float64(pt.P999))
				}
			case KindSweepRSS:
				main = append(main, plotter.XY{X: x, Y: float64(pt.PeakRSS)})
			case KindSweepThroughput:
				main = append(main, plotter.XY{X: x, Y: pt.Throughput})
			}
		}
		slices.SortFunc(main, func(a, b plotter.XY) int { return cmp.Compare(a.X, b.X) })
		slices.SortFunc(tail, func(a, b plotter.XY) int { return cmp.Compare(a.X, b.X) })
		name := memLimitName(m)
		if kind == KindSweepP99 {
			if err := addLine(p, timeName(points)+" "+name, main, colorOf(li), false); err != nil {
				return nil, err
			}
			if err := addLine(p, "P99.9 "+name, tail, colorOf(li), true); err != nil {
				return nil, err
			}
			continue
		}
		if err := addLine(p, name, main, colorOf(li), false); err != nil {
			return nil, err
		}
	}
	if kind == KindSweepP99 {
		if err := addSLO(p, slo, &lo, &hi); err != nil {
			return nil, err
		}
		if math.IsInf(lo, 1) {
			lo, hi = 1e3, 1e6
		}
		durationAxis(&p.Y, lo, hi)
	} else {
		p.Y.Min = 0
		padLinear(&p.Y)
	}
	return p, nil
}

func sweepName(pt point) string {
	s := "GOGC=" + pt.GOGC
	if pt.MemLimit != "" {
		s += " GOMEMLIMIT=" + pt.MemLimit
	}
	return s
}

// manyLimits says whether the points have more than one GOMEMLIMIT (or
// GOMAXPROCS), so that GOGC alone does not name a point.
func manyLimits(points []point) bool {
	for _, pt := range points {
		if pt.MemLimit != points[0].MemLimit {
			return true
		}
	}
	return false
}

// paretoLabel is a point's label on the Pareto chart: its GOGC, and its
// GOMEMLIMIT after a slash when the sweep has several ("100/256MiB"; an
// unset one adds nothing), so that two GOMEMLIMITs' points do not read the
// same (issue 25).
func paretoLabel(pt point, many bool) string {
	if !many || pt.MemLimit == "" {
		return pt.GOGC
	}
	return pt.GOGC + "/" + pt.MemLimit
}

// addGOGCLabels labels every point with its GOGC, small, left of its
// marker (the recommended setting's full label is on its right).
func addGOGCLabels(p *plot.Plot, all plotter.XYs, gogcs []string) error {
	l, err := plotter.NewLabels(plotter.XYLabels{XYs: all, Labels: gogcs})
	if err != nil {
		return err
	}
	for i := range l.TextStyle {
		l.TextStyle[i].Font.Size = vg.Points(7)
		l.TextStyle[i].XAlign = draw.XRight
		l.TextStyle[i].YAlign = draw.YCenter
	}
	l.Offset = vg.Point{X: vg.Points(-4)}
	p.Add(l)
	return nil
}

// addRecommended rings the recommended setting and labels it in full.
func addRecommended(p *plot.Plot, rec *point) error {
	xy := plotter.XYs{{X: float64(rec.PeakRSS), Y: positive(float64(rec.P99))}}
	s, err := plotter.NewScatter(xy)
	if err != nil {
		return err
	}
	s.Color, s.Shape, s.Radius = colorOf(1), draw.RingGlyph{}, vg.Points(6)
	p.Add(s)
	p.Legend.Add("recommended", s)
	l, err := plotter.NewLabels(plotter.XYLabels{XYs: xy, Labels: []string{" " + sweepName(*rec)}})
	if err != nil {
		return err
	}
	l.Offset = vg.Point{X: vg.Points(8), Y: vg.Points(-3)}
	p.Add(l)
	return nil
}

func plotPareto(points []point, slo time.Duration) (*plot.Plot, error) {
	p := newPlot("P99 against peak RSS", "peak RSS", "P99 runtime")
	if slices.ContainsFunc(points, func(pt point) bool { return pt.Server }) {
		p = newPlot("The client's P99 against the server's peak RSS", "the server's peak RSS", "P99 latency (from the intended start with -rate)")
	}
	if t := timeName(points); t != "P99" {
		p = newPlot("The command's "+t+" against peak RSS", "peak RSS", t)
	}
	p.X.Tick.Marker = byteTicks{}
	p.Legend.Left = false
	var all, frontier plotter.XYs
	var gogcs []string
	var rec *point
	lo, hi := math.Inf(1), math.Inf(-1)
	many := manyLimits(points)
	for i, pt := range points {
		if pt.P99 <= 0 {
			continue
		}
		xy := plotter.XY{X: float64(pt.PeakRSS), Y: positive(float64(pt.P99))}
		lo, hi = min(lo, xy.Y), max(hi, xy.Y)
		all = append(all, xy)
		gogcs = append(gogcs, paretoLabel(pt, many))
		if pt.Frontier {
			frontier = append(frontier, xy)
		}
		if pt.Recommended && rec == nil {
			rec = &points[i]
		}
	}
	if len(all) > 0 {
		s, err := plotter.NewScatter(all)
		if err != nil {
			return nil, err
		}
		s.Color, s.Radius = colorOf(7), vg.Points(2.5)
		p.Add(s)
		p.Legend.Add("setting", s)
		if err := addGOGCLabels(p, all, gogcs); err != nil {
			return nil, err
		}
	}
	slices.SortFunc(frontier, func(a, b plotter.XY) int { return cmp.Or(cmp.Compare(a.X, b.X), cmp.Compare(a.Y, b.Y)) })
	if err := addLine(p, "Pareto frontier", frontier, colorOf(0), false); err != nil {
		return nil, err
	}
	if rec != nil {
		if err := addRecommended(p, rec); err != nil {
			return nil, err
		}
	}
	if err := addSLO(p, slo, &lo, &hi); err != nil {
		return nil, err
	}
	if math.IsInf(lo, 1) {
		lo, hi = 1e3, 1e6
	}
	durationAxis(&p.Y, lo, hi)
	padLinear(&p.X)
	return p, nil
}
