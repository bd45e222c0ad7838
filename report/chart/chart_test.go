package chart

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gcperf/gcperf/report"
	"github.com/gcperf/gcperf/sweep"
	"github.com/gcperf/gcperf/workload"
)

// embeddedFont is a font vgsvg embeds in an SVG, as base64.
var embeddedFont = regexp.MustCompile(`base64,[A-Za-z0-9+/=]+`)

// normalizeSVG replaces each embedded font (tens of kilobytes of base64)
// by its length and SHA-256, so that the golden file stays readable while
// any change to the font still shows.
func normalizeSVG(svg []byte) []byte {
	return embeddedFont.ReplaceAllFunc(svg, func(b []byte) []byte {
		return fmt.Appendf(nil, "base64,<%d bytes, sha256 %x>", len(b)-len("base64,"), sha256.Sum256(b))
	})
}

// checkChart draws a chart twice as SVG, checks that both are the same
// bytes, and compares the normalised SVG with testdata/name.svg.
func checkChart(t *testing.T, name string, draw func(w *bytes.Buffer, format Format) error) {
	t.Helper()
	var a, b bytes.Buffer
	if err := draw(&a, SVG); err != nil {
		t.Fatal(err)
	}
	if err := draw(&b, SVG); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Fatalf("%s: two drawings differ", name)
	}
	if !bytes.Contains(a.Bytes(), []byte("base64,")) {
		t.Errorf("%s: no font embedded", name)
	}
	golden(t, filepath.Join("testdata", name+".svg"), normalizeSVG(a.Bytes()))
}

var plotFixtures = []string{"list", "threads", "errors"}

func TestPlotHistogram(t *testing.T) {
	for _, f := range plotFixtures {
		d, _ := readFixture(t, f+".json")
		checkChart(t, "hist_"+f, func(w *bytes.Buffer, format Format) error { return Histogram(w, d, format) })
	}
}

func TestPlotSpectrum(t *testing.T) {
	var docs []*report.Document
	for _, f := range plotFixtures {
		d, _ := readFixture(t, f+".json")
		docs = append(docs, d)
		checkChart(t, "spectrum_"+f, func(w *bytes.Buffer, format Format) error {
			return Spectrum(w, []*report.Document{d}, nil, format)
		})
	}
	checkChart(t, "spectrum_all", func(w *bytes.Buffer, format Format) error {
		return Spectrum(w, docs, plotFixtures, format)
	})
}

func TestPlotTimeline(t *testing.T) {
	for _, f := range append(plotFixtures, "tail") {
		d, _ := readFixture(t, f+".json")
		checkChart(t, "timeline_"+f, func(w *bytes.Buffer, format Format) error { return Timeline(w, d, format) })
	}
}

// TestPlotCauses draws the causes of the slowest runs of a result that has
// them, and refuses one without (-gcstats total, or an older gcperf).
func TestPlotCauses(t *testing.T) {
	d, _ := readFixture(t, "tail.json")
	checkChart(t, "causes_tail", func(w *bytes.Buffer, format Format) error { return Causes(w, d, format) })
	var b bytes.Buffer
	if err := Causes(&b, d, SVG); err != nil {
		t.Fatal(err)
	}
	for _, c := range d.Tail.Causes {
		shown := c.Cost.String() // the estimate's verdict, Fisher's without one
		if shown == "" {
			shown = c.Verdict.String()
		}
		for _, word := range strings.Fields(shown) {
			if !bytes.Contains(b.Bytes(), []byte(word)) {
				t.Errorf("%s: its verdict's word %q is not in the chart", c.Cause, word)
			}
		}
	}
	for _, f := range plotFixtures {
		d, _ := readFixture(t, f+".json")
		if err := Causes(new(bytes.Buffer), d, SVG); !errors.Is(err, ErrNoCauses) {
			t.Errorf("%s (no causes): %v, want ErrNoCauses", f, err)
		}
	}
	// Fewer than 20 runs compare no slowest runs: no chart of "the 0
	// slowest runs" and bars of nothing.
	few, _ := readFixture(t, "tail.json")
	for i := range few.Tail.Causes {
		c := &few.Tail.Causes[i]
		c.Worst, c.WorstWith, c.Runs, c.Verdict = 0, 0, 15, workload.VerdictTooFew
	}
	if err := Causes(new(bytes.Buffer), few, SVG); !errors.Is(err, ErrTooFewRuns) {
		t.Errorf("15 runs: %v, want ErrTooFewRuns", err)
	}
}

