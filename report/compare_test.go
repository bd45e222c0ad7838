package report

import (
	"bytes"
	"encoding/json"
	"errors"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestSamplesOf: a result is one process, one sample of each figure, and
// the figures are those its -bench file holds: compare reads the same
// figure from a result.json and from the bench.txt of the same run.
func TestSamplesOf(t *testing.T) {
	tests := []struct {
		fixture string
		units   map[string]string // operation: its units
		notes   []string
	}{
		{"list.json", map[string]string{"alloc.list": "ns/op p50-ns p99-ns p99.9-ns max-ns B/op gc-cycles/op stw-ns/op objects/s"}, nil},
		{"threads.json", map[string]string{
			"noop": "ns/op p50-ns p99-ns p99.9-ns max-ns gc-cycles/op stw-ns/op",
			"spin": "ns/op p50-ns p99-ns p99.9-ns max-ns gc-cycles/op stw-ns/op",
		}, nil},
		{"errors.json", map[string]string{"sleep": "ns/op p50-ns p99-ns p99.9-ns max-ns gc-cycles/op stw-ns/op"},
			[]string{"errors.json: no successful run of sleep#2"}},
	}
	for _, tt := range tests {
		t.Run(tt.fixture, func(t *testing.T) {
			d, _ := readFixture(t, tt.fixture)
			s := SamplesOf(d, tt.fixture)
			if s.Kind != KindResult {
				t.Errorf("kind %q", s.Kind)
			}
			got := map[string]string{}
			for _, m := range s.Metrics {
				got[m.Name] = strings.TrimSpace(got[m.Name] + " " + m.Unit)
				if len(m.Values) != 1 {
					t.Errorf("%s %s: %d values, want one (one process)", m.Name, m.Unit, len(m.Values))
				}
			}
			if !maps.Equal(got, tt.units) {
				t.Errorf("units %q, want %q", got, tt.units)
			}
			if !slices.Equal(s.Notes, tt.notes) {
				t.Errorf("notes %q, want %q", s.Notes, tt.notes)
			}
			// The same figures as the bench file of the same result.
			var b bytes.Buffer
			if err := Bench(&b, d); err != nil {
				t.Fatal(err)
			}
			bs, err := ReadBench(&b, "bench.txt")
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range s.Metrics {
				name := benchName(m.Name, m.Params, d.Env.Go.GOMAXPROCS)
				i := slices.IndexFunc(bs.Metrics, func(x Metric) bool { return x.Name == name && x.Unit == m.Unit })
				if i < 0 || !slices.Equal(bs.Metrics[i].Values, m.Values) {
					t.Errorf("%s %s: %v from the result, bench file %v", m.Name, m.Unit, m.Values, bs.Metrics)
				}
			}
			// A result compares with its own bench file: every figure, no
			// difference.
			c, err := Compare(s, bs, 0.05)
			if err != nil || len(c.Rows) != len(s.Metrics) {
				t.Fatalf("the result against its bench file: %v, %+v", err, c)
			}
			for _, r := range c.Rows {
				if r.Delta != 0 || r.Old.Center != r.New.Center {
					t.Errorf("%s %s: %v against %v from its bench file", r.Name, r.Unit, r.Old.Center, r.New.Center)
				}
			}
			// ns/op is the mean runtime without the outliers, p99-ns the P99.
			op := d.Operations[0]
			for _, m := range s.Metrics {
				switch {
				case m.Name != op.Name:
				case m.Unit == UnitRuntime && m.Values[0] != float64(op.Runtime.Mean):
					t.Errorf("ns/op %v, want the mean %v", m.Values[0], op.Runtime.Mean)
				case m.Unit == UnitP99 && m.Values[0] != float64(op.Runtime.P99):
					t.Errorf("p99-ns %v, want %v", m.Values[0], op.Runtime.P99)
				}
			}
		})
	}
}

func TestReadBench(t *testing.T) {
	input := `goos: linux
pkg: example.com/m
BenchmarkA-4   100   1500 ns/op   64 B/op   2 allocs/op   3.5 MB/s
BenchmarkA-4   100   1700 ns/op   64 B/op   2 allocs/op   3.0 MB/s
BenchmarkB/size=8-4   10   2.5 ns/op   17 p99-ns
some log line
PASS
`
	s, err := ReadBench(strings.NewReader(input), "x.txt")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range s.Metrics {
		var vals []string
		for _, v := range m.Values {
			vals = append(vals, strconv.FormatFloat(v, 'g', -1, 64))
		}
		got = append(got, m.Name+" "+m.Unit+" "+strings.Join(vals, ","))
	}
	// The file's own units and values, not benchfmt's tidied sec/op and B/s.
	want := []string{
		"A-4 ns/op 1500,1700", "A-4 B/op 64,64", "A-4 allocs/op 2,2", "A-4 MB/s 3.5,3",
		"B/size=8-4 ns/op 2.5", "B/size=8-4 p99-ns 17",
	}
	if !slices.Equal(got, want) {
		t.Errorf("metrics\n%q\nwant\n%q", got, want)
	}
	if s.Kind != KindBench || s.About != "Go benchmark format: 3 results of 2 benchmarks" {
		t.Errorf("kind %q, about %q", s.Kind, s.About)
	}

	for _, tt := range []struct{ input, want string }{
		{"", "not a gcperf result nor a Go benchmark file: no benchmark result line"},
		{"hello\nworld\n", "not a gcperf result nor a Go benchmark file: no benchmark result line"},
		{"BenchmarkA 10 abc ns/op\n", "line 1: parsing measurement: invalid syntax"},
		{"BenchmarkA-4 100 1500 ns/op\nBenchmarkA-4 100\n", "line 2: missing measurements"},
	} {
		_, err := ReadBench(strings.NewReader(tt.input), "x.txt")
		if err == nil || err.Error() != tt.want {
			t.Errorf("%q: err %v, want %q", tt.input, err, tt.want)
		}
	}
}

// TestReadSamplesKind: the content, not the name, tells JSON from the
// benchmark format.
func TestReadSamplesKind(t *testing.T) {
	_, list := readFixture(t, "list.json")
	s, err := ReadSamples(bytes.NewReader(append([]byte("\n  "), list...)), "a.txt")
	if err != nil || s.Kind != KindResult {
		t.Errorf("JSON after blanks: %v, %v", s, err)
	}
	s, err = ReadSamples(strings.NewReader("BenchmarkA 1 5 ns/op\n"), "a.json")
	if err != nil || s.Kind != KindBench {
		t.Errorf("benchmark lines: %v, %v", s, err)
	}
	_, err = ReadSamples(bytes.NewReader(list[:100]), "a.json")
	if !errors.Is(err, ErrNotResult) || !strings.Contains(err.Error(), "truncated JSON") {
		t.Errorf("truncated: %v", err)
	}
	_, err = ReadSamples(strings.NewReader(`{"schema": "gcperf/v9"}`), "a.json")
	if !errors.Is(err, ErrSchema) {
		t.Errorf("future schema: %v", err)
	}
}

func TestBetter(t *testing.T) {
	for unit, want := range map[string]int{
		"ns/op": -1, "sec/op": -1, "p99-ns": -1, "stw-ns/op": -1, "B/op": -1, "allocs/op": -1,
		"gc-cycles/op": -1, "MB/s": 1, "B/s": 1, "ops/s": 1, "results/op": 0, "widgets": 0,
	} {
		if got := Better(unit); got != want {
			t.Errorf("Better(%q) = %d, want %d", unit, got, want)
		}
	}
}

func bench(name string, unit string, values ...float64) Metric {
	return Metric{Name: name, Unit: unit, Bench: name, Values: values}
}

func TestCompareSamples(t *testing.T) {
	old := &Samples{File: "old", Kind: KindBench, Metrics: []Metric{
		bench("A", "ns/op", 100, 101, 102, 103, 104, 105),
		bench("A", "MB/s", 50, 51, 52, 53, 54, 55),
		bench("A", "B/op", 64),
		bench("Gone", "ns/op", 1),
	}}
	new := &Samples{File: "new", Kind: KindBench, Metrics: []Metric{
		bench("Fresh", "ns/op", 1),
		bench("A", "ns/op", 120, 121, 122, 123, 124, 125),
		bench("A", "MB/s", 40, 41, 42, 43, 44, 45),
		bench("A", "allocs/op", 3),
	}}
	c, err := Compare(old, new, 0.05)
	if err != nil {
		t.Fatal(err)
	}
	var rows []string
	for _, r := range c.Rows {
		rows = append(rows, r.Name+" "+r.Unit)
	}
	if want := []string{"A ns/op", "A MB/s"}; !slices.Equal(rows, want) {
		t.Errorf("rows %q, want %q", rows, want)
	}
	wantNotes := []string{"A: B/op only in old", "A: allocs/op only in new", "only in old: Gone", "only in new: Fresh"}
	if !slices.Equal(c.Notes, wantNotes) {
		t.Errorf("notes %q, want %q", c.Notes, wantNotes)
	}
	// ns/op +19.5% is worse, MB/s -19.0% is worse too.
	if w := Worse(c.Rows[0]); math.Abs(w-20.0/102.5) > 1e-9 {
		t.Errorf("Worse(ns/op) = %v", w)
	}
	if w := Worse(c.Rows[1]); math.Abs(w-10.0/52.5) > 1e-9 {
		t.Errorf("Worse(MB/s) = %v", w)
	}
	for pct, want := range map[float64]int{5: 2, 19.3: 1, 20: 0} {
		if got := len(c.Regressions(pct)); got != want {
			t.Errorf("Regressions(%v): %d rows, want %d", pct, got, want)
		}
	}

	_, err = Compare(&Samples{File: "a", Metrics: []Metric{bench("A", "ns/op", 1)}},
		&Samples{File: "b", Metrics: []Metric{bench("B", "ns/op", 1)}}, 0.05)
	if !errors.Is(err, ErrNoCommon) || err.Error() != "a and b have no operation in common" {
		t.Errorf("no common: %v", err)
	}
}

// TestCompareParams: operations that match by name but not by parameters
// are compared, with a note.
func TestCompareParams(t *testing.T) {
	d, _ := readFixture(t, "list.json")
	old := SamplesOf(d, "old.json")
	d.Operations[0].Params = "size=16 base=32 chunk=32"
	c, err := Compare(old, SamplesOf(d, "new.json"), 0.05)
	if err != nil {
		t.Fatal(err)
	}
	want := `alloc.list: parameters differ: "size=8 base=32 chunk=32" in old.json, "size=16 base=32 chunk=32" in new.json`
	if !slices.Equal(c.Notes, []string{want}) {
		t.Errorf("notes %q, want %q", c.Notes, want)
	}
}

// TestCompareOutput renders a hand-made comparison: a regression, no
// change, a single value per side and an interval too wide to know.
func TestCompareOutput(t *testing.T) {
	six := func(base float64) []float64 {
		return []float64{base, base * 1.01, base * 1.02, base * 0.99, base * 0.98, base * 1.005}
	}
	old := &Samples{File: "old.json", Kind: KindResult, About: "gcperf result: test", Metrics: []Metric{
		bench("op", UnitRuntime, six(float64(time.Millisecond))...),
		bench("op", UnitP99, float64(2*time.Millisecond)),
		bench("tiny", UnitRuntime, 10, 11, 12),
		bench("op", "B/op", six(2048)...),
	}}
	new := &Samples{File: "new.bench", Kind: KindBench, About: "Go benchmark format: test", Metrics: []Metric{
		bench("op", UnitRuntime, six(1.2*float64(time.Millisecond))...),
		bench("op", UnitP99, float64(3*time.Millisecond)),
		bench("tiny", UnitRuntime, 10, 11, 12),
		bench("op", "B/op", six(2048)...),
	}}
	c, err := Compare(old, new, 0.05)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := CompareText(&b, c); err != nil {
		t.Fatal(err)
	}
	golden(t, "testdata/compare_text.golden", b.Bytes())

	five := 5.0
	c.FailPct = &five
	b.Reset()
	if err := CompareJSON(&b, c); err != nil {
		t.Fatal(err)
	}
	golden(t, "testdata/compare_json.golden", b.Bytes())
	var doc struct {
		Rows []struct {
			Name, Unit  string
			Delta, P    *float64
			Regression  bool
			Significant bool
			Old         struct{ Lo, Hi *float64 }
		} `json:"comparisons"`
	}
	if err := json.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Rows) != 4 {
		t.Fatalf("%d rows, want 4", len(doc.Rows))
	}
	r := doc.Rows[0]
	if !r.Significant || !r.Regression || r.Delta == nil || math.Abs(*r.Delta-0.2) > 1e-9 {
		t.Errorf("op ns/op: %+v, want a significant +20%% regression", r)
	}
	if r := doc.Rows[1]; r.P != nil || r.Regression || r.Old.Lo != nil {
		t.Errorf("op p99-ns: p %v, regression %v, lo %v; want null, false, null (one value per side)", r.P, r.Regression, r.Old.Lo)
	}
}

// TestCompareOneSampleEach: two results are one process each, and the
// comparison says it cannot judge a difference, whatever the delta.
func TestCompareOneSampleEach(t *testing.T) {
	d, _ := readFixture(t, "list.json")
	old := SamplesOf(d, "old.json")
	d.Operations[0].Runtime.Mean *= 2
	c, err := Compare(old, SamplesOf(d, "new.json"), 0.05)
	if err != nil {
		t.Fatal(err)
	}
	if !c.OneSampleEach() || len(c.Undecided()) != len(c.Rows) || len(c.Regressions(5)) != 0 {
		t.Errorf("one sample each %v, %d of %d rows undecided, %d regressions", c.OneSampleEach(), len(c.Undecided()), len(c.Rows), len(c.Regressions(5)))
	}
	var b strings.Builder
	if err := CompareText(&b, c); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"no test can judge a difference from one sample each", "+100.00%  no test: one sample per side"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("the text does not say %q:\n%s", want, b.String())
		}
	}
}
