package report

import (
	"bytes"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"golang.org/x/perf/benchfmt"
)

// testSet is a set of five processes of list.json, each with its own seed,
// load and runtimes (process k's are k% longer), the third failed.
func testSet(t *testing.T) *Set {
	t.Helper()
	s := &Set{Tool: Tool{Name: "gcperf", Version: "0.1.0-dev", Command: []string{"gcperf", "-count", "5"}}, Count: 5}
	for k := 1; k <= 5; k++ {
		p := ProcessResult{N: k, Wall: time.Duration(k) * time.Second}
		if k == 3 {
			p.Failed, p.StderrTail = "exit status 2", []string{"gcperf: boom"}
			s.Processes = append(s.Processes, p)
			continue
		}
		d, _ := readFixture(t, "list.json")
		d.Config.Seed = int64(100 + k)
		d.Env.Host.Load1 = 0.25 * float64(k)
		rt := &d.Operations[0].Runtime
		scale := func(v time.Duration) time.Duration { return v * time.Duration(100+k) / 100 }
		rt.Mean, rt.P50, rt.P99, rt.P999, rt.Percentiles.Max = scale(rt.Mean), scale(rt.P50), scale(rt.P99), scale(rt.P999), scale(rt.Percentiles.Max)
		d.Operations[0].OpsPerSecond = 1e9 / float64(rt.Mean)
		p.File, p.Result = "process-"+string(rune('0'+k))+".json", d
		s.Processes = append(s.Processes, p)
	}
	return s
}

func TestSetText(t *testing.T) {
	var b bytes.Buffer
	if err := SetText(&b, testSet(t)); err != nil {
		t.Fatal(err)
	}
	golden(t, "testdata/set.txt", b.Bytes())
	for _, want := range []string{
		"in 5 processes (-count 5), one after another, each a fresh process",
		"seed one per process (below)",
		"Process 3 gave no result: exit status 2 (its last line: gcperf: boom)",
		"Between the processes: each drew its own seed",
		"the machine's load at their start went from 0.25 to 1.25",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("the report does not say %q", want)
		}
	}
}

// TestSetSamples: the samples of a set are its processes' figures, one
// per process, the same from its JSON and from its bench file, which
// benchfmt reads as one result line per process and benchmark.
func TestSetSamples(t *testing.T) {
	s := testSet(t)
	var js, bench bytes.Buffer
	if err := SetJSON(&js, s); err != nil {
		t.Fatal(err)
	}
	if err := SetBench(&bench, s); err != nil {
		t.Fatal(err)
	}
	golden(t, "testdata/set.bench", bench.Bytes())

	fromJSON, err := ReadSamples(bytes.NewReader(js.Bytes()), "set.json")
	if err != nil {
		t.Fatal(err)
	}
	fromBench, err := ReadSamples(bytes.NewReader(bench.Bytes()), "bench.txt")
	if err != nil {
		t.Fatal(err)
	}
	if len(fromJSON.Metrics) != 9 || len(fromBench.Metrics) != 9 {
		t.Fatalf("%d and %d metrics, want 9 (every unit of alloc.list)", len(fromJSON.Metrics), len(fromBench.Metrics))
	}
	for i, m := range fromJSON.Metrics {
		if len(m.Values) != 4 || m.Unit != fromBench.Metrics[i].Unit || !slices.Equal(m.Values, fromBench.Metrics[i].Values) {
			t.Errorf("%s %s: %v from the JSON, %v from the bench file", m.Name, m.Unit, m.Values, fromBench.Metrics[i].Values)
		}
	}
	want := "gcperf result of 4 processes (-count 5): 200 runs each of alloc.list size=8 base=32 chunk=32"
	if fromJSON.About != want || !slices.Equal(fromJSON.Notes, []string{"set.json: process 3 gave no result: exit status 2"}) {
		t.Errorf("about %q, notes %q", fromJSON.About, fromJSON.Notes)
	}

	// benchstat's parser: four results of one benchmark, the configuration
	// of each, and the unit metadata.
	r := benchfmt.NewReader(bytes.NewReader(bench.Bytes()), "bench.txt")
	var names []string
	for r.Scan() {
		switch rec := r.Result().(type) {
		case *benchfmt.Result:
			names = append(names, rec.Name.String())
			if v, ok := rec.Value("sec/op"); !ok || v <= 0 {
				t.Errorf("%s: sec/op (ns/op tidied) %v, %v", rec.Name, v, ok)
			}
			if got := string(rec.GetConfig("gogc")); got != "" {
				t.Errorf("%s: gogc %q is a configuration key: benchstat would not compare files that differ in it", rec.Name, got)
			}
		case *benchfmt.SyntaxError:
			t.Errorf("syntax error: %v", rec)
		}
	}
	if err := r.Err(); err != nil || len(names) != 4 || names[0] != names[3] {
		t.Errorf("results %q, %v; want four of one benchmark", names, err)
	}

	// The set reads back whole; a reader of one result refuses it.
	back, err := ReadSet(bytes.NewReader(js.Bytes()))
	if err != nil || back.Schema != SetSchema || len(back.Processes) != 5 || back.Processes[2].Failed != "exit status 2" || back.Processes[1].Result.Config.Seed != 102 {
		t.Fatalf("ReadSet: %+v, %v", back, err)
	}
	if _, err := ReadJSON(bytes.NewReader(js.Bytes())); !errors.Is(err, ErrSet) || !errors.Is(err, ErrNotResult) {
		t.Errorf("ReadJSON of a set: %v", err)
	}
}

