package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/gcperf/gcperf/workload"
)

// barMarks are what a drawn bar leaves on stderr: its carriage returns, the
// ANSI erase sequences, its blocks and its count.
var barMarks = []string{"\r", "\x1b[", "█", "/50"}

func hasBar(s string) bool {
	for _, m := range barMarks {
		if strings.Contains(s, m) {
			return true
		}
	}
	return false
}

// fastProgress redraws the bar every millisecond for the test, and makes
// stderr count as a terminal when term is set. Not for parallel tests.
func fastProgress(t *testing.T, term bool) {
	t.Helper()
	interval, isTerm := progressInterval, stderrIsTerminal
	t.Cleanup(func() { progressInterval, stderrIsTerminal = interval, isTerm })
	progressInterval = time.Millisecond
	if term {
		stderrIsTerminal = func(io.Writer) bool { return true }
	}
}

// The runs are slowed by -delay (never timed) so that a bar, were there
// one, would be drawn many times: run by gcperfInBubble, with its seed, the
// delays are the same every time and so are the bar's redraws (twice in
// the warmups, some forty times in the runs).
var slowNoop = []string{"run", "-runs", "50", "-warmup", "5", "-outliers", "0", "-delay", "2ms", "-seed", "1", "noop"}

// gcperfInBubble runs the command in-process in a testing/synctest bubble:
// the clock is fake and moves on only when every goroutine waits, so the
// delays between runs and the bar's ticker take turns in the same order
// every time, whatever the machine's load.
func gcperfInBubble(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	synctest.Test(t, func(t *testing.T) {
		code, stdout, stderr = gcperf(t, nil, args...)
	})
	return code, stdout, stderr
}

func TestProgressAbsentWhenNotTerminal(t *testing.T) {
	fastProgress(t, false)
	code, _, stderr := gcperfInBubble(t, slowNoop...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if hasBar(stderr) {
		t.Errorf("stderr, a bytes.Buffer, shows a progress bar:\n%q", stderr)
	}
	// The default interval, unchanged: gcperf run -runs 50 noop as it is.
	progressInterval = 200 * time.Millisecond
	code, _, stderr = gcperf(t, nil, "run", "-runs", "50", "noop")
	if code != 0 || hasBar(stderr) {
		t.Errorf("exit %d, stderr:\n%q", code, stderr)
	}
}

func TestProgressOnTerminal(t *testing.T) {
	fastProgress(t, true)
	code, stdout, stderr := gcperfInBubble(t, slowNoop...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"\r", "gcperf: warmup", "gcperf: runs", "/50", "runs/s"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%q", want, stderr)
		}
	}
	// The warmups' bar is cleared before the runs' is drawn.
	if !strings.Contains(stderr, "\x1b[2K\r\rgcperf: runs") {
		t.Errorf("the runs' bar does not follow a cleared line:\n%q", stderr)
	}
	// Cleared before anything else is written: the bar's last write ends
	// its line with an erase and a carriage return.
	if !strings.HasSuffix(stderr, "\x1b[2K\r") {
		t.Errorf("stderr does not end with the bar cleared:\n%q", stderr)
	}
	if hasBar(stdout) {
		t.Errorf("the bar went to stdout:\n%q", stdout)
	}
}

func TestProgressSuppressed(t *testing.T) {
	fastProgress(t, true)
	for _, flag := range []string{"-q", "-show-runs"} {
		args := append([]string{slowNoop[0], flag}, slowNoop[1:]...)
		code, _, stderr := gcperfInBubble(t, args...)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", flag, code, stderr)
		}
		if hasBar(stderr) {
			t.Errorf("%s: stderr shows a progress bar:\n%q", flag, stderr)
		}
	}
}

// syncBuffer is a bytes.Buffer safe for the redraw goroutine and the test.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// On the fake clock of a bubble: a run every 3ms and a redraw due every
// millisecond, so every run's end redraws the bar.
func TestProgressObserver(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var w syncBuffer
		if progressObserver(&w, func(io.Writer) bool { return false }) != nil {
			t.Fatal("an observer for a writer that is not a terminal")
		}
		interval := progressInterval
		progressInterval = time.Millisecond
		o := progressObserver(&w, func(io.Writer) bool { return true })
		progressInterval = interval
		if o == nil {
			t.Fatal("no observer for a terminal")
		}
		cfg := workload.DefaultConfig()
		cfg.Warmups, cfg.Runs = 3, 10
		o.Begin(workload.Begin{Config: cfg})
		step := func(phase workload.Phase, n int) {
			for i := 1; i <= n; i++ {
				time.Sleep(3 * time.Millisecond)
				o.RunStart(phase, i)
				o.RunEnd(phase, i, nil)
			}
		}
		step(workload.Warmup, 3)
		step(workload.Timed, 10)
		o.End(nil)
		got := w.String()
		for _, want := range []string{"gcperf: warmup", "1/3", "2/3", "3/3", "gcperf: runs", "1/10", "5/10", "10/10", "\x1b[2K\r"} {
			if !strings.Contains(got, want) {
				t.Errorf("the bar lacks %q:\n%q", want, got)
			}
		}
		if !strings.HasSuffix(got, "\x1b[2K\r") {
			t.Errorf("the bar is not cleared at the end:\n%q", got)
		}
		// Were its ticker still running, the bubble would not end: its
		// goroutine would wait for ever once the test's has returned.
		n := len(got)
		time.Sleep(10 * time.Millisecond)
		if len(w.String()) != n {
			t.Error("the bar is redrawn after End")
		}
	})
}

