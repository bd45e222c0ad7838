package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"regexp"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/perf/benchfmt"

	"github.com/gcperf/gcperf/report"
)

// execChildEnv makes this test binary, re-executed by gcperf exec, a
// helper child (TestMain): its value says what the child does.
const execChildEnv = "GCPERF_TEST_EXEC"

// execKeep keeps the helper child's allocations alive between collections.
var execKeep [][]byte

// runExecChild is the helper child of gcperf exec's tests:
//
//   - alloc prints a line to stderr, allocates 64MiB in 64KiB pieces,
//     keeping the last 4MiB, runs runtime.GC three times, prints
//     "allocated" on stdout and exits 0 (its last trace line may be cut
//     short by the exit, so the tests count on two forced cycles);
//   - twice runs a copy of itself doing alloc, then does alloc itself: two
//     Go programs' traces on one stderr;
//   - spewerr writes 2MiB to stderr, then runs a collection;
//   - manygc allocates until the collector has run 1,500 times;
//   - spoof prints trace lines of its own, with pauses longer than its run;
//   - setgogc sets GOGC=100 itself (debug.SetGCPercent) and allocates
//     512MiB with 16MiB live;
//   - fail prints to stderr and exits with status 3;
//   - wait prints "waiting" on stdout, then exits 0 on SIGINT (after an
//     interrupt, as a well-behaved program does), or 4 after a minute;
//   - bench does alloc, then prints two results of a Go benchmark,
//     BenchmarkChild-2, as go test -bench -count 2 does.
func runExecChild(what string) int {
	switch what {
	case "bench":
		if code := runExecChild("alloc"); code != 0 {
			return code
		}
		fmt.Fprint(os.Stdout, "goos: linux\npkg: example.com/child\n"+
			"BenchmarkChild-2   \t 1000\t 1200 ns/op\t 64 B/op\t 2 allocs/op\n"+
			"BenchmarkChild-2   \t 1000\t 1300 ns/op\t 64 B/op\t 2 allocs/op\nPASS\n")
		return 0
	case "alloc":
		// First, before the collector runs, so that it lands between
		// trace lines, not inside one.
		fmt.Fprintln(os.Stderr, "the child's own stderr line")
		for i := range 1024 {
			b := make([]byte, 64<<10)
			b[0] = byte(i)
			execKeep = append(execKeep, b)
			if len(execKeep) > 64 {
				execKeep = execKeep[1:]
			}
		}
		for range 3 {
			runtime.GC()
		}
		fmt.Fprintln(os.Stdout, "allocated")
		return 0
	case "twice":
		// Two Go programs on one stderr, as under go run: a copy of this
		// one doing alloc, then this one doing alloc too.
		exe, err := os.Executable()
		if err != nil {
			return 98
		}
		cmd := exec.Command(exe)
		cmd.Env = append(os.Environ(), execChildEnv+"=alloc")
		cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
		if cmd.Run() != nil {
			return 97
		}
		return runExecChild("alloc")
	case "spewerr":
		// 2MiB on stderr, in lines of 1KiB, then a collection.
		line := append(bytes.Repeat([]byte("x"), 1023), '\n')
		for range 2 << 10 {
			os.Stderr.Write(line)
		}
		runtime.GC()
		return 0
	case "manygc":
		var ms runtime.MemStats
		for ms.NumGC < 1500 {
			for range 1000 {
				execKeep = append(execKeep[:0], make([]byte, 64<<10))
			}
			runtime.ReadMemStats(&ms)
		}
		return 0
	case "spoof":
		// Lines of its own that look like the runtime's: 100 cycles of
		// two pauses of 100ms each, in a run of a few milliseconds.
		for i := 1; i <= 100; i++ {
			fmt.Fprintf(os.Stderr, "gc %d @0.%03ds 0%%: 100+1.2+100 ms clock, 0.030+0.5/1.0/0.2+0.006 ms cpu, 4->4->1 MB, 4 MB goal, 0 MB stacks, 0 MB globals, 2 P\n", i, i)
		}
		return 0
	case "setgogc":
		// A program that sets its own GOGC, whatever its environment
		// says, then collects with 16MiB live.
		debug.SetGCPercent(100)
		ring := make([][]byte, 256)
		for i := range 8192 {
			ring[i%len(ring)] = make([]byte, 64<<10)
			if i%256 == 255 {
				runtime.GC() // a cycle whose goal tells the GOGC, at least
			}
		}
		execKeep = ring
		return 0
	case "fail":
		fmt.Fprintln(os.Stderr, "failing on purpose")
		return 3
	case "wait":
		c := make(chan os.Signal, 1)
		signal.Notify(c, os.Interrupt)
		fmt.Fprintln(os.Stdout, "waiting")
		select {
		case <-c:
			return 0
		case <-time.After(time.Minute):
			return 4
		}
	}
	return 99
}

