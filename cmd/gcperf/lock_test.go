package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gcperf/gcperf/sweep"
)

// lockProc is a real gcperf process: this test binary as gcperf (TestMain).
type lockProc struct {
	cmd            *exec.Cmd
	stdout, stderr guarBuffer
}

// startGcperf starts gcperf args in a process of its own.
func startGcperf(t *testing.T, args ...string) *lockProc {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	p := &lockProc{cmd: exec.Command(exe, args...)}
	p.cmd.Env = append(os.Environ(), "GCPERF_TEST_CHILD=1")
	p.cmd.Stdout, p.cmd.Stderr = &p.stdout, &p.stderr
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.cmd.Process.Kill(); p.cmd.Wait() })
	return p
}

// wait waits for the process and returns its exit status.
func (p *lockProc) wait(t *testing.T) int {
	t.Helper()
	err := p.cmd.Wait()
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		t.Fatal(err)
	}
	return p.cmd.ProcessState.ExitCode()
}

// runGcperf runs gcperf args in a process of its own.
func runGcperf(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	p := startGcperf(t, args...)
	code = p.wait(t)
	return code, p.stdout.String(), p.stderr.String()
}

// waitFile waits until path exists.
func waitFile(t *testing.T, path string) {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if _, err := os.Stat(path); err == nil {
			return
		}
	}
	t.Fatalf("%s never appeared", path)
}

// lockRefused checks that a second gcperf on dir was refused at once, in
// one line naming the directory and saying another gcperf is using it.
func lockRefused(t *testing.T, what string, code int, stderr, dir string) {
	t.Helper()
	want := regexp.MustCompile(`^gcperf: -out ` + regexp.QuoteMeta(dir) + `: another gcperf is using this directory\n$`)
	if code != exitUsage || !want.MatchString(stderr) {
		t.Errorf("%s while another gcperf uses %s: exit %d, stderr %q; want exit 2 and %v", what, dir, code, stderr, want)
	}
}

// TestOutLockSweep: while a sweep runs into -out DIR, a second gcperf on
// DIR (a resume, a sweep, a merge into it, a benchmark's -out) is refused
// at once and touches nothing there; the first sweep runs every point once
// and succeeds. Two real gcperf processes.
func TestOutLockSweep(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("flock(2)")
	}
	counter := sweepTest(t)
	dir := filepath.Join(t.TempDir(), "swt")
	// Two points of about a second each.
	first := startGcperf(t, "sweep", "-q", "-gogc", "50,100", "-warmup", "0", "-runs", "150", "-out", dir, "sleep", "-d", "5ms")
	waitFile(t, filepath.Join(dir, sweep.PlanFile))
	for _, args := range [][]string{
		{"sweep", "-resume", "-q", "-out", dir},
		{"sweep", "-q", "-overwrite", "-gogc", "50", "-runs", "5", "-out", dir, "noop"},
		{"sweep", "-merge", "-overwrite", "-out", dir, t.TempDir()},
		{"run", "-q", "-runs", "5", "-overwrite", "-out", dir, "noop"},
		{"run", "-q", "-runs", "5", "-count", "2", "-overwrite", "-out", dir, "noop"},
	} {
		code, _, stderr := runGcperf(t, args...)
		lockRefused(t, strings.Join(args[:2], " "), code, stderr, dir)
	}
	if code := first.wait(t); code != 0 {
		t.Fatalf("the first sweep: exit %d; stderr:\n%s", code, first.stderr.String())
	}
	outs, _ := loadSweep(t, dir)
	if len(outs) != 2 {
		t.Errorf("the sweep holds %d outcomes, want 2", len(outs))
	}
	for _, o := range outs {
		if !o.Failed.IsZero() {
			t.Errorf("point %v failed: %v", o.Point, o.Failed)
		}
	}
	if r := ran(t, counter); len(r) != 2 {
		t.Errorf("children ran %q: want each point once", r)
	}
	// Once it is done, the directory is free: a resume finds it complete.
	if code, _, stderr := runGcperf(t, "sweep", "-resume", "-q", "-out", dir); code != 0 {
		t.Errorf("resume after the sweep: exit %d; stderr:\n%s", code, stderr)
	}
	if r := ran(t, counter); len(r) != 2 {
		t.Errorf("children ran %q after the resume: want each point once", r)
	}
}

// TestOutLockRun: while gcperf run writes to -out DIR, a sweep or another
// run on DIR is refused; a gcperf killed with SIGKILL leaves no stale lock.
func TestOutLockRun(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("flock(2)")
	}
	sweepTest(t)
	dir := filepath.Join(t.TempDir(), "o")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	first := startGcperf(t, "run", "-show-runs", "-warmup", "0", "-runs", "100000", "-out", dir, "sleep", "-d", "5ms")
	// -show-runs says when the timed runs start: the lock was taken before.
	for deadline := time.Now().Add(20 * time.Second); !strings.Contains(first.stderr.String(), "Run start 1\n"); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the first run never started; stderr:\n%s", first.stderr.String())
		}
	}
	for _, args := range [][]string{
		{"run", "-q", "-runs", "5", "-overwrite", "-out", dir, "noop"},
		{"sweep", "-q", "-overwrite", "-gogc", "50", "-runs", "5", "-out", dir, "noop"},
	} {
		code, _, stderr := runGcperf(t, args...)
		lockRefused(t, strings.Join(args[:2], " "), code, stderr, dir)
	}
	first.cmd.Process.Signal(syscall.SIGKILL)
	first.wait(t)
	if code, _, stderr := runGcperf(t, "run", "-q", "-runs", "5", "-overwrite", "-out", dir, "noop"); code != 0 {
		t.Errorf("run -out after the first gcperf was killed: exit %d; stderr:\n%s", code, stderr)
	}
}
