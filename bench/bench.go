// Package bench runs one benchmark the way the gcperf command does, from
// options that a command line or a program fills. Before anything runs it
// checks that the mix and the engine's records fit in memory (with those
// of a separate profiled pass), that every output can be written at the
// end, and that the -http address is one it may serve; then it captures
// the environment, runs the mix (workload.Run) under an interrupt watcher,
// profiles a separate pass, and writes the report in every format asked
// for. A long benchmark is never lost to an output that cannot be written.
//
// RunCount runs the same benchmark in several fresh processes instead
// (gcperf -count N), through the sweep's child runner, and writes every
// process's result (report.Set).
//
// Options are named in errors by the gcperf flags that set them, as
// workload.ConfigError names Config's fields.
package bench

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"net"
	"os"
	"strings"
	"time"

	"github.com/gcperf/gcperf/env"
	"github.com/gcperf/gcperf/internal/interrupt"
	"github.com/gcperf/gcperf/internal/quote"
	"github.com/gcperf/gcperf/internal/safefile"
	"github.com/gcperf/gcperf/profiles"
	"github.com/gcperf/gcperf/profiles/pprofhttp"
	"github.com/gcperf/gcperf/report"
	"github.com/gcperf/gcperf/target"
	"github.com/gcperf/gcperf/workload"
)

// Output is one file of the result.
type Output struct {
	Label  string // what errors name it by: "-csv out.csv", "-out dir: dir/result.csv"
	Path   string // "-" for stdout; the text report then goes to stderr
	Format Format
	// With -count (RunCount): Process is the process whose result the
	// file holds (process-2.csv), 0 for every process's (Format.WriteSet);
	// Child is set for the files a process writes itself (its JSON result
	// and its log), checked with the others but not written here.
	Process int
	Child   bool
}

// Profile is one profile asked for, with the label errors name it by
// ("-cpuprofile c.pprof", "-profile dir: dir/cpu.pprof").
type Profile struct {
	profiles.Request
	Label string
}

// Options are one benchmark's settings, outputs and profiles.
type Options struct {
	Config workload.Config
	// MemHint names what sets the mix's memory, for the error when it does
	// not fit ("-size 1024 with -base 512 and -chunk 32"); "" names the
	// operation that needs the most, with its parameters.
	MemHint string

	// Outputs are the result's files; the text report goes to stdout
	// unless one of them does. Dirs are the directories they and the
	// profiles go to, checked with them and created when every check
	// passed. Overwrite replaces existing files.
	Outputs   []Output
	Dirs      []safefile.Output
	Overwrite bool

	// RunLog and HistogramLog are files written during the measured runs,
	// checked with the outputs: every timed run as it ends
	// (report.RunLog), and the mix runtimes as an HdrHistogram interval
	// log (report.HistogramLog), every HistogramLogInterval (0: a second,
	// at least report.MinHistogramLogInterval). "-" is stdout.
	RunLog, HistogramLog string
	HistogramLogInterval time.Duration

	// Profiles are taken from a separate pass of ProfileRuns runs (0:
	// Config.Runs) after the measured runs, or from the measured runs
	// themselves with ProfileInline.
	Profiles      []Profile
	ProfileRuns   int
	ProfileInline bool

	// HTTP serves net/http/pprof and a runtime/metrics snapshot during the
	// run on this address: loopback only, unless HTTPPublic.
	HTTP       string
	HTTPPublic bool

	// Server, when set, is the program under test the operations load
	// (gcperf run OP... -- SERVER): started and ready before the warmups,
	// stopped after the timed runs and the profiled pass; its run is the
	// report's Server section.
	Server *Server

	// Observers watch the measured runs (a progress bar, -v's lines).
	Observers []workload.Observer
	// Version and Command are recorded in the report.
	Version string
	Command []string
	// Notify receives what the run has to say as it goes, one line each
	// without its newline: what runs, the profiled pass, warnings. Nil
	// discards them.
	Notify func(line string)
}

