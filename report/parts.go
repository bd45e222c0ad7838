package report

import "bytes"

// Parts is the text report cut into its parts, each as Text prints it, for
// a renderer that lays them out its own way (report/html puts them on a
// page). A section with nothing to print is "".
type Parts struct {
	// Header is the title line and the settings lines ("Settings: ...",
	// "Go: ...", "Host: ...", "Limits: ...", "Timed runs: ..."), each ending
	// in a newline.
	Header string
	// Head and Rows are the statistics table: Head names its columns (the
	// operations, then the mix when it is shown); each row is its label,
	// then one cell per column.
	Head []string
	Rows [][]string
	// The sections after the table, in the text report's order.
	// Tail is the verdict on each cause of the slow runs; Server the
	// program under load (gcperf run OP... -- SERVER).
	Errors, GC, Hiccups, OpenLoop, GCPerfP99, Tail, Server, Profiles, Notes string
}

// TextParts is the text report of d in parts: the same header, statistics
// and sections that Text prints.
func TextParts(d *Document) Parts {
	pt := Parts{Header: textSection(d, (*printer).header)}
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

// textSection is what one of the text report's sections prints.
func textSection(d *Document, print func(*printer, *Document)) string {
	var b bytes.Buffer
	p := &printer{w: &b}
	print(p, d)
	return b.String()
}
