// Package bench runs one benchmark end to end, as the gcperf command does:
//
//	cfg := workload.DefaultConfig()
//	cfg.Runs = 1000
//	json, _ := bench.LookupFormat("json")
//	var text bytes.Buffer
//	out, err := bench.Run(ctx, bench.Options{
//		Config:  cfg,
//		Outputs: []bench.Output{{Path: "result.json", Format: json}},
//		Stdout:  &text, // the text report
//	}, workload.Mix{op})
//	if err != nil {
//		return err // an option that cannot work: nothing ran
//	}
//	if out.Failed() {
//		// stopped, halted, every run failed, or a report not written
//	}
//
// Before anything runs, Run checks that the mix and the engine's records
// fit in memory (with those of a separate profiled pass), that every
// output can be written at the end (a server's log with them), and that
// the HTTP address is one it may serve; it locks the output directories
// asked to be (File.Lock: one gcperf at a time writes into -out DIR)
// until it returns; then it captures the environment, starts the server under
// test if there is one, runs the mix (workload.Run), profiles a separate
// pass, and writes the report in every format asked for. A long benchmark
// is never lost to an output that cannot be written.
//
// Run takes a context (the operations'), typed Options and the controls a
// caller needs to stop it (Config.Stop, Abort, Abandon), and says what it
// has to say as Events: what runs, the server starting and ready, the
// phases. It never reads signals or writes to the process's stdout or
// stderr; the gcperf command gives interrupts their meaning on top of it.
//
// RunCount runs the same benchmark in several fresh processes instead
// (gcperf -count N) and writes every process's result (report.Set).
//
// Errors found before anything runs are typed: an *InputError names the
// option (a field of Options), its value and the reason, as
// workload.ConfigError names Config's fields; a *MemoryError holds what
// the benchmark needs and what is available. The gcperf command turns
// them into lines that name its flags; files are named by the labels the
// caller gave them (Output.Label, File.Label).
package bench

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"strings"
	"time"

	"github.com/gcperf/gcperf/env"
	"github.com/gcperf/gcperf/internal/interrupt"
	"github.com/gcperf/gcperf/internal/safefile"
	"github.com/gcperf/gcperf/internal/sat"
	"github.com/gcperf/gcperf/profiles"
	"github.com/gcperf/gcperf/profiles/pprofhttp"
	"github.com/gcperf/gcperf/report"
	"github.com/gcperf/gcperf/target"
	"github.com/gcperf/gcperf/workload"
)

// A File is a file or a directory the benchmark writes, named in errors
// by its Label, the caller's ("" names it by its Path).
type File struct {
	Path, Label string
	// Lock, for a directory of Options.Dirs (-out DIR), holds it for the
	// whole benchmark: one gcperf at a time writes there, another is
	// refused before anything runs (an *InputError of Dirs wrapping
	// safefile.ErrLocked).
	Lock bool
}

func (f File) name() string {
	if f.Label == "" {
		return f.Path
	}
	return f.Label
}

// Output is one file of the result.
type Output struct {
	Label  string // what errors name it by, the caller's ("": its Path)
	Path   string // "-" for Options.Stdout; the text report then goes to Options.Stderr
	Format Format
	// With RunCount: Process is the process whose result the
	// file holds (process-2.csv), 0 for every process's (Format.WriteSet);
	// Child is set for the files a process writes itself (its JSON result
	// and its log), checked with the others but not written here.
	Process int
	Child   bool
}

// Profile is one profile asked for, with the label errors name it by
// (the caller's; "" names it by its Path).
type Profile struct {
	profiles.Request
	Label string
}

