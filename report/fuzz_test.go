package report

// Fuzz targets for the readers of the files gcperf report and gcperf
// compare are given: a gcperf/v1 result (ReadJSON), a result of several
// processes (ReadSet), the Go benchmark format (ReadBench), and any of them
// (ReadSamples). go test runs the seeds;
// go test -run '^$' -fuzz '^FuzzReadJSON$' ./report explores.

import (
	"bytes"
	"errors"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/perf/benchfmt"

	"github.com/gcperf/gcperf/internal/fuzzcheck"
)

// fuzzFixture reads testdata/name.
func fuzzFixture(f *testing.F, name string) []byte {
	f.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		f.Fatal(err)
	}
	return data
}

// fuzzSmall is the result in testdata/name cut down to a few runs and
// histogram buckets, so that the fuzzer mutates a realistic document of a
// few kilobytes rather than one of a hundred.
func fuzzSmall(f *testing.F, name string) []byte {
	f.Helper()
	d, err := ReadJSON(bytes.NewReader(fuzzFixture(f, name)))
	if err != nil {
		f.Fatalf("%s: %v", name, err)
	}
	d.Runs = d.Runs[:min(len(d.Runs), 3)]
	for i := range d.Operations {
		h := d.Operations[i].Histogram
		d.Operations[i].Histogram = h[:min(len(h), 3)]
	}
	d.Mix.Histogram = d.Mix.Histogram[:min(len(d.Mix.Histogram), 3)]
	var b bytes.Buffer
	if err := JSON(&b, d); err != nil {
		f.Fatal(err)
	}
	return b.Bytes()
}

// fuzzResultSeeds adds the result documents of the tests, and broken ones.
func fuzzResultSeeds(f *testing.F) {
	list := fuzzSmall(f, "list.json")
	f.Add(list)
	f.Add(fuzzSmall(f, "threads.json"))
	f.Add(fuzzSmall(f, "errors.json"))
	f.Add(fuzzSmall(f, "tail.json"))    // the causes of the slow runs and their verdicts
	f.Add(fuzzSmall(f, "gogcoff.json")) // no GC cycle: the live heap unknown
	f.Add(list[:100])
	f.Add(list[:len(list)/2])
	for _, s := range []string{
		"", "hello", `{"runs": []}`, `{"schema": "jmh/1"}`, `{"schema": "gcperf/v9"}`, `{"schema": "gcperf/v0"}`,
		`{"schema": "gcperf/v1", "runs": 3}`, `{"schema": "gcperf/v1"}`, `{"schema": "gcperf/v2"}`,
		`{"schema": "gcperf/v1"} {"schema": "gcperf/v1"}`, `null`, `{"schema": "gcperf/v1", "operations": null}`,
		`{"schema": "gcperf/v1", "operations": [{"name": "a", "runtime": {"count": 2, "p99_ns": 5}}], "runs": [{"runtime_ns": 7}, {"ops": [{"op": 3}, {"op": -1}]}]}`,
		`{"schema": "gcperf/v1", "operations": [{"name": "x", "errors": {"by_category": {"a\nb": 1}}}]}`,
		`{"schema": "gcperf/v1", "timing": {"started": "2024-01-01T00:00:00+01:00", "elapsed_ns": 1e30}}`,
		`{"schema": "gcperf/v1", "env": {"go": {"gomaxprocs": -1, "gogc": -2, "gomemlimit": 1}}, "hiccup": {"count": 1, "interval_ns": -1}}`,
		`{"schema": "gcperf/v1", "gc": {"cycles": 18446744073709551615}, "operations": [{"name": "a b", "params": "x=1\ny=2", "unit": "", "runs": 0, "runtime": {"count": 1}}]}`,
		"\xef\xbb\xbf{\"schema\": \"gcperf/v1\"}", `{"schema": "gcperf/v1", "schema": "x"}`, `{"SCHEMA": "gcperf/v1"}`,
	} {
		f.Add([]byte(s))
	}
}

