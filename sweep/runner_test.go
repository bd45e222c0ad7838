package sweep

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gcperf/gcperf/env"
	"github.com/gcperf/gcperf/report"
	"github.com/gcperf/gcperf/workload"
)

// The runner's tests run this test binary as the child: with
// SWEEP_TEST_CHILD=1 in its environment it plays a gcperf that writes a
// result (with the runtime settings it really runs with) or misbehaves as
// SWEEP_TEST_BEHAVE asks for its GOGC: G("50=crash,off=hang").
func TestMain(m *testing.M) {
	switch os.Getenv("SWEEP_TEST_CHILD") {
	case "1":
		os.Exit(fakeChild(os.Args[1:]))
	case "cmd":
		os.Exit(fakeCommand(os.Args[1:]))
	}
	os.Exit(m.Run())
}

func fakeChild(args []string) int {
	path := ""
	for i, a := range args {
		if a == "-json" && i+1 < len(args) {
			path = args[i+1]
		}
	}
	if c := os.Getenv("SWEEP_TEST_COUNTER"); c != "" {
		f, err := os.OpenFile(c, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		if err != nil {
			return 9
		}
		fmt.Fprintln(f, filepath.Base(path))
		f.Close()
	}
	behave := ""
	for item := range strings.SplitSeq(os.Getenv("SWEEP_TEST_BEHAVE"), ",") {
		if gogc, b, ok := strings.Cut(item, "="); ok && gogc == os.Getenv("GOGC") {
			behave = b
		}
	}
	fmt.Fprintln(os.Stdout, "the text report")
	fmt.Fprintln(os.Stderr, "fake gcperf: running")
	runs, done := 5, 5
	var duration time.Duration
	switch behave {
	case "crash":
		for i := 1; i <= 30; i++ {
			fmt.Fprintf(os.Stderr, "crash line %d\n", i)
		}
		fmt.Fprint(os.Stderr, "no newline at the end")
		return 3
	case "hang":
		time.Sleep(time.Hour)
	case "grow":
		// 4MiB a step: past the tests' 64MiB cap in 16 steps, well within
		// the point timeout even when a loaded machine wakes each sleep
		// tens of milliseconds late (1MiB a step was not).
		for {
			b := make([]byte, 4<<20)
			for i := range b {
				b[i] = 1
			}
			grown = append(grown, b) // a package variable: nothing may drop it
			time.Sleep(time.Millisecond)
		}
	case "kill":
		p, _ := os.FindProcess(os.Getpid())
		p.Kill()
		time.Sleep(time.Hour)
	case "noresult":
		return 0
	case "partial":
		done = 2
	case "duration":
		// -duration 1s without -runs: as many runs as the time allowed.
		runs, done, duration = 0, 3, time.Second
	case "lie":
		debug.SetGCPercent(37) // a workload that changes its own settings
	case "fail-after-writing":
		defer os.Exit(1)
	}
	d := &report.Document{
		Schema: report.Schema,
		Tool:   report.Tool{Name: "gcperf", Command: append([]string{"gcperf"}, args...)},
		Env:    report.Env{Go: env.ReadGo()},
		Config: report.Config{Config: workload.Config{Runs: runs, Duration: duration}},
		Timing: report.Timing{Done: done},
	}
	d.Mix.Runtime.P99 = time.Millisecond
	d.Process.PeakRSSBytes = 10 << 20
	if err := report.WriteFile(path, os.Stdout, true, func(w io.Writer) error { return report.JSON(w, d) }); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// testRunner is a Runner of this test binary as the child, writing to a new
// directory.
func testRunner(t *testing.T, behave string) (*Runner, *syncBuilder) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	progress := &syncBuilder{}
	return &Runner{
		Exe:   exe,
		Args:  []string{"-runs=5"},
		Ops:   []string{"fake"},
		Dir:   dir,
		Count: 1,
		Env: append(os.Environ(), "SWEEP_TEST_CHILD=1", "SWEEP_TEST_BEHAVE="+behave,
			"SWEEP_TEST_COUNTER="+filepath.Join(dir, "counter")),
		Observe: ProgressWriter(progress, "gcperf: "),
		Poll:    20 * time.Millisecond,
	}, progress
}

// syncBuilder guards a strings.Builder.
type syncBuilder struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuilder) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func (s *syncBuilder) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