// Options are one benchmark's settings, outputs and profiles.
type Options struct {
	Config workload.Config
	// Outputs are the result's files; the text report goes to Stdout
	// unless one of them does. Dirs are the directories they and the
	// profiles go to, checked with them and created when every check
	// passed. Overwrite replaces existing files.
	Outputs   []Output
	Dirs      []File
	Overwrite bool

	// RunLog and HistogramLog are files written during the measured runs,
	// checked with the outputs: every timed run as it ends
	// (report.RunLog), and the mix runtimes as an HdrHistogram interval
	// log (report.HistogramLog), every HistogramLogInterval (0: a second,
	// at least report.MinHistogramLogInterval). "-" is Stdout.
	RunLog, HistogramLog File
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

	// Observers watch the measured runs (a progress bar, a line per run).
	Observers []workload.Observer
	// Text are the text report's options, for the report on Stdout and
	// a text Output alike.
	Text report.TextOptions
	// Version and Command are recorded in the report.
	Version string
	Command []string

	// Stdout receives the outputs and streams whose Path is "-", and the
	// text report unless one of them goes there; the text report then
	// goes to Stderr. Nil discards what would go there.
	Stdout, Stderr io.Writer
	// Events receives what the benchmark has to say as it goes (Event):
	// what runs, the profiled pass, warnings, the phases. Nil discards.
	Events func(Event)
	// Config.Stop, when closed, stops the measured runs after those in
	// progress (they are reported); cancelling Run's context cancels the
	// operations in progress. Abort, when closed during the measured runs,
	// gives them up at once: Run returns ErrAborted, nothing written.
	// Abandon, when closed during the profiled pass, abandons it: the
	// measured runs are reported.
	Abort, Abandon <-chan struct{}
}

// An InputError is an option that cannot work, found before anything
// runs: the option (Field), its value and the reason. Reasons about a
// file name it by its label (Output.Label, File.Label), the caller's.
type InputError struct {
	// Field is the option: a field of Options ("ProfileRuns", "HTTP",
	// "HTTPPublic", "HistogramLogInterval", "Outputs", "Dirs", "RunLog",
	// "HistogramLog", "Server") or of Count ("N", "ProfileDir").
	Field string
	Value any
	// Reason says why, in one line; With is the option it needs, when
	// that is why ("HTTP" for HTTPPublic).
	Reason string
	With   string
	Err    error // the cause, when there is one (errors.Is(err, safefile.ErrExists))
}

func (e *InputError) Error() string { return "bench: " + e.Field + ": " + e.Reason }

func (e *InputError) Unwrap() error { return e.Err }

// inputf is an *InputError of field and value.
func inputf(field string, value any, format string, args ...any) *InputError {
	return &InputError{Field: field, Value: value, Reason: fmt.Sprintf(format, args...)}
}

// A MemoryError is a benchmark that does not fit in the memory available
// (Options.CheckMemory), found before any of it is allocated.
type MemoryError struct {
	// Need is the mix's and the engine's (workload.Config.Need), with
	// Config's Threads and the mix's number of operations (Ops).
	Need         workload.Need
	Threads, Ops int
	Memory       env.Memory
	// Pass, when above 0, is what the records of the profiled pass of
	// ProfileRuns runs need, which does not fit beside the measured runs'
	// (Need.Engine) although the measured runs alone fit.
	Pass        int64
	ProfileRuns int
	// Report, when above 0, is what building and writing the report of
	// Kept runs holds at its peak (the runs' records, the document, the
	// largest writer: Format.Memory), which does not fit beside the mix's
	// Need.Live although the runs alone fit; Format is the format that
	// needs the most ("text": none needs more than the text report).
	Report int64
	Kept   int
	Format string
	// Processes, with Report, is RunCount's number of processes, whose
	// results it holds together (Count.N); 0 for Run.
	Processes int
}

func (e *MemoryError) Error() string {
	if e.Report > 0 && e.Processes > 0 {
		return fmt.Sprintf("bench: the results of %d processes of %d kept runs each need %s once read back (%s the most), but only %s is available",
			e.Processes, e.Kept, env.Bytes(e.Report), e.Format, env.Bytes(e.Memory.Available))
	}
	if e.Report > 0 {
		return fmt.Sprintf("bench: writing the report of %d kept runs needs %s (%s the most), beside the mix's %s live, but only %s is available",
			e.Kept, env.Bytes(e.Report), e.Format, env.Bytes(e.Need.Live), env.Bytes(e.Memory.Available))
	}
	if e.Pass > 0 {
		return fmt.Sprintf("bench: the profiled pass of %d runs needs %s for its records beside the measured runs' %s, but only %s is available",
			e.ProfileRuns, env.Bytes(e.Pass), env.Bytes(e.Need.Engine), env.Bytes(e.Memory.Available))
	}
	return fmt.Sprintf("bench: the mix needs %s live plus %s for the engine's records, but only %s is available",
		env.Bytes(e.Need.Live), env.Bytes(e.Need.Engine), env.Bytes(e.Memory.Available))
}

