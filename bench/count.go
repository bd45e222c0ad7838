package bench

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/gcperf/gcperf/internal/interrupt/runsweep"
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
	// run's operations): gcperf's command line for one process (the
	// flags for which Flags.ForProcess holds).
	Exe       string
	Args, Ops []string
	// Dir keeps each process's result and log (-out DIR); "" runs them in
	// a temporary directory, removed at the end unless a process failed.
	Dir string
	// ProfileDir, when set, gives each process -profile ProfileDir/process-N.
	ProfileDir string
	// Bar draws the progress of the processes (nil: none); their lines go
	// through it.
	Bar sweep.Bar
}

// RunCount runs the benchmark of o c.N times, each in a fresh process,
// one after another (a sweep.Runner of sweep.Inherited: the processes
// inherit this one's environment, GOGC and GOMEMLIMIT included), so that
// each figure has independent samples. It checks o first as Run does
// (mix is what the processes will run, for its memory), then writes every
// process's result (report.Set) in o's outputs, the text report to stdout
// unless an output goes there. Signals on sig are interrupts, as a sweep
// takes them: the first stops the running process, which is not kept, and
// the finished ones are reported. Its error is an *InputError or another
// error found before anything ran, or ErrAborted; the rest is in the
// Outcome, whose Err says how many processes failed.
func RunCount(o Options, mix workload.Mix, c Count, stdout, stderr io.Writer, sig <-chan os.Signal) (Outcome, error) {
	notify := o.Notify
	if notify == nil {
		notify = func(string) {}
	}
	if c.N < 2 {
		return Outcome{}, inputf("count", "RunCount runs at least 2 processes, got %d", c.N)
	}
	if err := setting.CheckCount(c.N); err != nil {
		return Outcome{}, &InputError{Msg: err.Error(), Err: err}
	}
	if _, err := o.check(mix); err != nil {
		return Outcome{}, err
	}
	exe := c.Exe
	if exe == "" {
		var err error
		if exe, err = os.Executable(); err != nil {
			return Outcome{}, fmt.Errorf("bench: cannot find this executable to run the processes: %w", err)
		}
	}
	dir, temp := c.Dir, c.Dir == ""
	if temp {
		var err error
		if dir, err = os.MkdirTemp("", "gcperf-count-"); err != nil {
			return Outcome{}, fmt.Errorf("bench: cannot create a directory for the processes' results: %w", err)
		}
	}
	if c.ProfileDir != "" {
		if err := safefile.MakeDir(c.ProfileDir); err != nil {
			return Outcome{}, &InputError{Msg: "-profile " + c.ProfileDir + ": " + err.Error(), Err: err}
		}
	}
	r := &sweep.Runner{Exe: exe, Args: c.Args, Ops: c.Ops, ProfileDir: c.ProfileDir, Dir: dir, Count: c.N, Env: os.Environ()}
	notify(fmt.Sprintf("running %s in %d processes, one after another, each writing its result to %s; interrupt stops the running process",
		mixNames(mix), c.N, dir))
	outs, in, err := runsweep.Run(r, []sweep.Point{sweep.Inherited}, sig, stderr, c.Bar)
	if errors.Is(err, runsweep.ErrAborted) {
		if temp {
			os.RemoveAll(dir)
		}
		return Outcome{}, ErrAborted
	}
	defer in.Close()
	interrupted := errors.Is(err, sweep.ErrInterrupted)
	if err != nil && !interrupted {
		if temp {
			// The processes' logs are kept for what went wrong: say where.
			err = fmt.Errorf("%w (the processes' logs: %s)", err, dir)
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
	out := Outcome{Set: set}
	out.WriteErrs = o.writeReports(stdout, stderr, false, func(w io.Writer) error { return report.SetText(w, set) },
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
	switch failed := set.Failed(); {
	case failed > 0 && temp:
		out.Err = fmt.Errorf("%d of %d processes failed (their logs: %s)", failed, len(set.Processes), dir)
	case failed > 0:
		out.Err = fmt.Errorf("%d of %d processes failed", failed, len(set.Processes))
	case temp:
		os.RemoveAll(dir)
	}
	out.Stopped = interrupted || in.Interrupted()
	out.AllFailed = len(set.Processes) > 0 && len(set.Results()) == 0
	return out, nil
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
