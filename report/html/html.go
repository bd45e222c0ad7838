package html

import (
	"bytes"
	"html/template"
	"io"
	"regexp"
	"strings"

	"github.com/gcperf/gcperf/internal/reportparts"
	"github.com/gcperf/gcperf/report"
	"github.com/gcperf/gcperf/report/chart"
	"github.com/gcperf/gcperf/sweep"
)

// Report writes the result as one self-contained HTML5 page: the settings and
// environment, the statistics table, the GC, hiccup, open-loop, GCPerfP99
// (with the tail's GC attribution) and profile sections of the text report,
// and the runtime histogram, percentile spectrum and run timeline as inline
// SVG. The page has no script and refers to nothing outside itself (its
// fonts are embedded in the first chart), so it looks the same offline.
//
// A command's result (gcperf exec) has a page of its own: its figures, the
// benchmarks it printed, and its RSS and heap goal over time.
func Report(w io.Writer, d *report.Document) error {
	if d.Kind() == report.CommandDocument {
		return execReport(w, d)
	}
	parts := reportparts.TextParts(d)
	lines := strings.Split(strings.TrimRight(parts.Header, "\n"), "\n")
	pg := runPage{Title: lines[0], Outliers: d.Config.Outliers, Head: parts.Head, Rows: parts.Rows}
	pg.Summary = textLines(summaryBody(parts.Summary))
	pg.Summary = append(pg.Summary, textLines(parts.Tail)...)
	for _, l := range lines[1:] {
		k, v, ok := strings.Cut(l, ": ")
		if !ok {
			k, v = "", l
		}
		pg.Settings = append(pg.Settings, [2]string{k, v})
	}
	for _, s := range []struct{ Title, Text string }{
		{"Errors", parts.Errors},
		{"Garbage collector", parts.GC},
		{"Hiccups", parts.Hiccups},
		{"Open loop", parts.OpenLoop},
		{"GCPerfP99 results and the tail", parts.GCPerfP99},
		{"The server under load", parts.Server},
		{"Profiles", parts.Profiles},
		{"Notes", parts.Notes},
	} {
		if text := strings.Trim(s.Text, "\n"); text != "" {
			pg.Sections = append(pg.Sections, section{Title: s.Title, Lines: textLines(text)})
		}
	}
	c := &charts{}
	c.add("Runtime histogram", func(w io.Writer) error { return chart.Histogram(w, d, chart.SVG) })
	c.add("Percentile spectrum", func(w io.Writer) error { return chart.Spectrum(w, []*report.Document{d}, nil, chart.SVG) })
	c.add("Run timeline", func(w io.Writer) error { return chart.Timeline(w, d, chart.SVG) })
	if d.Tail != nil && len(d.Tail.Causes) > 0 && d.Tail.Causes[0].Worst > 0 {
		c.add("Causes of the slowest runs", func(w io.Writer) error { return chart.Causes(w, d, chart.SVG) })
	}
	if d.Kind() == report.ServerDocument {
		// The server's run, charted as a command's.
		sd := *d
		sd.Exec = d.Server
		c.add("The server's resident set over time", func(w io.Writer) error { return chart.ExecRSS(w, &sd, chart.SVG) })
		if d.Server.GC != nil {
			c.add("The server's heap goal over time", func(w io.Writer) error { return chart.ExecGoal(w, &sd, chart.SVG) })
		}
	}
	pg.Charts = c.list
	return runTemplate.Execute(w, pg)
}

// Sweep writes a sweep as one self-contained HTML5 page, as Report does a
// result: its title ("gcperf sweep", and the shard when it ran one), the
// table of its points (sweep.Table), the advice (sweep.Advice.Text) and
// the four sweep charts of report/chart (P99, peak RSS and throughput
// against GOGC, and P99 against peak RSS), the P99 bound of the advice's
// SLO drawn on the P99 and Pareto charts. A sweep over a command (gcperf
// sweep -- CMD) charts the command's time (sweep.TimeLabel: its wall time,
// or the sec/op of the first benchmark it printed) where the P99 would be,
// and has no throughput chart.
func Sweep(w io.Writer, s *sweep.Summary) error {
	var table bytes.Buffer
	if err := sweep.Table(&table, s.Rows, nil); err != nil {
		return err
	}
	pg := sweepPage{Title: "gcperf sweep", Table: table.String()}
	if s.Shard != "" {
		pg.Title += " (shard " + s.Shard + ")"
	}
	if s.Advice != nil {
		pg.Advice = s.Advice.Text
	}
	return sweepHTML(w, pg, s)
}

