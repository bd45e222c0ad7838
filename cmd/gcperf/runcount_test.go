package main

// The tests of -count: each runs this test binary as gcperf in its
// processes, as the sweeps' tests do (sweepTest, which registers the test
// operations: this file sorts after main_test.go, whose TestList must not
// see them).

import (
	"bytes"
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/perf/benchfmt"

	"github.com/gcperf/gcperf/report"
)

// tinyCount are the flags of a fast benchmark of three processes.
var tinyCount = []string{"-count", "3", "-size", "8", "-runs", "20", "-warmup", "2"}

// TestCount: gcperf -count 3 runs three processes and writes the samples
// of all three: the bench file three lines per benchmark (benchfmt reads
// them as three results), the JSON every result, -out each process's own
// files; the text report lists the processes. compare reads the same
// figures from the JSON and from the bench file.
func TestCount(t *testing.T) {
	counter := sweepTest(t)
	tmp := t.TempDir()
	out, benchFile, jsonFile := filepath.Join(tmp, "out"), filepath.Join(tmp, "b.txt"), filepath.Join(tmp, "r.json")
	code, stdout, stderr := gcperf(t, nil, append(slices.Clone(tinyCount), "-out", out, "-bench", benchFile, "-json", jsonFile)...)
	if code != 0 {
		t.Fatalf("exit %d; stderr:\n%s", code, stderr)
	}
	if got, want := ran(t, counter), []string{"process-1.json", "process-2.json", "process-3.json"}; !slices.Equal(got, want) {
		t.Errorf("processes ran for %q, want %q", got, want)
	}
	for _, want := range []string{"alloc.list size=8 base=32 chunk=32, in 3 processes (-count 3), one after another, each a fresh process",
		"Processes (3 of 3 with a result):", "the figures of -bench, one sample per process", "Between the processes: "} {
		if !strings.Contains(stdout, want) {
			t.Errorf("stdout does not say %q:\n%s", want, stdout)
		}
	}
	for _, want := range []string{"gcperf: running alloc.list size=8 base=32 chunk=32 in 3 processes, one after another, each writing its result to " + out,
		"gcperf: process 3/3 ... ok in "} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr does not say %q:\n%s", want, stderr)
		}
	}
	// -out holds every process's result in the formats that hold them
	// all, and each process's own files.
	for _, o := range countDirOutputs(out, "", 3) {
		if st, err := os.Stat(o.Path); err != nil || st.Size() == 0 {
			t.Errorf("%s: %v", o.Path, err)
		}
	}
	// The bench file: three samples of one benchmark, as benchstat reads it.
	b, err := os.ReadFile(benchFile)
	if err != nil {
		t.Fatal(err)
	}
	r := benchfmt.NewReader(bytes.NewReader(b), benchFile)
	var names []string
	for r.Scan() {
		switch rec := r.Result().(type) {
		case *benchfmt.Result:
			names = append(names, rec.Name.String())
		case *benchfmt.SyntaxError:
			t.Errorf("%v", rec)
		}
	}
	if len(names) != 3 || !strings.HasPrefix(names[0], "AllocList/size=8/base=32/chunk=32") || names[0] != names[1] || names[0] != names[2] {
		t.Errorf("bench results %q, want three of AllocList/size=8/base=32/chunk=32", names)
	}
	// The JSON: every process's result, each a whole gcperf/v2 document
	// run with the benchmark's flags, none of the parent's own.
	f, err := os.Open(jsonFile)
	if err != nil {
		t.Fatal(err)
	}
	set, err := report.ReadSet(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	if set.Count != 3 || len(set.Results()) != 3 || set.Interrupted {
		t.Fatalf("set of %d, %d results, interrupted %v", set.Count, len(set.Results()), set.Interrupted)
	}
	for i, p := range set.Processes {
		cmd := strings.Join(p.Result.Tool.Command, " ")
		if p.N != i+1 || p.File != "process-"+string(rune('1'+i))+".json" || p.Result.Config.Runs != 20 ||
			!strings.Contains(cmd, "-runs=20") || strings.Contains(cmd, "-count") || strings.Contains(cmd, "-bench") || strings.Contains(cmd, jsonFile) {
			t.Errorf("process %d: file %q, runs %d, command %q", p.N, p.File, p.Result.Config.Runs, cmd)
		}
	}
	// compare reads the same figures, three samples each, from the JSON
	// and from the bench file, here or in -out.
	centers := func(old, new string) map[string]float64 {
		t.Helper()
		code, stdout, stderr := gcperf(t, nil, "compare", "-json", old, new)
		if code != 0 {
			t.Fatalf("compare %s %s: exit %d, stderr %s", old, new, code, stderr)
		}
		var c struct {
			Rows []struct {
				Unit string
				Old  struct {
					Center float64
					N      int
				}
			} `json:"comparisons"`
		}
		if err := json.Unmarshal([]byte(stdout), &c); err != nil {
			t.Fatal(err)
		}
		m := map[string]float64{}
		for _, r := range c.Rows {
			if r.Old.N != 3 {
				t.Errorf("compare %s: %s has %d samples, want 3", old, r.Unit, r.Old.N)
			}
			m[r.Unit] = r.Old.Center
		}
		return m
	}
	fromJSON, fromBench := centers(jsonFile, jsonFile), centers(benchFile, benchFile)
	if len(fromJSON) < 8 || !maps.Equal(fromJSON, fromBench) {
		t.Errorf("compare's figures from the JSON %v, from the bench file %v", fromJSON, fromBench)
	}
	if got := centers(filepath.Join(out, "result.json"), filepath.Join(out, "bench.txt")); !maps.Equal(got, fromJSON) {
		t.Errorf("compare's figures from -out %v, want %v", got, fromJSON)
	}
}

