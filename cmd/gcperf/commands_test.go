package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gcperf/gcperf/bench"
	"github.com/gcperf/gcperf/report"
)

// The report package's fixtures: results saved by gcperf -json.
const fixtureDir = "../../report/testdata"

var fixtures = []string{"list.json", "threads.json", "errors.json"}

func fixture(name string) string { return filepath.Join(fixtureDir, name) }

// checkBad checks a bad-input outcome: exit 2, one line on stderr equal to
// want, nothing on stdout.
func checkBad(t *testing.T, code int, stdout, stderr, want string) {
	t.Helper()
	if code != 2 {
		t.Errorf("exit status %d, want 2", code)
	}
	if stderr != want+"\n" {
		t.Errorf("stderr:\n%s\nwant:\n%s", stderr, want)
	}
	if stdout != "" {
		t.Errorf("stdout is not empty:\n%s", stdout)
	}
}

func TestEnv(t *testing.T) {
	code, stdout, stderr := gcperf(t, nil, "env", "-json")
	if code != 0 {
		t.Fatalf("exit %d; stderr:\n%s", code, stderr)
	}
	// The live machine may lack some part (a warning), never all of it.
	if stderr != "" && (!strings.HasPrefix(stderr, "gcperf: warning: ") || strings.Count(stderr, "\n") != 1) {
		t.Errorf("stderr is neither empty nor one warning:\n%s", stderr)
	}
	var doc map[string]any
	if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
		t.Fatalf("%v in:\n%s", err, stdout)
	}
	for _, key := range []string{"host.logical_cpus", "host.memory_total_bytes", "cgroup.cpu_max",
		"cgroup.memory_max_bytes", "go.version", "go.gomaxprocs", "go.gogc", "build.path"} {
		if _, ok := lookup(doc, key); !ok {
			t.Errorf("no key %s in:\n%s", key, stdout)
		}
	}

	code, stdout, _ = gcperf(t, nil, "env")
	if code != 0 {
		t.Fatalf("env: exit %d", code)
	}
	var labels []string
	for _, l := range strings.Split(strings.TrimSuffix(stdout, "\n"), "\n") {
		label, _, _ := strings.Cut(l, ":")
		labels = append(labels, label)
	}
	if got, want := strings.Join(labels, " "), "Host CPU Memory Load Cgroup Go Build"; got != want {
		t.Errorf("lines %q, want %q:\n%s", got, want, stdout)
	}
	if !strings.Contains(stdout, "cpu.max ") || !strings.Contains(stdout, "GOMAXPROCS ") {
		t.Errorf("no cgroup limits or Go settings:\n%s", stdout)
	}

	code, stdout, stderr = gcperf(t, nil, "env", "extra")
	checkBad(t, code, stdout, stderr, `gcperf: env takes no arguments, got "extra"`)
}

// TestReport renders every fixture in every format.
func TestReport(t *testing.T) {
	for _, name := range fixtures {
		data, err := os.ReadFile(fixture(name))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range bench.Formats {
			code, stdout, stderr := gcperf(t, nil, "report", "-format", f.Name, fixture(name))
			if code != 0 || stderr != "" {
				t.Errorf("%s -format %s: exit %d, stderr:\n%s", name, f.Name, code, stderr)
				continue
			}
			if len(stdout) == 0 {
				t.Errorf("%s -format %s: no output", name, f.Name)
			}
			switch f.Name {
			case "json":
				if stdout != string(data) {
					t.Errorf("%s -format json differs from the file it read", name)
				}
			case "text":
				// The same rendering as the report package's golden file.
				want, err := os.ReadFile(fixture(strings.TrimSuffix(name, ".json") + ".txt"))
				if err != nil {
					t.Fatal(err)
				}
				if stdout != string(want) {
					t.Errorf("%s -format text differs from report/testdata's", name)
				}
			}
		}
	}
	code, stdout, stderr := gcperf(t, nil, "report", fixture("list.json"))
	if code != 0 || stderr != "" {
		t.Fatalf("exit %d, stderr:\n%s", code, stderr)
	}
	golden(t, "report_list.golden", stdout)
	// -v: the verbose report, as the report package's golden file.
	code, stdout, stderr = gcperf(t, nil, "report", "-v", fixture("list.json"))
	want, err := os.ReadFile(fixture("list.v.txt"))
	if code != 0 || stderr != "" || err != nil || stdout != string(want) {
		t.Errorf("report -v: exit %d, %v, stderr %s; differs from report/testdata/list.v.txt:\n%s", code, err, stderr, stdout)
	}
}