// counted lists the result files the children were started for, in order.
func counted(t *testing.T, r *Runner) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(r.Dir, "counter"))
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	return strings.Fields(string(b))
}

func grid(t *testing.T, gogc, mem string) []Point {
	t.Helper()
	g, err := ParseGOGC(gogc)
	if err != nil {
		t.Fatal(err)
	}
	m, err := ParseMemLimit(mem)
	if err != nil {
		t.Fatal(err)
	}
	return Grid{GOGC: g, MemLimit: m}.Points()
}

func TestRunnerInterleavesAndAppliesSettings(t *testing.T) {
	r, progress := testRunner(t, "")
	r.Count = 2
	// The parent's own GOGC and GOMEMLIMIT, should they be left in Env,
	// come before the point's and lose (os/exec keeps the last duplicate).
	r.Env = append(r.Env, "GOGC=100", "GOMEMLIMIT=1GiB")
	points := grid(t, "50,off", "off,64MiB")
	outs, err := r.Run(context.Background(), points)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, o := range outs {
		if !o.Failed.IsZero() {
			t.Errorf("%s rep %d failed: %s %q", o.Point.Name(), o.Rep, o.Failed, o.StderrTail)
		}
		if o.Doc == nil || o.Wall <= 0 || o.File != o.Point.FileName(o.Rep) || o.StderrTail != nil {
			t.Errorf("%s rep %d: doc %v, wall %v, file %q, tail %q", o.Point.Name(), o.Rep, o.Doc != nil, o.Wall, o.File, o.StderrTail)
		}
		if err := CheckApplied(o.Point, o.Doc); err != nil {
			t.Error(err)
		}
		got = append(got, o.File)
	}
	want := []string{
		"gogc=50,memlimit=off,rep=1.json", "gogc=50,memlimit=64MiB,rep=1.json",
		"gogc=off,memlimit=off,rep=1.json", "gogc=off,memlimit=64MiB,rep=1.json",
		"gogc=50,memlimit=off,rep=2.json", "gogc=50,memlimit=64MiB,rep=2.json",
		"gogc=off,memlimit=off,rep=2.json", "gogc=off,memlimit=64MiB,rep=2.json",
	}
	if !slices.Equal(got, want) {
		t.Errorf("outcomes in the order\n%q\nwant\n%q", got, want)
	}
	if c := counted(t, r); !slices.Equal(c, want) {
		t.Errorf("children ran for\n%q\nwant\n%q", c, want)
	}
	for _, f := range want {
		log, err := os.ReadFile(filepath.Join(r.Dir, strings.TrimSuffix(f, ".json")+".log"))
		if err != nil || !strings.Contains(string(log), "the text report\n") || !strings.Contains(string(log), "fake gcperf: running\n") {
			t.Errorf("log of %s: %q, %v", f, log, err)
		}
	}
	if !strings.Contains(progress.String(), "gcperf: sweep: point 2/4 gogc=50,memlimit=64MiB rep 1/2 ... ok in ") ||
		!strings.Contains(progress.String(), "P99 1.00ms, peak RSS 10MiB\n") {
		t.Errorf("progress:\n%s", progress)
	}
	// The child's command line: Args, the result flag, Ops.
	o := outs[0]
	wantCmd := []string{"gcperf", "-runs=5", "-json", filepath.Join(r.Dir, o.File), "-overwrite", "fake"}
	if !slices.Equal(o.Doc.Tool.Command, wantCmd) {
		t.Errorf("child command %q, want %q", o.Doc.Tool.Command, wantCmd)
	}
}

