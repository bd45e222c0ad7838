package main

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gcperf/gcperf/report"
	"github.com/gcperf/gcperf/sweep"
)

// The sweeps of these tests run this test binary as their children (see
// TestMain), with tiny benchmarks.

// sweepTest prepares a test whose sweeps run children: the environment
// variable that makes this test binary gcperf, the test operations, and a
// counter of the children started. It returns the counter's path.
func sweepTest(t *testing.T) string {
	t.Helper()
	registerTestOps()
	counter := filepath.Join(t.TempDir(), "counter")
	t.Setenv("GCPERF_TEST_CHILD", "1")
	t.Setenv("GCPERF_TEST_COUNTER", counter)
	return counter
}

// ran lists the result files of the children started so far.
func ran(t *testing.T, counter string) []string {
	t.Helper()
	b, err := os.ReadFile(counter)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	return strings.Fields(string(b))
}

// tiny are the run flags of a fast point.
var tiny = []string{"-warmup", "2", "-runs", "20", "-size", "8"}

func sweepArgs(flags ...string) []string {
	return append([]string{"sweep"}, flags...)
}

// loadSweep reads a sweep's directory.
func loadSweep(t *testing.T, dir string) ([]sweep.Outcome, *sweep.Summary) {
	t.Helper()
	outs, s, err := sweep.LoadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	return outs, s
}

// tableOf is the table of a sweep's stdout, without the overhead line.
func tableOf(stdout string) string {
	table, _, _ := strings.Cut(stdout, "\nsweep overhead: ")
	return table
}

