package sweep

import (
	"context"
	"errors"
	"io"
	"strings"
	"syscall"
	"time"

	"github.com/gcperf/gcperf/env"
	"github.com/gcperf/gcperf/target"
)

// Why the runner stopped a child (the cause of its context).
var errTimedOut = errors.New("sweep: over the point timeout")

// A child is what one repeat's child process has, whatever it runs (a
// gcperf child, a user's command): its log, the tail of its stderr, and the
// context it runs under, which ends at the point's limit (errTimedOut),
// when the sweep is stopped (ErrInterrupted) or with the sweep's context.
type child struct {
	log   *logWriter
	tail  *tailWriter
	outer context.Context // the sweep's
	ctx   context.Context // the child's
	limit time.Duration
	stop  func()
}

// newChild opens the log of point p's repeat rep and sets the limits its
// child runs under; a failure says it could not.
func (r *Runner) newChild(ctx context.Context, p Point, rep int, limit time.Duration) (*child, Failure) {
	log, err := r.openLog(p, rep)
	if err != nil {
		return nil, failure(NotStarted, "cannot create its log: %v", err)
	}
	cctx, cancel := context.WithCancelCause(ctx)
	ch := &child{log: log, tail: &tailWriter{n: tailLines}, outer: ctx, ctx: cctx, limit: limit}
	var t *time.Timer
	if limit > 0 {
		t = time.AfterFunc(limit, func() { cancel(errTimedOut) })
	}
	done := make(chan struct{})
	if r.Stop != nil {
		go func() {
			select {
			case <-r.Stop:
				cancel(ErrInterrupted)
			case <-done:
			}
		}()
	}
	ch.stop = func() {
		if t != nil {
			t.Stop()
		}
		close(done)
		cancel(nil)
		log.Close()
	}
	return ch, Failure{}
}

// command is c as the child of a point runs it: its output to the log and
// the tail, no stdin, the runner's sampling and memory cap.
func (r *Runner) command(c target.Command, ch *child) target.Command {
	c.Stdin, c.Stdout, c.Stderr = nil, ch.log, io.MultiWriter(ch.log, ch.tail)
	c.Interval, c.ProcRoot, c.MemCap = r.Poll, r.ProcRoot, r.MemCap
	return c
}

// stopped says why a child the runner stopped failed (stopped is its
// Result's Stopped; tree names what the memory cap counts), or returns
// the sweep's error when the sweep itself was stopped. Both are zero when
// the runner did not stop it.
func (ch *child) stopped(stopped error, r *Runner, tree string) (Failure, error) {
	var om *target.OverMemoryError
	switch cause := context.Cause(ch.ctx); {
	case stopped == nil:
		return Failure{}, nil
	case errors.Is(cause, ErrInterrupted) || ch.outer.Err() != nil:
		return Failure{}, cause
	case errors.As(stopped, &om):
		return failure(OverMemory, "exceeded the memory cap: RSS%s %s > %s", tree, env.Bytes(om.RSS), env.Bytes(om.Cap)), nil
	case errors.Is(stopped, errTimedOut):
		return r.timedOut(ch.limit), nil
	}
	return failure(Other, "%v", stopped), nil
}

// timedOut is the failure of a repeat stopped at its limit.
func (r *Runner) timedOut(limit time.Duration) Failure {
	f := failure(TimedOut, "exceeded the point timeout %v", limit)
	switch {
	case r.Timeout == AutoTimeout && limit == FirstAutoTimeout:
		f.Text += " (the automatic limit until a repeat has succeeded; -point-timeout sets another)"
	case r.Timeout == AutoTimeout:
		f.Text += " (10× the longest repeat that succeeded before it, at least 1m; -point-timeout sets another)"
	}
	return f
}

// exitFailure is why a child the runner did not stop failed: it exited
// with a status, or a signal killed it; zero when it succeeded.
func exitFailure(res *target.Result) Failure {
	switch {
	case res.Signal != 0:
		return signalFailure(res.Signal)
	case res.ExitCode != 0:
		return failure(Exited, "exit status %d", res.ExitCode)
	}
	return Failure{}
}

// signalFailure is the failure of a child a signal killed, which the
// runner did not send.
func signalFailure(s syscall.Signal) Failure {
	name := target.SignalName(s)
	switch {
	case s == syscall.SIGKILL:
		return failure(Killed, "killed by SIGKILL (out of memory?)")
	case strings.HasPrefix(name, "SIG"):
		return failure(Killed, "killed by %s (%v)", name, s)
	}
	return failure(Killed, "killed by %s", name) // "signal N (description)"
}

// startFailure is the failure of a child that could not be started.
func startFailure(exe string, err error) Failure {
	var se *target.StartError
	if errors.As(err, &se) {
		err = se.Err
	}
	return failure(NotStarted, "cannot start %s: %v", exe, err)
}
