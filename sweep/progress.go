package sweep

import (
	"fmt"
	"io"

	"github.com/gcperf/gcperf/env"
	"github.com/gcperf/gcperf/internal/figure"
	"github.com/gcperf/gcperf/latency"
	"github.com/gcperf/gcperf/report"
)

// A RepeatKind is what happened to one repeat of a point.
type RepeatKind int

// What a Runner says of a repeat.
const (
	RepeatStarted     RepeatKind = iota // its child starts
	RepeatResumed                       // a complete result of it was found (Runner.Resume): not run again
	RepeatDone                          // its child ended: Outcome says how
	RepeatInterrupted                   // Stop or the context killed its child: not kept
)

// A RepeatEvent is what a Runner says of one repeat of a point as it runs
// (Runner.Observe), in the order it happens.
type RepeatEvent struct {
	Kind       RepeatKind
	Point      Point
	Rep, Count int // the repeat, of Count
	Index, Of  int // the point's place, from 1, among the Of points of the shard
	// Outcome is the repeat's, for RepeatResumed and RepeatDone.
	Outcome *Outcome
	// Log is the child's log, for RepeatDone.
	Log string
}

// ProgressWriter returns an observer (Runner.Observe) that writes a line
// per repeat to w, each beginning with prefix: the point and repeat when
// its child starts, ended by how it went (ok and its P99 and peak RSS, or
// why it failed with the last lines of its stderr) when it ends; a point
// that inherits its settings (Inherited) is a process. It is the line
// gcperf sweep and gcperf -count print. A nil w discards them.
func ProgressWriter(w io.Writer, prefix string) func(RepeatEvent) {
	if w == nil {
		w = io.Discard
	}
	return func(e RepeatEvent) {
		head, what := fmt.Sprintf("%ssweep: point %d/%d %s rep %d/%d", prefix, e.Index, e.Of, e.Point.Name(), e.Rep, e.Count), "point"
		if e.Point.inherits() {
			head, what = fmt.Sprintf("%sprocess %d/%d", prefix, e.Rep, e.Count), "process"
		}
		switch e.Kind {
		case RepeatStarted:
			fmt.Fprintf(w, "%s ... ", head)
		case RepeatResumed:
			fmt.Fprintf(w, "%s: complete in %s, not run again\n", head, e.Outcome.File)
		case RepeatInterrupted:
			fmt.Fprintf(w, "interrupted: the %s was stopped and is not kept\n", what)
		case RepeatDone:
			writeOutcome(w, *e.Outcome, e.Log)
		}
	}
}

// writeOutcome ends the progress line of a repeat that ran: ok, or why it
// failed with the last lines of its stderr and where the rest is.
func writeOutcome(w io.Writer, o Outcome, log string) {
	if o.Failed.IsZero() {
		fmt.Fprintf(w, "ok in %s%s\n", latency.FormatDuration(o.Wall), progressFigures(o.Doc))
		if o.LogError != "" {
			fmt.Fprintf(w, "    warning: %s\n", o.LogError)
		}
		return
	}
	fmt.Fprintf(w, "FAILED in %s: %s\n", latency.FormatDuration(o.Wall), o.Failed)
	for _, l := range o.StderrTail[max(0, len(o.StderrTail)-5):] {
		fmt.Fprintf(w, "    | %s\n", l)
	}
	fmt.Fprintf(w, "    (the whole output: %s)\n", log)
}

// progressFigures summarizes a result for the progress line.
func progressFigures(d *report.Document) string {
	if d == nil {
		return ""
	}
	if x := d.Exec; d.Kind() == report.CommandDocument {
		gc := "GC figures unavailable"
		if x.GC != nil {
			gc = fmt.Sprintf("%d GC %s", x.GC.Cycles, figure.Plural(x.GC.Cycles, "cycle", "cycles"))
		}
		return fmt.Sprintf(": wall %s, peak RSS %s, %s", latency.FormatDuration(x.Wall), env.Bytes(x.PeakRSS()), gc)
	}
	if sv := d.Server; d.Kind() == report.ServerDocument {
		p99 := d.Mix.Runtime.P99
		if c := d.CorrectedLatency(); c != nil {
			p99 = c.P99
		}
		return fmt.Sprintf(": P99 %s, the server's peak RSS %s", latency.FormatDuration(p99), env.Bytes(sv.PeakRSS()))
	}
	return fmt.Sprintf(": P99 %s, peak RSS %s", latency.FormatDuration(d.Mix.Runtime.P99), env.Bytes(int64(d.Process.PeakRSSBytes)))
}