// TestCountRun: gcperf run -count gives each process the operations, those
// of -mix read once by the parent, and takes the text report's format
// flags as gcperf does.
func TestCountRun(t *testing.T) {
	counter := sweepTest(t)
	dir := t.TempDir()
	mix := filepath.Join(dir, "m.mix")
	if err := os.WriteFile(mix, []byte("noop\nspin d=10us\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := gcperf(t, nil, "run", "-count", "2", "-runs", "10", "-warmup", "0", "-mix", mix, "-json", "-", "sleep", "-d", "1us")
	if code != 0 {
		t.Fatalf("exit %d; stderr:\n%s", code, stderr)
	}
	if n := len(ran(t, counter)); n != 2 {
		t.Errorf("%d processes ran, want 2", n)
	}
	set, err := report.ReadSet(strings.NewReader(stdout))
	if err != nil {
		t.Fatalf("%v in:\n%s", err, stdout)
	}
	for _, d := range set.Results() {
		var ops []string
		for _, o := range d.Operations {
			ops = append(ops, strings.TrimSpace(o.Name+" "+o.Params))
		}
		if want := []string{"noop", "spin d=10µs", "sleep d=1µs"}; !slices.Equal(ops, want) {
			t.Errorf("a process ran %q, want %q", ops, want)
		}
		if slices.Contains(d.Tool.Command, "-mix") || !slices.Contains(d.Tool.Command, "run") {
			t.Errorf("a process's command line %q", d.Tool.Command)
		}
	}
	// With a format on stdout, the text report goes to stderr.
	if !strings.Contains(stderr, "in 2 processes (-count 2)") {
		t.Errorf("stderr does not hold the text report:\n%s", stderr)
	}
}

// TestCountOne: -count 1, the default, is the benchmark of one process,
// as without the flag.
func TestCountOne(t *testing.T) {
	counter := sweepTest(t)
	code, stdout, stderr := gcperf(t, nil, "run", "-count", "1", "-runs", "5", "-warmup", "0", "-json", "-", "noop")
	if code != 0 {
		t.Fatalf("exit %d; stderr:\n%s", code, stderr)
	}
	if n := len(ran(t, counter)); n != 0 {
		t.Errorf("-count 1 started %d processes", n)
	}
	if d, err := report.ReadJSON(strings.NewReader(stdout)); err != nil || d.Timing.Done != 5 {
		t.Errorf("-count 1 -json -: %v", err)
	}
}

// TestCountFailed: processes that crash are reported, with the end of
// their stderr and their logs kept; the command fails.
func TestCountFailed(t *testing.T) {
	sweepTest(t)
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp) // the processes' temporary directory, kept for their logs
	code, stdout, stderr := gcperf(t, nil, "run", "-count", "2", "-runs", "5", "test.crash")
	if code != 1 {
		t.Errorf("exit %d, want 1; stderr:\n%s", code, stderr)
	}
	for _, want := range []string{"none with a result", "Process 2 gave no result: exit status 3 (its last line: test.crash: exiting with status 3 on purpose)"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("stdout does not say %q:\n%s", want, stdout)
		}
	}
	if !strings.Contains(stderr, "gcperf: 2 of 2 processes failed (their logs: "+tmp) {
		t.Errorf("stderr does not say where the logs are:\n%s", stderr)
	}
}

