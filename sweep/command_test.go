package sweep

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gcperf/gcperf/latency"
	"github.com/gcperf/gcperf/report"
	"github.com/gcperf/gcperf/target"
)

// fakeCommand is the user's command of the tests of sweep -- CMD (this test
// binary with SWEEP_TEST_CHILD=cmd): a Go program that runs a few
// collections, which its GODEBUG=gctrace=1 prints, and prints a Go
// benchmark result whose sec/op depends on its GOGC, or misbehaves as
// SWEEP_TEST_BEHAVE asks for its GOGC ("25=crash,50=hang").
func fakeCommand(args []string) int {
	if c := os.Getenv("SWEEP_TEST_COUNTER"); c != "" {
		f, err := os.OpenFile(c, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		if err != nil {
			return 9
		}
		fmt.Fprintf(f, "gogc=%s,memlimit=%s\n", os.Getenv("GOGC"), os.Getenv("GOMEMLIMIT"))
		f.Close()
	}
	behave := ""
	for item := range strings.SplitSeq(os.Getenv("SWEEP_TEST_BEHAVE"), ",") {
		if gogc, b, ok := strings.Cut(item, "="); ok && gogc == os.Getenv("GOGC") {
			behave = b
		}
	}
	fmt.Fprintln(os.Stderr, "fake command: running", strings.Join(args, " "))
	switch behave {
	case "crash":
		fmt.Fprintln(os.Stderr, "panic: the command's own crash")
		return 3
	case "hang":
		time.Sleep(time.Hour)
	case "grow":
		grow()
	case "grow-in-child":
		// The tree's memory: a grandchild grows, the command waits.
		exe, _ := os.Executable()
		c := exec.Command(exe)
		c.Env = append(os.Environ(), "SWEEP_TEST_BEHAVE="+os.Getenv("GOGC")+"=grow")
		c.Stderr = os.Stderr
		c.Run()
		return 0
	case "kill":
		syscall.Kill(os.Getpid(), syscall.SIGKILL)
		time.Sleep(time.Hour)
	}
	for range 3 {
		runtime.GC()
	}
	// The runtime prints a cycle's trace line after runtime.GC returns:
	// an exit at once may cut the last one short, or lose it.
	time.Sleep(20 * time.Millisecond)
	ns := map[string]int{"25": 3000000, "100": 2000000, "400": 1000000}[os.Getenv("GOGC")]
	if ns == 0 {
		ns = 1500000
	}
	fmt.Printf("goos: %s\npkg: example.com/fake\nBenchmarkWork-2 \t 10\t %d ns/op\t 64 B/op\n", runtime.GOOS, ns)
	return 0
}

// grow allocates 4MiB a step until it is stopped.
func grow() {
	for {
		b := make([]byte, 4<<20)
		for i := range b {
			b[i] = 1
		}
		grown = append(grown, b)
		time.Sleep(time.Millisecond)
	}
}

// commandRunner is a Runner of this test binary as the user's command.
func commandRunner(t *testing.T, behave string) (*Runner, *syncBuilder) {
	t.Helper()
	r, progress := testRunner(t, behave)
	exe := r.Exe
	r.Exe, r.Args, r.Ops = "", nil, nil
	r.Command = &target.Command{Path: exe, Args: []string{"-some", "flag"}}
	for i, kv := range r.Env {
		if kv == "SWEEP_TEST_CHILD=1" {
			r.Env[i] = "SWEEP_TEST_CHILD=cmd"
		}
	}
	r.Meta = report.Meta{Version: "test"}
	return r, progress
}

func TestRunnerCommand(t *testing.T) {
	r, progress := commandRunner(t, "")
	r.Count = 2
	points := grid(t, "25,100,400", "off,1GiB")
	outs, err := r.Run(context.Background(), points)
	if err != nil {
		t.Fatal(err)
	}
	if len(outs) != 12 {
		t.Fatalf("%d outcomes, want 12; progress:\n%s", len(outs), progress)
	}
	for _, o := range outs {
		if !o.Failed.IsZero() || o.Doc == nil || o.Doc.Exec == nil {
			t.Fatalf("%s rep %d: failed %q; progress:\n%s", o.Point.Name(), o.Rep, o.Failed, progress)
		}
		x := o.Doc.Exec
		if x.Settings.GOGC != o.Point.GOGC.String() || x.Settings.GOMEMLIMIT != o.Point.MemLimit.String() || !strings.Contains(x.Settings.GODEBUG, "gctrace=1") {
			t.Errorf("%s: settings %+v", o.Point.Name(), x.Settings)
		}
		if x.GC == nil || x.GC.Cycles < 3 || x.GC.Forced < 3 {
			t.Errorf("%s: GC %+v (%s)", o.Point.Name(), x.GC, x.GCUnavailable)
		}
		if !slices.Equal(x.Command, []string{r.Command.Path, "-some", "flag"}) {
			t.Errorf("%s: command %q", o.Point.Name(), x.Command)
		}
		if len(x.Benchmarks) != 1 || x.Benchmarks[0].Name != "Work-2" || x.Benchmarks[0].Pkg != "example.com/fake" {
			t.Errorf("%s: benchmarks %+v", o.Point.Name(), x.Benchmarks)
		}
		// The document on disk is the one kept.
		d, err := report.ReadFile(filepath.Join(r.Dir, o.File))
		if err != nil || d.Exec == nil || d.Exec.Wall != x.Wall {
			t.Errorf("%s: %v", o.File, err)
		}
		// The log has the command's own stderr, not its trace.
		log, err := os.ReadFile(filepath.Join(r.Dir, logName(o.Point, o.Rep)))
		if err != nil || !strings.Contains(string(log), "fake command: running -some flag") || strings.Contains(string(log), "gc 1 @") {
			t.Errorf("%s: log %q, %v", o.Point.Name(), log, err)
		}
	}
	if !strings.Contains(progress.String(), "ok in ") || !strings.Contains(progress.String(), "GC cycles") {
		t.Errorf("progress:\n%s", progress)
	}
	rows := Summarize(outs)
	markCommand(rows, r.commandArgv())
	MarkFrontier(rows)
	for _, row := range rows {
		want := map[string]float64{"25": 0.003, "100": 0.002, "400": 0.001}[row.Point.GOGC.String()]
		if !row.Command || row.OK() != 2 || !row.HasGC || row.Wall <= 0 || row.PeakRSS == 0 ||
			len(row.Metrics) != 2 || row.Metrics[0].Unit != "sec/op" || row.Metrics[0].Value < want*0.999 || row.Metrics[0].Value > want*1.001 {
			t.Errorf("row %s: %+v", row.Point.Name(), row)
		}
		if got := row.Time(); got != time.Duration(want*1e9) && !(got-time.Duration(want*1e9) < 2 && time.Duration(want*1e9)-got < 2) {
			t.Errorf("row %s: Time %v, want its sec/op", row.Point.Name(), got)
		}
	}
	if l := TimeLabel(rows); l != "sec/op" {
		t.Errorf("TimeLabel %q", l)
	}
	slo, err := ParseSLO("sec/op=2ms")
	if err != nil {
		t.Fatal(err)
	}
	a := Advise(rows, outs, slo)
	if !a.Met || a.Best.Point.GOGC.String() == "25" || !strings.Contains(a.Text, "meets sec/op<=2ms on all 2 repeats") {
		t.Errorf("advice %+v", a)
	}
	slo, _ = ParseSLO("sec/op=0.5ms")
	if a := Advise(rows, outs, slo); a.Met || a.Closest == nil || a.Closest.Point.GOGC.String() != "400" || a.Bound != "sec/op" ||
		!strings.Contains(a.Text, "closest: GOGC=400") || !strings.Contains(a.Text, "(100% over)") {
		t.Errorf("advice %+v", a)
	}
	slo, _ = ParseSLO("allocs/op=3")
	if a := Advise(rows, outs, slo); a.Met || !strings.Contains(a.Text, "the command printed no benchmark result in allocs/op") {
		t.Errorf("advice %+v", a)
	}
	var table strings.Builder
	if err := Table(&table, rows, nil); err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"wall", "pause P99", "sec/op", "B/op", " 2.00ms ", " 64.00", "* on the frontier: no other point has both a sec/op and a peak RSS as low"} {
		if !strings.Contains(table.String(), w) {
			t.Errorf("table lacks %q:\n%s", w, table.String())
		}
	}
	var csv strings.Builder
	if err := CSV(&csv, rows); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(csv.String(), "wall_s,cpu_s,") || !strings.Contains(csv.String(), "example.com/fake Work-2 sec/op") {
		t.Errorf("CSV:\n%s", csv.String())
	}

	// Resumed: nothing runs again; another command is a conflict.
	n := len(counted(t, r))
	r.Resume = true
	if outs, err := r.Run(context.Background(), points); err != nil || len(outs) != 12 || len(counted(t, r)) != n {
		t.Errorf("resume: %d outcomes, %v, %d runs more", len(outs), err, len(counted(t, r))-n)
	}
	r.Command = &target.Command{Path: r.Command.Path, Args: []string{"-other"}}
	if _, err := r.Run(context.Background(), points); !errors.Is(err, ErrConflict) || !strings.Contains(err.Error(), "-other") {
		t.Errorf("resuming another command: %v", err)
	}
}

