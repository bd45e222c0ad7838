package html

import (
	"bytes"
	"fmt"
	"html/template"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gcperf/gcperf/internal/reportparts"
	"github.com/gcperf/gcperf/report"
	"github.com/gcperf/gcperf/report/chart"
	"github.com/gcperf/gcperf/sweep"
)

// runHTML is the page of a fixture result.
func runHTML(t testing.TB, d *report.Document) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := Report(&b, d); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// sweepPageOf is the page of the hand-made sweep of report/testdata, with
// a title, table and advice of its own.
func sweepPageOf(t testing.TB) []byte {
	t.Helper()
	var b bytes.Buffer
	err := sweepHTML(&b, sweepPage{
		Title:  "gcperf sweep: alloc.list",
		Table:  "   GOGC  GOMEMLIMIT  reps    P99\n*    50         off   1/1  8.00ms\n",
		Advice: "SLO p99<=5ms: GOGC=200 GOMEMLIMIT=off (peak RSS 140MiB) <meets it>",
	}, readSweep(t))
	if err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

var (
	svgOpen   = regexp.MustCompile(`<svg[\s>]`)
	reference = regexp.MustCompile(`(?i)\b(src|href|xlink:href|action|poster|data)\s*=\s*["']?([^"'\s>]*)`)
	cssURL    = regexp.MustCompile(`(?i)url\(\s*["']?([^"')]*)`)
)

// selfContained checks that a page refers to nothing outside itself: no
// http:// or https:// anywhere, no src= or href= but to "#..." or data:,
// no CSS url() but data:, no script, no @import.
func selfContained(t *testing.T, name string, page []byte) {
	t.Helper()
	s := string(page)
	for _, bad := range []string{"http://", "https://", "<script", "@import", "<link", "<iframe", "<img"} {
		if strings.Contains(strings.ToLower(s), bad) {
			t.Errorf("%s: the page contains %q", name, bad)
		}
	}
	for _, m := range reference.FindAllStringSubmatch(s, -1) {
		if v := m[2]; !strings.HasPrefix(v, "#") && !strings.HasPrefix(v, "data:") {
			t.Errorf("%s: %s=%q refers outside the page", name, m[1], v)
		}
	}
	for _, m := range cssURL.FindAllStringSubmatch(s, -1) {
		if !strings.HasPrefix(m[1], "data:") {
			t.Errorf("%s: url(%q) refers outside the page", name, m[1])
		}
	}
}

func TestHTML(t *testing.T) {
	for _, f := range fixtures {
		d, _ := readFixture(t, f+".json")
		page := runHTML(t, d)
		if !bytes.Equal(page, runHTML(t, d)) {
			t.Fatalf("%s: two pages differ", f)
		}
		if !bytes.HasPrefix(page, []byte("<!DOCTYPE html>\n")) {
			t.Errorf("%s: no doctype", f)
		}
		if n := len(svgOpen.FindAll(page, -1)); n != 3 {
			t.Errorf("%s: %d <svg> elements, want 3 (histogram, spectrum, timeline)", f, n)
		}
		if n := bytes.Count(page, []byte("@font-face")); n == 0 {
			t.Errorf("%s: no font embedded", f)
		}
		for _, want := range []string{"Settings and environment", "Total Runs", "P99.9 Runtime", "Repeat with -seed"} {
			if !bytes.Contains(page, []byte(want)) {
				t.Errorf("%s: the page lacks %q", f, want)
			}
		}
		selfContained(t, f, page)
		golden(t, filepath.Join("testdata", f+".html"), normalizeSVG(page))
	}
}

// TestHTMLTail: the page of a result with the causes of its slow runs has
// the verdicts' section, and a fourth chart, of the causes.
func TestHTMLTail(t *testing.T) {
	d, _ := readFixture(t, "tail.json")
	page := runHTML(t, d)
	if n := len(svgOpen.FindAll(page, -1)); n != 4 {
		t.Errorf("%d <svg> elements, want 4 (histogram, spectrum, timeline, causes)", n)
	}
	for _, want := range []string{"Why the tail", "Causes of the slowest runs", "GC adds 432µs (382µs to 476µs) to the P99, 20.9%"} {
		if !bytes.Contains(page, []byte(want)) {
			t.Errorf("the page lacks %q", want)
		}
	}
	selfContained(t, "tail", page)
}

// TestHTMLStatistics checks that the page's table has the text report's
// rows, in the same order.
func TestHTMLStatistics(t *testing.T) {
	d, _ := readFixture(t, "threads.json")
	page := string(runHTML(t, d))
	at := 0
	for _, r := range reportparts.TextParts(d).Rows {
		i := strings.Index(page[at:], "<tr><td>"+template.HTMLEscapeString(r[0])+"</td>")
		if i < 0 {
			t.Fatalf("row %q missing or out of order", r[0])
		}
		at += i
	}
}

func TestSweepHTML(t *testing.T) {
	page := sweepPageOf(t)
	if !bytes.Equal(page, sweepPageOf(t)) {
		t.Fatal("two pages differ")
	}
	if n := len(svgOpen.FindAll(page, -1)); n != 4 {
		t.Errorf("%d <svg> elements, want 4 (p99, rss, throughput, pareto)", n)
	}
	for _, want := range []string{"Points", "Advice", "GOGC=200", "Pareto"} {
		if !bytes.Contains(page, []byte(want)) {
			t.Errorf("the page lacks %q", want)
		}
	}
	selfContained(t, "sweep", page)
	golden(t, filepath.Join("testdata", "sweep.html"), normalizeSVG(page))
}

// TestSweep checks the page of a sweep's summary: its title (with the
// shard), its table as sweep.Table prints it, its advice and the SLO line
// of the advice, none without advice.
func TestSweep(t *testing.T) {
	s := readSweep(t)
	s.Shard = "1/2"
	var b bytes.Buffer
	if err := Sweep(&b, s); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	var table strings.Builder
	if err := sweep.Table(&table, s.Rows, nil); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"<title>gcperf sweep (shard 1/2)</title>",
		"<pre>" + template.HTMLEscapeString(strings.TrimRight(table.String(), "\n")) + "</pre>",
		"<pre>" + template.HTMLEscapeString(s.Advice.Text) + "</pre>",
		"SLO p99 &lt;= 5ms",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	if n := len(svgOpen.FindAllString(page, -1)); n != 4 {
		t.Errorf("%d <svg> elements, want 4", n)
	}
	selfContained(t, "sweep", b.Bytes())

	s.Shard, s.Advice = "", nil
	b.Reset()
	if err := Sweep(&b, s); err != nil {
		t.Fatal(err)
	}
	page = b.String()
	if !strings.Contains(page, "<title>gcperf sweep</title>") || strings.Contains(page, `id="advice"`) || strings.Contains(page, "SLO p99") {
		t.Error("a sweep without advice or shard: a shard in the title, an advice or an SLO line")
	}
}

// TestChartsFillTheColumn checks that a chart is drawn as wide as the
// page's column (72em, at 16 pixels an em), so that the browser shows it
// at its size, text included: it was 576 pixels of a 1152-pixel column.
func TestChartsFillTheColumn(t *testing.T) {
	m := regexp.MustCompile(`body\{[^}]*max-width:(\d+)em`).FindStringSubmatch(pageStyle)
	if m == nil {
		t.Fatal("the page's style sets no max-width in em for the body")
	}
	column, _ := strconv.Atoi(m[1])
	if px := chart.Width.Dots(96); px != float64(16*column) {
		t.Errorf("a chart is %v pixels wide at 96 dpi; the column %dem is %d pixels", px, column, 16*column)
	}
	for _, rule := range []string{"figure svg{display:block;width:100%;", "figure{margin:0;overflow-x:auto}"} {
		if !strings.Contains(pageStyle, rule) {
			t.Errorf("the page's style lacks %q", rule)
		}
	}
	d, _ := readFixture(t, "list.json")
	want := fmt.Sprintf(`<svg width="%gpt" height="%gpt"`, chart.Width.Points(), chart.Height.Points())
	if n := strings.Count(string(runHTML(t, d)), want); n != 3 {
		t.Errorf("%d charts are %s, want 3", n, want)
	}
}

// TestHTMLExec: the page of a command's result (report/testdata/exec.json)
// has its figures, the benchmarks it printed and the charts of its RSS and
// heap goal.
func TestHTMLExec(t *testing.T) {
	d, _ := readFixture(t, "exec.json")
	page := runHTML(t, d)
	if !bytes.Equal(page, runHTML(t, d)) {
		t.Fatal("two pages differ")
	}
	if n := len(svgOpen.FindAll(page, -1)); n != 2 {
		t.Errorf("%d <svg> elements, want 2 (RSS, heap goal)", n)
	}
	for _, want := range []string{
		"<title>gcperf exec: ./alloc.test -test.run ^$", "<th>Status</th><td>exit status 0</td>",
		"<th>Settings</th><td>GOGC 100, GOMEMLIMIT unset, GODEBUG gctrace=1</td>", "stop-the-world pauses",
		"<td>Workloads/list-2</td><td>github.com/gcperf/gcperf/alloc</td><td>sec/op</td>",
		"Resident set over time", "Heap goal over time",
	} {
		if !bytes.Contains(page, []byte(want)) {
			t.Errorf("the page lacks %q", want)
		}
	}
	if bytes.Contains(page, []byte("Not drawn")) {
		t.Error("a chart was not drawn")
	}
	selfContained(t, "exec", page)
	golden(t, filepath.Join("testdata", "exec.html"), normalizeSVG(page))
}

// TestSweepHTMLCommand: the page of a sweep over a command charts its
// time (sweep.TimeLabel) where gcperf's own sweep charts the P99, and has
// no throughput chart.
func TestSweepHTMLCommand(t *testing.T) {
	s := readSweep(t)
	s.Command, s.Advice = []string{"./prog"}, nil
	for i := range s.Rows {
		r := &s.Rows[i]
		r.Command, r.Wall, r.P99, r.P999, r.Throughput = true, time.Duration(i+1)*time.Second, 0, 0, 0
	}
	var b bytes.Buffer
	if err := Sweep(&b, s); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	if n := len(svgOpen.FindAllString(page, -1)); n != 3 {
		t.Errorf("%d <svg> elements, want 3 (time, RSS, Pareto)", n)
	}
	for _, want := range []string{"The command&#39;s wall against GOGC", "The command&#39;s wall against peak RSS"} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	if strings.Contains(page, "Throughput") || strings.Contains(page, "Not drawn") {
		t.Error("a throughput chart, or a chart not drawn")
	}
	selfContained(t, "sweep of a command", b.Bytes())
}