// ErrDirInUse is wrapped by the *InputError of a directory to lock
// (File.Lock) that another gcperf is using.
var ErrDirInUse = safefile.ErrLocked

// ErrAborted is Run's error when Options.Abort gave up the runs: nothing
// was written.
var ErrAborted = errors.New("bench: aborted: nothing written")

// Outcome is what a benchmark that ran came to.
type Outcome struct {
	// Doc is the report; nil when the runs could not start (Err says why).
	Doc *report.Document
	// Set is the report of the processes of RunCount, Doc then nil.
	Set *report.Set
	// Stopped is set when the runs stopped before the end: stopped,
	// halted (the report says which), or the profiled pass abandoned.
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

// Run checks the options, runs mix and writes the reports. ctx is the
// operations' context. Its error is an *InputError, a workload.ConfigError
// or another error found before anything ran, or ErrAborted; anything
// after the runs started is in the Outcome.
func Run(ctx context.Context, o Options, mix workload.Mix) (Outcome, error) {
	profCfg, locks, err := o.check(mix)
	if err != nil {
		return Outcome{}, err
	}
	if o.HTTP != "" {
		srv, err := o.serveHTTP()
		if err != nil {
			locks.unlock()
			return Outcome{}, err
		}
		defer srv.Close()
	}
	b := &benchmark{o: &o, mix: mix, cfg: o.Config, finished: make(chan struct{})}
	defer b.close()
	defer locks.unlock()
	if err := b.prepare(ctx); err != nil {
		o.writeFailure(err)
		return Outcome{}, err
	}
	o.event(Running{Mix: mix, Config: b.cfg})
	res, err, ok := interrupt.Unless(o.Abort, func() (*workload.Result, error) { return workload.Run(ctx, b.cfg, mix, b.obs...) })
	if ok {
		o.event(Profiling)
		ok = !closed(o.Abort)
	}
	if !ok {
		if b.inline != nil {
			b.inline.Abandon() // its temporary files, and none started after this
		}
		return Outcome{}, ErrAborted
	}
	if err != nil && res == nil {
		b.stopServer()
		o.event(Writing)
		return Outcome{Err: err}, nil
	}
	meta, perr := b.profile(ctx, profCfg, res)
	server, serr := b.stopServer()
	o.event(Writing)
	return b.write(res, meta, server, errors.Join(err, perr, serr)), nil
}

// A benchmark is one Run under way.
type benchmark struct {
	o        *Options
	mix      workload.Mix
	cfg      workload.Config // o.Config, stopped by a server's end too
	obs      []workload.Observer
	inline   *profiles.Profiler // the profiles of the measured runs (ProfileInline)
	streams  []*stream
	env      env.Env
	srv      *runningServer
	failed   *report.Failure // the server's failure, once stopped: the result's own
	finished chan struct{}   // closed when Run returns
}

// prepare gets the measured runs ready: their observers, the streams'
// files, the environment, the server under test.
func (b *benchmark) prepare(ctx context.Context) error {
	o := b.o
	b.obs = o.Observers
	if len(o.Profiles) > 0 && o.ProfileInline {
		b.inline = profiles.NewProfiler(o.requests())
		b.obs = append(b.obs[:len(b.obs):len(b.obs)], b.inline)
	}
	var err error
	if b.streams, err = o.openStreams(); err != nil {
		return err
	}
	for _, s := range b.streams {
		b.obs = append(b.obs[:len(b.obs):len(b.obs)], s.obs)
	}
	// The environment is captured before the runs: reading it costs
	// milliseconds and must not disturb them.
	var cerr error
	if b.env, cerr = env.Capture(ctx, "/"); cerr != nil {
		o.event(EnvIncomplete{cerr})
	}
	if o.Server != nil {
		return b.startServer()
	}
	return nil
}

// startServer starts the server under test and ready. A server that ends
// during the runs stops them, as Config.Stop does: the load would only
// count failed connections.
func (b *benchmark) startServer() error {
	o := b.o
	srv, err := startServer(o.Server, o.Overwrite, report.Meta{Version: o.Version, Command: o.Command, Env: machineOf(b.env)}, o.event, o.Config.Stop)
	if errors.Is(err, target.ErrNotStarted) {
		var se *target.StartError
		if errors.As(err, &se) {
			return &InputError{Field: "Server", Value: se.Path, Reason: fmt.Sprintf("cannot start the server %q: %v", se.Path, se.Err), Err: err}
		}
		return &InputError{Field: "Server", Value: o.Server.Command.Path, Reason: err.Error(), Err: err}
	}
	if err != nil {
		return err
	}
	b.srv = srv
	runStop := make(chan struct{})
	go func(stop, done <-chan struct{}) {
		select {
		case <-stop:
		case <-done:
		case <-b.finished:
			return
		}
		close(runStop)
	}(o.Config.Stop, srv.r.Done())
	b.cfg.Stop = runStop
	return nil
}

// close ends what Run leaves on every way out: the streams' files not
// committed (the runs never ran), the server not stopped (given up: killed
// at once with its process tree).
func (b *benchmark) close() {
	close(b.finished)
	abortStreams(b.streams)
	if b.srv != nil {
		b.srv.abandon()
	}
}

// stopServer stops the server under test, if any, and returns its run.
func (b *benchmark) stopServer() (*report.Exec, error) {
	if b.srv == nil {
		return nil, nil
	}
	x, err := b.srv.stop()
	b.failed = b.srv.failed
	b.srv = nil
	return x, err
}

// profile takes the profiles asked for, from the inline profiler or a
// separate pass, and returns the report's Meta with them.
func (b *benchmark) profile(ctx context.Context, profCfg workload.Config, res *workload.Result) (report.Meta, error) {
	o := b.o
	meta := report.Meta{Version: o.Version, Command: o.Command, Env: b.env}
	if len(o.Profiles) == 0 {
		return meta, nil
	}
	var err error
	if b.inline != nil {
		meta.Profiles, err = b.inline.Profiles()
	} else {
		o.event(ProfilingPass{Runs: profCfg.Runs})
		meta.Profiles, err = profiles.Pass(ctx, profCfg, b.mix, o.requests(), res, o.Abandon)
	}
	meta.Inline, meta.ProfileRuns = o.ProfileInline, o.profileRuns()
	if o.ProfileInline {
		meta.ProfileRuns = res.Done
	}
	if err != nil {
		err = fmt.Errorf("profiles: %w", err)
	}
	return meta, err
}

// write writes the reports of res and says how the benchmark went.
func (b *benchmark) write(res *workload.Result, meta report.Meta, server *report.Exec, err error) Outcome {
	o := b.o
	out := Outcome{Doc: report.New(res, meta), WriteErrs: commitStreams(b.streams)}
	out.Doc.Server, out.Doc.Failed = server, b.failed
	streamed := false
	for _, s := range b.streams {
		streamed = streamed || s.path == "-" // stdout carries that stream alone
	}
	text := func(w io.Writer) error { return report.WriteText(w, out.Doc, o.Text) }
	out.WriteErrs = append(out.WriteErrs, o.writeReports(streamed, text,
		func(t Output) func(io.Writer) error {
			if t.Format.Name == "text" {
				return text
			}
			return func(w io.Writer) error { return t.Format.Write(w, out.Doc) }
		})...)
	out.Err = err
	out.Stopped = res.Interrupted || res.Halted != "" || closed(o.Abandon)
	out.AllFailed = res.Mix.Stats.Runs > 0 && res.Mix.Stats.Runtime.Count == 0
	return out
}

// serveHTTP serves o.HTTP while the benchmark runs.
func (o *Options) serveHTTP() (*pprofhttp.Server, error) {
	srv, exposed, err := pprofhttp.ServeLocal(o.HTTP, o.HTTPPublic)
	if err != nil {
		return nil, httpError(o.HTTP, err)
	}
	o.event(Serving{Addr: srv.Addr(), Exposed: exposed})
	return srv, nil
}

// machineOf is the machine's part of an environment: a server's runtime
// and build are not gcperf's.
func machineOf(e env.Env) env.Env { return env.Env{Host: e.Host, Cgroup: e.Cgroup} }

// writeReports writes the text report with text, to stdout unless an
// output or a stream (streamed) goes there, then every output with what
// write gives it (nil: not written here), and returns the errors, each
// naming its output.
func (o *Options) writeReports(streamed bool, text func(io.Writer) error, write func(Output) func(io.Writer) error) []error {
	var errs []error
	stdout, stderr := orDiscard(o.Stdout), orDiscard(o.Stderr)
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
			errs = append(errs, &labelled{File{Path: t.Path, Label: t.Label}.name(), strings.TrimPrefix(err.Error(), t.Path+": "), err})
		}
	}
	return errs
}