// An InputError is an option that cannot work, found before anything
// runs. Flag names the option as the gcperf command spells it
// ("profile-runs"), or is "" when Msg names it (an output's label).
type InputError struct {
	Flag string
	Msg  string
	Err  error // the cause, when there is one (errors.Is(err, safefile.ErrExists))
}

func (e *InputError) Error() string {
	if e.Flag == "" {
		return e.Msg
	}
	return "-" + e.Flag + " " + e.Msg
}

func (e *InputError) Unwrap() error { return e.Err }

func inputf(flag, format string, args ...any) error {
	return &InputError{Flag: flag, Msg: fmt.Sprintf(format, args...)}
}

// ErrAborted is Run's error when a third interrupt gave up the runs:
// nothing was written (the gcperf command exits interrupt.ExitAborted).
var ErrAborted = errors.New("bench: aborted at an interrupt: nothing written")

// Outcome is what a benchmark that ran came to.
type Outcome struct {
	// Doc is the report; nil when the runs could not start (Err says why).
	Doc *report.Document
	// Set is the report of the processes of RunCount, Doc then nil.
	Set *report.Set
	// Stopped is set when the runs stopped before the end: interrupted,
	// halted (the report says which), or interrupted while the reports
	// were written (they were, whole).
	Stopped bool
	// AllFailed is set when every run failed.
	AllFailed bool
	// WriteErrs are the reports that could not be written, each naming
	// its output's label.
	WriteErrs []error
	// Err is the run's own error, joined with the profiles'.
	Err error
}

// Failed reports whether the benchmark failed: it did not finish, every
// run failed, or something went wrong.
func (o Outcome) Failed() bool {
	return o.Stopped || o.AllFailed || len(o.WriteErrs) > 0 || o.Err != nil
}

