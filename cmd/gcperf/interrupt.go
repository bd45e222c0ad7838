// The meaning of the signals of one gcperf command (Ctrl-C, SIGTERM,
// SIGHUP: a closed terminal or a dropped ssh session is one interrupt),
// the same for gcperf, gcperf run and gcperf sweep (exec forwards them to
// the command it runs, as a terminal would): the first stops the runs and
// reports what finished, the second cancels the operations in progress,
// the third gives up at once (exit status exitAborted, nothing written);
// once the reports are being written, nothing is given up. The signal
// channel is passed in, so that the commands' tests send interrupts
// without signals. The libraries offer the controls (bench.Options'
// Config.Stop, Abort, Abandon; sweep's Runner.Stop); this file gives them
// their meaning on a terminal.

package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"

	"github.com/gcperf/gcperf/internal/interrupt"
	"github.com/gcperf/gcperf/sweep"
)

// exitAborted is the exit status of a command that a third interrupt made
// give up its runs, writing nothing (128 + SIGINT, as a shell reports it).
const exitAborted = 130

// A phase is where a command is, for what an interrupt means.
type phase int

// The phases of a command.
const (
	phaseRunning   phase = iota // the measured runs, or a sweep's points
	phaseProfiling              // the separate profiled pass, after the measured runs
	phaseWriting                // the reports
)

// A watcher gives meaning to the signals of one command (Ctrl-C, SIGTERM,
// SIGHUP: main's interruptSignals, each one interrupt), the same for
// gcperf, gcperf run and gcperf sweep. During the runs:
//
//  1. the first stops the runs after those in progress (a sweep: kills the
//     running point), and the command reports what finished: exit status 1;
//  2. the second also cancels the operations in progress (their context);
//  3. the third gives up the runs at once (Abort is closed): the command
//     writes nothing and exits 130.
//
// During the profiled pass, any interrupt abandons the pass (Abandon is
// closed) and the measured runs are reported; after the runs without one,
// an interrupt says that what was measured is being written (and the
// server under test stopped), nothing abandoned. Once the reports are being
// written, interrupts give nothing up: what was measured is written whole,
// then the command exits 1.
type watcher struct {
	stderr io.Writer
	stop   func() // the first interrupt
	cancel func() // the second; nil when there is nothing more to cancel
	// quiet1: the first interrupt is not announced, the command saying on
	// its own line what it stopped (a sweep's point line).
	quiet1 bool

	mu      sync.Mutex
	n       int
	phase   phase
	abort   chan struct{}
	abandon chan struct{}
	kill    chan struct{}
	done    chan struct{}
	// pass: a separate profiled pass started (Pass), what an interrupt
	// after the runs abandons; server: a server under test was started
	// (Server), which is stopped after the runs.
	pass, server bool
}

// watchInterrupts starts reading sig (nil: no signals) until Close.
func watchInterrupts(sig <-chan os.Signal, stderr io.Writer, stop, cancel func(), quiet1 bool) *watcher {
	in := &watcher{stderr: stderr, stop: stop, cancel: cancel, quiet1: quiet1,
		abort: make(chan struct{}), abandon: make(chan struct{}), kill: make(chan struct{}), done: make(chan struct{})}
	go func() {
		for {
			select {
			case <-sig:
				in.interrupt()
			case <-in.done:
				return
			}
		}
	}()
	return in
}