// fuzzRefused checks the error of a reader of JSON, if any, and reports
// whether there was one: no value beside it, wrapping ErrNotResult or
// ErrSchema, one bounded line.
func fuzzRefused[T any](t *testing.T, v *T, err error) bool {
	t.Helper()
	if err == nil {
		return false
	}
	if v != nil {
		t.Errorf("read %+v and error %v", v, err)
	}
	if !errors.Is(err, ErrNotResult) && !errors.Is(err, ErrSchema) {
		t.Errorf("error %q wraps neither ErrNotResult nor ErrSchema", err)
	}
	fuzzcheck.ErrText(t, err)
	return true
}

// fuzzRoundTrip checks that v, read by read, writes back with write and
// reads back the same.
func fuzzRoundTrip[T any](t *testing.T, v T, write func(io.Writer, T) error, read func(io.Reader) (T, error)) {
	t.Helper()
	var j1, j2 bytes.Buffer
	if err := write(&j1, v); err != nil {
		t.Fatalf("writing what was read: %v", err)
	}
	v2, err := read(bytes.NewReader(j1.Bytes()))
	if err != nil {
		t.Fatalf("reading what was written: %v\n%s", err, j1.Bytes())
	}
	if err := write(&j2, v2); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(j1.Bytes(), j2.Bytes()) {
		t.Errorf("round trip differs:\n%s\nthen\n%s", j1.Bytes(), j2.Bytes())
	}
}

// fuzzSetSeeds adds sets of processes (gcperf -count), and broken ones.
func fuzzSetSeeds(f *testing.F) {
	list := fuzzSmall(f, "list.json")
	set := []byte(`{"schema": "gcperf-count/v1", "tool": {"name": "gcperf"}, "count": 3, "processes": [` +
		`{"process": 1, "wall_ns": 5, "result": ` + string(list) + `}, {"process": 2, "failed": "exit status 1", "stderr_tail": ["x"]}, ` +
		`{"process": 3, "result": ` + string(list) + `}]}`)
	f.Add(set)
	f.Add(set[:len(set)/2])
	for _, s := range []string{
		`{"schema": "gcperf-count/v1", "count": 1, "processes": []}`,
		`{"schema": "gcperf-count/v1", "count": 0, "processes": [{}]}`,
		`{"schema": "gcperf-count/v1", "count": 2, "processes": [{"process": 1, "result": {"schema": "gcperf/v1"}}, {"process": 2, "result": null}]}`,
		`{"schema": "gcperf-count/v1", "count": 1, "processes": [{"result": {"schema": "gcperf/v2"}}]}`,
		`{"schema": "gcperf-count/v1", "count": 1, "processes": [{"result": {"schema": "gcperf/v1", "operations": [{"name": "a", "runtime": {"count": 1}}]}}], "interrupted": true}`,
		`{"schema": "gcperf-count/v2"}`, `{"schema": "gcperf-count/v1", "count": -1}`,
	} {
		f.Add([]byte(s))
	}
}

func FuzzReadSet(f *testing.F) {
	fuzzSetSeeds(f)
	fuzzResultSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		defer fuzzcheck.Watchdog(10 * time.Second)()
		s, err := ReadSet(bytes.NewReader(data))
		if fuzzRefused(t, s, err) {
			return
		}
		if s.Schema != SetSchema || len(s.Processes) > s.Count {
			t.Fatalf("ReadSet = %+v, no error", s)
		}
		fuzzRoundTrip(t, s, SetJSON, ReadSet)
		// The text report renders whatever the figures; the samples of
		// the bench file are those of the set.
		SetText(io.Discard, s)
		var b bytes.Buffer
		if err := SetBench(&b, s); err != nil {
			return
		}
		fromSet := SamplesOfSet(s, "x.json")
		values := 0
		for _, m := range fromSet.Metrics {
			values += len(m.Values)
		}
		fromBench, err := ReadBench(bytes.NewReader(b.Bytes()), "bench.txt")
		benchValues := 0
		if err == nil {
			for _, m := range fromBench.Metrics {
				benchValues += len(m.Values)
			}
		}
		if values != benchValues {
			t.Errorf("%d values in the set, %d in its bench file (%v):\n%s", values, benchValues, err, b.Bytes())
		}
	})
}