func TestRunnerDetectsWrongSettings(t *testing.T) {
	r, _ := testRunner(t, "50=lie")
	outs, err := r.Run(context.Background(), grid(t, "50,100", "off"))
	if err != nil {
		t.Fatal(err)
	}
	if len(outs) != 2 {
		t.Fatalf("%d outcomes", len(outs))
	}
	if want := "asked GOGC=50 but the child ran with GOGC=37"; outs[0].Failed.Text != want {
		t.Errorf("failed %q, want %q", outs[0].Failed, want)
	}
	if outs[0].Doc != nil || outs[0].File != "gogc=50,memlimit=off,rep=1.json.failed" {
		t.Errorf("a mismatched result is kept as %q (doc %v)", outs[0].File, outs[0].Doc != nil)
	}
	if _, err := os.Stat(filepath.Join(r.Dir, "gogc=50,memlimit=off,rep=1.json")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the mismatched result is still under its name: %v", err)
	}
	if !outs[1].Failed.IsZero() {
		t.Errorf("gogc=100 failed: %s", outs[1].Failed)
	}
}

func TestRunnerFailures(t *testing.T) {
	r, progress := testRunner(t, "25=crash,50=hang,75=grow,100=kill,125=noresult,150=partial,175=fail-after-writing")
	r.Timeout = 2 * time.Second
	r.MemCap = 64 << 20
	start := time.Now()
	outs, err := r.Run(context.Background(), grid(t, "25,50,75,100,125,150,175,200", "off"))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%v; progress:\n%s", time.Since(start), progress)
	want := map[string]string{
		"25":  "exit status 3",
		"50":  "exceeded the point timeout 2s",
		"75":  "exceeded the memory cap: RSS ",
		"100": "killed by SIGKILL (out of memory?)",
		"125": "exited without writing its result",
		"150": "incomplete result: 2 of 5 timed runs",
		"175": "exit status 1",
		"200": "",
	}
	reasons := map[string]Reason{"25": Exited, "50": TimedOut, "75": OverMemory, "100": Killed,
		"125": NoResult, "150": NoResult, "175": Exited, "200": NotFailed}
	if len(outs) != len(want) {
		t.Fatalf("%d outcomes, want %d", len(outs), len(want))
	}
	for _, o := range outs {
		w := want[o.Point.GOGC.String()]
		if !strings.HasPrefix(o.Failed.Text, w) || (w == "") != (o.Failed.IsZero()) {
			t.Errorf("gogc=%s: failed %q, want %q", o.Point.GOGC, o.Failed, w)
		}
		if o.Failed.Reason != reasons[o.Point.GOGC.String()] {
			t.Errorf("gogc=%s: reason %v, want %v", o.Point.GOGC, o.Failed.Reason, reasons[o.Point.GOGC.String()])
		}
		if !o.Failed.IsZero() && o.Doc != nil {
			t.Errorf("gogc=%s: a failed outcome has a document", o.Point.GOGC)
		}
		if !o.Failed.IsZero() && len(o.StderrTail) == 0 {
			t.Errorf("gogc=%s: no stderr tail", o.Point.GOGC)
		}
	}
	crash := outs[0].StderrTail
	if len(crash) != tailLines || crash[0] != "crash line 12" || crash[tailLines-1] != "no newline at the end" {
		t.Errorf("the crash's tail: %q", crash)
	}
	if !strings.Contains(outs[2].Failed.Text, " > 64MiB") {
		t.Errorf("memory cap: %q", outs[2].Failed)
	}
	// Killed children leave no temporary file; failed results are set aside.
	entries, _ := os.ReadDir(r.Dir)
	var files []string
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".") {
			t.Errorf("left behind: %s", e.Name())
		}
		if strings.Contains(e.Name(), ".json") {
			files = append(files, e.Name())
		}
	}
	wantFiles := []string{
		"gogc=150,memlimit=off,rep=1.json.failed",
		"gogc=175,memlimit=off,rep=1.json.failed",
		"gogc=200,memlimit=off,rep=1.json",
	}
	if !slices.Equal(files, wantFiles) {
		t.Errorf("result files %q, want %q", files, wantFiles)
	}
	for _, line := range []string{
		"gcperf: sweep: point 1/8 gogc=25,memlimit=off rep 1/1 ... FAILED in ",
		": exit status 3\n    | crash line 27\n    | crash line 28\n    | crash line 29\n    | crash line 30\n    | no newline at the end\n    (the whole output: ",
	} {
		if !strings.Contains(progress.String(), line) {
			t.Errorf("progress does not hold %q:\n%s", line, progress)
		}
	}
}

