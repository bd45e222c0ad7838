// Package runsweep runs a sweep's points under a command's interrupts
// (package interrupt), for gcperf sweep and gcperf -count.
package runsweep

import (
	"context"
	"errors"
	"io"
	"os"

	"github.com/gcperf/gcperf/internal/interrupt"
	"github.com/gcperf/gcperf/sweep"
)

// ErrAborted is Run's error when a third interrupt gave up the sweep
// at once: the finished points' results stay in the Runner's Dir.
var ErrAborted = errors.New("runsweep: the runs were given up at the third interrupt")

// Run runs points with r (sweep.Runner.Run) under the interrupts on
// sig: the first stops the running child, which is not kept, and the
// finished outcomes come back with sweep.ErrInterrupted; a third gives up
// at once with ErrAborted, the temporary files removed. The per-repeat
// lines go to stderr, through bar when it is not nil. Unless it returns
// ErrAborted, the interrupts are then those of the reports being written
// (interrupt.Writing) until the caller closes the returned watcher.
func Run(r *sweep.Runner, points []sweep.Point, sig <-chan os.Signal, stderr io.Writer, bar sweep.Bar) ([]sweep.Outcome, *interrupt.Watcher, error) {
	stop := make(chan struct{})
	r.Stderr, r.Stop = stderr, stop
	// The runner says so on its progress line when it stops a point; there
	// is nothing more to cancel after that.
	in := interrupt.Watch(sig, stderr, func() { close(stop) }, nil, true)
	if bar != nil {
		r.Stderr, r.Progress = bar, bar.Progress
		bar.Start()
	}
	outs, err, ok := interrupt.Unless(in.Abort(), func() ([]sweep.Outcome, error) { return r.Run(context.Background(), points) })
	if bar != nil {
		bar.End()
	}
	if !ok || !in.Enter(interrupt.Writing) {
		in.Close()
		r.RemoveTemps()
		return outs, nil, ErrAborted
	}
	return outs, in, err
}