func FuzzReadJSON(f *testing.F) {
	fuzzResultSeeds(f)
	fuzzSetSeeds(f)
	// Refused: a schema alone, two documents, garbage after one.
	f.Add([]byte(`{"schema":"gcperf/v2"}`))
	f.Add([]byte(`{"schema":"gcperf/v1"}{"schema":"gcperf/v1"}`))
	f.Add([]byte("{\"schema\":\"gcperf/v2\",\"failed\":{\"reason\":\"r\",\"text\":\"t\"}}\n]"))
	f.Fuzz(func(t *testing.T, data []byte) {
		defer fuzzcheck.Watchdog(10 * time.Second)()
		d, err := ReadJSON(bytes.NewReader(data))
		if fuzzRefused(t, d, err) {
			return
		}
		if d == nil || d.Schema != Schema {
			t.Fatalf("ReadJSON = %+v, no error", d)
		}
		fuzzRoundTrip(t, d, JSON, ReadJSON)

		// gcperf report renders what it read: no panic, whatever the
		// figures. Errors are allowed (a document can be inconsistent).
		for _, render := range []func(io.Writer, *Document) error{Text, CSV, HGRM} {
			render(io.Discard, d)
		}
		// The benchmark format reads back as one result per operation
		// with a successful run, and one for the hiccup meter.
		var b bytes.Buffer
		if err := Bench(&b, d); err != nil {
			return
		}
		want := 0
		for _, o := range d.Operations {
			if o.Runtime.Count > 0 {
				want++
			}
		}
		if d.Hiccup != nil && d.Hiccup.Count > 0 {
			want++
		}
		got := 0
		br := benchfmt.NewReader(bytes.NewReader(b.Bytes()), "bench.txt")
		for br.Scan() {
			switch rec := br.Result().(type) {
			case *benchfmt.Result:
				got++
			case *benchfmt.SyntaxError:
				t.Errorf("Bench wrote a line benchfmt refuses: %v\n%s", rec, b.Bytes())
			}
		}
		if err := br.Err(); err != nil {
			t.Errorf("reading Bench's output: %v", err)
		}
		if got != want {
			t.Errorf("Bench wrote %d results, want %d:\n%s", got, want, b.Bytes())
		}
	})
}

// fuzzBenchSeeds adds benchmark files: the tests', gcperf's own and
// broken ones.
func fuzzBenchSeeds(f *testing.F) {
	for _, name := range []string{"list.bench", "threads.bench", "errors.bench"} {
		f.Add(fuzzFixture(f, name))
	}
	for _, s := range []string{
		"goos: linux\npkg: example.com/m\nBenchmarkA-4   100   1500 ns/op   64 B/op   2 allocs/op   3.5 MB/s\n" +
			"BenchmarkA-4   100   1700 ns/op   64 B/op   2 allocs/op   3.0 MB/s\nBenchmarkB/size=8-4   10   2.5 ns/op   17 p99-ns\nsome log line\nPASS\n",
		"goos: linux\ngoarch: amd64\npkg: example.com/codec\ncpu: Example CPU @ 2.00GHz\n" +
			"BenchmarkEncode-2   \t 1000000\t      1000 ns/op\t     512 B/op\t       4 allocs/op\n" +
			"BenchmarkDecode-2   \t  500000\t      2000 ns/op\t   32.00 MB/s\t    1024 B/op\t       8 allocs/op\n" +
			"BenchmarkLegacy-2   \t  100000\t     10000 ns/op\n",
		"", "hello\nworld\n", "BenchmarkA 10 abc ns/op\n", "BenchmarkA-4 100 1500 ns/op\nBenchmarkA-4 100\n",
		"BenchmarkA 1 5 ns/op\n", "BenchmarkA\n", "BenchmarkA 1\n", "BenchmarkA 1 2\n", "BenchmarkA x 2 ns/op\n",
		"BenchmarkA 1 -0 ns/op 1e308 x/op\n",
		"BenchmarkA 1 1e309 ns/op\n",
		"Unit ns/op better=lower\nUnit ns/op better=higher\nBenchmarkA 1 1 ns/op\n", "Unit\n", "Unit x y\n",
		"BenchmarkA 99999999999999999999 1 ns/op\n", "Benchmark 1 2 ns/op\n", "BenchmarkA 1 2 ns/op\r\n",
		"pkg: a\nBenchmarkA/x=1/y=2-8 3 4 sec/op 5 B/s\npkg:\nBenchmarkA/x=1/y=2-8 3 4 sec/op\n",
	} {
		f.Add([]byte(s))
	}
}

