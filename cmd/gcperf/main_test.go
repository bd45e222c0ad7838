package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// gcperf runs the command in-process.
func gcperf(t *testing.T, sig <-chan os.Signal, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(args, &out, &errb, sig)
	return code, out.String(), errb.String()
}

// golden compares got with testdata/name, or rewrites it with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs from the output (go test -update rewrites it):\n--- got\n%s\n--- want\n%s", path, got, want)
	}
}

func TestBadInput(t *testing.T) {
	dir := t.TempDir()
	existing := filepath.Join(dir, "exists.json")
	if err := os.WriteFile(existing, []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	outDir := filepath.Join(dir, "out") // holds a result.csv already
	emptyDir := filepath.Join(dir, "empty")
	for _, d := range []string{outDir, emptyDir} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(outDir, "result.csv"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	short := []string{"-runs", "5", "-outliers", "0"}
	with := func(args ...string) []string { return append(append([]string{}, short...), args...) }
	tests := []struct {
		args []string
		want string // the whole of stderr
	}{
		{[]string{"-size", "0"}, "gcperf: -size must be at least 1 (KB), got 0"},
		{[]string{"-size", "-5"}, "gcperf: -size must be at least 1 (KB), got -5"},
		{[]string{"-chunk", "0"}, "gcperf: -chunk must be at least 1, got 0"},
		{[]string{"-base", "-1"}, "gcperf: -base must be at least 0, got -1"},
		{[]string{"-runs", "0"}, "gcperf: -runs must be at least 1, got 0"},
		{[]string{"-runs", "-3"}, "gcperf: -runs must be at least 1, got -3"},
		{[]string{"-threads", "0"}, "gcperf: -threads must be at least 1, got 0"},
		{[]string{"-warmup", "-1"}, "gcperf: -warmup must be at least 0, got -1"},
		{[]string{"-outliers", "-1"}, "gcperf: -outliers must be at least 0, got -1"},
		{[]string{"-runs", "10", "-outliers", "5"}, "gcperf: -outliers discards the best and worst 5 of 10 runs, leaving none: 2*outliers must be below runs"},
		{[]string{"-delay", "-1ms"}, "gcperf: -delay must not be negative, got -1ms"},
		{[]string{"-timeout", "-1s"}, "gcperf: -timeout must not be negative, got -1s"},
		{[]string{"-gcstats", "some"}, `gcperf: -gcstats must be run, total or off, got "some"`},
		{[]string{"-runs", "abc"}, `gcperf: invalid value "abc" for flag -runs: parse error (gcperf -h lists the flags)`},
		{[]string{"-size", "1.5"}, `gcperf: invalid value "1.5" for flag -size: parse error (gcperf -h lists the flags)`},
		{[]string{"-delay", "soon"}, `gcperf: invalid value "soon" for flag -delay: parse error (gcperf -h lists the flags)`},
		{[]string{"-nosuch"}, `gcperf: flag provided but not defined: -nosuch (gcperf -h lists the flags)`},
		{[]string{"extra"}, `gcperf: unexpected argument "extra" (gcperf run OP... runs named operations)`},
		{[]string{"-size", "1073741824", "-base", "1"}, "gcperf: -size 1073741824 with -base 1 and -chunk 32 needs 33.0TiB live plus "},
		{[]string{"-runs", "5", "-outliers", "0", "-json", existing}, "gcperf: -json " + existing + ": file exists (use -overwrite to replace it)"},
		{[]string{"-runs", "5", "-outliers", "0", "-json", filepath.Join(dir, "no", "such", "dir.json")}, "gcperf: -json " + filepath.Join(dir, "no", "such", "dir.json") + ": cannot write there: no such file or directory"},
		{with("-json", "-", "-csv", "-"), "gcperf: -json - and -csv -: at most one format can go to stdout"},
		{with("-xml", "-", "-hgrm", "-", "-bench", "-"), "gcperf: -xml - and -bench -: at most one format can go to stdout"},
		{with("-out", existing), "gcperf: -out " + existing + ": not a directory"},
		{with("-http-public"), "gcperf: -http-public goes with -http ADDR"},
		{with("-http", "0.0.0.0:0"), "gcperf: -http 0.0.0.0:0: not a loopback address: other machines could read the profiles, heap and stacks it serves (-http-public allows it)"},
		{with("-http", "6060"), "gcperf: -http 6060: not host:port, such as 127.0.0.1:6060"},
		{with("-out", "-"), "gcperf: -out -: -out takes a directory; - (stdout) is for one format's flag"},
		{with("-out", outDir), "gcperf: -out " + outDir + ": " + filepath.Join(outDir, "result.csv") + ": file exists (use -overwrite to replace it)"},
		{with("-hgrm", dir), "gcperf: -hgrm " + dir + ": is a directory"},
		{with("-csv", existing), "gcperf: -csv " + existing + ": file exists (use -overwrite to replace it)"},
		{with("-bench", filepath.Join(dir, "no", "b.txt")), "gcperf: -bench " + filepath.Join(dir, "no", "b.txt") + ": cannot write there: no such file or directory"},
		{with("-json", filepath.Join(emptyDir, "result.json"), "-out", emptyDir), "gcperf: -out " + emptyDir + ": " + filepath.Join(emptyDir, "result.json") + ": the same file as -json " + filepath.Join(emptyDir, "result.json")},
		{[]string{"run"}, "gcperf: run needs at least one operation (gcperf list shows them)"},
		{[]string{"run", "nosuch"}, `gcperf: unknown operation "nosuch" (gcperf list shows them)`},
		{[]string{"run", "spin", "-d", "abc"}, `gcperf: spin: bad parameter value: d="abc": not a duration (such as 100us or 1.5ms)`},
		{[]string{"run", "spin", "-d", "-1s"}, `gcperf: spin: bad parameter value: d="-1s": must be at least 0s`},
		{[]string{"run", "spin", "-x", "1"}, `gcperf: spin: unknown parameter "x" (spin takes d)`},
		{[]string{"run", "spin", "-d"}, `gcperf: spin: parameter -d needs a value`},
		{[]string{"run", "spin", "-d", "1ms", "d=2ms"}, `gcperf: spin: parameter d given twice`},
		{[]string{"run", "noop", "-runs", "5"}, `gcperf: flag -runs after the operations: flags go before the first operation`},
		{[]string{"run", "spin", "d=1ms", "-runs", "5"}, `gcperf: flag -runs after the operations: flags go before the first operation`},
		{[]string{"run", "spin", "-x", "5"}, `gcperf: spin: unknown parameter "x" (spin takes d)`},
		{[]string{"-runs", "2", "-outliers", "1"}, "gcperf: -outliers discards the best and worst 1 of 2 runs, leaving none: 2*outliers must be below runs"},
		{[]string{"-size", "1", "-base", "8796093022208"}, "gcperf: -size 1 with -base 8796093022208 and -chunk 32 needs 8.4PiB live"},
		{[]string{"-base", "9000000000000"}, "gcperf: -size 1024 with -base 9000000000000 and -chunk 32 needs more than 8EiB live"},
		{[]string{"run", "-sample", "3", "noop", "spin"}, "gcperf: -sample draws 3 operations per run without repeats from a mix of 2"},
		{[]string{"run", "alloc.list", "size=0"}, `gcperf: alloc.list: bad parameter value: size="0": must be at least 1`},
		{[]string{"list", "x"}, `gcperf: list takes no arguments, got "x"`},
		{[]string{"run", "-rate", "fast", "noop"}, `gcperf: -rate: "fast" is not operations per second such as 200/s`},
		{[]string{"run", "-rate", "200/m", "noop"}, `gcperf: -rate: "200/m" is not operations per second such as 200/s`},
		{[]string{"run", "-rate", "-5/s", "noop"}, `gcperf: -rate: "-5/s" is not operations per second such as 200/s`},
		{[]string{"run", "-rate", "NaN", "noop"}, `gcperf: -rate: "NaN" is not operations per second such as 200/s`},
		{[]string{"run", "-rate", "100/s", "-delay", "1ms", "noop"}, `gcperf: -rate cannot be combined with a delay (-delay): the schedule sets the pace`},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			code, stdout, stderr := gcperf(t, nil, tt.args...)
			if code != 2 {
				t.Errorf("exit status %d, want 2; stderr:\n%s", code, stderr)
			}
			if strings.Count(stderr, "\n") != 1 {
				t.Errorf("stderr is not one line:\n%s", stderr)
			}
			if !strings.HasPrefix(stderr, tt.want) {
				t.Errorf("stderr:\n%s\nwant it to start with:\n%s", stderr, tt.want)
			}
			if stdout != "" {
				t.Errorf("stdout is not empty:\n%s", stdout)
			}
		})
	}
	if b, err := os.ReadFile(existing); err != nil || string(b) != "{}" {
		t.Errorf("the existing file was touched: %q, %v", b, err)
	}
	for _, d := range []string{outDir, emptyDir} {
		if entries, _ := os.ReadDir(d); len(entries) != map[string]int{outDir: 1, emptyDir: 0}[d] {
			t.Errorf("%s holds %d files after refused runs", d, len(entries))
		}
	}
}