func TestRunnerResume(t *testing.T) {
	r, _ := testRunner(t, "")
	r.Count = 2
	points := grid(t, "50,100", "off")
	if _, err := r.Run(context.Background(), points); err != nil {
		t.Fatal(err)
	}
	first := counted(t, r)
	if len(first) != 4 {
		t.Fatalf("the first sweep ran %q", first)
	}
	// One result lost, one cut short: only they run again.
	if err := os.Remove(filepath.Join(r.Dir, "gogc=100,memlimit=off,rep=1.json")); err != nil {
		t.Fatal(err)
	}
	partial := filepath.Join(r.Dir, "gogc=50,memlimit=off,rep=2.json")
	d, err := report.ReadFile(partial)
	if err != nil {
		t.Fatal(err)
	}
	d.Interrupted, d.Timing.Done = true, 3
	if err := report.WriteFile(partial, nil, true, func(w io.Writer) error { return report.JSON(w, d) }); err != nil {
		t.Fatal(err)
	}
	// What a SIGKILLed gcperf left half-written: removed by the resume.
	stale := filepath.Join(r.Dir, ".sweep.json.tmp123456")
	if err := os.WriteFile(stale, []byte("{"), 0o644); err != nil {
		t.Fatal(err)
	}
	r.Resume = true
	outs, err := r.Run(context.Background(), points)
	if _, serr := os.Stat(stale); !os.IsNotExist(serr) {
		t.Errorf("a stale temporary file survived the resume: %v", serr)
	}
	if err != nil {
		t.Fatal(err)
	}
	again := counted(t, r)[len(first):]
	if want := []string{"gogc=100,memlimit=off,rep=1.json", "gogc=50,memlimit=off,rep=2.json"}; !slices.Equal(again, want) {
		t.Errorf("the resumed sweep ran %q, want %q", again, want)
	}
	if len(outs) != 4 {
		t.Fatalf("%d outcomes", len(outs))
	}
	for _, o := range outs {
		ran := slices.Contains(again, o.File)
		if !o.Failed.IsZero() || o.Doc == nil || (o.Wall > 0) != ran {
			t.Errorf("%s: failed %q, doc %v, wall %v", o.File, o.Failed, o.Doc != nil, o.Wall)
		}
	}
	// Other run flags: refused, nothing runs, no complete result replaced.
	r.Args = []string{"-runs=6"}
	n := len(counted(t, r))
	before := dirBytes(t, r.Dir)
	if _, err := r.Run(context.Background(), points); !errors.Is(err, ErrConflict) {
		t.Fatalf("resuming with other flags: %v, want ErrConflict", err)
	}
	if ran := len(counted(t, r)) - n; ran != 0 {
		t.Errorf("with other flags, %d points ran again, want none", ran)
	}
	if after := dirBytes(t, r.Dir); !maps.Equal(before, after) {
		t.Errorf("resuming with other flags changed the directory")
	}
}

// dirBytes reads every regular file of dir.
func dirBytes(t *testing.T, dir string) map[string]string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{}
	for _, e := range entries {
		if e.Type().IsRegular() {
			b, err := os.ReadFile(filepath.Join(dir, e.Name()))
			if err != nil {
				t.Fatal(err)
			}
			files[e.Name()] = string(b)
		}
	}
	return files
}

func TestRunnerStop(t *testing.T) {
	r, progress := testRunner(t, "100=hang")
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
	if c := counted(t, r); len(c) != 2 {
		t.Errorf("children ran for %q: the point after the stop ran", c)
	}
	if !strings.Contains(progress.String(), "rep 1/1 ... interrupted: the point was stopped and is not kept\n") {
		t.Errorf("progress:\n%s", progress)
	}
	if _, err := os.Stat(filepath.Join(r.Dir, "gogc=50,memlimit=off,rep=1.json")); err != nil {
		t.Error(err)
	}

	// A cancelled context stops too.
	r, _ = testRunner(t, "50=hang")
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	outs, err = r.Run(ctx, grid(t, "50", "off"))
	if !errors.Is(err, context.DeadlineExceeded) || len(outs) != 0 {
		t.Errorf("outcomes %v, error %v", outs, err)
	}
}