func TestIsTerminal(t *testing.T) {
	if isTerminal(&bytes.Buffer{}) || isTerminal(&lockedWriter{w: &bytes.Buffer{}}) {
		t.Error("a bytes.Buffer is a terminal")
	}
	f, err := os.CreateTemp(t.TempDir(), "stderr")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if isTerminal(f) || isTerminal(&lockedWriter{w: f}) {
		t.Error("a regular file is a terminal")
	}
}

// sweepBarMarks are what the sweep's bar leaves on stderr.
var sweepBarMarks = []string{"\x1b[", "█", "gcperf: sweep: points"}

func hasSweepBar(s string) bool {
	for _, m := range sweepBarMarks {
		if strings.Contains(s, m) {
			return true
		}
	}
	return false
}

func sweepBarArgs(t *testing.T, flags ...string) []string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "out")
	return sweepArgs(append(append([]string{"-gogc", "50,off", "-count", "2", "-out", dir}, flags...), tiny...)...)
}

func TestSweepProgressAbsentWhenNotTerminal(t *testing.T) {
	sweepTest(t)
	fastProgress(t, false)
	code, _, stderr := gcperf(t, nil, sweepBarArgs(t)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if hasSweepBar(stderr) || strings.Contains(stderr, "\r") {
		t.Errorf("stderr, a bytes.Buffer, shows a sweep bar:\n%q", stderr)
	}
	if n := strings.Count(stderr, "gcperf: sweep: point "); n != 4 {
		t.Errorf("%d per-point lines, want 4:\n%s", n, stderr)
	}
}

func TestSweepProgressOnTerminal(t *testing.T) {
	sweepTest(t)
	fastProgress(t, true)
	code, _, stderr := gcperf(t, nil, sweepBarArgs(t)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	t.Logf("stderr:\n%q", stderr)
	for _, want := range []string{"gcperf: sweep: points", "0/4", "1/4", "4/4"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr has no %q:\n%q", want, stderr)
		}
	}
	// Every per-point line is whole, written after the bar's line is
	// cleared; the bar is cleared before what follows the sweep.
	lines := regexp.MustCompile(`\x1b\[2K\rgcperf: sweep: point \d/2 \S+ rep \d/2 \.\.\. ok in [^\n\r\x1b]*\n`).FindAllString(stderr, -1)
	if len(lines) != 4 {
		t.Errorf("%d per-point lines after a cleared bar, want 4:\n%q", len(lines), stderr)
	}
	_, after, _ := strings.Cut(stderr, "4/4")
	if !strings.Contains(after, "\x1b[2K\r") {
		t.Errorf("the last bar is not cleared:\n%q", after)
	}
	// -q: no bar, the lines as they are.
	code, _, stderr = gcperf(t, nil, sweepBarArgs(t, "-q")...)
	if code != 0 || hasSweepBar(stderr) || strings.Count(stderr, "gcperf: sweep: point ") != 4 {
		t.Errorf("-q: exit %d, stderr:\n%q", code, stderr)
	}
}

// TestCountProgressOnTerminal: -count draws the bar of its processes, as a
// sweep does of its points, their lines whole above it; -q hides it.
func TestCountProgressOnTerminal(t *testing.T) {
	sweepTest(t)
	fastProgress(t, true)
	args := []string{"-count", "2", "-size", "8", "-runs", "10", "-warmup", "0"}
	code, _, stderr := gcperf(t, nil, args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"gcperf: processes", "0/2", "2/2"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr has no %q:\n%q", want, stderr)
		}
	}
	lines := regexp.MustCompile(`\x1b\[2K\rgcperf: process \d/2 \.\.\. ok in [^\n\r\x1b]*\n`).FindAllString(stderr, -1)
	if len(lines) != 2 {
		t.Errorf("%d per-process lines after a cleared bar, want 2:\n%q", len(lines), stderr)
	}
	code, _, stderr = gcperf(t, nil, append(args, "-q")...)
	if code != 0 || strings.Contains(stderr, "gcperf: processes") || strings.Count(stderr, "gcperf: process ") != 2 {
		t.Errorf("-q: exit %d, stderr:\n%q", code, stderr)
	}
}

// TestNewSweepProgressNone: off a terminal there is no bar, and no bar is
// a nil sweep.Bar, which sweep.Session and bench.RunCount test for: a nil
// *progress.Sweep stored in the interface would be drawn on.
func TestNewSweepProgressNone(t *testing.T) {
	if bar := newSweepProgress(io.Discard, 3, "x", func(io.Writer) bool { return false }); bar != nil {
		t.Errorf("off a terminal: bar %#v, want nil", bar)
	}
	if bar := newSweepProgress(io.Discard, 3, "x", func(io.Writer) bool { return true }); bar == nil {
		t.Error("on a terminal: no bar")
	}
}