// orDiscard is w, or io.Discard for nil.
func orDiscard(w io.Writer) io.Writer {
	if w == nil {
		return io.Discard
	}
	return w
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
// Last, it creates the output directories and locks those to lock: the
// caller holds the locks until the benchmark's last file is written.
func (o *Options) check(mix workload.Mix) (workload.Config, dirLocks, error) {
	if err := o.Config.Validate(len(mix)); err != nil {
		return workload.Config{}, nil, err
	}
	profCfg, err := o.CheckMemory(mix)
	if err != nil {
		return profCfg, nil, err
	}
	switch {
	case o.HTTP == "" && o.HTTPPublic:
		return profCfg, nil, &InputError{Field: "HTTPPublic", Value: true, Reason: "goes with HTTP", With: "HTTP"}
	case o.HTTP != "":
		if err := pprofhttp.CheckAddr(o.HTTP, o.HTTPPublic); err != nil {
			return profCfg, nil, httpError(o.HTTP, err)
		}
		if err := o.checkLoaded(mix); err != nil {
			return profCfg, nil, err
		}
	}
	if i := o.HistogramLogInterval; i < 0 || i > 0 && i < report.MinHistogramLogInterval {
		return profCfg, nil, inputf("HistogramLogInterval", i, "must be at least %v, got %v", report.MinHistogramLogInterval, i)
	}
	locks, err := o.checkOutputs()
	return profCfg, locks, err
}

// dirLocks are the locks of the directories a benchmark writes (File.Lock).
type dirLocks []*safefile.DirLock

// lock locks d when it exists and is not locked yet: before the checks,
// so that a directory another gcperf is using is said to be so, and after
// the directories are created.
func (ls *dirLocks) lock(d File) error {
	if !d.Lock || ls.holds(d.Path) != nil {
		return nil
	}
	if st, err := os.Stat(d.Path); err != nil || !st.IsDir() {
		return nil // Check says why, or the directory is created after it
	}
	l, err := safefile.LockDir(d.Path)
	if err != nil {
		return &InputError{Field: "Dirs", Value: d.Path, Reason: d.name() + ": " + err.Error(), Err: err}
	}
	*ls = append(*ls, l)
	return nil
}

// holds returns the lock of dir, nil when none of ls is.
func (ls dirLocks) holds(dir string) *safefile.DirLock {
	for _, l := range ls {
		if l.Holds(dir) {
			return l
		}
	}
	return nil
}

// unlock releases the locks.
func (ls dirLocks) unlock() {
	for _, l := range ls {
		l.Unlock()
	}
}

// checkOutputs refuses, before anything runs, an output that could not be
// written at the end, then creates the output directories and locks those
// to lock (File.Lock): the locks are taken before anything in them is
// touched, and released on error.
func (o *Options) checkOutputs() (locks dirLocks, err error) {
	defer func() {
		if err != nil {
			locks.unlock()
			locks = nil
		}
	}()
	for _, d := range o.Dirs {
		if err := locks.lock(d); err != nil {
			return locks, err
		}
	}
	var toStdout []string
	for _, t := range o.Outputs {
		if t.Path == "-" {
			toStdout = append(toStdout, File{Path: t.Path, Label: t.Label}.name())
		}
	}
	streams := o.streams()
	for _, s := range streams {
		if s.out.Path == "-" {
			toStdout = append(toStdout, s.out.Label)
		}
	}
	if len(toStdout) > 1 {
		return locks, inputf("Outputs", "-", "%s and %s: at most one format can go to stdout", toStdout[0], toStdout[1])
	}
	var dirs []safefile.Output
	for _, d := range o.Dirs {
		if d.Path == "-" {
			return locks, inputf("Dirs", d.Path, "%s: - is stdout, not a directory", d.name())
		}
		dirs = append(dirs, safefile.Output{Label: d.name(), Path: d.Path})
	}
	var outs []safefile.Output
	for _, t := range o.Outputs {
		outs = append(outs, safefile.Output{Label: File{Path: t.Path, Label: t.Label}.name(), Path: t.Path})
	}
	for _, p := range o.Profiles {
		outs = append(outs, safefile.Output{Label: File{Path: p.Path, Label: p.Label}.name(), Path: p.Path})
	}
	for _, s := range streams {
		outs = append(outs, s.out)
	}
	if s := o.Server; s != nil && s.Log.Path != "" {
		outs = append(outs, safefile.Output{Label: s.Log.name(), Path: s.Log.Path})
	}
	if err := safefile.Check(outs, o.Overwrite, dirs...); err != nil {
		for _, d := range o.Dirs {
			if lerr := locks.lock(d); lerr != nil {
				return locks, lerr // another gcperf created it since, and is using it
			}
		}
		return locks, &InputError{Field: "Outputs", Reason: err.Error(), Err: err}
	}
	for _, d := range o.Dirs {
		if err := safefile.MakeDir(d.Path); err != nil {
			return locks, &InputError{Field: "Dirs", Value: d.Path, Reason: d.name() + ": " + err.Error(), Err: err}
		}
		if err := locks.lock(d); err != nil {
			return locks, err
		}
	}
	return locks, nil
}

// CheckMemory checks, before anything runs, that mix fits in memory with
// the engine's records, then with those of the separate profiled pass too
// (the measured runs' stay alive during it), and returns that pass's
// configuration (Runs 0 when there is none). Off Linux, or without /proc,
// there is nothing to check against and it passes. Its error is an
// *InputError, a *MemoryError or a workload.ConfigError.
func (o *Options) CheckMemory(mix workload.Mix) (workload.Config, error) {
	if o.ProfileRuns < 0 {
		return workload.Config{}, inputf("ProfileRuns", o.ProfileRuns, "must be at least 1, got %d", o.ProfileRuns)
	}
	var profCfg workload.Config
	profPass := len(o.Profiles) > 0 && !o.ProfileInline
	if profPass {
		profCfg = profiles.PassConfig(o.Config, o.profileRuns())
		if err := profCfg.Validate(len(mix)); err != nil {
			var ce *workload.ConfigError
			if errors.As(err, &ce) && ce.Field == "runs" {
				return profCfg, &InputError{Field: "ProfileRuns", Value: o.ProfileRuns, Reason: ce.Msg, Err: err}
			}
			return profCfg, err
		}
	}
	mem, err := env.ReadMemory(context.Background(), "/")
	if err != nil {
		return profCfg, nil // not Linux, or no /proc: nothing to check against
	}
	me := &MemoryError{Need: o.Config.Need(mix), Threads: o.Config.Threads, Ops: len(mix), Memory: mem}
	if me.Need.Total() > mem.Available {
		return profCfg, me
	}
	// The report is built and written once the runs are over: their
	// records, the document and the largest writer at once.
	if rep := reportMemory(o.Config, o.Config.OpsPerRun(len(mix)), o.Outputs); sat.Add(me.Need.Live, rep) > mem.Available {
		me.Report, me.Kept, me.Format = rep, o.Config.Kept(), o.mostMemory(len(mix))
		return profCfg, me
	}
	if !profPass {
		return profCfg, nil
	}
	prof := profCfg.Footprint(len(mix))
	if sat.Add(me.Need.Total(), prof) > mem.Available {
		me.Pass, me.ProfileRuns = prof, o.profileRuns()
		return profCfg, me
	}
	return profCfg, nil
}

// mostMemory names the format whose writing needs the most memory, by
// the label of its output; "text" when none needs more than the text
// report.
func (o *Options) mostMemory(ops int) string {
	k, gc := o.Config.OpsPerRun(ops), o.Config.GCStats
	name, most := "text", textMemory.perRun(k, gc)
	for _, t := range o.Outputs {
		if m := t.Format.Memory.perRun(k, gc); !t.Child && m > most {
			name, most = File{Path: t.Path, Label: t.Label}.name(), m
		}
	}
	return name
}

// httpError is err about the HTTP address.
func httpError(addr string, err error) error {
	if oe := (*net.OpError)(nil); errors.As(err, &oe) && !errors.Is(err, pprofhttp.ErrNotLoopback) {
		err = oe.Err // "address already in use", without the operation and address
	}
	return &InputError{Field: "HTTP", Value: addr, Reason: err.Error(), Err: err}
}
