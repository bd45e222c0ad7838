package main

import (
	"bytes"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gcperf/gcperf/sweep"
)

// writeSweepJSON writes a small sweep.json: GOGC 50, 100 and off, with and
// without GOMEMLIMIT, the advice picking GOGC=100.
func writeSweepJSON(t *testing.T, dir string) string {
	t.Helper()
	ms := time.Millisecond
	row := func(i int, gogc, limit string, p99 time.Duration, rss uint64, frontier bool) sweep.Row {
		pt := sweep.Point{Index: i}
		if pt.GOGC.UnmarshalText([]byte(gogc)) != nil || pt.MemLimit.UnmarshalText([]byte(limit)) != nil {
			t.Fatalf("GOGC %q, GOMEMLIMIT %q", gogc, limit)
		}
		return sweep.Row{Point: pt, Reps: 1,
			P99: p99, P999: 2 * p99, PeakRSS: rss, Throughput: float64(1000 + i), Unit: "op", Frontier: frontier}
	}
	rows := []sweep.Row{
		row(0, "50", "", 8*ms, 50<<20, true), row(1, "100", "", 4*ms, 80<<20, true), row(2, "off", "", 1*ms, 900<<20, true),
		row(3, "50", "1GiB", 9*ms, 52<<20, false), row(4, "100", "1GiB", 5*ms, 81<<20, false), row(5, "off", "1GiB", 2*ms, 600<<20, false),
	}
	s := &sweep.Summary{Schema: sweep.SummarySchema, Count: 1, Rows: rows,
		Advice: &sweep.Advice{SLO: sweep.SLO{P99: 5 * ms}, Met: true, Best: &rows[1]}}
	path := filepath.Join(dir, "sweep.json")
	var b bytes.Buffer
	if err := sweep.WriteJSON(&b, s); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestPlotCmd(t *testing.T) {
	dir := t.TempDir()
	sw := writeSweepJSON(t, dir)
	for _, tt := range []struct {
		kind  string
		files []string
	}{
		{"spectrum", []string{fixture("list.json")}},
		{"spectrum", []string{fixture("list.json"), fixture("threads.json"), fixture("errors.json")}},
		{"hist", []string{fixture("threads.json")}},
		{"timeline", []string{fixture("list.json")}},
		{"timeline", []string{fixture("tail.json")}},
		{"causes", []string{fixture("tail.json")}},
		{"sweep-p99", []string{sw}},
		{"sweep-rss", []string{sw}},
		{"sweep-throughput", []string{sw}},
		{"pareto", []string{sw}},
	} {
		out := filepath.Join(dir, tt.kind+".svg")
		args := append([]string{"plot", "-overwrite", "-kind", tt.kind, "-o", out}, tt.files...)
		code, stdout, stderr := gcperf(t, nil, args...)
		if code != 0 || stdout != "" || stderr != "" {
			t.Fatalf("%v: exit %d, stdout %q, stderr %q", args, code, stdout, stderr)
		}
		data, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.HasPrefix(data, []byte("<?xml")) || !bytes.Contains(data, []byte("<svg")) {
			t.Errorf("%s: not an SVG:\n%.200s", tt.kind, data)
		}
	}
	// The pareto chart labels the advice's setting.
	if data, _ := os.ReadFile(filepath.Join(dir, "pareto.svg")); !bytes.Contains(data, []byte("GOGC=100")) {
		t.Error("pareto.svg does not label the recommended GOGC=100")
	}
}

func TestPlotCmdPNG(t *testing.T) {
	out := filepath.Join(t.TempDir(), "spectrum.png")
	code, _, stderr := gcperf(t, nil, "plot", "-kind", "spectrum", "-o", out, fixture("list.json"))
	if code != 0 {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	if s := img.Bounds().Size(); s.X == 0 || s.Y == 0 {
		t.Errorf("empty image %v", s)
	}
}

func TestPlotCmdBad(t *testing.T) {
	dir := t.TempDir()
	sw := writeSweepJSON(t, dir)
	list := fixture("list.json")
	svg := filepath.Join(dir, "out.svg")
	existing := filepath.Join(dir, "existing.svg")
	if err := os.WriteFile(existing, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		args []string
		want string // a part of the one line
	}{
		{[]string{"-kind", "pie", "-o", svg, list}, "plot: -kind pie: unknown chart"},
		{[]string{"-kind", "spectrum", list}, "plot: -o FILE.svg or FILE.png is required"},
		{[]string{"-kind", "spectrum", "-o", filepath.Join(dir, "out.pdf"), list}, "must end in .svg or .png"},
		{[]string{"-kind", "spectrum", "-o", svg}, "plot: no file to plot"},
		{[]string{"-kind", "hist", "-o", svg, list, list}, "plots one file; got 2"},
		{[]string{"-kind", "spectrum", "-o", svg, filepath.Join(dir, "missing.json")}, "no such file or directory"},
		{[]string{"-kind", "sweep-p99", "-o", svg, list}, "reads a sweep's sweep.json"},
		{[]string{"-kind", "pareto", "-o", svg, filepath.Join(dir, "missing.json")}, "no such file or directory"},
		{[]string{"-kind", "timeline", "-o", svg, sw}, "reads gcperf results"},
		{[]string{"-kind", "causes", "-o", svg, list}, "list.json: no causes of slow runs in this result (they are read with -gcstats run)"},
		{[]string{"-kind", "spectrum", "-o", existing, list}, "exists"},
		{[]string{"-bogus"}, "flag provided but not defined"},
	} {
		code, stdout, stderr := gcperf(t, nil, append([]string{"plot"}, tt.args...)...)
		if code != 2 || stdout != "" || strings.Count(stderr, "\n") != 1 ||
			!strings.HasPrefix(stderr, "gcperf: ") || !strings.Contains(stderr, tt.want) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2 and one line with %q",
				tt.args, code, stdout, stderr, tt.want)
		}
	}
	if _, err := os.Stat(svg); err == nil {
		t.Error("a failed plot left its -o file")
	}
}