// Run checks the options, runs mix and writes the reports. Signals on sig
// are interrupts (package interrupt). Its error is an *InputError, a
// workload.ConfigError or another error found before anything ran, or
// ErrAborted; anything after the runs started is in the Outcome.
func Run(o Options, mix workload.Mix, stdout, stderr io.Writer, sig <-chan os.Signal) (Outcome, error) {
	notify := o.Notify
	if notify == nil {
		notify = func(string) {}
	}
	profCfg, err := o.check(mix)
	if err != nil {
		return Outcome{}, err
	}
	if o.HTTP != "" {
		srv, exposed, err := pprofhttp.ServeLocal(o.HTTP, o.HTTPPublic)
		if err != nil {
			return Outcome{}, httpError(o.HTTP, err)
		}
		defer srv.Close()
		if exposed {
			notify(fmt.Sprintf("warning: -http-public: anyone who can connect to %s reads this process's command line, heap and CPU profiles and goroutine stacks", srv.Addr()))
		}
		notify(fmt.Sprintf("serving http://%s/debug/pprof/ and /debug/metrics while the benchmark runs", srv.Addr()))
	}

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stop := make(chan struct{})
	cfg := o.Config
	cfg.Stop = stop
	in := interrupt.Watch(sig, stderr, func() { close(stop) }, cancel, false)
	defer in.Close()

	obs := o.Observers
	var inline *profiles.Profiler
	if len(o.Profiles) > 0 && o.ProfileInline {
		inline = profiles.NewProfiler(o.requests())
		obs = append(obs[:len(obs):len(obs)], inline)
	}
	streams, err := o.openStreams(stdout)
	if err != nil {
		return Outcome{}, err
	}
	defer abortStreams(streams) // those not committed: the runs never ran
	for _, s := range streams {
		obs = append(obs[:len(obs):len(obs)], s.obs)
	}
	// The environment is captured before the runs: reading it costs
	// milliseconds and must not disturb them.
	captured, cerr := env.Capture(context.Background(), "/")
	if cerr != nil {
		notify("warning: the environment is incomplete: " + quote.OneLine(cerr))
	}
	count := func(n int, d time.Duration, what string) string {
		switch {
		case d == 0:
			return fmt.Sprintf("%d %s", n, what)
		case n == 0:
			return what + " for " + d.String()
		}
		return fmt.Sprintf("%d %s within %s", n, what, d)
	}
	var srv *runningServer
	if o.Server != nil {
		srv, err = startServer(o.Server, report.Meta{Version: o.Version, Command: o.Command, Env: machineOf(captured)}, notify, stop)
		if errors.Is(err, target.ErrNotStarted) {
			var se *target.StartError
			if errors.As(err, &se) {
				return Outcome{}, &InputError{Msg: fmt.Sprintf("cannot start the server %q: %v", se.Path, se.Err), Err: err}
			}
			return Outcome{}, &InputError{Msg: err.Error(), Err: err}
		}
		if err != nil {
			return Outcome{}, err
		}
		// On every way out before its stop below (a third interrupt):
		// the kernel kills it with gcperf too (Pdeathsig), but not its
		// own children, which its SIGTERM lets it stop.
		defer func() {
			if srv != nil {
				srv.r.Stop()
			}
		}()
		// A server that ends during the runs stops them, as an interrupt
		// does: the load would only count failed connections.
		runStop := make(chan struct{})
		finished := make(chan struct{})
		defer close(finished)
		go func(done <-chan struct{}) {
			select {
			case <-stop:
			case <-done:
			case <-finished:
				return
			}
			close(runStop)
		}(srv.r.Done())
		cfg.Stop = runStop
	}
	notify(fmt.Sprintf("running %s: %s, %s, seed %d; interrupt stops after the current run",
		mixNames(mix), count(cfg.Warmups, cfg.WarmupDuration, "warmups"), count(cfg.Runs, cfg.Duration, "timed runs"), cfg.Seed))
	res, err, ok := interrupt.Unless(in.Abort(), func() (*workload.Result, error) { return workload.Run(ctx, cfg, mix, obs...) })
	if !ok || !in.Enter(interrupt.Profiling) {
		if inline != nil {
			inline.Abandon() // its temporary files, and none started after this
		}
		return Outcome{}, ErrAborted
	}
	if err != nil && res == nil {
		if srv != nil {
			srv.stop()
			srv = nil
		}
		in.Enter(interrupt.Writing)
		return Outcome{Err: err}, nil
	}
	meta := report.Meta{Version: o.Version, Command: o.Command, Env: captured}
	if len(o.Profiles) > 0 {
		var perr error
		if inline != nil {
			meta.Profiles, perr = inline.Profiles()
		} else {
			notify(fmt.Sprintf("profiling a separate pass of %d runs", profCfg.Runs))
			meta.Profiles, perr = profiles.Pass(ctx, profCfg, mix, o.requests(), res, in.Abandon())
		}
		meta.Inline, meta.ProfileRuns = o.ProfileInline, o.profileRuns()
		if o.ProfileInline {
			meta.ProfileRuns = res.Done
		}
		if perr != nil {
			err = errors.Join(err, fmt.Errorf("profiles: %w", perr))
		}
	}
	var server *report.Exec
	var failed *report.Failure
	if srv != nil {
		var serr error
		server, serr = srv.stop()
		failed = srv.failed
		srv = nil
		if serr != nil {
			err = errors.Join(err, serr)
		}
	}
	in.Enter(interrupt.Writing)
	out := Outcome{Doc: report.New(res, meta), WriteErrs: commitStreams(streams)}
	out.Doc.Server, out.Doc.Failed = server, failed
	streamed := false
	for _, s := range streams {
		streamed = streamed || s.path == "-" // stdout carries that stream alone
	}
	out.WriteErrs = append(out.WriteErrs, o.writeReports(stdout, stderr, streamed, func(w io.Writer) error { return report.Text(w, out.Doc) },
		func(t Output) func(io.Writer) error {
			return func(w io.Writer) error { return t.Format.Write(w, out.Doc) }
		})...)
	out.Err = err
	out.Stopped = res.Interrupted || res.Halted != "" || in.Interrupted()
	out.AllFailed = res.Mix.Stats.Runs > 0 && res.Mix.Stats.Runtime.Count == 0
	return out, nil
}