func TestSweep(t *testing.T) {
	counter := sweepTest(t)
	dir := filepath.Join(t.TempDir(), "out")
	args := sweepArgs(append([]string{"-gogc", "50,off", "-memlimit", "off,64MiB", "-count", "2", "-slo", "p99=1s", "-out", dir}, tiny...)...)
	code, stdout, stderr := gcperf(t, nil, args...)
	if code != 0 {
		t.Fatalf("exit %d; stdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	t.Logf("stdout:\n%s\nstderr:\n%s", stdout, stderr)
	for _, re := range []string{
		`(?m)^ +GOGC +GOMEMLIMIT +reps +mean +P50 +P99 +P99\.9 +max +throughput +GC cycles +GC CPU +max STW +peak RSS +heap goal$`,
		`(?m)^ +\*? +50 +off +2/2 `, `(?m)^ +\*? +50 +64MiB +2/2 `, `(?m)^ +\*? +off +off +2/2 `, `(?m)^ +\*? +off +64MiB +2/2 `,
		`(?m)^GOGC=\S+ GOMEMLIMIT=\S+ meets p99<=1s on all 2 repeats with the lowest peak RSS`,
		`(\nsweep overhead: \d+\.\d\d \(wall \S+, children \S+\)\n)?$`, // said only above 1.10 (issue 25)
	} {
		if !regexp.MustCompile(re).MatchString(stdout) {
			t.Errorf("stdout does not match %s", re)
		}
	}
	for _, re := range []string{
		`^gcperf: sweep: 4 points × 2 repeats into ` + regexp.QuoteMeta(dir) + `; memory cap \S+ per point \(80% of the \S+ available( under this cgroup)?\); point timeout auto \(-point-timeout\)\n`,
		`(?m)^gcperf: sweep: point 1/4 gogc=50,memlimit=off rep 1/2 \.\.\. ok in \S+: P99 \S+, peak RSS \S+$`,
		`(?m)^gcperf: sweep: point 4/4 gogc=off,memlimit=64MiB rep 2/2 \.\.\. ok in `,
		`(?m)^gcperf: sweep: results in ` + regexp.QuoteMeta(dir) + `: sweep.json, sweep.csv, bench.txt`,
	} {
		if !regexp.MustCompile(re).MatchString(stderr) {
			t.Errorf("stderr does not match %s", re)
		}
	}
	// Interleaved: repeat 1 of every point, then repeat 2.
	want := []string{
		"gogc=50,memlimit=off,rep=1.json", "gogc=50,memlimit=64MiB,rep=1.json",
		"gogc=off,memlimit=off,rep=1.json", "gogc=off,memlimit=64MiB,rep=1.json",
		"gogc=50,memlimit=off,rep=2.json", "gogc=50,memlimit=64MiB,rep=2.json",
		"gogc=off,memlimit=off,rep=2.json", "gogc=off,memlimit=64MiB,rep=2.json",
	}
	if got := ran(t, counter); !slices.Equal(got, want) {
		t.Errorf("children ran for\n%q\nwant\n%q", got, want)
	}
	outs, s := loadSweep(t, dir)
	if len(outs) != 8 || len(s.Rows) != 4 || s.Count != 2 || s.Advice == nil || !s.Advice.Met {
		t.Fatalf("sweep.json: %d outcomes, %d rows, count %d, advice %+v", len(outs), len(s.Rows), s.Count, s.Advice)
	}
	for _, o := range outs {
		// What the child's runtime reports is what was asked.
		if !o.Failed.IsZero() || sweep.CheckApplied(o.Point, o.Doc) != nil {
			t.Errorf("%s: failed %q, applied: %v", o.File, o.Failed, sweep.CheckApplied(o.Point, o.Doc))
		}
		wantCmd := []string{"gcperf", "-runs=20", "-size=8", "-warmup=2", "-json", filepath.Join(dir, o.File), "-overwrite"}
		if !slices.Equal(o.Doc.Tool.Command, wantCmd) {
			t.Errorf("%s: child command %q, want %q", o.File, o.Doc.Tool.Command, wantCmd)
		}
		if o.Doc.Config.Runs != 20 || o.Doc.Config.Warmups != 2 {
			t.Errorf("%s: %d runs, %d warmups", o.File, o.Doc.Config.Runs, o.Doc.Config.Warmups)
		}
		log, err := os.ReadFile(filepath.Join(dir, strings.TrimSuffix(o.File, ".json")+".log"))
		if err != nil || !strings.Contains(string(log), "gcperf: running alloc.list size=8 base=32 chunk=32: 2 warmups, 20 timed runs") ||
			!strings.Contains(string(log), "Repeat with -seed") {
			t.Errorf("%s's log: %v\n%s", o.File, err, log)
		}
	}
	bench, err := os.ReadFile(filepath.Join(dir, "bench.txt"))
	if err != nil || !strings.Contains(string(bench), "BenchmarkAllocList/gogc=off/memlimit=64MiB/size=8/") {
		t.Errorf("bench.txt: %v\n%s", err, bench)
	}
	csv, err := os.ReadFile(filepath.Join(dir, "sweep.csv"))
	if err != nil || strings.Count(string(csv), "\n") != 5 {
		t.Errorf("sweep.csv: %v\n%s", err, csv)
	}
}

// A child whose runtime does not run with the point's settings fails the
// point: here a workload sets GOGC itself.
func TestSweepWrongSettings(t *testing.T) {
	sweepTest(t)
	t.Setenv("GCPERF_TEST_SETGOGC", "50")
	dir := filepath.Join(t.TempDir(), "out")
	code, stdout, stderr := gcperf(t, nil, "sweep", "-gogc", "50,100", "-warmup", "0", "-runs", "5", "-out", dir, "test.setgogc", "noop")
	if code != 1 {
		t.Fatalf("exit %d, want 1; stderr:\n%s", code, stderr)
	}
	if !strings.Contains(stdout, "Failed repeats:\n  gogc=50,memlimit=off rep 1: asked GOGC=50 but the child ran with GOGC=37\n") {
		t.Errorf("stdout:\n%s", stdout)
	}
	if !regexp.MustCompile(`(?m)^ +\*? +100 +off +1/1 `).MatchString(stdout) || !regexp.MustCompile(`(?m)^ +50 +off +0/1 `).MatchString(stdout) {
		t.Errorf("stdout:\n%s", stdout)
	}
	if !strings.HasSuffix(stderr, "gcperf: sweep: 1 of 2 repeats failed\n") {
		t.Errorf("stderr:\n%s", stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "gogc=50,memlimit=off,rep=1.json.failed")); err != nil {
		t.Errorf("the mismatched result is not set aside: %v", err)
	}
}

func TestSweepFailures(t *testing.T) {
	sweepTest(t)
	t.Setenv("GCPERF_TEST_CRASH", "50")
	t.Setenv("GCPERF_TEST_HANG", "100")
	dir := filepath.Join(t.TempDir(), "out")
	code, stdout, stderr := gcperf(t, nil, "sweep", "-gogc", "50,100,200", "-point-timeout", "3s", "-out", dir,
		"-warmup", "0", "-runs", "5", "test.crash", "test.hang", "noop")
	if code != 1 {
		t.Fatalf("exit %d, want 1; stderr:\n%s", code, stderr)
	}
	for _, want := range []string{
		"Failed repeats:\n  gogc=50,memlimit=off rep 1: exit status 3\n  gogc=100,memlimit=off rep 1: exceeded the point timeout 3s\n",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("stdout does not hold %q:\n%s", want, stdout)
		}
	}
	if !regexp.MustCompile(`(?m)^ +\* +200 +off +1/1 `).MatchString(stdout) {
		t.Errorf("gogc=200 did not complete:\n%s", stdout)
	}
	for _, want := range []string{
		"gogc=50,memlimit=off rep 1/1 ... FAILED in ",
		": exit status 3\n    | gcperf: running test.crash, test.hang, noop: 0 warmups, 5 timed runs, seed ",
		"    | test.crash: exiting with status 3 on purpose\n",
		": exceeded the point timeout 3s\n",
		"    | test.hang: hanging on purpose\n",
		"gcperf: sweep: 2 of 3 repeats failed\n",
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr does not hold %q:\n%s", want, stderr)
		}
	}
	outs, _ := loadSweep(t, dir)
	if len(outs) != 3 || !slices.Contains(outs[0].StderrTail, "test.crash: exiting with status 3 on purpose") ||
		!slices.Contains(outs[1].StderrTail, "test.hang: hanging on purpose") || !outs[2].Failed.IsZero() {
		t.Errorf("outcomes: %+v", outs)
	}
}

