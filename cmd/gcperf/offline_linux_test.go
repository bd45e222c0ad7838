//go:build linux

package main

import (
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
		time.Sleep(500 * time.Millisecond)
		p.signal(t, s)
		if how := p.wait(t, 5*time.Second); how != "exit 130" {
			t.Errorf("%v: %s, want exit 130; stderr:\n%s", s, how, guarClip(p.stderr.String()))
		}
	}
}