// machineOf is the machine's part of an environment: a server's runtime
// and build are not gcperf's.
func machineOf(e env.Env) env.Env { return env.Env{Host: e.Host, Cgroup: e.Cgroup} }

// writeReports writes the text report with text, to stdout unless an
// output or a stream (streamed) goes there, then every output with what
// write gives it (nil: not written here), and returns the errors, each
// naming its output.
func (o *Options) writeReports(stdout, stderr io.Writer, streamed bool, text func(io.Writer) error, write func(Output) func(io.Writer) error) []error {
	var errs []error
	to := stdout
	if streamed {
		to = stderr
	}
	for _, t := range o.Outputs {
		if t.Path == "-" {
			to = stderr // stdout carries that format alone
		}
	}
	if err := text(to); err != nil {
		errs = append(errs, fmt.Errorf("writing the report: %w", err))
	}
	for _, t := range o.Outputs {
		w := write(t)
		if w == nil {
			continue
		}
		if err := safefile.Write(t.Path, stdout, o.Overwrite, w); err != nil {
			errs = append(errs, &labelled{t.Label, strings.TrimPrefix(err.Error(), t.Path+": "), err})
		}
	}
	return errs
}

// labelled is an output's error, named by its label.
type labelled struct {
	label, msg string
	err        error
}

func (e *labelled) Error() string { return e.label + ": " + e.msg }
func (e *labelled) Unwrap() error { return e.err }

// profileRuns is the runs of the separate profiled pass.
func (o *Options) profileRuns() int {
	if o.ProfileRuns == 0 {
		return o.Config.Runs
	}
	return o.ProfileRuns
}

// requests lists the profiles' requests.
func (o *Options) requests() []profiles.Request {
	reqs := make([]profiles.Request, len(o.Profiles))
	for i, p := range o.Profiles {
		reqs[i] = p.Request
	}
	return reqs
}

// check refuses, before anything runs, what could not work or could not
// be written at the end, and returns the profiled pass's configuration.
// Last, it creates the output directories.
func (o *Options) check(mix workload.Mix) (workload.Config, error) {
	if err := o.Config.Validate(len(mix)); err != nil {
		return workload.Config{}, err
	}
	profCfg, err := o.CheckMemory(mix)
	if err != nil {
		return profCfg, err
	}
	switch {
	case o.HTTP == "" && o.HTTPPublic:
		return profCfg, inputf("http-public", "goes with -http ADDR")
	case o.HTTP != "":
		if err := pprofhttp.CheckAddr(o.HTTP, o.HTTPPublic); err != nil {
			return profCfg, httpError(o.HTTP, err)
		}
	}
	if i := o.HistogramLogInterval; i < 0 || i > 0 && i < report.MinHistogramLogInterval {
		return profCfg, inputf("hlog-interval", "must be at least %v, got %v", report.MinHistogramLogInterval, i)
	}
	var toStdout []string
	for _, t := range o.Outputs {
		if t.Path == "-" {
			toStdout = append(toStdout, "-"+t.Format.Name)
		}
	}
	streams := o.streams()
	for _, s := range streams {
		if s.out.Path == "-" {
			toStdout = append(toStdout, strings.TrimSuffix(s.out.Label, " -"))
		}
	}
	if len(toStdout) > 1 {
		return profCfg, inputf("", "%s - and %s -: at most one format can go to stdout", toStdout[0], toStdout[1])
	}
	for _, d := range o.Dirs {
		if d.Path == "-" {
			return profCfg, inputf("", "%s: - is stdout, not a directory", d.Label)
		}
	}
	var outs []safefile.Output
	for _, t := range o.Outputs {
		outs = append(outs, safefile.Output{Label: t.Label, Path: t.Path})
	}
	for _, p := range o.Profiles {
		outs = append(outs, safefile.Output{Label: p.Label, Path: p.Path})
	}
	for _, s := range streams {
		outs = append(outs, s.out)
	}
	if err := safefile.Check(outs, o.Overwrite, o.Dirs...); err != nil {
		return profCfg, &InputError{Msg: err.Error(), Err: err}
	}
	for _, d := range o.Dirs {
		if err := safefile.MakeDir(d.Path); err != nil {
			return profCfg, &InputError{Msg: d.Label + ": " + err.Error(), Err: err}
		}
	}
	return profCfg, nil
}