// execChild returns the arguments that run this test binary as the helper
// child doing what, with the environment it needs.
func execChild(t *testing.T, what string) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv(execChildEnv, what)
	return exe
}

func TestExec(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("gcperf exec's figures are Linux's")
	}
	for _, tc := range []struct {
		name      string
		child     string   // the helper child, or ""
		argv      []string // the command after the child's path, or the whole command
		code      int
		stdout    string
		want      []string // in the report (stderr)
		wantNot   []string
		gcCycles  bool // the JSON holds GC cycles
		gcMissing bool
		sequences int // of the trace's processes, when gcCycles
	}{
		{
			name: "go child", child: "alloc", code: 0, stdout: "allocated\n",
			want: []string{
				"Status: exit status 0\n", "GC: ", " forced", "stop-the-world pauses totalling",
				"P50 ", "P99 ", "GODEBUG gctrace=1", "GOGC 50,", "the child's own stderr line\n",
			},
			wantNot:  []string{"gc 1 @", "unavailable"},
			gcCycles: true, sequences: 1,
		},
		{
			name: "two go programs", child: "twice", code: 0, stdout: "allocated\nallocated\n",
			want:     []string{"Status: exit status 0\n", " from 2 processes"},
			wantNot:  []string{"gc 1 @", "unavailable"},
			gcCycles: true, sequences: 2,
		},
		{
			name: "not a Go program", argv: []string{"/bin/sleep", "0.2"}, code: 0,
			want:      []string{"Command: /bin/sleep 0.2\n", "Status: exit status 0\n", "GC figures unavailable: no gctrace lines"},
			gcMissing: true,
		},
		{
			name: "failing child", child: "fail", code: 1,
			want:      []string{"Status: exit status 3\n", "failing on purpose\n", "GC figures unavailable"},
			gcMissing: true,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			argv := tc.argv
			if tc.child != "" {
				argv = []string{execChild(t, tc.child)}
			}
			out := filepath.Join(t.TempDir(), "exec.json")
			code, stdout, stderr := gcperf(t, nil, append([]string{"exec", "-gogc", "50", "-json", out, "--"}, argv...)...)
			if code != tc.code {
				t.Fatalf("exit %d, want %d; stderr:\n%s", code, tc.code, stderr)
			}
			if stdout != tc.stdout {
				t.Errorf("stdout %q, want %q", stdout, tc.stdout)
			}
			for _, w := range tc.want {
				if !strings.Contains(stderr, w) {
					t.Errorf("stderr lacks %q:\n%s", w, stderr)
				}
			}
			for _, w := range tc.wantNot {
				if strings.Contains(stderr, w) {
					t.Errorf("stderr holds %q:\n%s", w, stderr)
				}
			}
			b, err := os.ReadFile(out)
			if err != nil {
				t.Fatal(err)
			}
			var doc report.Document
			if err := json.Unmarshal(b, &doc); err != nil {
				t.Fatal(err)
			}
			d := doc.Exec
			if doc.Schema != report.Schema || d == nil || doc.Env.Host.OS == "" || d.Settings.GOGC != "50" || d.Wall <= 0 || d.Success != (tc.code == 0) {
				t.Fatalf("document: schema %q, GOGC %q, wall %d, success %v", doc.Schema, d.Settings.GOGC, d.Wall, d.Success)
			}
			if tc.gcCycles {
				if d.GC == nil || d.GC.Cycles < 3 || d.GC.Forced < 2 || d.GC.Pauses.Count < 2*(d.GC.Cycles-1) || d.GC.Pauses.Max <= 0 || len(d.GC.Goal) < d.GC.Cycles-1 {
					t.Errorf("GC figures: %+v", d.GC)
				} else if d.GC.Sequences != tc.sequences {
					t.Errorf("the trace's processes: %d, want %d", d.GC.Sequences, tc.sequences)
				}
			}
			if tc.gcMissing && (d.GC != nil || d.GCUnavailable == "") {
				t.Errorf("GC %+v, unavailable %q", d.GC, d.GCUnavailable)
			}
		})
	}
}