func TestSweepMemoryCap(t *testing.T) {
	sweepTest(t)
	t.Setenv("GCPERF_TEST_GROW", "100")
	dir := filepath.Join(t.TempDir(), "out")
	code, stdout, stderr := gcperf(t, nil, "sweep", "-gogc", "100,200", "-point-memory", "256MiB", "-out", dir,
		"-warmup", "0", "-runs", "5", "test.grow", "noop")
	if code != 1 {
		t.Fatalf("exit %d, want 1; stderr:\n%s", code, stderr)
	}
	if !regexp.MustCompile(`gogc=100,memlimit=off rep 1: exceeded the memory cap: RSS \S+ > 256MiB\n`).MatchString(stdout) {
		t.Errorf("stdout:\n%s", stdout)
	}
	if !regexp.MustCompile(`(?m)^ +\* +200 +off +1/1 `).MatchString(stdout) {
		t.Errorf("gogc=200 did not complete:\n%s", stdout)
	}
	if !strings.Contains(stderr, "memory cap 256MiB per point; point timeout auto (-point-timeout)\n") {
		t.Errorf("stderr:\n%s", stderr)
	}
}

// An interrupted sweep keeps its finished points and prints their table;
// -resume runs the others, and no point runs twice.
func TestSweepInterruptResume(t *testing.T) {
	counter := sweepTest(t)
	t.Setenv("GCPERF_TEST_HANG", "100")
	dir := filepath.Join(t.TempDir(), "out")
	args := []string{"sweep", "-gogc", "50,100,200", "-out", dir, "-warmup", "0", "-runs", "5", "test.hang", "noop"}
	sig := make(chan os.Signal, 1)
	go func() {
		// Once gogc=100 runs (and hangs), gogc=50 has finished. However
		// long that takes: the test's -timeout reports a child that never
		// starts.
		for {
			if b, _ := os.ReadFile(counter); strings.Count(string(b), "\n") >= 2 {
				break
			}
			time.Sleep(10 * time.Millisecond)
		}
		time.Sleep(100 * time.Millisecond)
		sig <- os.Interrupt
	}()
	code, stdout, stderr := gcperf(t, sig, args...)
	if code != 1 {
		t.Fatalf("exit %d, want 1; stderr:\n%s", code, stderr)
	}
	if !regexp.MustCompile(`(?m)^ +\* +50 +off +1/1 `).MatchString(stdout) || strings.Contains(stdout, " 100 ") || strings.Contains(stdout, " 200 ") {
		t.Errorf("the partial table:\n%s", stdout)
	}
	for _, want := range []string{
		"gcperf: sweep: point 2/3 gogc=100,memlimit=off rep 1/1 ... interrupted: the point was stopped and is not kept\n",
		"gcperf: sweep: interrupted: 1 finished repeat kept; -resume -out " + dir + " runs the rest\n",
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr does not hold %q:\n%s", want, stderr)
		}
	}
	outs, _ := loadSweep(t, dir)
	if len(outs) != 1 || outs[0].File != "gogc=50,memlimit=off,rep=1.json" {
		t.Errorf("outcomes kept: %+v", outs)
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), "gogc=100,memlimit=off,rep=1.json") || strings.HasPrefix(e.Name(), ".") {
			t.Errorf("the stopped point left %s", e.Name())
		}
	}
	if code, _, stderr := gcperf(t, nil, args...); code != 2 || !strings.Contains(stderr, "not empty (-resume finishes the sweep there, -overwrite runs it again)") {
		t.Errorf("without -resume: exit %d, stderr %q", code, stderr)
	}

	t.Setenv("GCPERF_TEST_HANG", "none")
	resume := append([]string{"sweep", "-resume"}, args[1:]...)
	code, stdout, stderr = gcperf(t, nil, resume...)
	if code != 0 {
		t.Fatalf("resumed: exit %d; stderr:\n%s", code, stderr)
	}
	want := []string{"gogc=50,memlimit=off,rep=1.json", "gogc=100,memlimit=off,rep=1.json", // the first sweep
		"gogc=100,memlimit=off,rep=1.json", "gogc=200,memlimit=off,rep=1.json"} // the resumed one
	if got := ran(t, counter); !slices.Equal(got, want) {
		t.Errorf("children ran for\n%q\nwant\n%q", got, want)
	}
	if !strings.Contains(stderr, "gcperf: sweep: point 1/3 gogc=50,memlimit=off rep 1/1: complete in gogc=50,memlimit=off,rep=1.json, not run again\n") {
		t.Errorf("stderr:\n%s", stderr)
	}
	for _, g := range []string{"50", "100", "200"} {
		if !regexp.MustCompile(`(?m)^ +\*? +` + g + ` +off +1/1 `).MatchString(stdout) {
			t.Errorf("no row for gogc=%s:\n%s", g, stdout)
		}
	}

	// A lost result: only its point runs again.
	if err := os.Remove(filepath.Join(dir, "gogc=200,memlimit=off,rep=1.json")); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr = gcperf(t, nil, resume...); code != 0 {
		t.Fatalf("resumed again: exit %d; stderr:\n%s", code, stderr)
	}
	if got := ran(t, counter)[len(want):]; !slices.Equal(got, []string{"gogc=200,memlimit=off,rep=1.json"}) {
		t.Errorf("the second resume ran %q", got)
	}
	if outs, _ := loadSweep(t, dir); len(outs) != 3 {
		t.Errorf("%d outcomes after resuming", len(outs))
	}
}

