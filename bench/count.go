package bench

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/gcperf/gcperf/env"
	"github.com/gcperf/gcperf/internal/interrupt"
	"github.com/gcperf/gcperf/internal/safefile"
	"github.com/gcperf/gcperf/internal/setting"
	"github.com/gcperf/gcperf/report"
	"github.com/gcperf/gcperf/sweep"
	"github.com/gcperf/gcperf/workload"
)

// Count is how RunCount runs each process.
type Count struct {
	N int // processes, at least 2 and at most setting.MaxCount
	// Exe is the program each process runs ("": this one), with Args
	// before its result flag ("run", "-runs=50") and Ops after it (gcperf
	// run's operations): gcperf's command line for one process.
	Exe       string
	Args, Ops []string
	// Dir keeps each process's result and log; "" runs them in a
	// temporary directory, removed at the end unless a process failed.
	Dir string
	// ProfileDir, when set, gives each process -profile ProfileDir/process-N.
	ProfileDir string
	// Observe, when set, is told of each process as it starts and ends
	// (the sweep's RepeatEvent; sweep.ProgressWriter writes them as
	// lines); Bar, when set, draws the progress of the processes.
	Observe func(sweep.RepeatEvent)
	Bar     Bar
}

// A Bar is a progress bar of RunCount's processes (gcperf's
// internal/progress.Sweep).
type Bar interface {
	Start()
	End()
	Progress(done, total int)
}

// RunCount runs the benchmark of o c.N times, each in a fresh process,
// one after another (a sweep.Runner of sweep.Inherited: the processes
// inherit this one's environment, GOGC and GOMEMLIMIT included), so that
// each figure has independent samples. It checks o first as Run does
// (mix is what the processes will run, for its memory), then writes every
// process's result (report.Set) in o's outputs, the text report to
// o.Stdout unless an output goes there. Closing o.Config.Stop, or
// cancelling ctx, stops the running process, which is not kept, and the
// finished ones are reported; closing o.Abort before the Writing phase
// gives up at once. Its error is an *InputError or another error found
// before anything ran, or ErrAborted; the rest is in the Outcome, whose
// Err says how many processes failed.
func RunCount(ctx context.Context, o Options, mix workload.Mix, c Count) (Outcome, error) {
	switch {
	case c.N < 2:
		return Outcome{}, inputf("N", c.N, "RunCount runs at least 2 processes, got %d", c.N)
	case c.N > setting.MaxCount:
		return Outcome{}, inputf("N", c.N, "must be at most %d, got %d", setting.MaxCount, c.N)
	}
	if err := o.checkCountMemory(mix, c.N); err != nil {
		return Outcome{}, err
	}
	_, locks, err := o.check(mix)
	if err != nil {
		return Outcome{}, err
	}
	defer locks.unlock() // held until the set is written
	r, temp, err := c.runner()
	if err != nil {
		return Outcome{}, err
	}
	// The runner writes in Dir under its lock, when one of o's directories
	// is Dir (-out DIR); otherwise it takes Dir's for the processes.
	r.Lock = locks.holds(r.Dir)
	o.event(RunningProcesses{Mix: mix, N: c.N, Dir: r.Dir})
	outs, err := c.run(ctx, r, o.Config.Stop, o.Abort)
	o.event(Writing)
	if errors.Is(err, ErrAborted) || closed(o.Abort) {
		if temp {
			os.RemoveAll(r.Dir)
		}
		return Outcome{}, ErrAborted
	}
	interrupted := errors.Is(err, sweep.ErrInterrupted)
	if err != nil && !interrupted {
		if temp {
			// The processes' logs are kept for what went wrong: say where.
			err = fmt.Errorf("%w (the processes' logs: %s)", err, r.Dir)
		}
		return Outcome{Err: err}, nil
	}
	set := &report.Set{Tool: report.Tool{Name: "gcperf", Version: o.Version, Command: o.Command}, Count: c.N, Interrupted: interrupted}
	for _, x := range outs {
		p := report.ProcessResult{N: x.Rep, Wall: x.Wall, Result: x.Doc, Failed: x.Failed.String(), StderrTail: x.StderrTail}
		if !temp && x.Doc != nil {
			p.File = x.File
		}
		set.Processes = append(set.Processes, p)
	}
	out := Outcome{Set: set, WriteErrs: o.writeSet(set)}
	switch failed := set.Failed(); {
	case failed > 0 && temp:
		out.Err = fmt.Errorf("%d of %d processes failed (their logs: %s)", failed, len(set.Processes), r.Dir)
	case failed > 0:
		out.Err = fmt.Errorf("%d of %d processes failed", failed, len(set.Processes))
	case temp:
		os.RemoveAll(r.Dir)
	}
	out.Stopped = interrupted
	out.AllFailed = len(set.Processes) > 0 && len(set.Results()) == 0
	return out, nil
}