// sweepHTML writes the page of a sweep from its title, table and advice,
// and the charts of s.
func sweepHTML(w io.Writer, pg sweepPage, s *sweep.Summary) error {
	pg.Table, pg.Advice = strings.TrimRight(pg.Table, "\n"), strings.TrimSpace(pg.Advice)
	c := &charts{}
	kinds := []struct {
		kind  chart.Kind
		title string
	}{
		{chart.KindSweepP99, "P99 and P99.9 against GOGC"},
		{chart.KindSweepRSS, "Peak RSS against GOGC"},
		{chart.KindSweepThroughput, "Throughput against GOGC"},
		{chart.KindPareto, "P99 against peak RSS (Pareto frontier)"},
	}
	if len(s.Command) > 0 {
		// A command's time stands for the P99, and it has no throughput.
		t := sweep.TimeLabel(s.Rows)
		kinds = kinds[:0]
		kinds = append(kinds, []struct {
			kind  chart.Kind
			title string
		}{
			{chart.KindSweepP99, "The command's " + t + " against GOGC"},
			{chart.KindSweepRSS, "Peak RSS against GOGC"},
			{chart.KindPareto, "The command's " + t + " against peak RSS (Pareto frontier)"},
		}...)
	}
	for _, k := range kinds {
		c.add(k.title, func(w io.Writer) error { return chart.Sweep(w, s, k.kind, chart.SVG) })
	}
	pg.Charts = c.list
	return sweepTemplate.Execute(w, pg)
}

// A section is one of the text report's sections on the page, its lines
// set as paragraphs.
type section struct {
	Title string
	Lines []line
}

// A figure is one chart on a page.
type figure struct {
	Title string
	SVG   template.HTML // nil when the chart could not be drawn
	Err   string
}

type runPage struct {
	Title    string
	Settings [][2]string
	Outliers int
	Head     []string
	Rows     [][]string
	Summary  []line // the text report's first screen and the tail
	Sections []section
	Charts   []figure
}

type sweepPage struct {
	Title, Table, Advice string
	Charts               []figure
}

// charts collects the inline charts of a page, each font embedded once.
type charts struct {
	list  []figure
	fonts map[string]bool // the <defs> blocks (fonts) already on the page
}

var (
	svgNamespace = regexp.MustCompile(`\s+xmlns(:xlink)?="[^"]*"`)
	svgDefs      = regexp.MustCompile(`(?s)<defs>.*?</defs>\n?`)
)

// add draws a chart as SVG and makes it fit inline in HTML: no XML prolog,
// no namespace declarations (HTML's parser gives the namespace; they would
// be the page's only URLs), and each embedded font block only the first
// time it occurs, as a style in an inline SVG applies to the whole page.
func (c *charts) add(title string, draw func(io.Writer) error) {
	var b bytes.Buffer
	if err := draw(&b); err != nil {
		c.list = append(c.list, figure{Title: title, Err: err.Error()})
		return
	}
	svg := b.String()
	if i := strings.Index(svg, "<svg"); i >= 0 {
		svg = svg[i:]
	}
	svg = svgNamespace.ReplaceAllString(svg, "")
	if c.fonts == nil {
		c.fonts = map[string]bool{}
	}
	svg = svgDefs.ReplaceAllStringFunc(svg, func(defs string) string {
		if c.fonts[defs] {
			return ""
		}
		c.fonts[defs] = true
		return defs
	})
	c.list = append(c.list, figure{Title: title, SVG: template.HTML(svg)}) // #nosec: our own drawing
}

const pageStyle = `<style>
body{font-family:"DejaVu Sans","Liberation Sans",Arial,sans-serif;margin:1.5em auto;max-width:72em;padding:0 1em;color:#222;background:#fff}
h1{font-size:1.4em;margin-bottom:.4em}
h2{font-size:1.15em;margin-top:1.6em;border-bottom:1px solid #ccc;padding-bottom:.2em}
table{border-collapse:collapse;font-size:.9em}
td,th{padding:.15em .7em;border-bottom:1px solid #eee;vertical-align:top}
table.kv th{text-align:left;white-space:nowrap}
table.stats td{text-align:right;font-family:"DejaVu Sans Mono","Liberation Mono",monospace;white-space:nowrap}
table.stats td:first-child,table.stats th:first-child{text-align:left;font-family:inherit}
table.stats th{text-align:right}
table.stats tr:nth-child(even){background:#f6f8fa}
.text p{margin:.15em 0;overflow-wrap:anywhere}
.text p.ind{margin-left:1.5em}
.summary{font-size:1.05em}
pre{background:#f6f8fa;padding:.7em;overflow-x:auto;font-size:.85em;line-height:1.35}
.charts{display:flex;flex-direction:column;gap:1.5em}
figure{margin:0;overflow-x:auto}
figcaption{font-weight:bold;margin-bottom:.3em}
figure svg{display:block;width:100%;min-width:48em;height:auto}
.note{color:#a00}
</style>`