// Shards merged give the sweep of the whole grid.
func TestSweepShardMerge(t *testing.T) {
	counter := sweepTest(t)
	tmp := t.TempDir()
	full := filepath.Join(tmp, "full")
	flags := append([]string{"-gogc", "25,50,100,off", "-slo", "p99=1s"}, tiny...)
	code, stdout, stderr := gcperf(t, nil, sweepArgs(append(flags, "-out", full)...)...)
	if code != 0 {
		t.Fatalf("exit %d; stderr:\n%s", code, stderr)
	}
	fullTable := tableOf(stdout)
	fullOuts, fullSum := loadSweep(t, full)

	// The full sweep's results, split as two shards would have written them.
	var shardDirs []string
	for i := range 2 {
		d := filepath.Join(tmp, "split", string(rune('a'+i)))
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		s := &sweep.Summary{Grid: fullSum.Grid, Count: fullSum.Count, Shard: []string{"0/2", "1/2"}[i]}
		for _, o := range fullOuts {
			if o.Point.InShard(i, 2) {
				data, err := os.ReadFile(filepath.Join(full, o.File))
				if err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(d, o.File), data, 0o644); err != nil {
					t.Fatal(err)
				}
				s.Outcomes = append(s.Outcomes, o)
			}
		}
		s.Rows = sweep.Summarize(s.Outcomes)
		if err := report.WriteFile(filepath.Join(d, "sweep.json"), nil, false, func(w io.Writer) error { return sweep.WriteJSON(w, s) }); err != nil {
			t.Fatal(err)
		}
		shardDirs = append(shardDirs, d)
	}
	merged := filepath.Join(tmp, "merged")
	code, stdout, stderr = gcperf(t, nil, "sweep", "-merge", "-slo", "p99=1s", "-out", merged, shardDirs[1], shardDirs[0])
	if code != 0 {
		t.Fatalf("merge: exit %d; stderr:\n%s", code, stderr)
	}
	if stdout != fullTable {
		t.Errorf("the merged table:\n%s\nthe full sweep's:\n%s", stdout, fullTable)
	}
	_, mergedSum := loadSweep(t, merged) // a sweep directory of its own
	if !reflect.DeepEqual(mergedSum.Rows, fullSum.Rows) || !reflect.DeepEqual(mergedSum.Advice, fullSum.Advice) {
		t.Errorf("merged rows %+v\nadvice %+v\nfull rows %+v\nadvice %+v", mergedSum.Rows, mergedSum.Advice, fullSum.Rows, fullSum.Advice)
	}

	// Real shards run only their points, and merge into the whole grid.
	n := len(ran(t, counter))
	var real []string
	for i, shard := range []string{"0/2", "1/2"} {
		d := filepath.Join(tmp, "shard", string(rune('0'+i)))
		code, stdout, stderr := gcperf(t, nil, sweepArgs(append(flags, "-shard", shard, "-out", d)...)...)
		if code != 0 {
			t.Fatalf("-shard %s: exit %d; stderr:\n%s", shard, code, stderr)
		}
		if !strings.Contains(stderr, "gcperf: sweep: 2 points (shard "+shard+" of 4) × 1 repeat into ") ||
			!strings.Contains(stderr, "no advice for one shard") || strings.Contains(stdout, "meets") {
			t.Errorf("-shard %s: stdout:\n%s\nstderr:\n%s", shard, stdout, stderr)
		}
		_, s := loadSweep(t, d)
		if s.Shard != shard {
			t.Errorf("shard %q, want %q", s.Shard, shard)
		}
		real = append(real, d)
	}
	want := []string{"gogc=25,memlimit=off,rep=1.json", "gogc=100,memlimit=off,rep=1.json",
		"gogc=50,memlimit=off,rep=1.json", "gogc=off,memlimit=off,rep=1.json"}
	if got := ran(t, counter)[n:]; !slices.Equal(got, want) {
		t.Errorf("the shards ran %q, want %q", got, want)
	}
	code, stdout, stderr = gcperf(t, nil, append([]string{"sweep", "-merge", "-slo", "p99=1s"}, real...)...)
	if code != 0 || strings.Count(stdout, " 1/1 ") != 4 || !strings.Contains(stdout, "meets p99<=1s") || stderr != "" {
		t.Errorf("merging the real shards: exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	// One shard alone is a part of the grid: no advice, exit 1.
	code, stdout, stderr = gcperf(t, nil, "sweep", "-merge", "-slo", "p99=1s", real[0])
	if code != 1 || !strings.Contains(stderr, "the directories hold shard 0/2 only: the grid is not complete, so no advice") ||
		strings.Contains(stdout, "meets") {
		t.Errorf("merging one shard: exit %d, stdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
}

func TestSweepBadInput(t *testing.T) {
	sweepTest(t)
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	full := filepath.Join(dir, "full")
	for _, p := range []string{file, filepath.Join(full, "x")} {
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out := filepath.Join(dir, "never")
	tests := []struct {
		args []string
		want string // the whole of stderr, or its start
	}{
		{[]string{"-gogc", "fast"}, `gcperf: -gogc: "fast" is not off or a percentage`},
		{[]string{"-gogc", "50,,100"}, `gcperf: -gogc: "50,,100" has an empty item`},
		{[]string{"-memlimit", "1GB"}, `gcperf: -memlimit: "1GB" is not off or a size such as 512MiB`},
		{[]string{"-gomaxprocs", "0"}, `gcperf: -gomaxprocs: "0" is not a positive integer`},
		{[]string{"-count", "0"}, "gcperf: -count must be at least 1, got 0"},
		{[]string{"-count", "10001"}, "gcperf: -count must be at most 10000, got 10001 (every process's result is kept for the report)"},
		{[]string{"-profile", filepath.Join(dir, "prof"), "-profile-runs", "0"}, "gcperf: -profile-runs must be at least 1, got 0"},
		{[]string{"-profile", filepath.Join(file, "p")}, "gcperf: -profile " + filepath.Join(file, "p") + ": "},
		{[]string{"-shard", "2/2"}, `gcperf: -shard: "2/2" is not i/n with 0 <= i < n, such as 0/2`},
		{[]string{"-shard", "x"}, `gcperf: -shard: "x" is not i/n with 0 <= i < n, such as 0/2`},
		{[]string{"-gogc", "50,100", "-shard", "0/3"}, "gcperf: -shard 0/3: the grid has 2 points, fewer than 3 shards"},
		{[]string{"-point-memory", "-1"}, `gcperf: -point-memory: "-1" is not a size such as 4GiB, a percentage of the available memory such as 80%, or off`},
		{[]string{"-point-memory", "0"}, `gcperf: -point-memory: "0" is not a size such as 4GiB`},
		{[]string{"-point-memory", "180%"}, `gcperf: -point-memory: "180%" is not a percentage above 0 and at most 100`},
		{[]string{"-point-timeout", "-1s"}, `gcperf: invalid value "-1s" for flag -point-timeout: must be positive, off or auto (gcperf sweep -h lists the flags)`},
		{[]string{"-point-timeout", "soon"}, `gcperf: invalid value "soon" for flag -point-timeout: not a duration (30m), off or auto (gcperf sweep -h lists the flags)`},
		{[]string{"-gomaxprocs", "100000"}, `gcperf: -gomaxprocs: 100000 is more than 1024, the most a sweep runs (the runtime's cost grows faster than the Ps)`},
		{[]string{"-slo", "p99=abc"}, `gcperf: -slo: p99 "abc" is not a positive duration such as 20ms`},
		{[]string{"-runs", "0"}, "gcperf: -runs must be at least 1, got 0"},
		{[]string{"-size", "0"}, "gcperf: -size must be at least 1 (KB), got 0"},
		{[]string{"-size", "1073741824", "-base", "1"}, "gcperf: -size 1073741824 with -base 1 and -chunk 32 needs 33.0TiB live plus "},
		{[]string{"-gcstats", "some"}, `gcperf: -gcstats must be run, total or off, got "some"`},
		{[]string{"-json", "x"}, "gcperf: -json is not for a sweep: each point writes its JSON result to -out DIR"},
		{[]string{"-html", file}, "gcperf: -html " + file + ": file exists (use -overwrite to replace it)"},
		{[]string{"-bench", "x"}, "gcperf: -bench is not for a sweep: the sweep writes bench.txt"},
		{[]string{"-v"}, "gcperf: -v is not for a sweep: the children's output goes to their .log files in -out DIR"},
		{[]string{"-runlog", "x"}, "gcperf: -runlog is not for a sweep: every point would stream its runs to the same file"},
		{[]string{"-hlog", "x"}, "gcperf: -hlog is not for a sweep: every point would stream its runtimes to the same file"},
		{[]string{"-hlog-interval", "5s"}, "gcperf: -hlog-interval is not for a sweep: it goes with -hlog"},
		{[]string{"-http", ":0"}, "gcperf: -http is not for a sweep: "},
		{[]string{"-cpuprofile", "x"}, "gcperf: -cpuprofile is not for a sweep: -profile DIR profiles every point, each under DIR/POINT/"},
		{[]string{"-nosuch"}, "gcperf: flag provided but not defined: -nosuch (gcperf sweep -h lists the flags)"},
		{[]string{"-size", "8", "noop"}, "gcperf: flag provided but not defined: -size (gcperf sweep -h lists the flags)"},
		{[]string{"nosuch"}, `gcperf: unknown operation "nosuch" (gcperf list shows them)`},
		{[]string{"spin", "-d", "abc"}, `gcperf: spin: bad parameter value: d="abc": not a duration`},
		{[]string{"noop", "-runs", "5"}, "gcperf: flag -runs after the operations: flags go before the first operation"},
		{[]string{"-sample", "3", "noop"}, "gcperf: -sample draws 3 operations per run without repeats from a mix of 1"},
		{[]string{"-out", file}, "gcperf: -out " + file + ": not a directory"},
		{[]string{"-out", full}, "gcperf: -out " + full + ": not empty (-resume finishes the sweep there, -overwrite runs it again)"},
		{[]string{"-out", "-"}, "gcperf: -out -: a sweep writes a directory of files"},
		{[]string{"-resume"}, "gcperf: -resume needs -out, the directory of the sweep to finish"},
		{[]string{"-resume", "-overwrite", "-out", full}, "gcperf: -resume and -overwrite exclude each other"},
		{[]string{"-merge"}, "gcperf: -merge needs the directories to merge: gcperf sweep -merge DIR..."},
		{[]string{"-merge", "-gogc", "50", full}, "gcperf: -gogc does not apply to -merge: the directories hold their sweeps"},
		{[]string{"-merge", "-runs", "5", full}, "gcperf: -runs does not apply to -merge: the directories hold their sweeps"},
		{[]string{"-merge", "-slo", "p99=abc", full}, `gcperf: -slo: p99 "abc" is not a positive duration such as 20ms`},
		{[]string{"-merge", full}, "gcperf: -merge: open " + filepath.Join(full, "sweep.json") + ": no such file or directory"},
		{[]string{"-merge", "-out", full, full}, "gcperf: -out " + full + " is one of the directories to merge"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			args := append([]string{"sweep"}, tt.args...)
			if !slices.Contains(tt.args, "-out") && !slices.Contains(tt.args, "-merge") && !slices.Contains(tt.args, "-resume") {
				// Where the sweep would go were a value not refused.
				args = append([]string{"sweep", "-out", out}, tt.args...)
			}
			code, stdout, stderr := gcperf(t, nil, args...)
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
	if _, err := os.Stat(out); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a refused sweep created its directory: %v", err)
	}
	if got := ran(t, os.Getenv("GCPERF_TEST_COUNTER")); len(got) > 0 {
		t.Errorf("refused sweeps ran children: %q", got)
	}
}

func TestSweepHelp(t *testing.T) {
	code, stdout, stderr := gcperf(t, nil, "sweep", "-h")
	if code != 0 || stderr != "" {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	golden(t, "help_sweep_-h.golden", stdout)
}

// -profile DIR gives every point and repeat its own profile directory.
func TestSweepProfile(t *testing.T) {
	sweepTest(t)
	dir := filepath.Join(t.TempDir(), "out")
	prof := filepath.Join(t.TempDir(), "prof")
	args := sweepArgs(append([]string{"-gogc", "50,off", "-out", dir, "-profile", prof, "-profile-runs", "5"}, tiny...)...)
	code, stdout, stderr := gcperf(t, nil, args...)
	if code != 0 {
		t.Fatalf("exit %d; stdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	for _, point := range []string{"gogc=50,memlimit=off,rep=1", "gogc=off,memlimit=off,rep=1"} {
		for _, name := range []string{"cpu.pprof", "heap.pprof", "trace.out", "fgprof.pprof"} {
			if _, err := os.Stat(filepath.Join(prof, point, name)); err != nil {
				t.Error(err)
			}
		}
	}
}

// -q is the sweep's own: the children are not given it, so that a sweep
// run with -q resumes and merges with one run without it.
func TestSweepQuietNotPassed(t *testing.T) {
	sweepTest(t)
	dir := filepath.Join(t.TempDir(), "out")
	code, stdout, stderr := gcperf(t, nil, sweepArgs(append([]string{"-q", "-gogc", "100", "-out", dir}, tiny...)...)...)
	if code != 0 {
		t.Fatalf("exit %d; stdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	outs, _ := loadSweep(t, dir)
	for _, o := range outs {
		if slices.ContainsFunc(o.Doc.Tool.Command, func(a string) bool { return strings.HasPrefix(a, "-q") }) {
			t.Errorf("the child was given -q: %q", o.Doc.Tool.Command)
		}
	}
	if code, _, stderr := gcperf(t, nil, "sweep", "-resume", "-out", dir); code != 0 {
		t.Errorf("resume without -q: exit %d\n%s", code, stderr)
	}
}

// A plan that names where files go was not written by gcperf: refused. A
// merge of an incomplete sweep gives no advice and exits 1, as the live
// sweep does.
func TestSweepPlanAndMergeIncomplete(t *testing.T) {
	sweepTest(t)
	dir := filepath.Join(t.TempDir(), "out")
	if code, _, stderr := gcperf(t, nil, sweepArgs(append([]string{"-q", "-gogc", "50,100", "-out", dir}, tiny...)...)...); code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	plan, err := sweep.ReadPlan(dir)
	if err != nil {
		t.Fatal(err)
	}
	elsewhere := filepath.Join(t.TempDir(), "elsewhere")
	bad := sweep.Plan{Args: append([]string{"-out=" + elsewhere}, plan.Args...)}
	if err := sweep.WritePlan(dir, bad); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := gcperf(t, nil, "sweep", "-resume", "-out", dir)
	if code != 2 || !strings.Contains(stderr, "holds -out") {
		t.Errorf("a plan with -out: exit %d, %q", code, stderr)
	}
	if _, err := os.Stat(elsewhere); !os.IsNotExist(err) {
		t.Errorf("the plan's -out was created: %v", err)
	}
	if err := sweep.WritePlan(dir, plan); err != nil {
		t.Fatal(err)
	}

	_, s := loadSweep(t, dir)
	s.Outcomes = s.Outcomes[:1]
	var b bytes.Buffer
	if err := sweep.WriteJSON(&b, s); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, sweep.SummaryFile), b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := gcperf(t, nil, "sweep", "-merge", "-slo", "p99=1h", dir)
	if code != 1 || !strings.Contains(stderr, "no advice") || strings.Contains(stdout, "meets") {
		t.Errorf("merge of 1 of 2 repeats: exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
}

// The plan is a struct, compared as one: a flag given at its default value
// (-runs 1000 of gcperf's alloc.list) resumes without running anything,
// a recorded -slo keeps its advice, and a plan of an earlier gcperf (its
// arguments) is refused in one line.
func TestSweepResumeTypedPlan(t *testing.T) {
	for _, tt := range []struct {
		name   string
		first  []string
		resume []string
	}{
		{"flag at its default", []string{"-q", "-gogc", "100", "-size", "8", "-runs", "1000"}, nil},
		{"slo kept", sweepArgs(append([]string{"-q", "-gogc", "100", "-slo", "p99=1h"}, tiny...)...)[1:], nil},
		{"default given anew", []string{"-q", "-gogc", "100", "-size", "8"}, []string{"-runs", "1000", "-gogc", "0100"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			counter := sweepTest(t)
			dir := filepath.Join(t.TempDir(), "rr") + "/"
			if code, _, stderr := gcperf(t, nil, sweepArgs(append(slices.Clone(tt.first), "-out", dir)...)...); code != 0 {
				t.Fatalf("the sweep: exit %d\n%s", code, stderr)
			}
			_, before := loadSweep(t, dir)
			n := len(ran(t, counter))
			code, _, stderr := gcperf(t, nil, sweepArgs(append([]string{"-resume", "-out", dir}, tt.resume...)...)...)
			if code != 0 {
				t.Fatalf("-resume: exit %d\n%s", code, stderr)
			}
			if got := ran(t, counter)[n:]; len(got) > 0 {
				t.Errorf("-resume ran %q again", got)
			}
			_, after := loadSweep(t, dir)
			if (before.Advice == nil) != (after.Advice == nil) {
				t.Errorf("advice before -resume %v, after %v", before.Advice, after.Advice)
			}
			if slices.Contains(tt.first, "-slo") && (after.Advice == nil || !after.Advice.Met) {
				t.Errorf("the resumed sweep's advice is %+v, want p99<=1h met", after.Advice)
			}
		})
	}

	// A sweep an earlier gcperf planned, its plan its arguments, resumes
	// from them: what it finished is kept, the rest runs, and its plan is
	// recorded anew; flags beside -resume are refused, not compared.
	t.Run("plan of an earlier gcperf", func(t *testing.T) {
		counter := sweepTest(t)
		dir := filepath.Join(t.TempDir(), "rr")
		if code, _, stderr := gcperf(t, nil, sweepArgs(append([]string{"-q", "-gogc", "100", "-out", dir}, tiny...)...)...); code != 0 {
			t.Fatalf("the sweep: exit %d\n%s", code, stderr)
		}
		v1 := `{"schema": "gcperf-sweep-plan/v1", "args": ["-gogc=50,100", "-runs=20", "-size=8", "-warmup=2"]}`
		if err := os.WriteFile(filepath.Join(dir, sweep.PlanFile), []byte(v1), 0o644); err != nil {
			t.Fatal(err)
		}
		code, _, stderr := gcperf(t, nil, "sweep", "-q", "-resume", "-runs", "7", "-out", dir)
		want := "gcperf: -resume -out " + dir + ": the sweep there was planned by an earlier gcperf: -resume -out " + dir + " alone finishes it with its own flags\n"
		if code != exitUsage || stderr != want {
			t.Errorf("with -runs: exit %d, stderr %q; want %d, %q", code, stderr, exitUsage, want)
		}
		n := len(ran(t, counter))
		if code, _, stderr := gcperf(t, nil, "sweep", "-q", "-resume", "-out", dir); code != 0 {
			t.Fatalf("-resume: exit %d\n%s", code, stderr)
		}
		if got := ran(t, counter)[n:]; len(got) != 1 || !strings.Contains(got[0], "gogc=50,") {
			t.Errorf("-resume ran %q, want gogc=50's point alone", got)
		}
		rec, err := sweep.ReadPlan(dir)
		if err != nil || len(rec.Grid.GOGC) != 2 {
			t.Errorf("the plan after -resume: %+v, %v; want the sweep's, recorded anew", rec, err)
		}
	})
}

// parseOne reads one grid value for a flag of its own, and its errors name
// that flag.
func TestParseOne(t *testing.T) {
	for _, tc := range []struct {
		flag, value, want, err string
	}{
		{"gogc", "", "", ""},
		{"gogc", "50", "50", ""},
		{"server-gogc", "x", "", `-server-gogc: "x" is not off or a percentage`},
		{"memlimit", "1GB", "", `-memlimit: "1GB" is not off or a size such as 512MiB`},
		{"gogc", "50,100", "", `-gogc takes one value, got "50,100"`},
	} {
		got, err := parseOne(tc.flag, tc.value, sweep.ParseGOGC)
		if tc.flag == "memlimit" {
			got, err = parseOne(tc.flag, tc.value, sweep.ParseMemLimit)
		}
		if got != tc.want || (err == nil) != (tc.err == "") || err != nil && (err.Error() != tc.err || !errors.As(err, new(*usageError))) {
			t.Errorf("parseOne(%q, %q) = %q, %v; want %q, %q", tc.flag, tc.value, got, err, tc.want, tc.err)
		}
	}
}

// A command rebuilt behind the same path is another program: -resume
// refuses it, in one line, and runs nothing.
func TestSweepResumeAnotherProgram(t *testing.T) {
	tmp := t.TempDir()
	prog := filepath.Join(tmp, "prog")
	if err := os.WriteFile(prog, []byte("#!/bin/sh\nexit 0\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(tmp, "out")
	if code, _, stderr := gcperf(t, nil, "sweep", "-q", "-gogc", "100", "-out", dir, "--", prog); code != 0 {
		t.Fatalf("the sweep: exit %d\n%s", code, stderr)
	}
	if code, _, stderr := gcperf(t, nil, "sweep", "-q", "-resume", "-out", dir); code != 0 {
		t.Fatalf("-resume of the same program: exit %d\n%s", code, stderr)
	}
	// The same bytes touched, and the command given again: the same sweep.
	later := time.Now().Add(time.Hour)
	if err := os.Chtimes(prog, later, later); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := gcperf(t, nil, "sweep", "-q", "-resume", "-out", dir, "--", prog); code != 0 {
		t.Fatalf("-resume of the same program, touched, given again: exit %d\n%s", code, stderr)
	}
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"--", prog, "x"}, "the command " + prog + " x differs from the command (" + prog + ") that the sweep in " + dir + " records"},
		{[]string{"noop"}, "the operations noop differ from the operations (the command " + prog + ") that"},
	} {
		code, _, stderr := gcperf(t, nil, slices.Concat([]string{"sweep", "-q", "-resume", "-out", dir}, tt.args)...)
		if code != exitUsage || !strings.Contains(stderr, tt.want) {
			t.Errorf("-resume %q: exit %d, stderr %q, want %q", tt.args, code, stderr, tt.want)
		}
	}
	if err := os.WriteFile(prog, []byte("#!/bin/sh\nexit 0 # rebuilt\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := gcperf(t, nil, "sweep", "-q", "-resume", "-out", dir)
	if code != exitUsage || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, "the program it runs is now another, "+prog) {
		t.Errorf("-resume of a rebuilt program: exit %d, stderr %q", code, stderr)
	}
}

// Issue 24, item 15: a sweep of ./prog resumed from another directory
// would run another program; the plan records the directory its relative
// paths are read in, and -resume from elsewhere is refused.
func TestSweepResumeAnotherDirectory(t *testing.T) {
	tmp := t.TempDir()
	a, b := filepath.Join(tmp, "a"), filepath.Join(tmp, "b")
	for _, d := range []string{a, b} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(d, "prog"), []byte("#!/bin/sh\nexit 0 # "+d+"\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	out := filepath.Join(tmp, "out")
	t.Chdir(a)
	if code, _, stderr := gcperf(t, nil, "sweep", "-q", "-gogc", "50,100", "-out", out, "--", "./prog"); code != 0 {
		t.Fatalf("the sweep: exit %d\n%s", code, stderr)
	}
	t.Chdir(b)
	code, _, stderr := gcperf(t, nil, "sweep", "-q", "-resume", "-out", out)
	if code != exitUsage || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, "records another workdir: "+a+", not "+b) {
		t.Errorf("-resume from another directory: exit %d, stderr %q", code, stderr)
	}
}
