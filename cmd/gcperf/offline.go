// The interrupts of the commands that measure nothing (compare, report,
// plot): there is nothing to keep, so the first interrupt (Ctrl-C,
// SIGTERM, SIGHUP) stops the command at once, with exit status
// exitAborted; the file it was writing is not left behind (its temporary
// file is removed), and what it printed on stdout stops where it was.

package main

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/gcperf/gcperf/internal/interrupt"
)

// offlineContext is a context that the first signal on sig ends; the
// caller calls release when the command is done.
func offlineContext(sig <-chan os.Signal) (ctx context.Context, release func()) {
	ctx, cancel := context.WithCancel(context.Background())
	select {
	case <-sig: // one that came before the command started
		cancel()
	default:
	}
	go func() {
		select {
		case <-sig:
			cancel()
		case <-ctx.Done():
		}
	}()
	return ctx, cancel
}

// offlineInterrupted is the end of an offline command that an interrupt stopped:
// one line on stderr, exit status exitAborted.
func offlineInterrupted(stderr io.Writer, cmd string) int {
	fmt.Fprintf(stderr, "gcperf: %s: interrupted: stopped, nothing written\n", cmd)
	return exitAborted
}

// untilDone runs read, which does not look at ctx (a JSON document decoded
// whole), and gives up waiting for it when ctx ends, with ctx's error: it
// creates no file, so the command may exit while it still runs.
func untilDone[T any](ctx context.Context, read func() (T, error)) (T, error) {
	res, err, ok := interrupt.Unless(ctx.Done(), read)
	if !ok {
		return res, ctx.Err()
	}
	return res, err
}

// ctxWriter is w failing every write once ctx has ended, with ctx's
// error, so that a report being written stops at the interrupt (and
// report.WriteFile removes its temporary file).
type ctxWriter struct {
	ctx context.Context
	w   io.Writer
}

func (c ctxWriter) Write(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.w.Write(p)
}