// fuzzSameFloat reports whether a and b are the same value: NaN is NaN,
// -0 is not 0.
func fuzzSameFloat(a, b float64) bool {
	if math.IsNaN(a) || math.IsNaN(b) {
		return math.IsNaN(a) && math.IsNaN(b)
	}
	return a == b && math.Signbit(a) == math.Signbit(b)
}

// fuzzSameMetrics reports whether two lists of metrics are the same.
func fuzzSameMetrics(a, b []Metric) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		x, y := a[i], b[i]
		if x.Name != y.Name || x.Unit != y.Unit || x.Params != y.Params || len(x.Values) != len(y.Values) {
			return false
		}
		for j := range x.Values {
			if !fuzzSameFloat(x.Values[j], y.Values[j]) {
				return false
			}
		}
	}
	return true
}

func FuzzReadBench(f *testing.F) {
	fuzzBenchSeeds(f)
	// Not values, but read as such (see FuzzReadSamples).
	f.Add([]byte("BenchmarkA 1 NaN ns/op\nBenchmarkA 1 NaN ns/op\n"))
	f.Add([]byte("BenchmarkA 1 +Inf ns/op\nBenchmarkA 1 -Inf ns/op\n"))
	// A line past what the format's reader takes, refused by its number.
	f.Add([]byte("BenchmarkA 1 1 ns/op\nBenchmarkX 1 " + strings.Repeat("7", 70<<10) + " ns/op\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		defer fuzzcheck.Watchdog(10 * time.Second)()
		s, err := ReadBench(bytes.NewReader(data), "x.txt")
		if err != nil {
			if s != nil {
				t.Errorf("ReadBench = %+v and error %v", s, err)
			}
			fuzzcheck.ErrText(t, err)
			return
		}
		if s.Kind != KindBench || len(s.Metrics) == 0 {
			t.Fatalf("ReadBench = kind %q, %d metrics", s.Kind, len(s.Metrics))
		}
		// The metrics, written back one value a line, read back the same.
		var b strings.Builder
		for _, m := range s.Metrics {
			if len(m.Values) == 0 {
				t.Errorf("metric %q %q has no value", m.Name, m.Unit)
			}
			for _, v := range m.Values {
				b.WriteString("Benchmark" + m.Name + " 1 " + strconv.FormatFloat(v, 'g', -1, 64) + " " + m.Unit + "\n")
			}
		}
		back, err := ReadBench(strings.NewReader(b.String()), "y.txt")
		if err != nil {
			t.Fatalf("the metrics written back do not read: %v\n%s", err, b.String())
		}
		if !fuzzSameMetrics(s.Metrics, back.Metrics) {
			t.Errorf("metrics %v, written back as\n%s\nread back as %v", s.Metrics, b.String(), back.Metrics)
		}
	})
}