func TestRunnerCommandFailures(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the memory cap reads Linux's /proc")
	}
	r, progress := commandRunner(t, "25=crash,50=hang,75=grow,100=kill,125=grow-in-child")
	r.Timeout = 2 * time.Second
	r.MemCap = 64 << 20
	outs, err := r.Run(context.Background(), grid(t, "25,50,75,100,125,200", "off"))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("progress:\n%s", progress)
	want := map[string]Failure{
		"25":  {Exited, "exit status 3"},
		"50":  {TimedOut, "exceeded the point timeout 2s"},
		"75":  {OverMemory, "exceeded the memory cap: RSS of its process tree "},
		"100": {Killed, "killed by SIGKILL"},
		"125": {OverMemory, "exceeded the memory cap: RSS of its process tree "},
		"200": {},
	}
	if len(outs) != len(want) {
		t.Fatalf("%d outcomes", len(outs))
	}
	for _, o := range outs {
		w := want[o.Point.GOGC.String()]
		if o.Failed.Reason != w.Reason || !strings.HasPrefix(o.Failed.Text, w.Text) {
			t.Errorf("gogc=%s: failed %v %q, want %v %q", o.Point.GOGC, o.Failed.Reason, o.Failed.Text, w.Reason, w.Text)
		}
		if w.IsZero() {
			continue
		}
		if o.Doc != nil || o.File != failedName(o.Point.FileName(1)) {
			t.Errorf("gogc=%s: file %q, doc %v", o.Point.GOGC, o.File, o.Doc != nil)
		}
		if _, err := os.Stat(filepath.Join(r.Dir, o.File)); err != nil {
			t.Errorf("gogc=%s: the failed run's document: %v", o.Point.GOGC, err)
		}
	}
	if tail := outs[0].StderrTail; len(tail) == 0 || tail[len(tail)-1] != "panic: the command's own crash" {
		t.Errorf("the crash's tail: %q", tail)
	}
	if !strings.Contains(outs[2].Failed.Text, " > 64MiB") {
		t.Errorf("memory cap: %q", outs[2].Failed)
	}
}

