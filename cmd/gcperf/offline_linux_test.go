//go:build linux

package main

import (
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A real gcperf compare of 300,000 benchmarks stops at a real SIGTERM or
// SIGHUP, mid-read or mid-compare, with exit 130 (issue 24, item 18: it
// ran its 270 s to the end).
func TestOfflineCompareSignalled(t *testing.T) {
	dir, tmp := t.TempDir(), t.TempDir()
	many := manyBenchFile(t, dir, 300000)
	for _, s := range []syscall.Signal{syscall.SIGTERM, syscall.SIGHUP} {
		p := startMain(t, dir, tmp, streamRead, streamRead, "compare", many, many)
		waitCaught(t, p.cmd.Process.Pid, s)
		time.Sleep(300 * time.Millisecond) // into the reading
		p.signal(t, s)
		if how := p.wait(t, 10*time.Second); how != "exit 130" {
			t.Errorf("%v: %s, want exit 130; stderr:\n%s", s, how, guarClip(p.stderr.String()))
		}
	}
}

// waitCaught waits until the process pid catches the signal s (its
// handler is installed: /proc/PID/status's SigCgt), so that s, sent then,
// is gcperf's to handle and not the default action of a process still
// starting.
func waitCaught(t *testing.T, pid int, s syscall.Signal) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
		if err != nil {
			t.Fatal(err)
		}
		for line := range strings.Lines(string(b)) {
			if hex, ok := strings.CutPrefix(line, "SigCgt:"); ok {
				mask, err := strconv.ParseUint(strings.TrimSpace(hex), 16, 64)
				if err == nil && mask&(1<<(uint(s)-1)) != 0 {
					return
				}
			}
		}
	}
	t.Fatalf("process %d does not catch %v after 30s", pid, s)
}