func TestReportOutput(t *testing.T) {
	out := filepath.Join(t.TempDir(), "list.csv")
	args := []string{"report", "-format", "csv", "-o", out, fixture("list.json")}
	code, stdout, stderr := gcperf(t, nil, args...)
	if code != 0 || stdout != "" || stderr != "" {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	_, csv, _ := gcperf(t, nil, "report", "-format", "csv", fixture("list.json"))
	if b, err := os.ReadFile(out); err != nil || string(b) != csv {
		t.Errorf("-o wrote %d bytes (%v), want the %d of stdout", len(b), err, len(csv))
	}
	code, stdout, stderr = gcperf(t, nil, args...)
	checkBad(t, code, stdout, stderr, "gcperf: report: -o "+out+": file exists (use -overwrite to replace it)")
	args = append([]string{"report", "-overwrite"}, args[1:]...)
	if code, _, stderr := gcperf(t, nil, args...); code != 0 {
		t.Errorf("-overwrite: exit %d, stderr %q", code, stderr)
	}
}

// badFiles writes the files every command reading results must refuse, and
// returns the directory holding them.
func badFiles(t *testing.T) string {
	t.Helper()
	list, err := os.ReadFile(fixture("list.json"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for name, content := range map[string]string{
		"truncated.json": string(list[:len(list)/2]),
		"future.json":    strings.Replace(string(list), `"schema": "gcperf/v2"`, `"schema": "gcperf/v9"`, 1),
		"other.json":     `{"schema": "jmh/1"}`,
		"noschema.json":  `{"runs": []}`,
		"empty.json":     "",
		"blank.txt":      "\n \n",
		"notes.txt":      "no benchmark here\n",
		"badline.txt":    "goos: linux\nBenchmarkA-2 100 12 ns/op\nBenchmarkA-2 100 zz ns/op\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, "adir"), 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestReportBadInput(t *testing.T) {
	dir := badFiles(t)
	bad := func(name string) string { return filepath.Join(dir, name) }
	list := fixture("list.json")
	tests := []struct {
		args []string
		want string // the whole of stderr
	}{
		{[]string{"nosuch.json"}, "gcperf: report: nosuch.json: no such file or directory"},
		{[]string{bad("adir")}, "gcperf: report: " + bad("adir") + ": is a directory"},
		{[]string{bad("truncated.json")}, "gcperf: report: " + bad("truncated.json") + ": not a gcperf result: truncated JSON"},
		{[]string{bad("empty.json")}, "gcperf: report: " + bad("empty.json") + ": not a gcperf result: truncated JSON"},
		{[]string{bad("future.json")}, "gcperf: report: " + bad("future.json") + `: unsupported schema "gcperf/v9": this gcperf reads "gcperf/v2"`},
		{[]string{bad("other.json")}, "gcperf: report: " + bad("other.json") + `: not a gcperf result: schema "jmh/1"`},
		{[]string{bad("noschema.json")}, "gcperf: report: " + bad("noschema.json") + `: not a gcperf result: no "schema" key`},
		{[]string{bad("notes.txt")}, "gcperf: report: " + bad("notes.txt") + ": not a gcperf result: invalid character 'o' in literal null (expecting 'u')"},
		{[]string{"-format", "yaml", list}, "gcperf: report: -format yaml: unknown format (json, csv, xml, bench, hgrm, html or text)"},
		{[]string{"-o", filepath.Join(dir, "no", "such", "out.txt"), list}, "gcperf: report: -o " + filepath.Join(dir, "no", "such", "out.txt") + ": cannot write there: no such file or directory"},
		{[]string{}, "gcperf: report takes one saved result, FILE.json; got 0 arguments"},
		{[]string{list, list}, "gcperf: report takes one saved result, FILE.json; got 2 arguments"},
		{[]string{"-x", list}, "gcperf: flag provided but not defined: -x (gcperf report -h lists the flags)"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			code, stdout, stderr := gcperf(t, nil, append([]string{"report"}, tt.args...)...)
			checkBad(t, code, stdout, stderr, tt.want)
		})
	}
}

// The hand-written benchmark files: Encode-2 is 20% slower in new (6
// samples a side), Decode-2 unchanged, Legacy-2 and Fresh-2 on one side only.
var (
	benchOld = filepath.Join("testdata", "compare_old.txt")
	benchNew = filepath.Join("testdata", "compare_new.txt")
)

func TestCompareBench(t *testing.T) {
	code, stdout, stderr := gcperf(t, nil, "compare", benchOld, benchNew)
	if code != 0 || stderr != "" {
		t.Fatalf("exit %d, stderr:\n%s", code, stderr)
	}
	golden(t, "compare_bench.golden", stdout)

	tests := []struct {
		fail   string
		code   int
		stderr string
	}{
		{"5%", 1, "gcperf: compare: regression beyond -fail 5%: Encode-2 ns/op +20.03% (p=0.002)\n"},
		{"5", 1, "gcperf: compare: regression beyond -fail 5%: Encode-2 ns/op +20.03% (p=0.002)\n"},
		{"20%", 1, "gcperf: compare: regression beyond -fail 20%: Encode-2 ns/op +20.03% (p=0.002)\n"},
		{"20.1%", 0, ""},
		{"50%", 0, ""},
	}
	for _, tt := range tests {
		code, out, stderr := gcperf(t, nil, "compare", "-fail", tt.fail, benchOld, benchNew)
		if code != tt.code || stderr != tt.stderr {
			t.Errorf("-fail %s: exit %d, stderr %q; want %d, %q", tt.fail, code, stderr, tt.code, tt.stderr)
		}
		if out != stdout {
			t.Errorf("-fail %s changed the table:\n%s", tt.fail, out)
		}
	}
	// The other way round, Encode-2 got faster: no regression.
	if code, _, stderr := gcperf(t, nil, "compare", "-fail", "5%", benchNew, benchOld); code != 0 {
		t.Errorf("new vs old: exit %d, stderr %q", code, stderr)
	}

	code, stdout, stderr = gcperf(t, nil, "compare", "-json", "-fail", "5%", benchOld, benchNew)
	if code != 1 {
		t.Errorf("-json -fail 5%%: exit %d, stderr %q", code, stderr)
	}
	var doc map[string]any
	if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
		t.Fatalf("%v in:\n%s", err, stdout)
	}
	// The rows follow the old file: Encode-2 ns/op, B/op, allocs/op, Decode-2
	// ns/op, MB/s, B/op, allocs/op.
	for key, want := range map[string]any{
		"schema": "gcperf-compare/v1", "alpha": 0.05, "fail_pct": 5.0,
		"comparisons.0.name": "Encode-2", "comparisons.0.unit": "ns/op", "comparisons.0.significant": true,
		"comparisons.0.regression": true, "comparisons.0.old.n": 6.0, "comparisons.0.new.n": 6.0,
		"comparisons.3.name": "Decode-2", "comparisons.3.unit": "ns/op", "comparisons.3.significant": false,
		"comparisons.3.regression": false, "comparisons.4.unit": "MB/s", "comparisons.4.better": 1.0,
		"old.runs_within_one_process": false,
	} {
		if got, ok := lookup(doc, key); !ok || got != want {
			t.Errorf("%s = %v, want %v", key, got, want)
		}
	}
	if d, _ := lookup(doc, "comparisons.0.delta"); d.(float64) < 0.19 || d.(float64) > 0.21 {
		t.Errorf("comparisons.0.delta = %v, want about 0.20", d)
	}
}

// TestCompareResults compares gcperf results: one process each, one
// sample of each figure, which no test can judge.
func TestCompareResults(t *testing.T) {
	code, stdout, stderr := gcperf(t, nil, "compare", fixture("threads.json"), fixture("threads.json"))
	if code != 0 || stderr != "" {
		t.Fatalf("exit %d, stderr:\n%s", code, stderr)
	}
	golden(t, "compare_threads.golden", stdout)
	for _, want := range []string{"no test can judge a difference from one sample each", "no test: one sample per side"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("the output does not say %q", want)
		}
	}

	// A copy of list.json whose mean runtime is 50% longer, and its P99
	// twice as long.
	d, err := report.ReadFile(fixture("list.json"))
	if err != nil {
		t.Fatal(err)
	}
	d.Operations[0].Runtime.Mean = d.Operations[0].Runtime.Mean * 3 / 2
	d.Operations[0].Runtime.P99 *= 2
	slower := filepath.Join(t.TempDir(), "slower.json")
	var b bytes.Buffer
	if err := report.JSON(&b, d); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(slower, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	// -fail cannot judge one sample each: exit 2, saying why, whatever
	// the threshold.
	for _, pct := range []string{"5%", "60%"} {
		code, stdout, stderr = gcperf(t, nil, "compare", "-fail", pct, fixture("list.json"), slower)
		want := "gcperf: compare: -fail " + pct + ": cannot judge a difference from one sample each (" + fixture("list.json") + " and " + slower +
			" hold one process each): gcperf -count N (N >= 4) repeats the benchmark in N processes\n"
		if code != 2 || stderr != want {
			t.Errorf("-fail %s: exit %d, stderr %q; want 2, %q", pct, code, stderr, want)
		}
		for _, want := range []string{"+50.00%  no test: one sample per side", "+100.00%  no test: one sample per side"} {
			if !strings.Contains(stdout, want) {
				t.Errorf("stdout does not hold %q:\n%s", want, stdout)
			}
		}
	}
}

func TestCompareBadInput(t *testing.T) {
	dir := badFiles(t)
	bad := func(name string) string { return filepath.Join(dir, name) }
	list := fixture("list.json")
	tests := []struct {
		args []string
		want string // the whole of stderr
	}{
		{[]string{"nosuch.json", list}, "gcperf: compare: nosuch.json: no such file or directory"},
		{[]string{list, "nosuch.txt"}, "gcperf: compare: nosuch.txt: no such file or directory"},
		{[]string{bad("adir"), list}, "gcperf: compare: " + bad("adir") + ": is a directory"},
		{[]string{bad("truncated.json"), list}, "gcperf: compare: " + bad("truncated.json") + ": not a gcperf result: truncated JSON"},
		{[]string{list, bad("future.json")}, "gcperf: compare: " + bad("future.json") + `: unsupported schema "gcperf/v9": this gcperf reads "gcperf/v2"`},
		{[]string{bad("other.json"), list}, "gcperf: compare: " + bad("other.json") + `: not a gcperf result: schema "jmh/1"`},
		{[]string{bad("noschema.json"), list}, "gcperf: compare: " + bad("noschema.json") + `: not a gcperf result: no "schema" key`},
		{[]string{bad("empty.json"), list}, "gcperf: compare: " + bad("empty.json") + ": empty file"},
		{[]string{bad("blank.txt"), list}, "gcperf: compare: " + bad("blank.txt") + ": empty file"},
		{[]string{bad("notes.txt"), list}, "gcperf: compare: " + bad("notes.txt") + ": not a gcperf result nor a Go benchmark file: no benchmark result line"},
		{[]string{benchOld, bad("badline.txt")}, "gcperf: compare: " + bad("badline.txt") + ": line 3: parsing measurement: invalid syntax"},
		{[]string{list, fixture("threads.json")}, "gcperf: compare: " + list + " and " + fixture("threads.json") + " have no operation in common"},
		{[]string{list, benchOld}, "gcperf: compare: " + list + " and " + benchOld + " have no operation in common"},
		{[]string{"-fail", "abc", list, list}, `gcperf: invalid value "abc" for flag -fail: not a percentage such as 5% (gcperf compare -h lists the flags)`},
		{[]string{"-fail", "-5%", list, list}, `gcperf: invalid value "-5%" for flag -fail: must not be negative (gcperf compare -h lists the flags)`},
		{[]string{"-fail", "", list, list}, `gcperf: invalid value "" for flag -fail: not a percentage such as 5% (gcperf compare -h lists the flags)`},
		{[]string{"-alpha", "0", list, list}, "gcperf: compare: -alpha must be between 0 and 1, got 0"},
		{[]string{"-alpha", "1.5", list, list}, "gcperf: compare: -alpha must be between 0 and 1, got 1.5"},
		{[]string{"-alpha", "x", list, list}, `gcperf: invalid value "x" for flag -alpha: parse error (gcperf compare -h lists the flags)`},
		{[]string{list}, "gcperf: compare takes two files, OLD and NEW; got 1 arguments"},
		{[]string{}, "gcperf: compare takes two files, OLD and NEW; got 0 arguments"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			code, stdout, stderr := gcperf(t, nil, append([]string{"compare"}, tt.args...)...)
			checkBad(t, code, stdout, stderr, tt.want)
		})
	}
}

// TestOutputFiles runs a short benchmark with every output flag.
func TestOutputFiles(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "new", "out")
	args := []string{"run", "-runs", "20", "-warmup", "0", "-outliers", "0", "-seed", "5", "-out", dir, "noop"}
	code, stdout, stderr := gcperf(t, nil, args...)
	if code != 0 {
		t.Fatalf("exit %d; stderr:\n%s", code, stderr)
	}
	for _, f := range bench.Formats {
		b, err := os.ReadFile(filepath.Join(dir, f.File))
		if err != nil || len(b) == 0 {
			t.Errorf("%s: %d bytes, %v", f.File, len(b), err)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "report.txt")); string(b) != stdout {
		t.Errorf("report.txt differs from the report on stdout")
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != len(bench.Formats) {
		t.Errorf("%s holds %d files, want %d (no temporary left)", dir, len(entries), len(bench.Formats))
	}
	// What -out wrote, gcperf reads back.
	for _, a := range [][]string{
		{"report", filepath.Join(dir, "result.json")},
		{"compare", filepath.Join(dir, "result.json"), filepath.Join(dir, "result.json")},
		{"compare", filepath.Join(dir, "bench.txt"), filepath.Join(dir, "bench.txt")},
	} {
		if code, _, stderr := gcperf(t, nil, a...); code != 0 {
			t.Errorf("%v: exit %d; stderr:\n%s", a, code, stderr)
		}
	}

	// A second run into the same directory is refused before it runs.
	code, stdout, stderr = gcperf(t, nil, args...)
	checkBad(t, code, stdout, stderr, "gcperf: -out "+dir+": "+filepath.Join(dir, "result.json")+": file exists (use -overwrite to replace it)")
	args = append([]string{"run", "-overwrite"}, args[1:]...)
	if code, _, stderr := gcperf(t, nil, args...); code != 0 {
		t.Errorf("-overwrite: exit %d; stderr:\n%s", code, stderr)
	}

	// One format on stdout: the text report goes to stderr.
	for _, f := range bench.Formats {
		if f.Name == "text" {
			continue
		}
		code, stdout, stderr := gcperf(t, nil, "run", "-runs", "5", "-warmup", "0", "-outliers", "0", "-"+f.Name, "-", "noop")
		if code != 0 {
			t.Fatalf("-%s -: exit %d; stderr:\n%s", f.Name, code, stderr)
		}
		// The default report's last line, which no other format holds.
		const last = "-v adds the settings in full, the statistics table, the worst runs and the explanations."
		if !strings.Contains(stderr, last) || strings.Contains(stdout, last) {
			t.Errorf("-%s -: the text report is not on stderr alone", f.Name)
		}
		if stdout == "" {
			t.Errorf("-%s -: nothing on stdout", f.Name)
		}
	}
}

// Past -keep-runs, the command says how many runs kept their records and
// the JSON result carries the rest as its timeline; -duration bounds the
// runs by time through the flag.
func TestKeepRunsAndDuration(t *testing.T) {
	dir := t.TempDir()
	res := filepath.Join(dir, "r.json")
	code, stdout, stderr := gcperf(t, nil, "run", "-q", "-v", "-warmup", "0", "-runs", "300", "-keep-runs", "10", "-json", res, "noop")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if want := "Per-run records: the first 10 of the 300 runs (-keep-runs); every statistic covers all of them"; !strings.Contains(stdout, want) {
		t.Errorf("the report does not say %q:\n%s", want, stdout)
	}
	b, err := os.ReadFile(res)
	if err != nil {
		t.Fatal(err)
	}
	var d struct {
		Runs     []json.RawMessage `json:"runs"`
		Timeline []struct {
			FirstRun int   `json:"first_run"`
			Runs     int64 `json:"runs"`
		} `json:"timeline"`
		Harness struct {
			RunsKept int    `json:"runs_kept"`
			LiveHeap uint64 `json:"live_heap_bytes"`
		} `json:"harness"`
	}
	if err := json.Unmarshal(b, &d); err != nil {
		t.Fatal(err)
	}
	var spanned int64
	for _, s := range d.Timeline {
		spanned += s.Runs
	}
	if len(d.Runs) != 10 || d.Harness.RunsKept != 10 || d.Harness.LiveHeap == 0 || spanned != 290 || d.Timeline[0].FirstRun != 11 {
		t.Errorf("%d runs, runs_kept %d, live heap %d, timeline of %d runs from run %d; want 10, 10, some, 290 from 11",
			len(d.Runs), d.Harness.RunsKept, d.Harness.LiveHeap, spanned, d.Timeline[0].FirstRun)
	}

	code, stdout, stderr = gcperf(t, nil, "run", "-q", "-v", "-duration", "50ms", "-warmup-duration", "10ms", "noop")
	if code != 0 {
		t.Fatalf("-duration: exit %d: %s", code, stderr)
	}
	if !strings.Contains(stdout, "Settings: warmups for 10ms, runs for 50ms,") || !strings.Contains(stderr, "timed runs for 50ms") {
		t.Errorf("-duration 50ms -warmup-duration 10ms:\nstdout %s\nstderr %s", stdout, stderr)
	}
}
