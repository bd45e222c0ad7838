package chart

import (
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// How a chart is laid out on its canvas. gonum/plot draws a legend inside
// the plotting area, where it hides whatever data lies under it (at 1000
// runs the timeline's legend sat on a band of points). Here every legend
// is drawn in a column to the right of the plotting areas, its top level
// with its panel's plotting area.
const (
	// legendGap is the space between the plotting areas and the legends.
	legendGap = 8 // points
	// legendMaxShare is the most of the chart's width the legends take;
	// a wider legend is drawn in a smaller font.
	legendMaxShare = 0.4
	// legendMinFont is the smallest font a legend is drawn in to fit.
	legendMinFont = 7 // points
	// stackGap is the space between stacked panels (the timeline's).
	stackGap = 4 // points
	// edge is the space left free along the chart's edges.
	edge = 6 // points
)

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
// to be drawn beside the plotting areas.
func layOut(c draw.Canvas, panels []*plot.Plot) *layout {
	// Nothing touches the chart's edges.
	c = draw.Crop(c, vg.Points(edge), -vg.Points(edge), vg.Points(edge), -vg.Points(edge))
	l := &layout{canvas: c}
	var column vg.Length
	for _, p := range panels {
		leg := p.Legend
		p.Legend = plot.NewLegend()
		leg.Top, leg.Left, leg.XOffs, leg.YOffs = true, true, 0, 0
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