func TestExecBadUsage(t *testing.T) {
	dir := t.TempDir()
	existing := filepath.Join(dir, "exists.json")
	if err := os.WriteFile(existing, []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		want *regexp.Regexp // the whole of stderr, one line
	}{
		{[]string{"-q"}, regexp.MustCompile(`^gcperf: exec: no command: gcperf exec \[flags\] -- CMD \[ARGS\.\.\.\]$`)},
		{[]string{"no-such-command"}, regexp.MustCompile(`^gcperf: exec: the command follows --: gcperf exec -- no-such-command$`)},
		{[]string{"-q", "./cache", "-live", "a b"}, regexp.MustCompile(`^gcperf: exec: the command follows --: gcperf exec -- ./cache -live 'a b'$`)},
		{[]string{"--", "no-such-command"}, regexp.MustCompile(`^gcperf: exec: cannot start "no-such-command": executable file not found in \$PATH$`)},
		{[]string{"-json", "-", "--", "true"}, regexp.MustCompile(`^gcperf: exec: -json - : gcperf's stdout is the command's own; give a file$`)},
		{[]string{"--", filepath.Join(dir, "missing")}, regexp.MustCompile(`^gcperf: exec: cannot start ".*missing": no such file or directory$`)},
		{[]string{"--"}, regexp.MustCompile(`^gcperf: exec: no command after --$`)},
		{[]string{"--", "go", "run", "./x"}, regexp.MustCompile(`^gcperf: exec: go run builds the program .*go build -o prog ./pkg\) and give ./prog$`)},
		{[]string{"--", "/usr/local/go/bin/go", "test", "-run", "X", "./..."}, regexp.MustCompile(`^gcperf: exec: go test builds the test binary .*go test -c -o pkg.test ./pkg\)`)},
		{[]string{"--", "go", "-C", "/tmp", "run", "."}, regexp.MustCompile(`^gcperf: exec: go run builds the program `)},
		{[]string{"--", "env", "GOGC=50", "go", "run", "."}, regexp.MustCompile(`^gcperf: exec: go run builds the program `)},
		{[]string{"--", "nice", "-n", "5", "time", "-p", "go", "test", "./..."}, regexp.MustCompile(`^gcperf: exec: go test builds the test binary `)},
		{[]string{"ls", "--", "ls"}, regexp.MustCompile(`^gcperf: exec: "ls" before --: `)},
		{[]string{"-gogc", "x", "--", "ls"}, regexp.MustCompile(`^gcperf: exec: -gogc: `)},
		{[]string{"-gogc", "50,100", "--", "ls"}, regexp.MustCompile(`^gcperf: exec: -gogc takes one value, got "50,100"$`)},
		{[]string{"-memlimit", "lots", "--", "ls"}, regexp.MustCompile(`^gcperf: exec: -memlimit`)},
		{[]string{"-json", existing, "--", "ls"}, regexp.MustCompile(`^gcperf: exec: -json .*exists.json: .*-overwrite`)},
		{[]string{"-q", "-log", filepath.Join(dir, "l"), "--", "ls"}, regexp.MustCompile(`^gcperf: exec: -q and -log`)},
		{[]string{"-csv", "-", "--", "true"}, regexp.MustCompile(`^gcperf: exec: -csv - : gcperf's stdout is the command's own; give a file$`)},
		{[]string{"-html", "-", "--", "true"}, regexp.MustCompile(`^gcperf: exec: -html - : gcperf's stdout is the command's own; give a file$`)},
		{[]string{"-bench", existing, "--", "ls"}, regexp.MustCompile(`^gcperf: exec: -bench .*exists.json: .*-overwrite`)},
		{[]string{"-count", "0", "--", "ls"}, regexp.MustCompile(`^gcperf: exec: -count must be at least 1, got 0$`)},
		{[]string{"-count", "2", "-xml", filepath.Join(dir, "x.xml"), "--", "ls"}, regexp.MustCompile(`^gcperf: exec: -xml .*x.xml: one run's file, not for -count 2`)},
		{[]string{"-nosuchflag", "--", "ls"}, regexp.MustCompile(`^gcperf: flag provided but not defined: -nosuchflag \(gcperf exec -h lists the flags\)$`)},
	} {
		code, stdout, stderr := gcperf(t, nil, append([]string{"exec"}, tc.args...)...)
		if code != exitUsage || stdout != "" || strings.Count(stderr, "\n") != 1 || !tc.want.MatchString(strings.TrimSuffix(stderr, "\n")) {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want exit 2 and %v", tc.args, code, stdout, stderr, tc.want)
		}
	}
}

