package bench

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/gcperf/gcperf/internal/interrupt/runsweep"
	"github.com/gcperf/gcperf/internal/quote"
	"github.com/gcperf/gcperf/internal/safefile"
	"github.com/gcperf/gcperf/internal/setting"
	"github.com/gcperf/gcperf/report"
	"github.com/gcperf/gcperf/sweep"
	"github.com/gcperf/gcperf/workload"
)

// processName is the name of process k's files without their extension:
// "process-2", as the sweep's Runner names them (sweep.Inherited).
func processName(k int) string {
	return strings.TrimSuffix(sweep.Inherited.FileName(k), ".json")
}

// finishCount derives the options of a benchmark of f.Count processes
// (-count): the outputs of every process's result, -out's files (CountDirOutputs),
// each process's profiles under -profile DIR/process-N, for the checks.
// It refuses the flags of one process's files and terminal.
func (f *Flags) finishCount(given map[string]bool) error {
	n := f.Count
	if err := setting.CheckCount(n); err != nil {
		return &InputError{Msg: err.Error(), Err: err}
	}
	for _, ff := range Formats {
		p := f.files[ff.Name]
		switch {
		case p == nil || *p == "":
		case ff.WriteSet == nil:
			return &InputError{Flag: ff.Name, Msg: fmt.Sprintf("%s: one process's file, not for -count %d: -out DIR holds each process's (%s%s, ...)",
				quote.Clip(*p), n, processName(1), filepath.Ext(ff.File))}
		default:
			f.Options.Outputs = append(f.Options.Outputs, Output{Label: "-" + ff.Name + " " + *p, Path: *p, Format: ff})
		}
	}
	for _, pf := range ProfileFlags {
		if v := *f.profile[pf.Kind]; v != "" {
			return &InputError{Flag: pf.Flag, Msg: fmt.Sprintf("%s: one process's profile, not for -count %d: -profile DIR profiles each process under DIR/process-N/",
				quote.Clip(v), n)}
		}
	}
	o := &f.Options
	switch {
	case o.RunLog != "":
		return inputf("runlog", "%s: streams the runs of one process, not for -count %d", quote.Clip(o.RunLog), n)
	case o.HistogramLog != "":
		return inputf("hlog", "%s: streams the runtimes of one process, not for -count %d", quote.Clip(o.HistogramLog), n)
	case o.HTTP != "":
		return inputf("http", "%s: serves one process, not for -count %d, whose processes run one after another", quote.Clip(o.HTTP), n)
	case given["http-public"]:
		return inputf("http-public", "goes with -http, which is not for -count %d", n)
	case f.Verbose:
		return inputf("v", "prints the runs of one process, not for -count %d: each process's output goes to its log (process-N.log in -out DIR)", n)
	}
	if f.Dir != "" {
		o.Outputs = append(o.Outputs, CountDirOutputs(f.Dir, "-out "+f.Dir, n)...)
		o.Dirs = append(o.Dirs, safefile.Output{Label: "-out " + f.Dir, Path: f.Dir})
	}
	if f.ProfileDir != "" {
		label := "-profile " + f.ProfileDir
		o.Dirs = append(o.Dirs, safefile.Output{Label: label, Path: f.ProfileDir})
		for k := 1; k <= n; k++ {
			dir := filepath.Join(f.ProfileDir, processName(k))
			o.Profiles = append(o.Profiles, DirProfiles(dir, label)...)
			o.Dirs = append(o.Dirs, safefile.Output{Label: label + ": " + dir, Path: dir})
		}
	}
	return nil
}

// ForProcess reports whether the flag name goes to each process of
// -count: all but -count itself, the outputs and -profile (which the
// parent gives each process its own) and -q.
func (f *Flags) ForProcess(name string) bool {
	switch name {
	case "count", "out", "overwrite", "profile", "q":
		return false
	}
	_, format := f.files[name]
	return !format
}

// CountDirOutputs are the files of an output directory of n processes
// (-out DIR with -count n): every process's result in the formats that
// hold them all (result.json, bench.txt, report.txt), each labelled
// label + ": " + its path; then each process's own: its JSON result and
// its log, which the process writes (process-N.json, process-N.log), and
// its other formats (process-N.csv, .xml, .hgrm, .html, .txt).
func CountDirOutputs(dir, label string, n int) []Output {
	var outs []Output
	add := func(name string, o Output) {
		o.Path = filepath.Join(dir, name)
		o.Label = label + ": " + o.Path
		outs = append(outs, o)
	}
	for _, f := range Formats {
		if f.WriteSet != nil {
			add(f.File, Output{Format: f})
		}
	}
	for k := 1; k <= n; k++ {
		add(processName(k)+".json", Output{Process: k, Child: true})
		add(processName(k)+".log", Output{Process: k, Child: true})
		for _, f := range Formats {
			if f.Name != "json" && f.Name != "bench" {
				add(processName(k)+filepath.Ext(f.File), Output{Format: f, Process: k})
			}
		}
	}
	return outs
}

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