func TestPlotHelp(t *testing.T) {
	code, stdout, stderr := gcperf(t, nil, "plot", "-h")
	if code != 0 || stderr != "" {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	golden(t, "help_plot_-h.golden", stdout)
}

// TestPlotCmdSLO checks that the pareto and sweep-p99 charts draw the SLO
// line of the sweep's advice, that -slo overrides it, and that a sweep
// without advice has none.
func TestPlotCmdSLO(t *testing.T) {
	dir := t.TempDir()
	sw := writeSweepJSON(t, dir)
	has := func(data []byte, label string) bool {
		return bytes.Contains(data, []byte(strings.ReplaceAll(label, "<", "&lt;"))) || bytes.Contains(data, []byte(label))
	}
	plot := func(kind string, extra ...string) []byte {
		t.Helper()
		out := filepath.Join(dir, kind+".svg")
		args := append([]string{"plot", "-overwrite", "-kind", kind, "-o", out}, extra...)
		code, stdout, stderr := gcperf(t, nil, args...)
		if code != 0 || stdout != "" || stderr != "" {
			t.Fatalf("%v: exit %d, stdout %q, stderr %q", args, code, stdout, stderr)
		}
		data, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		return data
	}
	for _, kind := range []string{"pareto", "sweep-p99"} {
		if data := plot(kind, sw); !has(data, "SLO p99 <= 5ms") {
			t.Errorf("%s: no SLO line of the advice's p99=5ms", kind)
		}
		data := plot(kind, "-slo", "p99=3ms", sw)
		if !has(data, "SLO p99 <= 3ms") || has(data, "SLO p99 <= 5ms") {
			t.Errorf("%s -slo p99=3ms: not the SLO line of the flag", kind)
		}
	}
	if data := plot("sweep-rss", sw); has(data, "SLO p99") {
		t.Error("sweep-rss: an SLO line")
	}
	// Without advice, no line.
	s, err := sweep.ReadSummary(strings.NewReader(mustRead(t, sw)))
	if err != nil {
		t.Fatal(err)
	}
	s.Advice = nil
	var b bytes.Buffer
	if err := sweep.WriteJSON(&b, s); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(sw, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if data := plot("pareto", sw); has(data, "SLO p99") {
		t.Error("pareto of a sweep without advice: an SLO line")
	}
	if code, _, stderr := gcperf(t, nil, "plot", "-kind", "pareto", "-slo", "p99=fast", "-o", filepath.Join(dir, "x.svg"), sw); code == 0 || !strings.Contains(stderr, "slo") {
		t.Errorf("-slo p99=fast: exit %d, stderr %q", code, stderr)
	}
}

func mustRead(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// gcperf plot refuses a chart whose figure the file lacks, in one line
// naming the charts it has, exit 2: the throughput of a sweep over a
// command (issue 24, item 16: 0/s at every GOGC, exit 0).
func TestPlotCmdLackingFigure(t *testing.T) {
	dir := t.TempDir()
	rows := []sweep.Row{{Point: sweep.Point{Index: 0}, Reps: 1, Command: true, Wall: time.Second, PeakRSS: 20 << 20, Frontier: true}}
	if rows[0].Point.GOGC.UnmarshalText([]byte("100")) != nil {
		t.Fatal("GOGC 100")
	}
	s := &sweep.Summary{Schema: sweep.SummarySchema, Count: 1, Command: []string{"true"}, Rows: rows}
	var b bytes.Buffer
	if err := sweep.WriteJSON(&b, s); err != nil {
		t.Fatal(err)
	}
	sw := filepath.Join(dir, "sweep.json")
	if err := os.WriteFile(sw, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "t.svg")
	code, stdout, stderr := gcperf(t, nil, "plot", "-kind", "sweep-throughput", "-o", out, sw)
	checkBad(t, code, stdout, stderr, "gcperf: plot: "+sw+": the sweep has no throughput figure (its charts: sweep-p99, sweep-rss, pareto)")
	if _, err := os.Stat(out); err == nil {
		t.Errorf("%s written", out)
	}
	for _, kind := range []string{"sweep-p99", "sweep-rss", "pareto"} {
		if code, _, stderr := gcperf(t, nil, "plot", "-kind", kind, "-o", filepath.Join(dir, kind+".svg"), sw); code != 0 {
			t.Errorf("-kind %s: exit %d: %s", kind, code, stderr)
		}
	}
}