// TestTimelineCauseStrip: the timeline of a result with per-run causes has
// a strip with one row per cause, each run that had it (from the verdict's
// threshold) marked in its row; one without has no strip.
func TestTimelineCauseStrip(t *testing.T) {
	d, _ := readFixture(t, "tail.json")
	panels, err := timelinePlots(d)
	if err != nil {
		t.Fatal(err)
	}
	if len(panels) != 3 {
		t.Fatalf("%d panels, want runtime, causes and heap goal", len(panels))
	}
	th := causeThresholds(d)
	var faults int
	for _, r := range d.Runs {
		if r.RunDelta.MinorFaults >= th["minor_faults"] || r.RunDelta.MajorFaults >= th["major_faults"] {
			faults++
		}
	}
	if rows := timelineCauses(d); faults == 0 || len(rows[1].runs) != faults {
		t.Errorf("page faults row marks %d runs, %d had them", len(rows[1].runs), faults)
	}
	list, _ := readFixture(t, "list.json")
	if panels, _ := timelinePlots(list); len(panels) != 2 {
		t.Errorf("a result without causes: %d panels, want runtime and heap goal", len(panels))
	}
}

// TestPlotTimelineHeapGoal checks that the timeline has a heap goal panel
// when the runs carry their heap goal (-gcstats run: list, threads) and
// only the runtime panel when they do not (errors), or when every goal is
// "none" (GOGC=off).
func TestPlotTimelineHeapGoal(t *testing.T) {
	label := []byte(">" + TimelineHeapGoalLabel + "<")
	for f, want := range map[string]bool{"list": true, "threads": true, "errors": false} {
		d, _ := readFixture(t, f+".json")
		var b bytes.Buffer
		if err := Timeline(&b, d, SVG); err != nil {
			t.Fatal(err)
		}
		if got := bytes.Contains(b.Bytes(), label); got != want {
			t.Errorf("%s: heap goal panel %v, want %v", f, got, want)
		}
	}
	d, _ := readFixture(t, "list.json")
	for i := range d.Runs {
		if g := d.Runs[i].GCDelta; g != nil {
			c := *g
			c.HeapGoal = 1<<63 - 1
			d.Runs[i].GCDelta = &c
		}
	}
	var b bytes.Buffer
	if err := Timeline(&b, d, SVG); err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(b.Bytes(), label) {
		t.Error("GOGC=off (no heap goal): the timeline has a heap goal panel")
	}
	if err := Timeline(new(bytes.Buffer), d, PNG); err != nil {
		t.Error(err)
	}
}

