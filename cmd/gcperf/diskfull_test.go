//go:build linux

package main

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// A sweep on a full disk stops at the first point that could not write
// its result, whose failure says so, and keeps what it has (issue 24,
// item 27: each point read "exit status 1", the cause in its log only,
// and every later point ran its whole benchmark before failing to write).
func TestSweepDiskFull(t *testing.T) {
	sweepTest(t)
	dir := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=200k", "tmpfs", dir).CombinedOutput(); err != nil {
		t.Skipf("no tmpfs to fill (mount: %v: %s): it takes root on Linux", err, strings.TrimSpace(string(out)))
	}
	t.Cleanup(func() { exec.Command("umount", dir).Run() })
	out := filepath.Join(dir, "sw")
	code, stdout, stderr := gcperf(t, nil, "sweep", "-q", "-gogc", "50,100,200", "-warmup", "1", "-runs", "300", "-out", out, "sleep", "-d", "1us")
	if code != exitFail {
		t.Errorf("exit %d, want 1", code)
	}
	for _, want := range []string{
		"gcperf: sweep: point 1/3 gogc=50,memlimit=off rep 1/1 ... FAILED in ",
		": exit status 1: " + out + " has no room for its files: no space left on device\n",
		"gcperf: sweep: stopped: " + out + ": no room for another repeat's files (1MiB tried): no space left on device; 1 finished repeat kept; -resume -out " + out + " runs the rest once there is room\n",
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	if strings.Contains(stderr, "point 2/3") {
		t.Errorf("ran on after the disk was full:\n%s", stderr)
	}
	if !strings.Contains(stdout, "exit status 1: "+out+" has no room for its files: no space left on device") {
		t.Errorf("the table's failures do not say why:\n%s", stdout)
	}
}
