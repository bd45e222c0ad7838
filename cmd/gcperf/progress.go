package main

import (
	"io"
	"os"
	"time"

	"golang.org/x/term"

	"github.com/gcperf/gcperf/internal/progress"
	"github.com/gcperf/gcperf/sweep"
	"github.com/gcperf/gcperf/workload"
)

// The progress bars (internal/progress) are drawn on stderr when it is a
// terminal: without -q, and without -v, whose per-run lines take their
// place.

// progressInterval is how often the bar is redrawn, between runs.
var progressInterval = 200 * time.Millisecond

// stderrIsTerminal tells whether w, gcperf's stderr, is a terminal. Tests
// replace it.
var stderrIsTerminal = isTerminal

// isTerminal reports whether w is an *os.File, or the lockedWriter around
// one, open on a terminal.
func isTerminal(w io.Writer) bool {
	if l, ok := w.(*lockedWriter); ok {
		w = l.w
	}
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// progressObserver returns the bar's Observer writing to w, or nil when
// isTerm says w is not a terminal.
func progressObserver(w io.Writer, isTerm func(io.Writer) bool) workload.Observer {
	if !isTerm(w) {
		return nil
	}
	return progress.NewRuns(w, progressInterval)
}

// newSweepProgress returns the bar of a sweep of total points and repeats,
// or of -count's processes, writing to w, or nil when isTerm says w is not
// a terminal. desc says what it counts. It returns a sweep.Bar, so that
// no bar is a nil interface, not a nil *progress.Sweep in one.
func newSweepProgress(w io.Writer, total int, desc string, isTerm func(io.Writer) bool) sweep.Bar {
	if !isTerm(w) {
		return nil
	}
	return progress.NewSweep(w, total, desc)
}