func TestRunnerShard(t *testing.T) {
	points := grid(t, "25,50,100", "off,1GiB") // six points
	for shard, want := range [][]int{{0, 2, 4}, {1, 3, 5}} {
		r, _ := testRunner(t, "")
		r.Shard, r.Shards = shard, 2
		outs, err := r.Run(context.Background(), points)
		if err != nil {
			t.Fatal(err)
		}
		var got []int
		for _, o := range outs {
			got = append(got, o.Point.Index)
		}
		if !slices.Equal(got, want) {
			t.Errorf("shard %d/2 ran points %v, want %v", shard, got, want)
		}
	}
}

func TestRunnerCannotStart(t *testing.T) {
	r, _ := testRunner(t, "")
	r.Exe = filepath.Join(r.Dir, "no-such-gcperf")
	outs, err := r.Run(context.Background(), grid(t, "50,100", "off"))
	if err != nil || len(outs) != 2 {
		t.Fatalf("%v, %d outcomes", err, len(outs))
	}
	for _, o := range outs {
		if !strings.HasPrefix(o.Failed.Text, "cannot start "+r.Exe+": ") || o.Failed.Reason != NotStarted {
			t.Errorf("failed %q", o.Failed)
		}
	}
}

func TestTailWriter(t *testing.T) {
	tw := &tailWriter{n: 3}
	for _, s := range []string{"a\nb", "c\r\nd\n", "", "e\nf", strings.Repeat("x", 3000)} {
		tw.Write([]byte(s))
	}
	got := tw.Lines()
	if len(got) != 3 || got[0] != "d" || got[1] != "e" || got[2] != "f"+strings.Repeat("x", maxLine-1) {
		t.Errorf("lines %q", got)
	}
	tw.Write([]byte("\n"))
	if got := tw.Lines(); len(got) != 3 || got[0] != "d" {
		t.Errorf("after the newline: %q", got)
	}
}

func TestRunnerProgress(t *testing.T) {
	r, lines := testRunner(t, "")
	r.Count = 2
	points := grid(t, "50,100", "off")
	type call struct{ done, total, lines int }
	var calls []call
	r.Progress = func(done, total int) {
		// Called after the point's line is written, between children.
		calls = append(calls, call{done, total, strings.Count(lines.String(), "\n")})
	}
	if _, err := r.Run(context.Background(), points); err != nil {
		t.Fatal(err)
	}
	want := []call{{1, 4, 1}, {2, 4, 2}, {3, 4, 3}, {4, 4, 4}}
	if !slices.Equal(calls, want) {
		t.Errorf("Progress calls (done, total, lines written) %v, want %v", calls, want)
	}
	// Resumed points count as done too.
	calls = nil
	r.Resume = true
	if _, err := r.Run(context.Background(), points); err != nil {
		t.Fatal(err)
	}
	want = []call{{1, 4, 5}, {2, 4, 6}, {3, 4, 7}, {4, 4, 8}}
	if !slices.Equal(calls, want) {
		t.Errorf("resumed: Progress calls %v, want %v", calls, want)
	}
	// A shard counts its own points only.
	calls = nil
	r.Resume, r.Count, r.Shard, r.Shards = false, 1, 1, 2
	if _, err := r.Run(context.Background(), points); err != nil {
		t.Fatal(err)
	}
	if want := []call{{1, 1, 9}}; !slices.Equal(calls, want) {
		t.Errorf("shard 1/2: Progress calls %v, want %v", calls, want)
	}
}

// grown keeps what the growing test child allocates alive.
var grown [][]byte