func TestRunnerCommandStop(t *testing.T) {
	r, progress := commandRunner(t, "100=hang")
	stop := make(chan struct{})
	r.Stop = stop
	go func() {
		for !strings.Contains(progress.String(), "gogc=100") {
			time.Sleep(10 * time.Millisecond)
		}
		time.Sleep(100 * time.Millisecond)
		close(stop)
	}()
	outs, err := r.Run(context.Background(), grid(t, "50,100,200", "off"))
	if !errors.Is(err, ErrInterrupted) {
		t.Errorf("error %v, want ErrInterrupted", err)
	}
	if len(outs) != 1 || outs[0].Point.GOGC.String() != "50" || !outs[0].Failed.IsZero() {
		t.Fatalf("outcomes %+v, want gogc=50's alone", outs)
	}
	if !strings.Contains(progress.String(), "interrupted: the point was stopped and is not kept\n") {
		t.Errorf("progress:\n%s", progress)
	}
}

func TestRunnerCommandNotStarted(t *testing.T) {
	r, _ := commandRunner(t, "")
	r.Command.Path = filepath.Join(t.TempDir(), "missing")
	outs, err := r.Run(context.Background(), grid(t, "100", "off"))
	if err != nil || len(outs) != 1 || outs[0].Failed.Reason != NotStarted || !strings.Contains(outs[0].Failed.Text, "missing") {
		t.Errorf("outcomes %+v, %v", outs, err)
	}
}