func TestReadSetRefuses(t *testing.T) {
	for _, tt := range []struct{ input, want string }{
		{`{"schema": "gcperf-count/v1", "count": 1, "processes": [{"process": 1, "result": {"schema": "gcperf/v9"}}]}`,
			`unsupported schema "gcperf/v9" in process 1: this gcperf reads "gcperf/v2"`},
		{`{"schema": "gcperf-count/v1", "count": 0, "processes": []}`, "not a gcperf result: 0 processes of a count of 0"},
		{`{"schema": "gcperf-count/v1", "count": 1, "processes": [{}, {}]}`, "not a gcperf result: 2 processes of a count of 1"},
		{`{"schema": "gcperf/v1"}`, `not a gcperf result: schema "gcperf/v1"`},
		{`{"schema": "gcperf-count/v2"}`, `unsupported schema "gcperf-count/v2": this gcperf reads "gcperf-count/v1"`},
		{`{"count": 1}`, `not a gcperf result: no "schema" key`},
		{`{"schema": "gcperf-count/v1", `, "not a gcperf result: truncated JSON"},
	} {
		if _, err := ReadSet(strings.NewReader(tt.input)); err == nil || err.Error() != tt.want {
			t.Errorf("%s: %v, want %q", tt.input, err, tt.want)
		}
	}
}

// TestSetTextInterrupted: one process of five finished: no median or
// spread of one sample.
func TestSetTextInterrupted(t *testing.T) {
	s := testSet(t)
	s.Processes, s.Interrupted = s.Processes[:1], true
	var b bytes.Buffer
	if err := SetText(&b, s); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "Interrupted: 1 of the 5 processes finished; the one stopped is not kept.") ||
		strings.Contains(b.String(), "median") || strings.Contains(b.String(), "Between the processes") {
		t.Errorf("the report of one finished process of five:\n%s", b.String())
	}
}

// TestSetJSONNoProcess: interrupted before any process finished, the set
// holds an empty list of processes, not null.
func TestSetJSONNoProcess(t *testing.T) {
	var b bytes.Buffer
	if err := SetJSON(&b, &Set{Count: 3, Interrupted: true}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), `"processes": [],`) {
		t.Errorf("no process finished:\n%s", b.String())
	}
	s, err := ReadSet(&b)
	if err != nil || len(s.Processes) != 0 {
		t.Errorf("read back: %+v, %v", s, err)
	}
}