func TestCountBadInput(t *testing.T) {
	counter := sweepTest(t)
	dir := t.TempDir()
	full := filepath.Join(dir, "full")
	if err := os.Mkdir(full, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(full, "process-2.csv"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"-count", "0"}, "gcperf: -count must be at least 1, got 0"},
		{[]string{"-count", "-1"}, "gcperf: -count must be at least 1, got -1"},
		{[]string{"run", "-count", "0", "noop"}, "gcperf: -count must be at least 1, got 0"},
		// Checked before the outputs of every process are listed (a
		// billion of them exhausted the memory before anything ran).
		{[]string{"-count", "10001", "-out", out}, "gcperf: -count must be at most 10000, got 10001 (every process's result is kept for the report)"},
		{[]string{"-count", "x"}, `gcperf: invalid value "x" for flag -count: parse error (gcperf -h lists the flags)`},
		{[]string{"-count", "3", "-csv", "r.csv"}, "gcperf: -csv r.csv: one process's file, not for -count 3: -out DIR holds each process's (process-1.csv, ...)"},
		{[]string{"-count", "3", "-html", "-"}, "gcperf: -html -: one process's file, not for -count 3: -out DIR holds each process's (process-1.html, ...)"},
		{[]string{"-count", "2", "-cpuprofile", "c.pprof"}, "gcperf: -cpuprofile c.pprof: one process's profile, not for -count 2: -profile DIR profiles each process under DIR/process-N/"},
		{[]string{"-count", "2", "-runlog", "r.csv"}, "gcperf: -runlog r.csv: streams the runs of one process, not for -count 2"},
		{[]string{"-count", "2", "-hlog", "r.hlog"}, "gcperf: -hlog r.hlog: streams the runtimes of one process, not for -count 2"},
		{[]string{"-count", "2", "-http", "127.0.0.1:0"}, "gcperf: -http 127.0.0.1:0: serves one process, not for -count 2, whose processes run one after another"},
		{[]string{"-count", "2", "-show-runs"}, "gcperf: -show-runs prints the runs of one process, not for -count 2: each process's output goes to its log (process-N.log in -out DIR)"},
		{[]string{"-count", "2", "-out", full}, "gcperf: -out " + full + ": " + filepath.Join(full, "process-2.csv") + ": file exists (use -overwrite to replace it)"},
		{[]string{"-count", "2", "-json", "-", "-bench", "-"}, "gcperf: -json - and -bench -: at most one format can go to stdout"},
		{[]string{"-count", "2", "-runs", "0"}, "gcperf: -runs must be at least 1, got 0"},
		{[]string{"run", "-count", "2", "nosuch"}, `gcperf: unknown operation "nosuch" (gcperf list shows them)`},
		{[]string{"-count", "2", "-json", filepath.Join(out, "result.json"), "-out", out}, "gcperf: -out " + out + ": " + filepath.Join(out, "result.json") + ": the same file as -json " + filepath.Join(out, "result.json")},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			code, stdout, stderr := gcperf(t, nil, tt.args...)
			checkBad(t, code, stdout, stderr, tt.want)
		})
	}
	if n := len(ran(t, counter)); n != 0 {
		t.Errorf("refused command lines started %d processes", n)
	}
}

