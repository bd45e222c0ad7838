package main

import (
	"errors"
	"flag"
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

// execute runs the benchmark (bench.Run; with -count, bench.RunCount) and
// says how it went. memHint names the flags that set the mix's memory
// (bench.Options.MemHint); args and ops are each process's command line
// with -count, before and after its result flag.
func execute(f *benchFlags, mix workload.Mix, memHint string, args, ops []string, stdout, stderr io.Writer, sig <-chan os.Signal) int {
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
	var out bench.Outcome
	var err error
	if f.Count > 1 {
		c := bench.Count{N: f.Count, Args: args, Ops: ops, Dir: f.Dir, ProfileDir: f.ProfileDir}
		// The bar of the processes, as a sweep's: their lines go through it.
		if !f.Quiet {
			c.Bar = newSweepProgress(stderr, f.Count, "gcperf: processes", stderrIsTerminal)
		}
		out, err = bench.RunCount(*o, mix, c, stdout, stderr, sig)
	} else {
		if f.Verbose {
			o.Observers = append(o.Observers, workload.Verbose(stderr, processStart))
		}
		// The progress bar (progress.go): -v's lines take its place.
		if !f.Verbose && !f.Quiet {
			if p := progressObserver(stderr, stderrIsTerminal); p != nil {
				o.Observers = append(o.Observers, p)
			}
		}
		out, err = bench.Run(*o, mix, stdout, stderr, sig)
	}
	switch {
	case errors.Is(err, bench.ErrAborted):
		return interrupt.ExitAborted
	case err != nil:
		return fail(stderr, err)
	case out.Doc == nil && out.Set == nil:
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

// flagArgs are the flags set on fs that keep selects, as -name=value: the
// command line of a child process.
func flagArgs(fs *flag.FlagSet, keep func(name string) bool) []string {
	var args []string
	fs.Visit(func(f *flag.Flag) {
		if keep(f.Name) {
			args = append(args, "-"+f.Name+"="+f.Value.String())
		}
	})
	return args
}

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
