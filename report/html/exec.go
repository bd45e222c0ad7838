package html

import (
	"fmt"
	"html/template"
	"io"
	"strconv"
	"strings"

	"golang.org/x/perf/benchunit"

	"github.com/gcperf/gcperf/report"
	"github.com/gcperf/gcperf/report/chart"
)

// execReport writes the page of a command's result (gcperf exec), as
// Report does a benchmark's: the command's figures (its status, time,
// memory, settings and GC, as the text report gives them), the table of
// the benchmarks it printed (each metric's median, as benchstat shows it,
// and the number of its values), and the charts of its RSS and heap goal
// over time.
func execReport(w io.Writer, d *report.Document) error {
	e := d.Exec
	var text strings.Builder
	if err := report.WriteExecText(&text, d); err != nil {
		return err
	}
	pg := execPage{Title: "gcperf exec: " + commandName(e.Command)}
	// The text report's "Key: value" lines, and its indented lines as
	// the rows below them.
	for _, l := range strings.Split(strings.TrimRight(text.String(), "\n"), "\n") {
		if strings.HasPrefix(l, "Benchmarks printed") {
			break
		}
		k, v, ok := strings.Cut(l, ": ")
		if strings.HasPrefix(l, " ") || !ok {
			k, v = "", strings.TrimSpace(l)
		}
		pg.Figures = append(pg.Figures, [2]string{k, v})
	}
	if e.SkippedBenchmarkLines > 0 {
		pg.Notes = append(pg.Notes, fmt.Sprintf("%d benchmark lines of the command's stdout could not be read", e.SkippedBenchmarkLines))
	}
	for _, b := range e.Benchmarks {
		for _, m := range b.Metrics {
			pg.Rows = append(pg.Rows, []string{b.Name, b.Pkg, m.Unit,
				benchunit.Scale(m.Median, benchunit.ClassOf(m.Unit)), strconv.Itoa(len(m.Values) + m.Dropped)})
		}
	}
	c := &charts{}
	c.add("Resident set over time", func(w io.Writer) error { return chart.ExecRSS(w, d, chart.SVG) })
	c.add("Heap goal over time", func(w io.Writer) error { return chart.ExecGoal(w, d, chart.SVG) })
	pg.Charts = c.list
	return execTemplate.Execute(w, pg)
}

// commandName is the command's program and arguments, shortened for a
// title.
func commandName(argv []string) string {
	s := strings.Join(argv, " ")
	if r := []rune(s); len(r) > 80 {
		s = string(r[:79]) + "…"
	}
	return s
}

type execPage struct {
	Title   string
	Figures [][2]string
	Rows    [][]string
	Notes   []string
	Charts  []figure
}

var execTemplate = template.Must(template.New("exec").Parse(pageTemplate + `{{define "body"}}<h2 id="command">The command</h2>
<table class="kv">
{{- range .Figures}}
<tr><th>{{index . 0}}</th><td>{{index . 1}}</td></tr>
{{- end}}
</table>
{{- if .Rows}}
<h2 id="benchmarks">Benchmarks printed by the command</h2>
<p>The median of each metric's values, in the unit benchstat shows it.</p>
<table class="stats">
<tr><th>benchmark</th><th>package</th><th>unit</th><th>median</th><th>results</th></tr>
{{- range .Rows}}
<tr>{{range .}}<td>{{.}}</td>{{end}}</tr>
{{- end}}
</table>
{{- end}}
{{- range .Notes}}
<p class="note">{{.}}</p>
{{- end}}{{end}}`))