// The constructed bench files of five processes a side: count_slow.txt is
// 20% slower than count_old.txt in every time (within ±2% a process),
// count_same.txt within ±1% of it.
var (
	countOld  = filepath.Join("testdata", "count_old.txt")
	countSlow = filepath.Join("testdata", "count_slow.txt")
	countSame = filepath.Join("testdata", "count_same.txt")
)

// TestCompareFailCount: with five samples a side, -fail 5% fails on a 20%
// slowdown and passes on noise; with one sample a side it cannot judge.
func TestCompareFailCount(t *testing.T) {
	code, stdout, stderr := gcperf(t, nil, "compare", "-fail", "5%", countOld, countSlow)
	if code != 1 {
		t.Errorf("a 20%% slowdown: exit %d, want 1; stderr:\n%s", code, stderr)
	}
	for _, unit := range []string{"ns/op +21.20%", "p50-ns +21.20%", "p99-ns +21.20%", "objects/s -17.49%"} {
		want := "gcperf: compare: regression beyond -fail 5%: AllocList/size=64/base=32/chunk=32-2 " + unit + " (p=0.008)\n"
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr does not say %q:\n%s", want, stderr)
		}
	}
	golden(t, "compare_count.golden", stdout)
	if code, _, stderr := gcperf(t, nil, "compare", "-fail", "25%", countOld, countSlow); code != 0 || stderr != "" {
		t.Errorf("-fail 25%%: exit %d, stderr %q; want 0", code, stderr)
	}
	code, stdout, stderr = gcperf(t, nil, "compare", "-fail", "5%", countOld, countSame)
	if code != 0 || stderr != "" || !strings.Contains(stdout, "~") {
		t.Errorf("noise: exit %d, stderr %q; want 0\n%s", code, stderr, stdout)
	}
	// One process a side: the bench files of two single results.
	one := fixture("list.bench")
	code, stdout, stderr = gcperf(t, nil, "compare", "-fail", "5%", one, one)
	want := "gcperf: compare: -fail 5%: cannot judge a difference from one sample each (" + one + " and " + one +
		" hold one process each): gcperf -count N (N >= 4) repeats the benchmark in N processes\n"
	if code != 2 || stderr != want || !strings.Contains(stdout, "no test can judge a difference from one sample each") {
		t.Errorf("one sample each: exit %d, stderr %q; want 2, %q\n%s", code, stderr, want, stdout)
	}
	// Three samples a side cannot reach 0.05: 2/20 at best.
	three := filepath.Join(t.TempDir(), "three.txt")
	b, err := os.ReadFile(countOld)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(b), "\n")
	var kept []string
	results := 0
	for _, l := range lines {
		if strings.HasPrefix(l, "Benchmark") {
			if results++; results > 3 {
				continue
			}
		}
		kept = append(kept, l)
	}
	if err := os.WriteFile(three, []byte(strings.Join(kept, "")), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, stderr = gcperf(t, nil, "compare", "-fail", "5%", three, three)
	want = "gcperf: compare: -fail 5%: cannot judge a difference in AllocList/size=64/base=32/chunk=32-2 ns/op (and 8 more) from 3 and 3 samples at alpha 0.05: it takes at least 4 a side (gcperf -count N)\n"
	if code != 2 || stderr != want {
		t.Errorf("three each: exit %d, stderr %q; want 2, %q", code, stderr, want)
	}
}