// runner is the runner of c's processes; temp is set when its directory
// is a temporary one.
func (c *Count) runner() (r *sweep.Runner, temp bool, err error) {
	exe := c.Exe
	if exe == "" {
		if exe, err = os.Executable(); err != nil {
			return nil, false, fmt.Errorf("bench: cannot find this executable to run the processes: %w", err)
		}
	}
	dir, temp := c.Dir, c.Dir == ""
	if temp {
		if dir, err = os.MkdirTemp("", "gcperf-count-"); err != nil {
			return nil, false, fmt.Errorf("bench: cannot create a directory for the processes' results: %w", err)
		}
	}
	if c.ProfileDir != "" {
		if err := safefile.MakeDir(c.ProfileDir); err != nil {
			return nil, false, &InputError{Field: "ProfileDir", Value: c.ProfileDir, Reason: c.ProfileDir + ": " + err.Error(), Err: err}
		}
	}
	return &sweep.Runner{Exe: exe, Args: c.Args, Ops: c.Ops, ProfileDir: c.ProfileDir, Dir: dir, Count: c.N, Env: os.Environ()}, temp, nil
}

// run runs the processes with r until stop or abort is closed: the first
// stops the running process, the second gives up at once with
// ErrAborted, the runner's temporary files removed.
func (c *Count) run(ctx context.Context, r *sweep.Runner, stop, abort <-chan struct{}) ([]sweep.Outcome, error) {
	r.Observe, r.Stop = c.Observe, stop
	if c.Bar != nil {
		r.Progress = c.Bar.Progress
		c.Bar.Start()
	}
	outs, err, ok := interrupt.Unless(abort, func() ([]sweep.Outcome, error) { return r.Run(ctx, []sweep.Point{sweep.Inherited}) })
	if c.Bar != nil {
		c.Bar.End()
	}
	if !ok {
		r.RemoveTemps()
		return outs, ErrAborted
	}
	return outs, err
}

// writeSet writes set in o's outputs, the text report as Run does.
func (o *Options) writeSet(set *report.Set) []error {
	return o.writeReports(false, func(w io.Writer) error { return report.SetText(w, set) },
		func(t Output) func(io.Writer) error {
			switch {
			case t.Child:
				return nil
			case t.Process == 0:
				return func(w io.Writer) error { return t.Format.WriteSet(w, set) }
			}
			for _, p := range set.Processes {
				if p.N == t.Process && p.Result != nil {
					return func(w io.Writer) error { return t.Format.Write(w, p.Result) }
				}
			}
			return nil // no result: no file
		})
}

// checkCountMemory refuses, before any process starts, a set of n
// processes' results that would not fit in memory once read back and
// written (countMemory): each process checks its own runs.
func (o *Options) checkCountMemory(mix workload.Mix, n int) error {
	if o.Config.Validate(len(mix)) != nil {
		return nil // Options.check says why
	}
	mem, err := env.ReadMemory(context.Background(), "/")
	if err != nil {
		return nil // not Linux, or no /proc: nothing to check against
	}
	need := countMemory(o.Config, o.Config.OpsPerRun(len(mix)), n, o.Outputs)
	if need <= mem.Available {
		return nil
	}
	return &MemoryError{Threads: o.Config.Threads, Ops: len(mix), Memory: mem,
		Report: need, Kept: o.Config.Kept(), Format: o.mostMemory(len(mix)), Processes: n}
}
