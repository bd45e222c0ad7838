//go:build linux

package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A soak killed by SIGKILL leaves what -runlog and -hlog streamed, at
// FILE.incomplete, a name that says it is incomplete, readable as CSV and
// as an HdrHistogram log up to the kill (issue 24, item 29: the data was
// in a hidden temporary file, and nothing was at FILE). A run that ends
// renames them FILE (the other signal tests).
func TestStreamsSurviveSIGKILL(t *testing.T) {
	dir, tmp := t.TempDir(), t.TempDir()
	p := startMain(t, dir, tmp, streamRead, streamRead,
		"run", "-q", "-duration", "60s", "-runlog", "rl.csv", "-hlog", "h.hlog", "sleep", "-d", "1ms")
	rl, hl := filepath.Join(dir, "rl.csv.incomplete"), filepath.Join(dir, "h.hlog.incomplete")
	// Streamed: a run line past the header, an interval past the legend.
	streamed := func() bool {
		csv, _ := os.ReadFile(rl)
		hlog, _ := os.ReadFile(hl)
		return strings.Count(string(csv), "\n") >= 2 && hlogIntervals(string(hlog)) >= 1
	}
	for deadline := time.Now().Add(30 * time.Second); !streamed(); time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("nothing streamed to %s and %s within 30s; in %s: %v; stderr:\n%s", rl, hl, dir, guarTree(t, dir), guarClip(p.stderr.String()))
		}
	}
	syscall.Kill(p.cmd.Process.Pid, syscall.SIGKILL)
	if how := p.wait(t, 10*time.Second); how != "killed by killed" {
		t.Fatalf("gcperf: %s, want killed by SIGKILL", how)
	}
	csv, err := os.ReadFile(rl)
	if err != nil || !strings.HasPrefix(string(csv), "run,thread,start_ns,runtime_ns,") {
		t.Errorf("%s: %v, want the run log's header:\n%s", rl, err, guarClip(string(csv)))
	}
	hlog, err := os.ReadFile(hl)
	if err != nil || !strings.HasPrefix(string(hlog), "#") || hlogIntervals(string(hlog)) < 1 {
		t.Errorf("%s: %v, want an interval log:\n%s", hl, err, guarClip(string(hlog)))
	}
	for _, f := range []string{"rl.csv", "h.hlog"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err == nil {
			t.Errorf("%s is there: a killed run's stream is named incomplete", f)
		}
	}
	if temps := guarTemps(t, dir); len(temps) > 0 {
		t.Errorf("hidden temporary files: %q", temps)
	}
}

// hlogIntervals counts the interval lines of an HdrHistogram log: those
// that are neither comments (#) nor its legend ("StartTimestamp",...).
func hlogIntervals(log string) int {
	n := 0
	for line := range strings.Lines(log) {
		if line != "" && !strings.HasPrefix(line, "#") && !strings.HasPrefix(line, `"StartTimestamp"`) && strings.HasSuffix(line, "\n") {
			n++
		}
	}
	return n
}
