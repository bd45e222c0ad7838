package main

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"

	"github.com/gcperf/gcperf/report"
)

// fullDisk is a writer that takes room bytes, then fails as a full disk
// does.
type fullDisk struct {
	w    io.Writer
	room int
}

func (d *fullDisk) Write(p []byte) (int, error) {
	if len(p) > d.room {
		n, _ := d.w.Write(p[:d.room])
		d.room = 0
		return n, &os.PathError{Op: "write", Path: "log", Err: syscall.ENOSPC}
	}
	d.room -= len(p)
	return d.w.Write(p)
}

// TestExecLogFull: a -log that could not be written whole (a full disk)
// does not take the measurement's files with it: they are written whole,
// the log is kept as far as it goes, the report and stderr say it is
// truncated, and the exit status says the failure (issue 24, item 7).
func TestExecLogFull(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("gcperf exec's figures are Linux's")
	}
	const room = 64 << 10
	old := wrapLog
	wrapLog = func(f io.Writer) io.Writer { return &fullDisk{w: f, room: room} }
	t.Cleanup(func() { wrapLog = old })
	exe := execChild(t, "spewerr")
	dir := t.TempDir()
	log, out := filepath.Join(dir, "e.log"), filepath.Join(dir, "e.json")
	code, _, stderr := gcperf(t, nil, "exec", "-log", log, "-json", out, "--", exe)
	checkLogFull(t, code, stderr, log, out, room)
}

// TestExecLogFullDisk is TestExecLogFull on a real full disk: a 600KiB
// tmpfs, which the log fills. It needs root (mount).
func TestExecLogFullDisk(t *testing.T) {
	if runtime.GOOS != "linux" || os.Geteuid() != 0 {
		t.Skip("needs root on Linux to mount a tmpfs")
	}
	dir := t.TempDir()
	if b, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=600k", "tmpfs", dir).CombinedOutput(); err != nil {
		t.Skipf("mount: %v: %s", err, b)
	}
	t.Cleanup(func() { exec.Command("umount", dir).Run() })
	exe := execChild(t, "spewerr")
	log, out := filepath.Join(dir, "e.log"), filepath.Join(dir, "e.json")
	code, _, stderr := gcperf(t, nil, "exec", "-log", log, "-json", out, "--", exe)
	checkLogFull(t, code, stderr, log, out, 600<<10)
}

// checkLogFull checks gcperf exec's outcome with a -log that filled up
// after at most room bytes.
func checkLogFull(t *testing.T, code int, stderr, log, out string, room int64) {
	t.Helper()
	if code != exitFail {
		t.Errorf("exit %d, want %d", code, exitFail)
	}
	doc, err := report.ReadFile(out)
	if err != nil {
		t.Fatalf("the result: %v; stderr:\n%s", err, stderr)
	}
	if doc.Exec == nil || !strings.Contains(doc.Exec.LogTruncated, "no space left on device") {
		t.Errorf("the result does not say the log is truncated: %+v", doc.Exec)
	}
	st, err := os.Stat(log)
	if err != nil {
		t.Fatalf("the log: %v", err)
	}
	if st.Size() == 0 || st.Size() > room {
		t.Errorf("the log holds %d bytes, want 1 to %d", st.Size(), room)
	}
	for _, w := range []string{"Log truncated: -log " + log, "gcperf: exec: -log " + log + ": truncated at ", "Status: exit status 0"} {
		if !strings.Contains(stderr, w) {
			t.Errorf("stderr lacks %q:\n%s", w, stderr)
		}
	}
	if matches, _ := filepath.Glob(filepath.Join(filepath.Dir(log), ".*tmp*")); len(matches) > 0 {
		t.Errorf("temporary files left: %q", matches)
	}
}

// TestExecGoalBounded: the heap goal timeline of a command that collects
// thousands of times is bounded as its RSS series is, and the JSON written
// reads back (issue 24, item 28).
func TestExecGoalBounded(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("gcperf exec's figures are Linux's")
	}
	exe := execChild(t, "manygc")
	out := filepath.Join(t.TempDir(), "e.json")
	code, _, stderr := gcperf(t, nil, "exec", "-gogc", "1", "-json", out, "--", exe)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	doc, err := report.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	g := doc.Exec.GC
	if g == nil || g.Cycles < 1500 {
		t.Fatalf("GC %+v", g)
	}
	if n := len(g.Goal); n > 1000 || n < 250 || g.GoalStride < 2 || g.GoalCycles < g.Cycles-2 || n*g.GoalStride < g.GoalCycles {
		t.Errorf("%d cycles: %d goal points, stride %d, of %d cycles", g.Cycles, n, g.GoalStride, g.GoalCycles)
	}
	if want := fmt.Sprintf("over %d cycles", g.GoalCycles); !strings.Contains(stderr, want) {
		t.Errorf("stderr lacks %q:\n%s", want, stderr)
	}
}