// readSweep reads report/testdata/sweep.json, a hand-made sweep: GOGC
// 50..400 and off, with and without a memory limit, one failed point, the
// advice picking GOGC=200 against p99<=5ms.
func readSweep(t testing.TB) *sweep.Summary {
	t.Helper()
	f, err := os.Open(filepath.Join("..", "testdata", "sweep.json"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	s, err := sweep.ReadSummary(f)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestSweepPoints checks the points drawn of the sweep: its rows, the
// advice's best setting recommended.
func TestSweepPoints(t *testing.T) {
	ms := time.Millisecond
	want := []point{
		{GOGC: "off", MemLimit: "", P99: 1 * ms, P999: 2 * ms, PeakRSS: 900 << 20, Throughput: 1500},
		{GOGC: "50", MemLimit: "", P99: 8 * ms, P999: 20 * ms, PeakRSS: 60 << 20, Throughput: 700, Frontier: true},
		{GOGC: "100", MemLimit: "", P99: 5 * ms, P999: 12 * ms, PeakRSS: 80 << 20, Throughput: 900, Frontier: true},
		{GOGC: "200", MemLimit: "", P99: 3 * ms, P999: 7 * ms, PeakRSS: 140 << 20, Throughput: 1100, Frontier: true, Recommended: true},
		{GOGC: "400", MemLimit: "", P99: 2 * ms, P999: 5 * ms, PeakRSS: 260 << 20, Throughput: 1300, Frontier: true},
		{GOGC: "50", MemLimit: "256MiB", P99: 9 * ms, P999: 22 * ms, PeakRSS: 62 << 20, Throughput: 680},
		{GOGC: "100", MemLimit: "256MiB", P99: 5500 * time.Microsecond, P999: 13 * ms, PeakRSS: 82 << 20, Throughput: 880},
		{GOGC: "200", MemLimit: "256MiB", P99: 0, PeakRSS: 0}, // failed
		{GOGC: "400", MemLimit: "256MiB", P99: 2500 * time.Microsecond, P999: 6 * ms, PeakRSS: 250 << 20, Throughput: 1250},
		{GOGC: "off", MemLimit: "256MiB", P99: 2 * ms, P999: 9 * ms, PeakRSS: 255 << 20, Throughput: 1200, Frontier: true},
	}
	s := readSweep(t)
	if got := points(s); !slices.Equal(got, want) {
		t.Errorf("points:\n got %+v\nwant %+v", got, want)
	}
	// GOMAXPROCS as a third axis names the lines; a best setting whose
	// every repeat failed is not recommended; no advice, no recommendation.
	s.Rows[3].Point.GOMAXPROCS, s.Rows[9].Point.GOMAXPROCS = 2, 4
	pts := points(s)
	if pts[3].MemLimit != "unset, GOMAXPROCS=2" || pts[9].MemLimit != "256MiB, GOMAXPROCS=4" {
		t.Errorf("GOMAXPROCS: lines %q and %q", pts[3].MemLimit, pts[9].MemLimit)
	}
	s.Rows[3].Failed = s.Rows[3].Reps
	for _, pt := range points(s) {
		if pt.Recommended {
			t.Errorf("GOGC=%s %s recommended, its repeats having failed", pt.GOGC, pt.MemLimit)
		}
	}
	s.Advice = nil
	for _, pt := range points(s) {
		if pt.Recommended {
			t.Errorf("no advice: GOGC=%s %s recommended", pt.GOGC, pt.MemLimit)
		}
	}
}

// sweepGoldens name the golden files of the sweep charts.
var sweepGoldens = map[Kind]string{KindSweepP99: "p99", KindSweepRSS: "rss", KindSweepThroughput: "throughput", KindPareto: "pareto"}

func TestPlotSweep(t *testing.T) {
	s := readSweep(t)
	for kind, name := range sweepGoldens {
		checkChart(t, "sweep_"+name, func(w *bytes.Buffer, format Format) error { return SweepSLO(w, s, kind, format, 0) })
	}
	// The advice's SLO, p99<=5ms.
	for _, kind := range []Kind{KindSweepP99, KindPareto} {
		checkChart(t, "sweep_"+sweepGoldens[kind]+"_slo", func(w *bytes.Buffer, format Format) error {
			return Sweep(w, s, kind, format)
		})
	}
	for _, kind := range []Kind{KindSpectrum, 0, 99} {
		err := Sweep(new(bytes.Buffer), s, kind, SVG)
		if err == nil || !strings.HasPrefix(err.Error(), "chart: ") || !strings.Contains(err.Error(), kind.String()+" is not a chart of a sweep") {
			t.Errorf("kind %v: %v", kind, err)
		}
	}
	// Nothing to draw is an empty chart, not a panic on the log axis.
	for _, kind := range sweepKinds {
		if err := Sweep(new(bytes.Buffer), &sweep.Summary{}, kind, SVG); err != nil {
			t.Errorf("%s, no points: %v", kind, err)
		}
	}
}

// TestPlotSweepSLO checks that the P99 and Pareto charts draw the SLO's
// line, labelled, when there is one and not otherwise, and that the Pareto
// chart labels every point with its GOGC.
func TestPlotSweepSLO(t *testing.T) {
	s := readSweep(t)
	label := SLOLabel(3 * time.Millisecond)
	if label != "SLO p99 <= 3ms" {
		t.Errorf("SLOLabel(3ms) = %q", label)
	}
	esc := strings.ReplaceAll(label, "<", "&lt;")
	has := func(b []byte) bool { return bytes.Contains(b, []byte(esc)) || bytes.Contains(b, []byte(label)) }
	for _, kind := range sweepKinds {
		var with, without bytes.Buffer
		if err := SweepSLO(&with, s, kind, SVG, 3*time.Millisecond); err != nil {
			t.Fatal(err)
		}
		if err := SweepSLO(&without, s, kind, SVG, 0); err != nil {
			t.Fatal(err)
		}
		want := kind == KindSweepP99 || kind == KindPareto
		if got := has(with.Bytes()); got != want {
			t.Errorf("%s with an SLO: label %v, want %v", kind, got, want)
		}
		if has(without.Bytes()) {
			t.Errorf("%s without an SLO: the SLO is labelled", kind)
		}
		if err := SweepSLO(new(bytes.Buffer), &sweep.Summary{}, kind, SVG, 3*time.Millisecond); err != nil {
			t.Errorf("%s, no points, an SLO: %v", kind, err)
		}
	}
	var b bytes.Buffer
	if err := Sweep(&b, s, KindPareto, SVG); err != nil {
		t.Fatal(err)
	}
	for _, g := range []string{">50<", ">100<", ">400<", ">off<"} {
		if !bytes.Contains(b.Bytes(), []byte(g)) {
			t.Errorf("pareto: no point labelled %s", g)
		}
	}
}

func TestPlotEmpty(t *testing.T) {
	d := &report.Document{}
	for name, f := range map[string]func() error{
		"hist":     func() error { return Histogram(new(bytes.Buffer), d, SVG) },
		"spectrum": func() error { return Spectrum(new(bytes.Buffer), []*report.Document{d}, nil, SVG) },
		"timeline": func() error { return Timeline(new(bytes.Buffer), d, SVG) },
	} {
		if err := f(); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}

func TestPlotPNG(t *testing.T) {
	d, _ := readFixture(t, "list.json")
	var a, b bytes.Buffer
	if err := Spectrum(&a, []*report.Document{d}, nil, PNG); err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(a.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	// 12in × 6in at vgimg's default 96 dpi.
	if s := img.Bounds().Size(); s.X != 1152 || s.Y != 576 {
		t.Errorf("PNG is %v, want 1152×576", s)
	}
	if err := Spectrum(&b, []*report.Document{d}, nil, PNG); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Error("two PNG drawings differ")
	}
	for _, f := range []Format{0, 3} {
		err := Spectrum(new(bytes.Buffer), []*report.Document{d}, nil, f)
		if err == nil || !strings.HasPrefix(err.Error(), "chart: unknown format "+f.String()) {
			t.Errorf("format %v: %v", f, err)
		}
	}
}

func TestFormatOf(t *testing.T) {
	for path, want := range map[string]Format{"a.svg": SVG, "b/c.PNG": PNG, "d.pdf": 0, "e": 0, "svg": 0} {
		got, err := FormatOf(path)
		if got != want || (err == nil) != (want != 0) {
			t.Errorf("FormatOf(%q) = %v, %v; want %v", path, got, err, want)
		}
		if err != nil && err.Error() != "chart: "+path+": not an .svg or .png file" {
			t.Errorf("FormatOf(%q): error %q", path, err)
		}
	}
}

func TestParseFormat(t *testing.T) {
	for _, f := range []Format{SVG, PNG} {
		if got, err := ParseFormat(f.String()); got != f || err != nil {
			t.Errorf("ParseFormat(%q) = %v, %v", f, got, err)
		}
	}
	if _, err := ParseFormat("pdf"); err == nil || err.Error() != `chart: unknown format "pdf" (svg or png)` {
		t.Errorf("ParseFormat(pdf): %v", err)
	}
}

func TestParseKind(t *testing.T) {
	names := []string{"spectrum", "hist", "timeline", "causes", "sweep-p99", "sweep-rss", "sweep-throughput", "pareto"}
	for i, k := range Kinds() {
		if k.String() != names[i] {
			t.Errorf("Kinds()[%d] = %v, want %s", i, k, names[i])
		}
		if got, err := ParseKind(names[i]); got != k || err != nil {
			t.Errorf("ParseKind(%q) = %v, %v", names[i], got, err)
		}
		if got, want := k.OfSweep(), i >= 4; got != want {
			t.Errorf("%v.OfSweep() = %v", k, got)
		}
	}
	if got, err := ParseKind("sweep"); got != KindSweepP99 || err != nil {
		t.Errorf("ParseKind(sweep) = %v, %v; want sweep-p99", got, err)
	}
	want := `chart: unknown kind "pie" (` + strings.Join(names, ", ") + ")"
	if _, err := ParseKind("pie"); err == nil || err.Error() != want {
		t.Errorf("ParseKind(pie): %v, want %s", err, want)
	}
	if s := Kind(0).String(); s != "Kind(0)" {
		t.Errorf("Kind(0) = %s", s)
	}
}

func TestGOGCOrder(t *testing.T) {
	got := []string{"off", "400", "50", "100", "25"}
	want := []string{"25", "50", "100", "400", "off"}
	slices.SortFunc(got, gogcOrder)
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("got %v, want %v", got, want)
	}
}

// The runs past the kept ones are drawn from the timeline's spans, after
// the kept runs on the run axis.
func TestPlotTimelineSpans(t *testing.T) {
	d, _ := readFixture(t, "errors.json")
	var plain bytes.Buffer
	if err := Timeline(&plain, d, SVG); err != nil {
		t.Fatal(err)
	}
	d.Timeline = []report.Span{
		{FirstRun: 1000, Runs: 500, Mean: 2e6, Max: 9e6},
		{FirstRun: 1500, Runs: 500, Failed: 500}, // nothing to draw
		{FirstRun: 2000, Runs: 500, Mean: 3e6, Max: 4e7, GCRuns: 12},
	}
	var b bytes.Buffer
	if err := Timeline(&b, d, SVG); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{">mean of each span past the kept runs<", ">slowest of each span<"} {
		if !bytes.Contains(b.Bytes(), []byte(want)) || bytes.Contains(plain.Bytes(), []byte(want)) {
			t.Errorf("legend %q: with spans %v, without %v", want, bytes.Contains(b.Bytes(), []byte(want)), bytes.Contains(plain.Bytes(), []byte(want)))
		}
	}
}

// TestPlotExec draws the RSS and heap goal of report/testdata/exec.json,
// a command's result, and refuses a document that is not one, or a
// command without samples or trace.
func TestPlotExec(t *testing.T) {
	d, _ := readFixture(t, "exec.json")
	checkChart(t, "exec_rss", func(w *bytes.Buffer, format Format) error { return ExecRSS(w, d, format) })
	checkChart(t, "exec_goal", func(w *bytes.Buffer, format Format) error { return ExecGoal(w, d, format) })
	list, _ := readFixture(t, "list.json")
	bare := *d
	e := *d.Exec
	e.RSS.Points, e.GC, e.GCUnavailable = nil, nil, "no gctrace lines (not a Go program)"
	bare.Exec = &e
	for _, tc := range []struct {
		name string
		draw func(io.Writer, *report.Document, Format) error
		d    *report.Document
		want string
	}{
		{"rss of a benchmark", ExecRSS, list, "not the result of a command"},
		{"goal of a benchmark", ExecGoal, list, "not the result of a command"},
		{"rss without samples", ExecRSS, &bare, "no RSS sample"},
		{"goal without trace", ExecGoal, &bare, "no heap goal: no gctrace lines"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.draw(io.Discard, tc.d, SVG)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want %q", err, tc.want)
			}
		})
	}
}

// TestPlotSweepCommand: the sweep charts of a sweep over a command plot
// its time (Row.Time, named by sweep.TimeLabel) where gcperf's own plot
// the P99.
func TestPlotSweepCommand(t *testing.T) {
	s := readSweep(t)
	s.Command = []string{"./prog"}
	for i := range s.Rows {
		r := &s.Rows[i]
		r.Command, r.Wall, r.P99, r.P999, r.Throughput = true, time.Duration(i+1)*time.Second, 0, 0, 0
	}
	for _, pt := range points(s) {
		if pt.Time != "wall" {
			t.Fatalf("point %+v: time %q, want wall", pt, pt.Time)
		}
	}
	for _, tc := range []struct {
		kind         Kind
		title, yAxis string
	}{
		{KindSweepP99, "The command's wall by GOGC", "wall"},
		{KindPareto, "The command's wall against peak RSS", "wall"},
	} {
		p, err := sweepPlot(points(s), tc.kind, 0)
		if err != nil {
			t.Fatal(err)
		}
		if p.Title.Text != tc.title || p.Y.Label.Text != tc.yAxis {
			t.Errorf("%v: title %q, y axis %q, want %q, %q", tc.kind, p.Title.Text, p.Y.Label.Text, tc.title, tc.yAxis)
		}
		if err := Sweep(io.Discard, s, tc.kind, SVG); err != nil {
			t.Error(err)
		}
	}
}

// TestParetoLabel: with two GOMEMLIMITs, the Pareto chart's labels carry
// both settings, so that their points do not read the same (issue 25).
func TestParetoLabel(t *testing.T) {
	one := []point{{GOGC: "100", MemLimit: "off"}, {GOGC: "200", MemLimit: "off"}}
	two := []point{{GOGC: "100", MemLimit: "off"}, {GOGC: "100", MemLimit: "256MiB"}}
	unset := []point{{GOGC: "100"}, {GOGC: "100", MemLimit: "256MiB"}}
	procs := []point{{GOGC: "50", MemLimit: "unset, GOMAXPROCS=1"}, {GOGC: "50", MemLimit: "unset, GOMAXPROCS=2"}}
	for _, c := range []struct {
		name   string
		points []point
		want   []string
	}{
		{"one GOMEMLIMIT", one, []string{"100", "200"}},
		{"two GOMEMLIMITs", two, []string{"100/off", "100/256MiB"}},
		{"unset and one", unset, []string{"100", "100/256MiB"}},
		{"GOMAXPROCS too", procs, []string{"50/unset, GOMAXPROCS=1", "50/unset, GOMAXPROCS=2"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			many := manyLimits(c.points)
			var got []string
			for _, pt := range c.points {
				got = append(got, paretoLabel(pt, many))
			}
			if !slices.Equal(got, c.want) {
				t.Errorf("labels %q, want %q", got, c.want)
			}
		})
	}
}
