package chart

import (
	"math"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// How a chart is laid out on its canvas. gonum/plot draws a legend inside
// the plotting area, where it hides whatever data lies under it (at 1000
// runs the timeline's legend sat on a band of points). Here every legend
// is drawn in a column to the right of the plotting areas, its top level
// with its panel's plotting area, and the axes are widened until every
// point and label lies inside them.
const (
	// legendGap is the space between the plotting areas and the legends.
	legendGap = 8 // points
	// legendMaxShare is the most of the chart's width the legends take;
	// a wider legend is drawn in a smaller font.
	legendMaxShare = 0.4
	// legendPadding is the space between a legend's entries, so that a
	// large glyph (the Pareto chart's recommended ring) does not touch the
	// next one.
	legendPadding = 3 // points
	// legendMinFont is the smallest font a legend is drawn in to fit.
	legendMinFont = 7 // points
	// fitSlack is how far (in points) a glyph may reach past the plotting
	// area: half a line's width, so that a line drawn along an axis's
	// end (a histogram's 0, say) does not move the axis.
	fitSlack = 0.75
	// stackGap is the space between stacked panels (the timeline's).
	stackGap = 4 // points
	// edge is the space left free along the chart's edges.
	edge = 6 // points
)

// margin is the share of an axis's span left free beyond the data at each
// end, so that no point sits on the edge of the plotting area.
const margin = 0.05

// padLinear widens a linear axis by margin of its span at each end; a
// minimum of 0 (the base of shares, sizes and rates) stays. An axis
// without data is left as it is. gonum's default ticks label the round
// values of such a range with needless decimals (0.00, 25000.00): they
// become trimmedTicks.
func padLinear(a *plot.Axis) {
	if math.IsInf(a.Min, 0) || math.IsInf(a.Max, 0) || a.Max < a.Min {
		return
	}
	if _, ok := a.Tick.Marker.(plot.DefaultTicks); ok {
		a.Tick.Marker = trimmedTicks{}
	}
	span := a.Max - a.Min
	if span == 0 {
		span = math.Max(math.Abs(a.Max), 1)
	}
	if a.Min != 0 {
		a.Min -= margin * span
	}
	a.Max += margin * span
}

// trimmedTicks are gonum's default ticks, their labels without trailing
// zeros after the decimal point: 25000, 2.5, not 25000.00, 2.50.
type trimmedTicks struct{}

func (trimmedTicks) Ticks(lo, hi float64) []plot.Tick {
	ticks := plot.DefaultTicks{}.Ticks(lo, hi)
	for i, t := range ticks {
		if strings.Contains(t.Label, ".") && !strings.ContainsAny(t.Label, "eE") {
			ticks[i].Label = strings.TrimSuffix(strings.TrimRight(t.Label, "0"), ".")
		}
	}
	return ticks
}

// padLog widens a log axis [Min, Max] (both positive) by margin of its
// span in decades at each end.
func padLog(a *plot.Axis) {
	if a.Min <= 0 || a.Max < a.Min || math.IsInf(a.Max, 0) {
		return
	}
	f := math.Pow(a.Max/a.Min, margin)
	if f < 1.01 {
		f = 1.01
	}
	a.Min, a.Max = a.Min/f, a.Max*f
}

// A layout is where a chart's panels, stacked top to bottom, and their
// legends are drawn on the chart's canvas.
type layout struct {
	canvas   draw.Canvas   // the chart, within its edge
	panels   []draw.Canvas // each panel's canvas: title, axes and plotting area
	data     []draw.Canvas // each panel's plotting area (Plot.DataCanvas)
	legends  []plot.Legend // each panel's legend, taken out of the panel
	legendAt []draw.Canvas // where each legend is drawn: its top left corner at the canvas's
}

// legendSize is the width and height of a legend's entries; 0, 0 for a
// legend without entries.
func legendSize(l *plot.Legend) vg.Point {
	return l.Rectangle(draw.Canvas{}).Size()
}

// legendRect is the rectangle the i-th legend covers when drawn.
func (l *layout) legendRect(i int) vg.Rectangle {
	s := legendSize(&l.legends[i])
	at := l.legendAt[i]
	return vg.Rectangle{
		Min: vg.Point{X: at.Min.X, Y: at.Max.Y - s.Y},
		Max: vg.Point{X: at.Min.X + s.X, Y: at.Max.Y},
	}
}

// layOut places panels, stacked top to bottom and sharing their x axis,
// on c: it takes each panel's legend out of it (the panel then draws none)
// to be drawn beside the plotting areas, and widens the panels' axes
// until every glyph of their data (points, labels) lies inside the
// plotting area.
func layOut(c draw.Canvas, panels []*plot.Plot) *layout {
	// Nothing touches the chart's edges.
	c = draw.Crop(c, vg.Points(edge), -vg.Points(edge), vg.Points(edge), -vg.Points(edge))
	l := &layout{canvas: c}
	var column vg.Length
	for _, p := range panels {
		leg := p.Legend
		p.Legend = plot.NewLegend()
		leg.Top, leg.Left, leg.XOffs, leg.YOffs = true, true, 0, 0
		leg.Padding = vg.Points(legendPadding)
		maxWidth := vg.Length(legendMaxShare) * c.Size().X
		if w := legendSize(&leg).X; w > maxWidth {
			scaleLegend(&leg, float64(maxWidth/w))
		}
		l.legends = append(l.legends, leg)
		column = max(column, legendSize(&leg).X)
	}
	area := c
	if column > 0 {
		area.Max.X -= column + vg.Points(legendGap)
	}
	for range 8 {
		l.place(panels, area)
		fitted := true
		for i, p := range panels {
			if !fitGlyphs(p, l.data[i]) {
				fitted = false
			}
		}
		shareX(panels)
		if fitted {
			break
		}
	}
	l.place(panels, area)
	// Each legend starts level with the top of its plotting area and may
	// reach down to the next one's (the canvas's bottom for the last); a
	// taller legend is drawn in a smaller font.
	for i := range panels {
		at := draw.Canvas{Canvas: c.Canvas, Rectangle: vg.Rectangle{
			Min: vg.Point{X: area.Max.X + vg.Points(legendGap), Y: c.Min.Y},
			Max: vg.Point{X: c.Max.X, Y: l.data[i].Max.Y},
		}}
		if i+1 < len(panels) {
			at.Min.Y = l.data[i+1].Max.Y + vg.Points(stackGap)
		}
		if h, room := legendSize(&l.legends[i]).Y, at.Size().Y; h > room {
			scaleLegend(&l.legends[i], float64(room/h))
		}
		l.legendAt = append(l.legendAt, at)
	}
	return l
}

// place sets the canvases of the panels in area, their plotting areas
// aligned.
func (l *layout) place(panels []*plot.Plot, area draw.Canvas) {
	l.panels, l.data = l.panels[:0], l.data[:0]
	if len(panels) == 1 {
		l.panels = append(l.panels, area)
	} else {
		rows := make([][]*plot.Plot, len(panels))
		for i, p := range panels {
			rows[i] = []*plot.Plot{p}
		}
		for _, row := range plot.Align(rows, draw.Tiles{Rows: len(panels), Cols: 1, PadY: vg.Points(stackGap)}, area) {
			l.panels = append(l.panels, row[0])
		}
	}
	for i, p := range panels {
		l.data = append(l.data, p.DataCanvas(l.panels[i]))
	}
}

// draw draws the panels and their legends as laid out.
func (l *layout) draw(panels []*plot.Plot) {
	for i, p := range panels {
		p.Draw(l.panels[i])
		l.legends[i].Draw(l.legendAt[i])
	}
}

// scaleLegend makes a legend's font s times as large, down to
// legendMinFont.
func scaleLegend(l *plot.Legend, s float64) {
	size := max(vg.Length(s)*l.TextStyle.Font.Size, vg.Points(legendMinFont))
	l.TextStyle.Font.Size = min(size, l.TextStyle.Font.Size)
	l.Padding = vg.Length(s) * l.Padding
}

// shareX gives stacked panels the same x range, the union of theirs.
func shareX(panels []*plot.Plot) {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, p := range panels {
		lo, hi = min(lo, p.X.Min), max(hi, p.X.Max)
	}
	for _, p := range panels {
		p.X.Min, p.X.Max = lo, hi
	}
}

// fitGlyphs widens p's axes so that the glyph of every point and label it
// draws (Plot.GlyphBoxes) lies inside its plotting area dc, and reports
// whether they did already (within fitSlack).
func fitGlyphs(p *plot.Plot, dc draw.Canvas) bool {
	var left, right, bottom, top vg.Length // how far glyphs reach past each side
	for _, b := range p.GlyphBoxes(p) {
		x, y := dc.X(b.X)+b.Min.X, dc.Y(b.Y)+b.Min.Y
		left = max(left, dc.Min.X-x)
		right = max(right, x+b.Size().X-dc.Max.X)
		bottom = max(bottom, dc.Min.Y-y)
		top = max(top, y+b.Size().Y-dc.Max.Y)
	}
	size := dc.Size()
	if size.X <= 0 || size.Y <= 0 {
		return true
	}
	fitted := true
	if left > fitSlack || right > fitSlack {
		widen(&p.X, float64(left/size.X), float64(right/size.X))
		fitted = false
	}
	if bottom > fitSlack || top > fitSlack {
		widen(&p.Y, float64(bottom/size.Y), float64(top/size.Y))
		fitted = false
	}
	return fitted
}

// widen extends an axis by lo and hi times its span (on its scale: in
// decades on a log axis) below and above.
func widen(a *plot.Axis, lo, hi float64) {
	if _, ok := a.Scale.(plot.LogScale); ok && a.Min > 0 && a.Max > 0 {
		s0, s1 := math.Log(a.Min), math.Log(a.Max)
		span := s1 - s0
		a.Min, a.Max = math.Exp(s0-lo*span), math.Exp(s1+hi*span)
		return
	}
	span := a.Max - a.Min
	a.Min, a.Max = a.Min-lo*span, a.Max+hi*span
}