// The automatic point timeout follows the repeats that succeeded (issue
// 10, item 11): no point runs unbounded by default.
func TestAutoTimeout(t *testing.T) {
	ok := func(d time.Duration) Outcome { return Outcome{Wall: d} }
	failed := func(d time.Duration) Outcome { return Outcome{Wall: d, Failed: failure(Exited, "exit status 1")} }
	tests := []struct {
		name    string
		timeout time.Duration
		outs    []Outcome
		want    time.Duration
	}{
		{"fixed", 5 * time.Second, []Outcome{ok(time.Hour)}, 5 * time.Second},
		{"off", 0, []Outcome{ok(time.Hour)}, 0},
		{"auto, nothing yet", AutoTimeout, nil, FirstAutoTimeout},
		{"auto, only failures", AutoTimeout, []Outcome{failed(time.Hour)}, FirstAutoTimeout},
		{"auto, short repeats", AutoTimeout, []Outcome{ok(time.Second), ok(2 * time.Second)}, MinAutoTimeout},
		{"auto, long repeats", AutoTimeout, []Outcome{ok(3 * time.Minute), failed(time.Hour), ok(time.Minute)}, 30 * time.Minute},
	}
	for _, tt := range tests {
		r := &Runner{Timeout: tt.timeout}
		if got := r.timeout(tt.outs); got != tt.want {
			t.Errorf("%s: timeout %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestRunnerInherited: the point of gcperf -count sets nothing, its
// children inherit the environment, and its files are process-N.
func TestRunnerInherited(t *testing.T) {
	r, progress := testRunner(t, "37=crash")
	r.Count = 3
	r.Env = append(r.Env, "GOGC=37")
	outs, err := r.Run(context.Background(), []Point{Inherited})
	if err != nil {
		t.Fatal(err)
	}
	if len(outs) != 3 {
		t.Fatalf("%d outcomes, want 3", len(outs))
	}
	// The children ran with the parent's GOGC=37, and crashed for it.
	for i, o := range outs {
		if o.Failed.IsZero() || o.Rep != i+1 {
			t.Errorf("process %d: rep %d, failed %q", i+1, o.Rep, o.Failed)
		}
	}
	if want := []string{"process-1.json", "process-2.json", "process-3.json"}; !slices.Equal(counted(t, r), want) {
		t.Errorf("children ran for %q, want %q", counted(t, r), want)
	}
	for _, want := range []string{"gcperf: process 1/3 ... FAILED in ", "(the whole output: " + filepath.Join(r.Dir, "process-3.log") + ")"} {
		if !strings.Contains(progress.String(), want) {
			t.Errorf("progress does not say %q:\n%s", want, progress)
		}
	}

	r, _ = testRunner(t, "37=crash")
	r.Env = append(r.Env, "GOGC=50")
	outs, err = r.Run(context.Background(), []Point{Inherited})
	if err != nil || len(outs) != 1 || !outs[0].Failed.IsZero() || outs[0].Doc.Env.Go.GOGC != 50 {
		t.Fatalf("GOGC=50: %+v, %v", outs, err)
	}
	if CheckApplied(Inherited, outs[0].Doc) != nil || Inherited.Env() != nil || Inherited.Name() != "process" {
		t.Errorf("Inherited: applied %v, env %q, name %q", CheckApplied(Inherited, outs[0].Doc), Inherited.Env(), Inherited.Name())
	}
	// The same result checked against a point that sets GOGC=100 is a
	// mismatch: CheckApplied looks at the document, and lets Inherited
	// through only because it sets nothing.
	if err := CheckApplied(Point{GOGC: G("100"), MemLimit: M("off")}, outs[0].Doc); err == nil {
		t.Error("a child run with GOGC=50 checked as GOGC=100: no mismatch")
	}
}

// TestRunnerDuration: a result of -duration, whose runs the time counted,
// is complete; one of -runs that stopped short is not.
func TestRunnerDuration(t *testing.T) {
	r, _ := testRunner(t, "50=duration,100=partial")
	outs, err := r.Run(context.Background(), grid(t, "50,100", "off"))
	if err != nil || len(outs) != 2 {
		t.Fatalf("%d outcomes, %v", len(outs), err)
	}
	if !outs[0].Failed.IsZero() || outs[0].Doc == nil {
		t.Errorf("-duration: failed %q", outs[0].Failed)
	}
	if want := "incomplete result: 2 of 5 timed runs"; outs[1].Failed.Text != want {
		t.Errorf("partial: failed %q, want %q", outs[1].Failed, want)
	}
}
