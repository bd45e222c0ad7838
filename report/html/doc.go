// Package html writes gcperf's results and sweeps as self-contained HTML5
// pages: one file holding its text, tables and charts (inline SVG drawn by
// report/chart, fonts embedded), with no script and no reference to
// anything outside itself, so that it opens and looks the same offline, in
// a mail attachment or a CI artifact. It is what gcperf -html, gcperf
// report -format html and the sweep.html of gcperf sweep write.
//
//	d, err := report.ReadJSON(f)   // a result saved with gcperf -json
//	err = html.Report(w, d)
//	s, err := sweep.ReadSummary(g) // a sweep's sweep.json
//	err = html.Sweep(w, s)
//
// # The page of a result
//
// [Report] lays out what the text report prints (its parts, as report cuts
// them for this package): the title, the settings and environment as a
// table, the statistics table (the operations and the mix, row by row as in
// the text report), the errors, garbage collector, hiccup, open-loop,
// GCPerfP99 (with the tail's GC attribution), profile and note sections, and
// three charts: the runtime histogram, the percentile spectrum and the run
// timeline.
//
// # The page of a sweep
//
// [Sweep] shows the sweep's table of points as sweep.Table prints it, its
// advice, and four charts: P99 and P99.9, peak RSS and throughput against
// GOGC, and P99 against peak RSS with the Pareto frontier; the P99 charts
// draw the P99 bound of the advice's SLO. The title names the shard when
// the sweep ran one.
//
// The charts stand one under another, each as wide as the page's column
// (72em: 1152 pixels at the default font size, report/chart's Width at 96
// dpi, so that a chart's text is drawn at its size). On a narrower window
// a chart shrinks to no less than 48em, two thirds, and scrolls beyond, so
// that its text stays readable.
//
// A chart that cannot be drawn leaves a note in its place, not an error;
// the page is otherwise whole. The same input gives the same bytes.
package html