// TestServerRows: a server's rows and SLO weigh the client's corrected
// latency (open loop) against the server's memory and collector.
func TestServerRows(t *testing.T) {
	p := grid(t, "100", "off")[0]
	d := testDoc(p, lat(time.Millisecond, 10*mib))
	d.Operations[0].Corrected = &report.Percentiles{Count: 100, Percentiles: latency.Percentiles{P50: 2 * ms, P99: 8 * ms, P999: 9 * ms, Max: 10 * ms}}
	d.Server = &report.Exec{PeakRSSBytes: 300 * mib, RSS: report.ExecRSS{Samples: 5}, Success: true,
		GC: &report.ExecGC{Cycles: 7, CPUPercent: 3, Pauses: report.ExecPauses{Max: 400 * time.Microsecond}, Goal: []report.ExecGoalPoint{{GoalMiB: 64}}}}
	outs := []Outcome{{Point: p, Rep: 1, Doc: d}}
	rows := Summarize(outs)
	r := rows[0]
	if !r.Server || r.P99 != 8*ms || r.PeakRSS != 300*mib || r.GCCycles != 7 || r.MaxSTW != 400*time.Microsecond || r.HeapGoal != 64*mib {
		t.Errorf("row %+v", r)
	}
	slo, _ := ParseSLO("p99=5ms")
	if a := Advise(rows, outs, slo); a.Met || a.Bound != "p99" {
		t.Errorf("advice %+v: the corrected P99 8ms misses 5ms", a)
	}
	slo, _ = ParseSLO("p99=9ms")
	if a := Advise(rows, outs, slo); !a.Met {
		t.Errorf("advice %+v", a)
	}
}

// TestTimeLabelMixed: when one point printed no sec/op, every row is
// weighed by its wall time: a sec/op and a wall time do not compare.
func TestTimeLabelMixed(t *testing.T) {
	rows := []Row{
		{Reps: 1, Command: true, Wall: 2 * time.Second, PeakRSS: 10, Metrics: []RowMetric{{Unit: "sec/op", Value: 0.001}}},
		{Reps: 1, Command: true, Wall: time.Second, PeakRSS: 20},
	}
	if l := TimeLabel(rows); l != "wall" {
		t.Fatalf("TimeLabel %q, want wall", l)
	}
	MarkFrontier(rows)
	// By wall: 2s/10 and 1s/20 are both on the frontier (a sec/op of 1ms
	// against a wall of 1s would have put the second off it).
	if !rows[0].Frontier || !rows[1].Frontier {
		t.Errorf("frontier %v %v", rows[0].Frontier, rows[1].Frontier)
	}
	rows[1].Metrics = []RowMetric{{Unit: "sec/op", Value: 0.002}}
	if l := TimeLabel(rows); l != "sec/op" {
		t.Errorf("TimeLabel %q, want sec/op", l)
	}
	if l := TimeLabel([]Row{{Reps: 1, Failed: 1, Command: true}}); l != "wall" {
		t.Errorf("every point failed: TimeLabel %q, want wall", l)
	}
}