const chartsTemplate = `{{define "charts"}}<h2 id="charts">Charts</h2>
<div class="charts">
{{- range .Charts}}
<figure>
<figcaption>{{.Title}}</figcaption>
{{if .SVG}}{{.SVG}}{{else}}<p class="note">Not drawn: {{.Err}}</p>{{end}}
</figure>
{{- end}}
</div>{{end}}`

// pageTemplate is what every page holds around its "body": the head with
// the title and style, the title as heading, and the charts after.
const pageTemplate = chartsTemplate + `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}}</title>
` + pageStyle + `
</head>
<body>
<h1>{{.Title}}</h1>
{{template "body" .}}
{{template "charts" .}}
</body>
</html>
`

var runTemplate = template.Must(template.New("run").Parse(pageTemplate + `{{define "body"}}{{if .Summary}}<h2 id="summary">Summary</h2>
<div class="text summary">
{{- range .Summary}}
{{if .Cells}}<table class="stats">{{range $i, $r := .Cells}}<tr>{{range $r}}{{if eq $i 0}}<th>{{.}}</th>{{else}}<td>{{.}}</td>{{end}}{{end}}</tr>{{end}}</table>{{else}}<p{{if .Indent}} class="ind"{{end}}>{{.Text}}</p>{{end}}
{{- end}}
</div>
{{end}}<h2 id="settings">Settings and environment</h2>
<table class="kv">
{{- range .Settings}}
<tr><th>{{index . 0}}</th><td>{{index . 1}}</td></tr>
{{- end}}
</table>
<h2 id="statistics">Operation statistics</h2>
<p>The mean-based figures drop the best and worst -outliers {{.Outliers}}; the percentiles cover every successful run.</p>
<table class="stats">
<tr><th></th>{{range .Head}}<th>{{.}}</th>{{end}}</tr>
{{- range .Rows}}
<tr>{{range .}}<td>{{.}}</td>{{end}}</tr>
{{- end}}
</table>
{{- range .Sections}}
<h2>{{.Title}}</h2>
<div class="text">
{{- range .Lines}}
{{if .Cells}}<table class="stats">{{range $i, $r := .Cells}}<tr>{{range $r}}{{if eq $i 0}}<th>{{.}}</th>{{else}}<td>{{.}}</td>{{end}}{{end}}</tr>{{end}}</table>{{else}}<p{{if .Indent}} class="ind"{{end}}>{{.Text}}</p>{{end}}
{{- end}}
</div>
{{- end}}{{end}}`))

var sweepTemplate = template.Must(template.New("sweep").Parse(pageTemplate + `{{define "body"}}<h2 id="table">Points</h2>
<pre>{{.Table}}</pre>
{{- if .Advice}}
<h2 id="advice">Advice</h2>
<pre>{{.Advice}}</pre>
{{- end}}{{end}}`))

// line is a line of the text report set as a paragraph: its text without
// the leading spaces, which become an indent.
type line struct {
	Text   string
	Indent bool
	Cells  [][]string // set instead for a run of aligned columns: a table
}

// columns splits the text report's aligned columns (two spaces or more).
var columns = regexp.MustCompile(`\s{2,}`)

// textLines cuts a section of the text report into its non-blank lines, so
// the page sets them as paragraphs that wrap, not as terminal text.
func textLines(text string) []line {
	var ls []line
	for _, l := range strings.Split(strings.Trim(text, "\n"), "\n") {
		t := strings.TrimSpace(l)
		if t == "" {
			continue
		}
		ls = append(ls, line{Text: t, Indent: t != strings.TrimRight(l, " ")})
	}
	return tables(ls)
}

// tables sets each run of two or more indented lines with the same number
// (three or more) of aligned columns as one table, its first line the
// table's heading row.
func tables(ls []line) []line {
	var out []line
	for i := 0; i < len(ls); {
		n := len(columns.Split(ls[i].Text, -1))
		j := i
		for j < len(ls) && ls[j].Indent && n >= 3 && len(columns.Split(ls[j].Text, -1)) == n {
			j++
		}
		if j-i < 2 {
			out = append(out, ls[i])
			i++
			continue
		}
		t := line{Indent: true}
		for _, l := range ls[i:j] {
			t.Cells = append(t.Cells, columns.Split(l.Text, -1))
		}
		out = append(out, t)
		i = j
	}
	return out
}

// summaryBody is the summary without its first line, the title the page
// already has as its heading.
func summaryBody(s string) string {
	_, rest, _ := strings.Cut(s, "\n")
	return rest
}
