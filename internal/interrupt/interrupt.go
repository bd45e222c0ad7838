// Package interrupt gives meaning to the signals of one gcperf command
// (Ctrl-C, SIGTERM), the same for gcperf, gcperf run and gcperf sweep: the
// first stops the runs and reports what finished, the second cancels the
// operations in progress, the third gives up at once (exit status
// ExitAborted, nothing written); once the reports are being written,
// nothing is given up. The signal channel is passed in, so that the
// commands' tests send interrupts without signals.
package interrupt

import (
	"fmt"
	"io"
	"os"
	"sync"
)

// ExitAborted is the exit status of a command that a third interrupt made
// give up its runs, writing nothing (128 + SIGINT, as a shell reports it).
const ExitAborted = 130

// A Phase is where a command is, for what an interrupt means.
type Phase int

// The phases of a command.
const (
	Running   Phase = iota // the measured runs, or a sweep's points
	Profiling              // the separate profiled pass, after the measured runs
	Writing                // the reports
)

// A Watcher gives meaning to the signals of one command (Ctrl-C, SIGTERM),
// the same for gcperf, gcperf run and gcperf sweep. During the runs:
//
//  1. the first stops the runs after those in progress (a sweep: kills the
//     running point), and the command reports what finished: exit status 1;
//  2. the second also cancels the operations in progress (their context);
//  3. the third gives up the runs at once (Abort is closed): the command
//     writes nothing and exits 130.
//
// During the profiled pass, any interrupt abandons the pass (Abandon is
// closed) and the measured runs are reported. Once the reports are being
// written, interrupts give nothing up: what was measured is written whole,
// then the command exits 1.
type Watcher struct {
	stderr io.Writer
	stop   func() // the first interrupt
	cancel func() // the second; nil when there is nothing more to cancel
	// quiet1: the first interrupt is not announced, the command saying on
	// its own line what it stopped (a sweep's point line).
	quiet1 bool

	mu      sync.Mutex
	n       int
	phase   Phase
	abort   chan struct{}
	abandon chan struct{}
	done    chan struct{}
}

// Watch starts reading sig (nil: no signals) until Close.
func Watch(sig <-chan os.Signal, stderr io.Writer, stop, cancel func(), quiet1 bool) *Watcher {
	in := &Watcher{stderr: stderr, stop: stop, cancel: cancel, quiet1: quiet1,
		abort: make(chan struct{}), abandon: make(chan struct{}), done: make(chan struct{})}
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

func (in *Watcher) interrupt() {
	in.mu.Lock()
	defer in.mu.Unlock()
	in.n++
	say := func(msg string) { fmt.Fprintln(in.stderr, "gcperf: "+msg) }
	switch {
	case in.phase == Writing:
		say("interrupted: writing what was measured first; it is not given up")
	case in.phase == Profiling:
		select {
		case <-in.abandon:
			say("interrupted: writing what was measured first; it is not given up")
		default:
			say("interrupted: abandoning the profiled pass; the measured runs are reported")
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
func (in *Watcher) Abort() <-chan struct{} { return in.abort }

// Interrupted reports whether any interrupt came: the command then exits
// 1, whatever it went on to write.
func (in *Watcher) Interrupted() bool {
	in.mu.Lock()
	defer in.mu.Unlock()
	return in.n > 0
}

// Abandon is closed by an interrupt during the profiled pass.
func (in *Watcher) Abandon() <-chan struct{} { return in.abandon }

// Enter moves the command to phase p. It reports false when the runs were
// given up (Abort closed) before it could.
func (in *Watcher) Enter(p Phase) bool {
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
func (in *Watcher) Close() { close(in.done) }

// Unless runs f in a goroutine and returns its result, or ok false as soon
// as quit is closed, leaving f to finish on its own (the process exits, or
// a test goes on).
func Unless[T any](quit <-chan struct{}, f func() (T, error)) (res T, err error, ok bool) {
	type result struct {
		res T
		err error
	}
	done := make(chan result, 1)
	go func() {
		r, err := f()
		done <- result{r, err}
	}()
	select {
	case r := <-done:
		return r.res, r.err, true
	case <-quit:
		// f may have finished at the same moment: prefer its result.
		select {
		case r := <-done:
			return r.res, r.err, true
		default:
		}
		return res, nil, false
	}
}