// TestCountReport: gcperf report renders the result of -count in the
// formats that hold every process, and refuses the others.
func TestCountReport(t *testing.T) {
	sweepTest(t)
	tmp := t.TempDir()
	set := filepath.Join(tmp, "r.json")
	args := []string{"run", "-count", "2", "-runs", "5", "-warmup", "0", "-json", set, "-bench", filepath.Join(tmp, "b.txt"), "noop"}
	if code, _, stderr := gcperf(t, nil, args...); code != 0 {
		t.Fatalf("exit %d; stderr:\n%s", code, stderr)
	}
	b, err := os.ReadFile(filepath.Join(tmp, "b.txt"))
	if err != nil {
		t.Fatal(err)
	}
	for format, want := range map[string]string{"bench": string(b), "text": "in 2 processes (-count 2)", "json": `"schema": "gcperf-count/v1"`} {
		code, stdout, stderr := gcperf(t, nil, "report", "-format", format, set)
		if code != 0 || !strings.Contains(stdout, want) {
			t.Errorf("-format %s: exit %d, stderr %q; stdout does not hold %q:\n%s", format, code, stderr, want, stdout)
		}
	}
	code, stdout, stderr := gcperf(t, nil, "report", "-format", "csv", set)
	checkBad(t, code, stdout, stderr, "gcperf: report: -format csv: one process's format, and "+set+
		" holds 2 processes (gcperf -count): render one of their results, process-N.json in its -out directory")
	code, stdout, stderr = gcperf(t, nil, "plot", "-o", filepath.Join(tmp, "p.svg"), set)
	checkBad(t, code, stdout, stderr, "gcperf: plot: "+set+": a result of several processes (gcperf -count): read one process's result, process-N.json in its -out directory (-kind spectrum reads gcperf results, FILE.json)")
}

// TestCompareSameRun: the result.json and the bench.txt of one run give
// compare the same figures, and compare with each other as equal.
func TestCompareSameRun(t *testing.T) {
	dir := t.TempDir()
	r, b := filepath.Join(dir, "r.json"), filepath.Join(dir, "b.txt")
	if code, _, stderr := gcperf(t, nil, "-size", "8", "-runs", "20", "-warmup", "2", "-json", r, "-bench", b); code != 0 {
		t.Fatalf("exit %d; stderr:\n%s", code, stderr)
	}
	type row struct {
		Name, Unit string
		Old, New   struct{ Center float64 }
		Delta      *float64
	}
	rows := func(old, new string) []row {
		t.Helper()
		code, stdout, stderr := gcperf(t, nil, "compare", "-json", old, new)
		if code != 0 {
			t.Fatalf("compare %s %s: exit %d, stderr %s", old, new, code, stderr)
		}
		var c struct {
			Rows []row `json:"comparisons"`
		}
		if err := json.Unmarshal([]byte(stdout), &c); err != nil {
			t.Fatal(err)
		}
		return c.Rows
	}
	fromJSON, fromBench, across := rows(r, r), rows(b, b), rows(r, b)
	if len(fromJSON) != 9 || len(fromBench) != 9 || len(across) != 9 {
		t.Fatalf("%d, %d and %d rows, want 9 (every figure of alloc.list)", len(fromJSON), len(fromBench), len(across))
	}
	for i := range fromJSON {
		j, bb, x := fromJSON[i], fromBench[i], across[i]
		if j.Unit != bb.Unit || j.Old.Center != bb.Old.Center || x.Old.Center != x.New.Center || x.Delta == nil || *x.Delta != 0 {
			t.Errorf("%s: %v from the JSON, %s %v from the bench file; across %v against %v", j.Unit, j.Old.Center, bb.Unit, bb.Old.Center, x.Old.Center, x.New.Center)
		}
	}
}

// TestCountProfiles: -profile DIR with -count gives each process its
// profiles under DIR/process-N, as README and -h say.
func TestCountProfiles(t *testing.T) {
	sweepTest(t)
	prof := filepath.Join(t.TempDir(), "prof")
	code, _, stderr := gcperf(t, nil, "run", "-count", "2", "-runs", "5", "-warmup", "0", "-profile", prof, "-json", filepath.Join(t.TempDir(), "r.json"), "noop")
	if code != 0 {
		t.Fatalf("exit %d; stderr:\n%s", code, stderr)
	}
	for _, p := range []string{"process-1", "process-2"} {
		if fi, err := os.Stat(filepath.Join(prof, p, "cpu.pprof")); err != nil || fi.Size() == 0 {
			t.Errorf("%s's CPU profile: %v", p, err)
		}
	}
}
