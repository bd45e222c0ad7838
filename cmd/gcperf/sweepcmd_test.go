package main

import (
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"github.com/gcperf/gcperf/report"
	"github.com/gcperf/gcperf/sweep"
)

// TestSweepCommand: gcperf sweep [grid flags] -- CMD runs the command at
// every point, with the point's settings, and ends with the command's
// table, the advice and the sweep's files.
func TestSweepCommand(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("a command's figures are Linux's")
	}
	exe := execChild(t, "alloc")
	out := filepath.Join(t.TempDir(), "sw")
	code, stdout, stderr := gcperf(t, nil, "sweep", "-gogc", "50,off", "-memlimit", "off,1GiB", "-count", "2",
		"-slo", "wall=1m", "-q", "-out", out, "--", exe, "-an", "argument")
	if code != 0 {
		t.Fatalf("exit %d; stderr:\n%s", code, stderr)
	}
	for _, w := range []string{"wall", "CPU", "peak RSS", "GC cycles", "pause P99", "pause max",
		"meets wall<=1m0s on all 2 repeats with the lowest peak RSS"} {
		if !strings.Contains(stdout, w) {
			t.Errorf("stdout lacks %q:\n%s", w, stdout)
		}
	}
	_, s, err := sweep.LoadDir(out)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Outcomes) != 8 || !strings.HasSuffix(strings.Join(s.Command, " "), " -an argument") {
		t.Fatalf("summary: %d outcomes, command %q", len(s.Outcomes), s.Command)
	}
	for _, o := range s.Outcomes {
		d, err := report.ReadFile(filepath.Join(out, o.File))
		if err != nil {
			t.Fatal(err)
		}
		x := d.Exec
		if x == nil || x.Settings.GOGC != o.Point.GOGC.String() || x.Settings.GOMEMLIMIT != o.Point.MemLimit.String() {
			t.Fatalf("%s: %+v", o.File, x)
		}
		// GOGC=off: the runtime.GC calls alone; a limit of 1GiB is not reached.
		if x.GC == nil || x.GC.Cycles < 2 {
			t.Errorf("%s: GC %+v (%s)", o.File, x.GC, x.GCUnavailable)
		}
	}
	// The child's stdout and stderr are in the point's log.
	log, err := os.ReadFile(filepath.Join(out, "gogc=50,memlimit=off,rep=1.log"))
	if err != nil || !strings.Contains(string(log), "allocated\n") || !strings.Contains(string(log), "the child's own stderr line\n") {
		t.Errorf("log %q, %v", log, err)
	}
	// A resumed sweep runs nothing again.
	code, _, stderr = gcperf(t, nil, "sweep", "-gogc", "50,off", "-memlimit", "off,1GiB", "-count", "2", "-resume", "-out", out, "--", exe, "-an", "argument")
	if code != 0 || strings.Count(stderr, "not run again") != 8 {
		t.Errorf("resume: exit %d; stderr:\n%s", code, stderr)
	}
	// Another command is refused there.
	code, _, stderr = gcperf(t, nil, "sweep", "-gogc", "50,off", "-memlimit", "off,1GiB", "-count", "2", "-resume", "-out", out, "--", exe, "-other")
	if code != exitUsage || !strings.Contains(stderr, "-resume") {
		t.Errorf("resume of another command: exit %d; stderr:\n%s", code, stderr)
	}
}

func TestSweepCommandBadUsage(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		args []string
		want *regexp.Regexp // the whole of stderr, one line
	}{
		{[]string{"--"}, regexp.MustCompile(`^gcperf: no command after --$`)},
		{[]string{"--", "no-such-command"}, regexp.MustCompile(`^gcperf: cannot start "no-such-command": executable file not found in \$PATH$`)},
		{[]string{"--", filepath.Join(dir, "missing")}, regexp.MustCompile(`^gcperf: cannot start ".*missing": no such file or directory$`)},
		{[]string{"--", "go", "run", "."}, regexp.MustCompile(`^gcperf: go run builds the program `)},
		{[]string{"-runs", "5", "--", "true"}, regexp.MustCompile(`^gcperf: -runs is a flag of gcperf's own benchmark, not of a sweep over a command: the command's flags go after -- true$`)},
		{[]string{"-size", "5", "--", "true"}, regexp.MustCompile(`^gcperf: -size is a flag of gcperf's own benchmark`)},
		{[]string{"-json", "x", "--", "true"}, regexp.MustCompile(`^gcperf: -json is not for a sweep: `)},
		{[]string{"-mix", "m", "--", "true"}, regexp.MustCompile(`^gcperf: -mix m: no such file or directory$`)},
		{[]string{"noop", "--", "true"}, regexp.MustCompile(`^gcperf: -ready is needed: no operation before -- has a -url to poll$`)},
		{[]string{"-ready", "http://127.0.0.1:1/", "noop", "--", "no-such-server"}, regexp.MustCompile(`^gcperf: cannot start the server "no-such-server": executable file not found in \$PATH$`)},
		{[]string{"-ready", "http://127.0.0.1:1/", "-server-gogc", "50", "noop", "--", "true"}, regexp.MustCompile(`^gcperf: -server-gogc is not for a sweep: the grid sets the server's GOGC`)},
		{[]string{"-ready", "http://127.0.0.1:1/", "-gomaxprocs", "1,2", "noop", "--", "true"}, regexp.MustCompile(`^gcperf: -gomaxprocs is not an axis of a server's sweep`)},
		{[]string{"-ready", "http://127.0.0.1:1/", "-runs", "5"}, regexp.MustCompile(`^gcperf: -ready goes with a server to load`)},
		{[]string{"-slo", "p99=5ms", "--", "true"}, regexp.MustCompile(`^gcperf: -slo: p99: a command's run has no latency distribution; bound wall, cpu, pause-max or a benchmark unit it prints, such as sec/op$`)},
		{[]string{"-slo", "sec/op=fast", "--", "true"}, regexp.MustCompile(`^gcperf: -slo: sec/op "fast" is not a positive duration`)},
		{[]string{"-gogc", "x", "--", "true"}, regexp.MustCompile(`^gcperf: -gogc`)},
	} {
		code, stdout, stderr := gcperf(t, nil, append([]string{"sweep"}, tc.args...)...)
		if code != exitUsage || stdout != "" || strings.Count(stderr, "\n") != 1 || !tc.want.MatchString(strings.TrimSuffix(stderr, "\n")) {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want exit 2 and %v", tc.args, code, stdout, stderr, tc.want)
		}
	}
	// A command's bounds are not for gcperf's benchmark.
	code, _, stderr := gcperf(t, nil, "sweep", "-slo", "wall=1s", "-runs", "5")
	if code != exitUsage || !strings.Contains(stderr, "-slo: wall bounds a command's run (gcperf sweep [flags] -- CMD)") {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
}
