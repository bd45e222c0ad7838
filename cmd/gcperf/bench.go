package main

import (
	"errors"
	"fmt"
	"github.com/gcperf/gcperf/internal/quote"
	"io"
	"os"
	"sync"
	"time"

	"github.com/gcperf/gcperf/bench"
	"github.com/gcperf/gcperf/internal/interrupt"
	"github.com/gcperf/gcperf/internal/safefile"
	"github.com/gcperf/gcperf/workload"
)

// execute runs the benchmark (bench.Run) and says how it went. memHint
// names the flags that set the mix's memory (bench.Options.MemHint).
func execute(f *bench.Flags, mix workload.Mix, memHint string, stdout, stderr io.Writer, sig <-chan os.Signal) int {
	switch {
	case f.Dir == "-":
		return fail(stderr, usagef("-out -: -out takes a directory; - (stdout) is for one format's flag"))
	case f.ProfileDir == "-":
		return fail(stderr, usagef("-profile -: -profile takes a directory"))
	}
	stderr = &lockedWriter{w: stderr}
	o := &f.Options
	o.MemHint, o.Version = memHint, version
	o.Notify = func(line string) { fmt.Fprintf(stderr, "gcperf: %s\n", line) }
	if f.Verbose {
		o.Observers = append(o.Observers, workload.Verbose(stderr, processStart))
	}
	// The progress bar (progress.go): -v's lines take its place.
	if !f.Verbose && !f.Quiet {
		if p := progressObserver(stderr, stderrIsTerminal); p != nil {
			o.Observers = append(o.Observers, p)
		}
	}
	out, err := bench.Run(*o, mix, stdout, stderr, sig)
	switch {
	case errors.Is(err, bench.ErrAborted):
		return interrupt.ExitAborted
	case err != nil:
		return fail(stderr, err)
	case out.Doc == nil:
		return fail(stderr, out.Err)
	}
	for _, werr := range out.WriteErrs {
		fmt.Fprintf(stderr, "gcperf: %s\n", safefile.WithOverwrite(werr))
	}
	switch {
	case out.Err != nil:
		fmt.Fprintf(stderr, "gcperf: %s\n", quote.OneLine(out.Err))
	case !out.Stopped && out.AllFailed:
		fmt.Fprintln(stderr, "gcperf: every run failed")
	}
	if out.Failed() {
		return exitFail
	}
	return exitOK
}

var processStart = time.Now()

// lockedWriter serialises the writes of the goroutines that share stderr
// (the run, the signal handler, -v's lines) so that lines never interleave.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}
