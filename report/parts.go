package report

import (
	"bytes"

	"github.com/gcperf/gcperf/internal/reportparts"
)

func init() {
	reportparts.Register(reportparts.Funcs[Document]{TextParts: textParts, CauseLabel: causeLabel, BenchJoin: benchJoin})
}

// textParts is the text report of d in parts: the same header, statistics
// and sections that Text prints (reportparts.TextParts, for report/html).
func textParts(d *Document) reportparts.Parts {
	pt := reportparts.Parts{Header: textSection(d, (*printer).header), Summary: textSection(d, (*printer).summary)}
	cols, showMix, rows := statRows(d)
	for i := range cols {
		pt.Head = append(pt.Head, colName(cols, showMix, i))
	}
	for _, r := range rows {
		cells := []string{r.label}
		for i, o := range cols {
			cells = append(cells, r.cell(o, isMix(cols, showMix, i)))
		}
		pt.Rows = append(pt.Rows, cells)
	}
	pt.Errors = textSection(d, (*printer).errors)
	pt.GC = textSection(d, (*printer).gc)
	pt.Hiccups = textSection(d, (*printer).hiccup)
	pt.OpenLoop = textSection(d, (*printer).openLoop)
	pt.GCPerfP99 = textSection(d, (*printer).gcperf)
	pt.Tail = textSection(d, (*printer).tail)
	pt.Server = textSection(d, (*printer).server)
	pt.Profiles = textSection(d, (*printer).profiles)
	pt.Notes = textSection(d, (*printer).footer)
	return pt
}

// textSection is what one of the text report's sections prints, verbose:
// the HTML page holds every explanation.
func textSection(d *Document, print func(*printer, *Document)) string {
	var b bytes.Buffer
	p := &printer{w: &b, verbose: true}
	print(p, d)
	return b.String()
}