// With 1 or 2 runs the default -outliers 1 cannot apply: the runs are kept.
func TestFewRuns(t *testing.T) {
	for _, runs := range []string{"1", "2"} {
		code, stdout, stderr := gcperf(t, nil, "run", "-v", "-runs", runs, "noop")
		if code != 0 || !strings.Contains(stdout, "Outliers Dropped (each end)") {
			t.Errorf("-runs %s: exit %d, stderr %q", runs, code, stderr)
		}
	}
}

func TestList(t *testing.T) {
	code, stdout, stderr := gcperf(t, nil, "list")
	if code != 0 || stderr != "" {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	golden(t, "list.golden", stdout)
}

func TestHelp(t *testing.T) {
	for _, args := range [][]string{{"-h"}, {"run", "-h"}, {"help"}, {"env", "-h"}, {"report", "-h"}, {"compare", "-h"}, {"exec", "-h"}} {
		code, stdout, stderr := gcperf(t, nil, args...)
		if code != 0 || stderr != "" {
			t.Fatalf("%v: exit %d, stderr %q", args, code, stderr)
		}
		golden(t, "help_"+strings.Join(args, "_")+".golden", stdout)
	}
}

// mask replaces what differs from one run to the next (times, rates, run
// numbers of the worst runs, the Go version, byte counts) so that the shape
// of the report can be compared with a golden file. Counts, settings and the
// seed stay, as they must not change. The GC paragraph is masked whole: its
// lines depend on whether a cycle ended in the timed runs, which varies with
// what ran before in the test process (report's TestGCText checks them).
func mask(s string) string {
	var out []string
	spaces := regexp.MustCompile(` +`)
	durations := regexp.MustCompile(`[0-9]+(\.[0-9]+)?(ns|µs|ms|s)\b`)
	numbers := regexp.MustCompile(`[0-9]+(\.[0-9]+)?(B|KiB|MiB|GiB)?`)
	bytes := regexp.MustCompile(`[0-9.]+(B|KiB|MiB|GiB) in [0-9]+ objects`)
	setup := regexp.MustCompile(`^[0-9]+ (of [0-9]+ )?runs? in `) // the summary's line of settings and environment
	// The verdicts on the causes of the slow runs, one line each in a
	// fixed order, depend on what the machine did: keep which cause each
	// line is about.
	causes := regexp.MustCompile(`^ (GC|Stop-the-world pauses|Minor page faults|Major page faults|Involuntary context switches|Voluntary context switches|Scheduling waits)\b`)
	inTail := false
	lines := strings.Split(s, "\n")
	for i := 0; i < len(lines); i++ {
		l := spaces.ReplaceAllString(lines[i], " ")
		if strings.HasPrefix(l, "Why the tail: ") {
			inTail = true
		} else if !strings.HasPrefix(l, " ") {
			inTail = false
		}
		if strings.HasPrefix(l, "Steal time ") {
			continue // counted in ticks of 10ms: a short run may have none
		}
		if m := causes.FindString(l); inTail && m != "" {
			out = append(out, m+" <verdict>")
			continue
		}
		if inTail && strings.Contains(l, "(Fisher's exact test: p = ") {
			continue // under a rare cause's verdict: which causes are rare varies too
		}
		if i := strings.Index(l, "; had "); i >= 0 && strings.HasPrefix(strings.TrimSpace(l), "Run, Time") {
			l = l[:i] // which causes the worst runs had varies
		}
		if strings.HasPrefix(l, "Note: these runs are so short") {
			// Printed or not depending on how fast the machine ran them:
			// drop it, its two more lines and the empty line before it.
			i += 2
			if len(out) > 0 && out[len(out)-1] == "" {
				out = out[:len(out)-1]
			}
			continue
		}
		// The summary's lines that wrap where their figures are long:
		// one line each.
		if setup.MatchString(l) || strings.HasPrefix(l, "GC: ") || strings.HasPrefix(l, "GCPerfP99, ") {
			for i+1 < len(lines) && strings.HasPrefix(lines[i+1], "   ") {
				i++
				l += " " + strings.TrimSpace(lines[i])
			}
		}
		switch t := strings.TrimSpace(l); {
		case setup.MatchString(t):
			// the runs, the warmups and the seed; the runtime and the machine vary
			l = durations.ReplaceAllString(t[:strings.Index(t, "; ")], "<d>") + "; <machine>"
		case strings.HasPrefix(t, "GC: "), strings.HasPrefix(t, "GCPerfP99, "):
			l = strings.Replace(l, " cycle,", " cycles,", 1) // 1 cycle or more
			l = numbers.ReplaceAllString(durations.ReplaceAllString(l, "<d>"), "<n>")
		case strings.HasPrefix(t, "GC during the timed runs: "):
			for i+1 < len(lines) && lines[i+1] != "" {
				i++
			}
			l = "GC during the timed runs: <masked>"
		case strings.HasPrefix(t, "Harness: "): // what the runtime counts for it varies a little
			l = regexp.MustCompile(`[0-9.]+(B|KiB|MiB)`).ReplaceAllString(l, "<bytes>")
		case strings.HasPrefix(t, "Go: "), strings.HasPrefix(t, "Host: "), strings.HasPrefix(t, "Limits: "):
			l = t[:strings.Index(t, ":")] + ": <machine>"
		case strings.HasPrefix(t, "Operations per"), strings.HasPrefix(t, "Operation Mixes"),
			strings.HasPrefix(t, "Throughput"), strings.HasPrefix(t, "Run, Time"), strings.HasPrefix(t, "Actual"),
			strings.HasPrefix(t, "GC "), strings.HasPrefix(t, "allocated "), strings.Contains(t, "worst runs overlapped"),
			strings.HasPrefix(t, "Why the tail: "):
			l = numbers.ReplaceAllString(durations.ReplaceAllString(l, "<d>"), "<n>")
		default:
			l = bytes.ReplaceAllString(durations.ReplaceAllString(l, "<d>"), "<bytes>")
		}
		out = append(out, l)
	}
	return strings.Join(out, "\n")
}

func TestDefaultRun(t *testing.T) {
	code, stdout, stderr := gcperf(t, nil, "-size", "1", "-base", "4", "-chunk", "8", "-warmup", "3", "-runs", "200", "-seed", "7")
	if code != 0 {
		t.Fatalf("exit %d; stderr:\n%s", code, stderr)
	}
	if want := "gcperf: running alloc.list size=1 base=4 chunk=8: 3 warmups, 200 timed runs, seed 7; interrupt stops after the current run\n"; stderr != want {
		t.Errorf("stderr %q, want %q", stderr, want)
	}
	golden(t, "default.golden", mask(stdout))
}

// TestVerbose: -v prints the full report below the first screen, the
// same screen as without it, and no line per run on stderr.
func TestVerbose(t *testing.T) {
	args := []string{"-size", "1", "-base", "4", "-chunk", "8", "-warmup", "3", "-runs", "200", "-seed", "7"}
	code, stdout, stderr := gcperf(t, nil, append([]string{"-v"}, args...)...)
	if code != 0 {
		t.Fatalf("exit %d; stderr:\n%s", code, stderr)
	}
	if strings.Contains(stderr, "Run start") {
		t.Errorf("-v printed a line per run on stderr:\n%s", stderr)
	}
	for _, want := range []string{"\nStatistics (", "\nGC during the timed runs: ", "\nResults (GCPerfP99: ", "worst runs dropped", "\nSettings: "} {
		if !strings.Contains(stdout, want) {
			t.Errorf("-v: the report lacks %q:\n%s", want, stdout)
		}
	}
	_, short, _ := gcperf(t, nil, args...)
	if strings.Contains(short, "\nStatistics (") {
		t.Errorf("without -v, the report holds the statistics table:\n%s", short)
	}
	// The first screen is the same, to the line before the tail.
	first, _, _ := strings.Cut(mask(short), "\nWhy the tail")
	if !strings.HasPrefix(mask(stdout), first) {
		t.Errorf("-v changed the first screen:\n%s\nwithout -v:\n%s", mask(stdout), first)
	}
}

// TestShowRuns: -show-runs prints a start and an end line per timed run.
func TestShowRuns(t *testing.T) {
	code, _, stderr := gcperf(t, nil, "run", "-show-runs", "-warmup", "2", "-runs", "3", "-outliers", "0", "noop")
	if code != 0 {
		t.Fatalf("exit %d; stderr:\n%s", code, stderr)
	}
	lines := strings.Split(strings.TrimSpace(stderr), "\n")[1:] // after the "running" line
	re := regexp.MustCompile(`^\[\d+\.\d{3}s\] Run (start \d|end \d: \d+(\.\d+)?(ns|µs|ms|s)( \[GC [^]]*\])?( \[faults [^]]*\])?)$`)
	if len(lines) != 6 {
		t.Fatalf("got %d lines, want 6 (a start and an end per timed run):\n%s", len(lines), stderr)
	}
	for _, l := range lines {
		if !re.MatchString(l) {
			t.Errorf("line %q does not match %v", l, re)
		}
	}
}

func TestJSON(t *testing.T) {
	path := filepath.Join(t.TempDir(), "out.json")
	for _, args := range [][]string{
		{"run", "-runs", "50", "-seed", "3", "-json", "-", "noop", "spin", "-d", "10us"},
		{"run", "-runs", "50", "-seed", "3", "-threads", "2", "-json", path, "noop", "spin", "-d", "10us"},
	} {
		toStdout := args[len(args)-5] == "-"
		code, stdout, stderr := gcperf(t, nil, args...)
		if code != 0 {
			t.Fatalf("exit %d; stderr:\n%s", code, stderr)
		}
		data := []byte(stdout)
		if !toStdout {
			var err error
			if data, err = os.ReadFile(path); err != nil {
				t.Fatal(err)
			}
		} else if !strings.Contains(stderr, "Repeat with -seed") {
			t.Errorf("with -json -, the text report should go to stderr; stderr:\n%s", stderr)
		}
		var doc map[string]any
		if err := json.Unmarshal(data, &doc); err != nil {
			t.Fatalf("%v in:\n%s", err, data)
		}
		for _, key := range []string{
			"schema", "config.runs", "config.warmups", "config.outliers", "config.threads", "config.seed",
			"operations.0.name", "operations.1.runtime.count", "operations.0.runtime.mean_ns", "operations.0.runtime.geomean_ns",
			"operations.0.runtime.min_ns", "operations.0.runtime.max_ns", "operations.0.runtime.stddev_ns",
			"operations.0.runtime.p50_ns", "operations.0.runtime.p90_ns", "operations.0.runtime.p99_ns",
			"operations.0.runtime.p999_ns", "operations.0.runtime.p9999_ns", "operations.0.response.p99_ns",
			"operations.0.errors.total", "operations.0.errors.by_category", "operations.0.ops_per_sec",
			"mix.runtime.mean_ns", "mix.mixes_per_hour", "runs.49.run", "runs.0.runtime_ns", "runs.0.response_ns",
			"interrupted", "env.go.version", "harness.timed_heap_alloc_bytes",
		} {
			if _, ok := lookup(doc, key); !ok {
				t.Errorf("%v: no key %s", args, key)
			}
		}
		if v, _ := lookup(doc, "schema"); v != "gcperf/v2" {
			t.Errorf("schema %v", v)
		}
		if v, _ := lookup(doc, "config.seed"); v != 3.0 {
			t.Errorf("config.seed %v, want 3", v)
		}
		if v, _ := lookup(doc, "operations.1.runtime.count"); v != 50.0 {
			t.Errorf("operations.1.runtime.count %v, want 50", v)
		}
		if v, _ := lookup(doc, "operations.1.runtime.min_ns"); v.(float64) < 10e3 {
			t.Errorf("spin -d 10us has a min runtime of %vns", v)
		}
	}
}

// lookup follows a dotted path of keys and indexes into decoded JSON.
func lookup(v any, path string) (any, bool) {
	for _, k := range strings.Split(path, ".") {
		switch x := v.(type) {
		case map[string]any:
			var ok bool
			if v, ok = x[k]; !ok {
				return nil, false
			}
		case []any:
			i := 0
			for _, c := range k {
				i = i*10 + int(c-'0')
			}
			if i >= len(x) {
				return nil, false
			}
			v = x[i]
		default:
			return nil, false
		}
	}
	return v, true
}

func TestInterrupt(t *testing.T) {
	sig := make(chan os.Signal, 1)
	go func() {
		time.Sleep(100 * time.Millisecond)
		sig <- os.Interrupt
	}()
	code, stdout, stderr := gcperf(t, sig, "run", "-runs", "100000", "-warmup", "0", "sleep", "-d", "1ms")
	if code != 1 {
		t.Errorf("exit %d, want 1", code)
	}
	if !strings.Contains(stderr, "interrupted: stopping after the runs in progress") {
		t.Errorf("stderr:\n%s", stderr)
	}
	if !regexp.MustCompile(`Interrupted: \d+ of 100000 timed runs completed`).MatchString(stdout) {
		t.Errorf("stdout does not report the interruption:\n%s", stdout)
	}
}

func TestHalt(t *testing.T) {
	code, stdout, _ := gcperf(t, nil, "run", "-runs", "20", "-warmup", "0", "-timeout", "1ms", "-halt-on-timeout", "sleep", "-d", "50ms")
	if code != 1 {
		t.Errorf("exit %d, want 1", code)
	}
	if !strings.Contains(stdout, "Halted: timeout in run 1, sleep") {
		t.Errorf("stdout does not say why it halted:\n%s", stdout)
	}
}
