package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// manyBenchFile writes a Go benchmark file of n benchmarks, one line each,
// and returns its path.
func manyBenchFile(t *testing.T, dir string, n int) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("goos: linux\ngoarch: amd64\n")
	for i := range n {
		fmt.Fprintf(&b, "BenchmarkX%d-2 \t 1000\t %d ns/op\t %d B/op\n", i, 100+i%900, 1+i%100)
	}
	path := filepath.Join(dir, "many.txt")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// The commands that measure nothing (compare, report, plot, profile) stop at the
// first interrupt, exit 130, write nothing and leave no temporary file.
// Before issue 24 (item 18) they ignored Ctrl-C, SIGTERM and SIGHUP: a
// compare of 300,000 benchmarks ran its 270 s to the end.
func TestOfflineCommandsInterrupted(t *testing.T) {
	dir := t.TempDir()
	many := manyBenchFile(t, dir, 100000)
	cases := []struct {
		name string
		args []string
		out  string // the output file that must not be written
	}{
		{"compare", []string{"compare", many, many}, ""},
		{"compare-json", []string{"compare", "-json", many, many}, ""},
		{"report", []string{"report", "-format", "csv", "-o", filepath.Join(dir, "r.csv"), fixture("list.json")}, "r.csv"},
		{"plot", []string{"plot", "-kind", "spectrum", "-o", filepath.Join(dir, "p.svg"), fixture("list.json")}, "p.svg"},
		{"profile", []string{"profile", filepath.Join(handProfiles(t), "old.pprof")}, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			sig := make(chan os.Signal, 1)
			sig <- os.Interrupt // before it starts: it stops at its first look
			start := time.Now()
			code, stdout, stderr := gcperf(t, sig, c.args...)
			if code != exitAborted {
				t.Errorf("exit %d, want %d; stderr:\n%s", code, exitAborted, stderr)
			}
			if took := time.Since(start); took > 10*time.Second {
				t.Errorf("took %v to stop", took)
			}
			if want := "gcperf: " + c.args[0] + ": interrupted: stopped, nothing written\n"; stderr != want {
				t.Errorf("stderr %q, want %q", stderr, want)
			}
			if len(stdout) > 0 {
				t.Errorf("printed %d bytes after the interrupt", len(stdout))
			}
			if c.out != "" {
				if _, err := os.Stat(filepath.Join(dir, c.out)); err == nil {
					t.Errorf("%s written after the interrupt", c.out)
				}
			}
			if temps := guarTemps(t, dir); len(temps) > 0 {
				t.Errorf("temporary files left: %q", temps)
			}
		})
	}
}