// TestExecLog: -log keeps the command's own stderr in a file, and the trace
// lines out of it.
func TestExecLog(t *testing.T) {
	exe := execChild(t, "alloc")
	log := filepath.Join(t.TempDir(), "child.log")
	code, _, stderr := gcperf(t, nil, "exec", "-log", log, "--", exe)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	b, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != "the child's own stderr line\n" {
		t.Errorf("log %q", b)
	}
	if strings.Contains(stderr, "the child's own") || !strings.Contains(stderr, "GC: ") {
		t.Errorf("stderr:\n%s", stderr)
	}
}

// TestExecQuiet: -q drops the command's own stderr lines, and the report
// still has the collector, read from the trace it dropped them from.
func TestExecQuiet(t *testing.T) {
	exe := execChild(t, "alloc")
	code, stdout, stderr := gcperf(t, nil, "exec", "-q", "--", exe)
	if code != 0 || stdout != "allocated\n" {
		t.Fatalf("exit %d, stdout %q: %s", code, stdout, stderr)
	}
	if strings.Contains(stderr, "the child's own") || strings.Contains(stderr, "gc 1 @") || !strings.Contains(stderr, "GC: ") {
		t.Errorf("stderr:\n%s", stderr)
	}
}

// TestExecInterrupt: an interrupt reaches the command, which exits 0; the
// report says it was interrupted and gcperf exits 1.
func TestExecInterrupt(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("signals reach the child's process group on Linux")
	}
	exe := execChild(t, "wait")
	sig := make(chan os.Signal, 1)
	w := &notifyWriter{want: "waiting\n", seen: make(chan struct{})}
	go func() {
		<-w.seen
		sig <- syscall.SIGINT
	}()
	var errb strings.Builder
	code := run([]string{"exec", "--", exe}, w, &errb, sig)
	if code != exitFail || !strings.Contains(errb.String(), "Status: exit status 0 (interrupted)\n") {
		t.Errorf("exit %d, stderr:\n%s", code, errb.String())
	}
}

// notifyWriter closes seen once what it was written holds want.
type notifyWriter struct {
	strings.Builder
	want string
	seen chan struct{}
	done bool
}

func (w *notifyWriter) Write(p []byte) (int, error) {
	n, err := w.Builder.Write(p)
	if !w.done && strings.Contains(w.String(), w.want) {
		w.done = true
		close(w.seen)
	}
	return n, err
}

// TestExecFormats: every output of gcperf exec is written, and reads back
// as its format: JSON, CSV, XML, the Go benchmark format, HTML; with
// -count 3, the JSON is a set of three runs and the bench file has three
// samples of every benchmark.
func TestExecFormats(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("gcperf exec's figures are Linux's")
	}
	exe := execChild(t, "bench")
	for _, tc := range []struct {
		name  string
		count int
		flags []string // of the formats
	}{
		{"one run", 1, []string{"json", "csv", "xml", "bench", "html"}},
		{"three runs", 3, []string{"json", "bench"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			args := []string{"exec", "-q", "-count", strconv.Itoa(tc.count)}
			for _, f := range tc.flags {
				args = append(args, "-"+f, filepath.Join(dir, "out."+f))
			}
			code, _, stderr := gcperf(t, nil, append(args, "--", exe)...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			read := func(f string) []byte {
				b, err := os.ReadFile(filepath.Join(dir, "out."+f))
				if err != nil || len(b) == 0 {
					t.Fatalf("-%s: %d bytes, %v", f, len(b), err)
				}
				return b
			}
			for _, f := range tc.flags {
				b := read(f)
				switch f {
				case "json":
					if tc.count == 1 {
						d, err := report.ReadJSON(bytes.NewReader(b))
						if err != nil || d.Exec == nil || len(d.Exec.Benchmarks) != 1 {
							t.Errorf("-json: %v", err)
						}
						continue
					}
					s, err := report.ReadSet(bytes.NewReader(b))
					if err != nil || len(s.Processes) != 3 || len(s.Results()) != 3 || s.Results()[2].Exec == nil {
						t.Errorf("-json of -count 3: %v", err)
					}
				case "csv":
					r := csv.NewReader(bytes.NewReader(b))
					r.FieldsPerRecord = -1
					recs, err := r.ReadAll()
					if err != nil || len(recs) < 2 || recs[0][0] != "Command" {
						t.Errorf("-csv: %v", err)
					}
				case "xml":
					var v struct {
						XMLName xml.Name
						Exec    *struct{} `xml:"exec"`
					}
					if err := xml.Unmarshal(b, &v); err != nil || v.Exec == nil {
						t.Errorf("-xml: %v (an <exec> element: %v)", err, v.Exec != nil)
					}
				case "bench":
					r := benchfmt.NewReader(bytes.NewReader(b), "out.bench")
					n := map[string]int{}
					for r.Scan() {
						switch rec := r.Result().(type) {
						case *benchfmt.SyntaxError:
							t.Errorf("-bench: %v", rec)
						case *benchfmt.Result:
							n[string(rec.Name)]++
						}
					}
					prog := "Exec/cmd=" + filepath.Base(exe)
					if n[prog] != tc.count || n["Child-2"] != 2*tc.count {
						t.Errorf("-bench: samples %v, want %d of %s and %d of Child-2", n, tc.count, prog, 2*tc.count)
					}
				case "html":
					if !bytes.Contains(b, []byte(filepath.Base(exe))) || !bytes.Contains(b, []byte("<td>Child-2</td>")) {
						t.Errorf("-html: the page lacks the command or its benchmark")
					}
				}
			}
			if tc.count == 3 && (!strings.Contains(stderr, "Runs (3 of 3 finished, 3 succeeded)") || !strings.Contains(stderr, "median")) {
				t.Errorf("the report of -count 3:\n%s", stderr)
			}
		})
	}
}

