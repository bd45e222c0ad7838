package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"github.com/gcperf/gcperf/internal/quote"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/gcperf/gcperf/bench"
	"github.com/gcperf/gcperf/internal/safefile"
	"github.com/gcperf/gcperf/sweep"
	"github.com/gcperf/gcperf/workload"
)

// execute runs the benchmark (bench.Run; with -count, bench.RunCount) and
// says how it went. memHint names the flags that set the mix's memory
// (benchMemory); args and ops are each process's command line
// with -count, before and after its result flag. Signals on sig are
// interrupts (package interrupt), given their meaning here through the
// options' controls and the benchmark's phases.
func execute(f *benchFlags, mix workload.Mix, memHint string, args, ops []string, stdout, stderr io.Writer, sig <-chan os.Signal) int {
	switch {
	case f.Dir == "-":
		return fail(stderr, usagef("-out -: -out takes a directory; - (stdout) is for one format's flag"))
	case f.ProfileDir == "-":
		return fail(stderr, usagef("-profile -: -profile takes a directory"))
	}
	stderr = &lockedWriter{w: stderr}
	o := &f.Options
	f.memHint, o.Version = memHint, version
	o.Stdout, o.Stderr = stdout, stderr
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stop := make(chan struct{})
	o.Config.Stop = stop
	var in *watcher
	if f.Count > 1 {
		// The runner says so on its line when it stops a process; there is
		// nothing more to cancel after that.
		in = watchInterrupts(sig, stderr, func() { close(stop) }, nil, true)
	} else {
		in = watchInterrupts(sig, stderr, func() { close(stop) }, cancel, false)
	}
	defer in.Close()
	o.Abort, o.Abandon = in.Abort(), in.Abandon()
	if o.Server != nil {
		o.Server.Kill = in.Kill()
	}
	o.Events = func(e bench.Event) { benchEvent(stderr, in, e) }
	var out bench.Outcome
	var err error
	if f.Count > 1 {
		c := bench.Count{N: f.Count, Args: args, Ops: ops, Dir: f.Dir, ProfileDir: f.ProfileDir,
			Observe: sweep.ProgressWriter(stderr, "gcperf: ")}
		// The bar of the processes, as a sweep's: their lines go through it.
		if !f.Quiet {
			if bar := newSweepProgress(stderr, f.Count, "gcperf: processes", stderrIsTerminal); bar != nil {
				c.Bar, c.Observe = bar, sweep.ProgressWriter(bar, "gcperf: ")
			}
		}
		out, err = bench.RunCount(ctx, *o, mix, c)
	} else {
		if f.ShowRuns {
			o.Observers = append(o.Observers, workload.Verbose(stderr, processStart))
		}
		// The progress bar (progress.go): -show-runs's lines take its place.
		if !f.ShowRuns && !f.Quiet {
			if p := progressObserver(stderr, stderrIsTerminal); p != nil {
				o.Observers = append(o.Observers, p)
			}
		}
		out, err = bench.Run(ctx, *o, mix)
	}
	return outcome(stderr, out, err, f.memHint, in.Interrupted())
}

// outcome says how a benchmark went and returns its exit status;
// interrupted is set when an interrupt came.
func outcome(stderr io.Writer, out bench.Outcome, err error, memHint string, interrupted bool) int {
	switch {
	case errors.Is(err, bench.ErrAborted):
		return exitAborted
	case err != nil:
		return fail(stderr, benchError(err, memHint))
	case out.Doc == nil && out.Set == nil:
		return fail(stderr, out.Err)
	}
	for _, werr := range out.WriteErrs {
		fmt.Fprintf(stderr, "gcperf: %s\n", safefile.WithOverwrite(werr))
	}
	switch {
	case out.Err != nil:
		fmt.Fprintf(stderr, "gcperf: %s\n", quote.OneLine(out.Err))
	case !out.Stopped && !interrupted && out.AllFailed:
		fmt.Fprintln(stderr, "gcperf: every run failed")
	}
	if out.Failed() || interrupted {
		return exitFail
	}
	return exitOK
}

// benchEvent says on stderr what a benchmark has to say, and moves the
// interrupts' meaning with its phases.
func benchEvent(stderr io.Writer, in *watcher, e bench.Event) {
	say := func(format string, args ...any) { fmt.Fprintf(stderr, "gcperf: "+format+"\n", args...) }
	switch e := e.(type) {
	case bench.Serving:
		if e.Exposed {
			say("warning: -http-public: anyone who can connect to %s reads this process's command line, heap and CPU profiles and goroutine stacks", e.Addr)
		}
		say("serving http://%s/debug/pprof/ and /debug/metrics while the benchmark runs", e.Addr)
	case bench.EnvIncomplete:
		say("warning: the environment is incomplete: %s", quote.OneLine(e.Err))
	case bench.ServerStarting:
		in.Server()
		say("starting the server %s (GOGC=%s GOMEMLIMIT=%s), its output in %s", quote.Clip(e.Path), orInherited(e.GOGC), orInherited(e.GOMEMLIMIT), e.Log)
	case bench.ServerReady:
		say("the server is ready after %s (%s answered)", e.After.Round(time.Millisecond), e.URL)
	case bench.Running:
		c := e.Config
		say("running %s: %s, %s, seed %d; interrupt stops after the current run",
			mixNames(e.Mix), runCount(c.Warmups, c.WarmupDuration, "warmups"), runCount(c.Runs, c.Duration, "timed runs"), c.Seed)
	case bench.RunningProcesses:
		say("running %s in %d processes, one after another, each writing its result to %s; interrupt stops the running process",
			mixNames(e.Mix), e.N, e.Dir)
	case bench.ProfilingPass:
		in.Pass()
		say("profiling a separate pass of %d runs", e.Runs)
	case bench.Phase:
		switch e {
		case bench.Profiling:
			in.Enter(phaseProfiling)
		case bench.Writing:
			in.Enter(phaseWriting)
		}
	}
}

// runCount says how many runs of what: "5 warmups", "timed runs for 10s",
// "5 timed runs within 10s".
func runCount(n int, d time.Duration, what string) string {
	switch {
	case d == 0:
		return fmt.Sprintf("%d %s", n, what)
	case n == 0:
		return what + " for " + d.String()
	}
	return fmt.Sprintf("%d %s within %s", n, what, d)
}

// orInherited says "inherited" for a setting left to the environment.
func orInherited(v string) string {
	if v == "" {
		return "inherited"
	}
	return v
}

// mixNames names the operations of mix with their parameters.
func mixNames(mix workload.Mix) string {
	names := make([]string, len(mix))
	for i, op := range mix {
		names[i] = op.Name()
		if d, ok := op.(workload.Describer); ok {
			names[i] += " " + d.Describe()
		}
	}
	return strings.Join(names, ", ")
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