func (in *watcher) interrupt() {
	in.mu.Lock()
	defer in.mu.Unlock()
	in.n++
	if in.n == 3 {
		close(in.kill)
	}
	say := func(msg string) { fmt.Fprintln(in.stderr, "gcperf: "+msg) }
	switch {
	case in.phase == phaseWriting:
		say("interrupted: writing what was measured first; it is not given up")
	case in.phase == phaseProfiling:
		select {
		case <-in.abandon:
			say("interrupted: writing what was measured first; it is not given up")
		default:
			switch {
			case in.pass:
				say("interrupted: abandoning the profiled pass; the measured runs are reported")
			case in.server:
				say("interrupted: the measured runs are over: stopping the server under test, then writing what was measured; it is not given up")
			default:
				say("interrupted: the measured runs are over: writing what was measured first; it is not given up")
			}
			close(in.abandon)
		}
	case in.n == 1 && in.cancel != nil:
		say("interrupted: stopping after the runs in progress (interrupt again to cancel them)")
		in.stop()
	case in.n == 1:
		if !in.quiet1 {
			say("interrupted: stopping (a third interrupt exits at once, writing nothing)")
		}
		in.stop()
	case in.n == 2 && in.cancel != nil:
		say("interrupted again: cancelling the operations in progress (a third time exits at once, without a report)")
		in.cancel()
	case in.n == 2:
		say("interrupted again: still stopping (a third time exits at once, writing nothing)")
	case in.n == 3:
		say("interrupted three times: exiting without a report")
		close(in.abort)
	}
}

// Abort is closed by the third interrupt during the runs.
func (in *watcher) Abort() <-chan struct{} { return in.abort }

// Interrupted reports whether any interrupt came: the command then exits
// 1, whatever it went on to write.
func (in *watcher) Interrupted() bool {
	in.mu.Lock()
	defer in.mu.Unlock()
	return in.n > 0
}

// Kill is closed by the third interrupt, whatever the phase: what the
// command started (a server being stopped) is killed at once.
func (in *watcher) Kill() <-chan struct{} { return in.kill }

// Pass says that the separate profiled pass started: an interrupt now
// abandons it.
func (in *watcher) Pass() {
	in.mu.Lock()
	in.pass = true
	in.mu.Unlock()
}

// Server says that a server under test was started: it is stopped once
// the runs are over.
func (in *watcher) Server() {
	in.mu.Lock()
	in.server = true
	in.mu.Unlock()
}

// Abandon is closed by an interrupt during the profiled pass.
func (in *watcher) Abandon() <-chan struct{} { return in.abandon }

// Enter moves the command to phase p. It reports false when the runs were
// given up (Abort closed) before it could.
func (in *watcher) Enter(p phase) bool {
	in.mu.Lock()
	defer in.mu.Unlock()
	select {
	case <-in.abort:
		return false
	default:
	}
	in.phase = p
	return true
}

// Close stops reading the signals.
func (in *watcher) Close() { close(in.done) }

// errAborted is Run's error when a third interrupt gave up the sweep
// at once: the finished points' results stay in the Runner's Dir.
var errAborted = errors.New("sweep: given up at the third interrupt")

// runPoints runs points with r (sweep.Runner.Run) under the interrupts on
// sig: the first stops the running child, which is not kept, and the
// finished outcomes come back with sweep.ErrInterrupted; a third gives up
// at once with errAborted, the temporary files removed. The per-repeat
// lines go to stderr, through bar when it is not nil. Unless it returns
// errAborted, the interrupts are then those of the reports being written
// (phaseWriting) until the caller closes the returned watcher.
func runPoints(r *sweep.Runner, points []sweep.Point, sig <-chan os.Signal, stderr io.Writer, bar sweep.Bar) ([]sweep.Outcome, *watcher, error) {
	stop := make(chan struct{})
	r.Observe, r.Stop = sweep.ProgressWriter(stderr, "gcperf: "), stop
	// The runner says so on its progress line when it stops a point; there
	// is nothing more to cancel after that.
	in := watchInterrupts(sig, stderr, func() { close(stop) }, nil, true)
	if bar != nil {
		r.Observe, r.Progress = sweep.ProgressWriter(bar, "gcperf: "), bar.Progress
		bar.Start()
	}
	outs, err, ok := interrupt.Unless(in.Abort(), func() ([]sweep.Outcome, error) { return r.Run(context.Background(), points) })
	if bar != nil {
		bar.End()
	}
	if !ok || !in.Enter(phaseWriting) {
		in.Close()
		r.RemoveTemps()
		return outs, nil, errAborted
	}
	return outs, in, err
}