// CheckMemory checks, before anything runs, that mix fits in memory with
// the engine's records, then with those of the separate profiled pass too
// (the measured runs' stay alive during it), and returns that pass's
// configuration (Runs 0 when there is none). Off Linux, or without /proc,
// there is nothing to check against and it passes.
func (o *Options) CheckMemory(mix workload.Mix) (workload.Config, error) {
	if o.ProfileRuns < 0 {
		return workload.Config{}, inputf("profile-runs", "must be at least 1, got %d", o.ProfileRuns)
	}
	var profCfg workload.Config
	profPass := len(o.Profiles) > 0 && !o.ProfileInline
	if profPass {
		profCfg = profiles.PassConfig(o.Config, o.profileRuns())
		if err := profCfg.Validate(len(mix)); err != nil {
			var ce *workload.ConfigError
			if errors.As(err, &ce) && ce.Field == "runs" {
				return profCfg, inputf("profile-runs", "%s", ce.Msg)
			}
			return profCfg, err
		}
	}
	mem, err := env.ReadMemory(context.Background(), "/")
	if err != nil {
		return profCfg, nil // not Linux, or no /proc: nothing to check against
	}
	need := o.Config.Need(mix)
	if err := fits(need, o.Config.Threads, len(mix), mem, o.MemHint); err != nil || !profPass {
		return profCfg, err
	}
	prof := profCfg.Footprint(len(mix))
	if workload.SatAdd(need.Total(), prof) > mem.Available {
		return profCfg, inputf("profile-runs", "%d: the profiled pass needs %s for its records beside the measured runs' %s, but only %s is available (a smaller -profile-runs or -keep-runs fits)",
			o.profileRuns(), env.Bytes(prof), env.Bytes(need.Engine), env.Bytes(mem.Available))
	}
	return profCfg, nil
}

// fits refuses a benchmark whose need (workload.Config.Need) does not fit
// in the memory available, before allocating any of it. hint names what
// sets the mix's memory; when it is "" the operation needing the most is
// named, with its parameters.
func fits(need workload.Need, threads, ops int, mem env.Memory, hint string) error {
	if need.Total() <= mem.Available {
		return nil
	}
	where := "on this machine"
	if mem.Limit == "cgroup" {
		where = "under this cgroup's memory.max"
	}
	size := func(n int64) string {
		if n == math.MaxInt64 {
			return "more than 8EiB"
		}
		return env.Bytes(n)
	}
	live := need.Live
	if hint == "" && need.Biggest != nil {
		hint = need.Biggest.Name()
		if d, ok := need.Biggest.(workload.Describer); ok {
			hint += " " + quote.Clip(d.Describe())
		}
		if _, ok := need.Biggest.(workload.Cloner); ok && threads > 1 {
			hint += fmt.Sprintf(" (one copy per thread, -threads %d)", threads)
		}
		if ops > 1 && need.Most != need.Live {
			hint += fmt.Sprintf(" (the mix: %s live in all)", size(need.Live))
		}
		live = need.Most
	}
	if hint == "" {
		hint = "the mix"
	}
	return inputf("", "%s needs %s live plus %s for the engine's records, but only %s is available %s",
		hint, size(live), env.Bytes(need.Engine), env.Bytes(mem.Available), where)
}

// httpError is err about the -http address, with the flag that allows a
// public one.
func httpError(addr string, err error) error {
	if errors.Is(err, pprofhttp.ErrNotLoopback) {
		return &InputError{Flag: "http", Msg: fmt.Sprintf("%s: %v (-http-public allows it)", quote.Clip(addr), err), Err: err}
	}
	if oe := (*net.OpError)(nil); errors.As(err, &oe) {
		err = oe.Err // "address already in use", without the operation and address
	}
	return &InputError{Flag: "http", Msg: fmt.Sprintf("%s: %v", quote.Clip(addr), err), Err: err}
}