// TestExecCountFailure: a failed run is reported, the others run, and
// gcperf exits 1.
func TestExecCountFailure(t *testing.T) {
	exe := execChild(t, "fail")
	out := filepath.Join(t.TempDir(), "x.json")
	code, _, stderr := gcperf(t, nil, "exec", "-q", "-count", "2", "-json", out, "--", exe)
	if code != exitFail || strings.Count(stderr, "exit status 3") != 2 {
		t.Fatalf("exit %d, stderr:\n%s", code, stderr)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	s, err := report.ReadSet(bytes.NewReader(b))
	if err != nil || len(s.Results()) != 2 {
		t.Fatalf("set: %v", err)
	}
}

// TestExecCountInterrupt: an interrupt stops the sequence; the run it
// stopped is not kept, and gcperf exits 1.
func TestExecCountInterrupt(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("signals reach the child's process group on Linux")
	}
	exe := execChild(t, "wait")
	sig := make(chan os.Signal, 1)
	w := &notifyWriter{want: "waiting\n", seen: make(chan struct{})}
	go func() {
		<-w.seen
		sig <- syscall.SIGINT
	}()
	out := filepath.Join(t.TempDir(), "x.json")
	var errb strings.Builder
	code := run([]string{"exec", "-count", "3", "-json", out, "--", exe}, w, &errb, sig)
	if code != exitFail || strings.Count(w.String(), "waiting\n") != 1 {
		t.Fatalf("exit %d, stdout %q, stderr:\n%s", code, w.String(), errb.String())
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	s, err := report.ReadSet(bytes.NewReader(b))
	if err != nil || !s.Interrupted || len(s.Processes) != 0 {
		t.Fatalf("set: %v, %+v", err, s)
	}
}

// TestReportExec: gcperf report renders a command's result in every
// format but hgrm, which is one line of usage error.
func TestReportExec(t *testing.T) {
	path := filepath.Join("..", "..", "report", "testdata", "exec.json")
	for _, f := range []string{"text", "json", "csv", "xml", "bench", "html"} {
		code, stdout, stderr := gcperf(t, nil, "report", "-format", f, path)
		if code != 0 || stdout == "" {
			t.Errorf("-format %s: exit %d, %d bytes: %s", f, code, len(stdout), stderr)
		}
	}
	code, stdout, stderr := gcperf(t, nil, "report", "-format", "hgrm", path)
	if code != exitUsage || stdout != "" || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, "a command's result has no latency distribution") {
		t.Errorf("-format hgrm: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
}

// TestCompareAndPlotExec: gcperf compare of two command results compares
// their figures and benchmarks; gcperf plot refuses one in one line.
func TestCompareAndPlotExec(t *testing.T) {
	path := filepath.Join("..", "..", "report", "testdata", "exec.json")
	code, stdout, stderr := gcperf(t, nil, "compare", path, path)
	if code != 0 || !strings.Contains(stdout, "pause-max-ns") || !strings.Contains(stdout, "Workloads/list-2") {
		t.Errorf("compare: exit %d, stdout:\n%s\nstderr: %s", code, stdout, stderr)
	}
	out := filepath.Join(t.TempDir(), "x.svg")
	code, stdout, stderr = gcperf(t, nil, "plot", "-kind", "timeline", "-o", out, path)
	if code != exitUsage || stdout != "" || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, "has no runs to chart") {
		t.Errorf("plot: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("plot wrote its file")
	}
}
