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
	"github.com/gcperf/gcperf/sweep"
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

// TestExecSpoofedTrace: a program's own lines that look like the runtime's,
// with figures that cannot be true of its run, are refused with a word,
// not reported (issue 24, item 12).
func TestExecSpoofedTrace(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("gcperf exec's figures are Linux's")
	}
	exe := execChild(t, "spoof")
	out := filepath.Join(t.TempDir(), "e.json")
	code, _, stderr := gcperf(t, nil, "exec", "-json", out, "--", exe)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	want := "GC figures unavailable: the trace was not trusted: a stop-the-world pause of 100ms in a run of "
	if !strings.Contains(stderr, want) || strings.Contains(stderr, "GC: 100 cycles") {
		t.Errorf("stderr lacks %q:\n%s", want, stderr)
	}
	doc, err := report.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if doc.Exec.GC != nil || !strings.HasPrefix(doc.Exec.GCUnavailable, "the trace was not trusted: ") {
		t.Errorf("GC %+v, unavailable %q", doc.Exec.GC, doc.Exec.GCUnavailable)
	}
}

// TestSweepOwnGOGC: a command that sets its own GOGC runs every point of a
// -gogc sweep with it; its heap goals say so, and each point whose GOGC
// was not applied fails as such (issue 24, item 14).
func TestSweepOwnGOGC(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("a command's figures are Linux's")
	}
	exe := execChild(t, "setgogc")
	out := filepath.Join(t.TempDir(), "sw")
	code, stdout, stderr := gcperf(t, nil, "sweep", "-gogc", "10,100,1000", "-q", "-out", out, "--", exe)
	if code != exitFail {
		t.Errorf("exit %d, want %d; stdout:\n%s\nstderr:\n%s", code, exitFail, stdout, stderr)
	}
	_, s, err := sweep.LoadDir(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range s.Outcomes {
		gogc, _ := o.Point.GOGC.Percent()
		applied := gogc == 100
		if applied != o.Failed.IsZero() || !applied && (o.Failed.Reason != sweep.NotApplied || !strings.Contains(o.Failed.Text, fmt.Sprintf("asked GOGC=%d but the command's heap goals say its runtime applied GOGC≈", gogc))) {
			t.Errorf("GOGC=%d: failed %+v", gogc, o.Failed)
		}
	}
}

// TestSweepServerOwnGOGC: a server that sets its own GOGC fails the points
// of a server sweep whose GOGC it did not apply (issue 24, item 14).
func TestSweepServerOwnGOGC(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("a server's figures are Linux's")
	}
	sweepTest(t)
	addr := freeAddr(t)
	dir := filepath.Join(t.TempDir(), "sw")
	args := append([]string{"sweep", "-gogc", "10,100,1000", "-runs", "60", "-ready", "http://" + addr + "/", "-q", "-out", dir,
		"spin", "-d", "2ms", "--"}, serverArgv(t, addr, "setgogc")...)
	code, stdout, stderr := gcperf(t, nil, args...)
	if code != exitFail {
		t.Fatalf("exit %d; stdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	outs, _, err := sweep.LoadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range outs {
		gogc, _ := o.Point.GOGC.Percent()
		applied := gogc == 100
		if applied != o.Failed.IsZero() || !applied && (o.Failed.Reason != sweep.NotApplied || !strings.Contains(o.Failed.Text, fmt.Sprintf("asked GOGC=%d but the command's heap goals say its runtime applied GOGC≈", gogc))) {
			var gc *report.ExecGC
			if o.Doc != nil && o.Doc.Server != nil {
				gc = o.Doc.Server.GC
			}
			t.Errorf("GOGC=%d: failed %+v; the server's GC %+v", gogc, o.Failed, gc)
		}
	}
}