func FuzzReadSamples(f *testing.F) {
	fuzzResultSeeds(f)
	fuzzSetSeeds(f)
	fuzzBenchSeeds(f)
	// Once a hang (NaN: go-moremath's U test loops, growing memory) and a
	// failed -json (an infinite center): ReadBench now refuses them.
	f.Add([]byte("BenchmarkA 1 1 ns/op\nBenchmarkA 1 NaN ns/op\n"))
	f.Add([]byte("BenchmarkA 1 Inf ns/op\nBenchmarkA 1 -Inf ns/op\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		defer fuzzcheck.Watchdog(10 * time.Second)()
		s, err := ReadSamples(bytes.NewReader(data), "x.txt")
		isJSON := false
		if trim := bytes.TrimLeft(data, " \t\r\n"); len(trim) > 0 && trim[0] == '{' {
			isJSON = true
		}
		if !isJSON {
			// Anything else is the benchmark format.
			bs, berr := ReadBench(bytes.NewReader(data), "x.txt")
			if (err == nil) != (berr == nil) || (err != nil && err.Error() != berr.Error()) ||
				(err == nil && !fuzzSameMetrics(s.Metrics, bs.Metrics)) {
				t.Errorf("ReadSamples = %v, %v; ReadBench = %v, %v", s, err, bs, berr)
			}
		}
		if err != nil {
			if s != nil {
				t.Errorf("ReadSamples = %+v and error %v", s, err)
			}
			if isJSON && !errors.Is(err, ErrNotResult) && !errors.Is(err, ErrSchema) {
				t.Errorf("error %q for JSON wraps neither ErrNotResult nor ErrSchema", err)
			}
			fuzzcheck.ErrText(t, err)
			return
		}
		if want := map[bool]string{true: KindResult, false: KindBench}[isJSON]; s.Kind != want {
			t.Errorf("ReadSamples: kind %q; want %q", s.Kind, want)
		}
		type key struct{ name, unit string }
		keys := map[key]bool{}
		unique := true
		for _, m := range s.Metrics {
			if len(m.Values) == 0 {
				t.Errorf("metric %q %q has no value", m.Name, m.Unit)
			}
			if isJSON && !bytes.Contains(data, []byte(SetSchema)) && len(m.Values) != 1 {
				t.Errorf("a result's metric %q in %q with %d values, not one (a process)", m.Name, m.Unit, len(m.Values))
			}
			k := key{m.Name, m.Unit}
			unique = unique && !keys[k]
			keys[k] = true
		}

		for _, m := range s.Metrics {
			if slices.ContainsFunc(m.Values, func(v float64) bool { return math.IsNaN(v) || math.IsInf(v, 0) }) {
				t.Fatalf("ReadSamples kept a value that is not finite: %v", m.Values)
			}
		}

		// gcperf compare x x: every metric is common, and nothing
		// regresses against itself.
		c, err := Compare(s, s, 0.05)
		if len(s.Metrics) == 0 {
			if !errors.Is(err, ErrNoCommon) {
				t.Errorf("Compare of no metrics: %v, want ErrNoCommon", err)
			}
			return
		}
		if err != nil {
			t.Fatalf("Compare of a file with itself: %v", err)
		}
		if unique {
			if len(c.Rows) != len(s.Metrics) {
				t.Errorf("Compare of a file with itself: %d rows of %d metrics", len(c.Rows), len(s.Metrics))
			}
			if regs := c.Regressions(0); len(regs) > 0 {
				t.Errorf("Compare of a file with itself regresses: %+v", regs)
			}
		}
		if err := CompareText(io.Discard, c); err != nil {
			t.Errorf("CompareText: %v", err)
		}
		if err := CompareJSON(io.Discard, c); err != nil {
			t.Errorf("CompareJSON: %v", err)
		}
	})
}
