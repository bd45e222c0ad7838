package sweep

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/gcperf/gcperf/internal/safefile"
	"github.com/gcperf/gcperf/report"
	"github.com/gcperf/gcperf/target"
	"github.com/gcperf/gcperf/target/benchout"
	"github.com/gcperf/gcperf/target/gctrace"
	"github.com/gcperf/gcperf/workload"
)

// RunCommand runs a user's command once, as gcperf exec runs it and as each
// point of gcperf sweep -- CMD does, and returns its document
// (report.Exec): it adds gctrace=1 to the command's GODEBUG, takes the
// trace out of its stderr (gctrace.Scanner, which also mends a trace line
// the program's own output broke into) and summarises the collector; the
// rest of its stderr goes to c.Stderr. meta gives the document's Tool and
// Env (env.CaptureMachine: the command's own runtime is not gcperf's).
//
// A command that cannot be started returns an error that is
// target.ErrNotStarted and no document. Otherwise the document is there,
// also with an error, which then says that gcperf could not do its part
// (a writer of the command's output failed), not that the command failed:
// the document says that (Exec.Success).
func RunCommand(ctx context.Context, c target.Command, meta report.Meta) (*report.Document, error) {
	r, err := StartCommand(ctx, c, meta)
	if err != nil {
		return nil, err
	}
	return r.Wait()
}

// A Running is a user's command started by StartCommand: a server under
// load, which the caller stops when the load is done.
type Running struct {
	p       *target.Process
	c       target.Command
	meta    report.Meta
	started time.Time
	pw      *io.PipeWriter
	sc      *gctrace.Scanner
	z       *gctrace.Summarizer
	col     *benchout.Collector
	scanned chan error
	done    chan struct{}
	doc     *report.Document
	res     *target.Result // target's, once done
	err     error
}

// StartCommand starts a user's command as RunCommand runs it, and returns
// at once: the caller forwards its interrupts (Running.Interrupt) and
// stops it. A command that cannot be started returns an error that is
// target.ErrNotStarted.
func StartCommand(ctx context.Context, c target.Command, meta report.Meta) (*Running, error) {
	c.GCTrace = true
	pr, pw := io.Pipe()
	other := c.Stderr
	if other == nil {
		other = io.Discard
	}
	c.Stderr = pw
	// The command's stdout passes through the benchmark collector, which
	// never fails nor holds it up, then to where it goes.
	col := benchout.NewCollector()
	if c.Stdout == nil {
		c.Stdout = col
	} else {
		c.Stdout = io.MultiWriter(col, c.Stdout)
	}
	r := &Running{c: c, meta: meta, pw: pw, z: &gctrace.Summarizer{}, col: col, scanned: make(chan error, 1), done: make(chan struct{})}
	r.sc = gctrace.NewScanner(pr)
	r.sc.Other = other
	go func() {
		for r.sc.Scan() {
			r.z.Add(r.sc.Cycle())
		}
		pr.CloseWithError(r.sc.Err()) // a failing Other must not block the child
		r.scanned <- r.sc.Err()
	}()
	r.started = time.Now()
	p, err := c.Start(ctx)
	if err != nil {
		pw.Close()
		<-r.scanned
		col.Close()
		return nil, err
	}
	r.p = p
	go func() {
		r.doc, r.err = r.finish()
		close(r.done)
	}()
	return r, nil
}

// Interrupt forwards an interrupt to the command's process group, as
// target.Process.Interrupt does.
func (r *Running) Interrupt(s os.Signal) { r.p.Interrupt(s) }

// Kill kills the command's process tree at once, as target.Process.Kill
// does.
func (r *Running) Kill(why error) { r.p.Kill(why) }

// Processes lists the command's process tree as it is now, as
// target.Process.Processes does.
func (r *Running) Processes() []int { return r.p.Processes() }

// Stop stops the command as target.Process.Stop does: SIGTERM, then
// SIGKILL after its grace period. Wait says when it has ended.
func (r *Running) Stop() { r.p.Stop() }

// Done is closed once the command and its process tree have ended and its
// document is made.
func (r *Running) Done() <-chan struct{} { return r.done }

// Wait waits until the command has ended and returns its document, as
// RunCommand does.
func (r *Running) Wait() (*report.Document, error) {
	<-r.done
	return r.doc, r.err
}

// Result is target's Result of the command, once Done is closed (nil
// before, or when it was not waited for): Result.Stopped says why the
// runner stopped it (an *target.OverMemoryError for its MemCap).
func (r *Running) Result() *target.Result {
	select {
	case <-r.done:
		return r.res
	default:
		return nil
	}
}

// finish waits for the command and makes its document.
func (r *Running) finish() (*report.Document, error) {
	res, err := r.p.Wait()
	r.res = res
	ended := time.Now()
	r.pw.Close()
	if serr := <-r.scanned; serr != nil && err == nil {
		err = serr
	}
	r.col.Close() // its error is its own reader's: the benchmarks read so far stand
	if res == nil {
		return nil, err
	}
	n := r.sc.Counts()
	unread := n.Periodic + n.Scavenger + n.Skipped
	c := r.c
	d := &report.Document{
		Schema: report.Schema,
		Tool:   report.Tool{Name: "gcperf", Version: r.meta.Version, Command: slices.Clone(r.meta.Command)},
		Env:    r.meta.Env,
		Timing: report.Timing{Timing: workload.Timing{Started: r.started.UTC(), Ended: ended.UTC(), Elapsed: res.Wall}},
		Exec:   execSection(append([]string{c.Path}, c.Args...), res, r.z.Summary(), n.Cycles+unread, unread),
	}
	d.Interrupted = res.Interrupted
	for _, b := range r.col.Benchmarks() {
		x := report.ExecBenchmark{Pkg: b.Pkg, Name: b.Name, Metrics: make([]report.ExecMetric, 0, len(b.Metrics))}
		for _, m := range b.Metrics {
			x.Metrics = append(x.Metrics, report.ExecMetric{Unit: m.Unit, Values: m.Values, Dropped: m.Dropped, Median: m.Median()})
		}
		d.Exec.Benchmarks = append(d.Exec.Benchmarks, x)
	}
	d.Exec.SkippedBenchmarkLines = r.col.Skipped()
	return d, err
}

// execSection is the report of one run of a command: the target's result
// and the summary of its trace.
func execSection(argv []string, r *target.Result, s gctrace.Summary, traceLines, unread int) *report.Exec {
	d := &report.Exec{
		Command:     argv,
		Status:      r.Status(),
		ExitCode:    r.ExitCode,
		Success:     r.Success() && !r.Interrupted,
		Interrupted: r.Interrupted,
		Killed:      r.Killed,
		Leftovers:   r.Leftovers,
		Unkilled:    r.Unkilled,
		Wall:        r.Wall,
		UserCPU:     r.UserCPU,
		SystemCPU:   r.SystemCPU,
		MaxRSSBytes: r.MaxRSS,

		PeakRSSBytes:    r.PeakRSS,
		OwnPeakRSSBytes: r.OwnPeakRSS,
		RSS: report.ExecRSS{
			Interval: r.Interval, Samples: r.Samples, Stride: r.Stride,
			Points: make([]report.ExecRSSSample, 0, len(r.RSS)),
		},
		Settings:         report.ExecSettings{GOGC: r.Settings.GOGC, GOMEMLIMIT: r.Settings.GOMEMLIMIT, GODEBUG: r.Settings.GODEBUG},
		TraceLines:       traceLines,
		UnreadTraceLines: unread,
	}
	if r.Signal != 0 {
		d.Signal = target.SignalName(r.Signal)
	}
	if r.Stopped != nil {
		d.Stopped = r.Stopped.Error()
	}
	for _, p := range r.RSS {
		d.RSS.Points = append(d.RSS.Points, report.ExecRSSSample{At: p.At, RSSBytes: p.RSS, Processes: p.Processes})
	}
	untrusted := untrustedTrace(argv, r, s)
	switch {
	case untrusted != "":
		d.GCUnavailable = "the trace was not trusted: " + untrusted
	case s.Cycles > 0:
		g := &report.ExecGC{
			Cycles: s.Cycles, Forced: s.Forced, Truncated: s.Truncated, Sequences: s.Sequences,
			Pauses: report.ExecPauses{
				Count: s.Pauses.Count, Total: s.Pauses.Total,
				P50: s.Pauses.P50, P90: s.Pauses.P90, P99: s.Pauses.P99, Max: s.Pauses.Max,
			},
			MarkWall: s.MarkWall, CPU: s.CPU.Total(), CPUPercent: s.CPUPercent,
			PeakHeapMiB: s.PeakHeapMiB, PeakLiveMiB: s.PeakLiveMiB,
			Goal: make([]report.ExecGoalPoint, 0, len(s.Goal)),
		}
		for _, p := range s.Goal {
			g.Goal = append(g.Goal, report.ExecGoalPoint{At: p.At, GoalMiB: p.GoalMiB})
		}
		if s.GoalStride > 1 {
			g.GoalStride, g.GoalCycles = s.GoalStride, s.GoalCycles
		}
		g.ImpliedGOGC, g.ImpliedGOGCCycles = s.ImpliedGOGC, s.ImpliedCycles
		g.ImpliedGOGCLow, g.ImpliedGOGCHigh = s.ImpliedLow, s.ImpliedHigh
		d.GC = g
	case traceLines > 0:
		d.GCUnavailable = fmt.Sprintf("%d gctrace lines, none a cycle gcperf could read", traceLines)
	default:
		d.GCUnavailable = "no gctrace lines (not a Go program, one that ran no collection, or its GODEBUG sets gctrace)"
	}
	if d.GC == nil && r.TraceNote != "" {
		d.GCUnavailable += "; " + r.TraceNote
	}
	return d
}

// GoBuildsFirst says, for a command that is the go command running a
// program it builds first (go run, go test without -c), how to run the
// program itself; "" for any other command. Under go run or go test the
// program is a grandchild and the go command's own collector, building it,
// prints trace lines too: its figures would be mixed with the program's.
// The go command is found through the commands that run another (env,
// nice, time, timeout...) and past its own flags (go -C dir run .).
func GoBuildsFirst(argv []string) string {
	if argv = goCommand(argv); len(argv) < 2 { // through env, nice, time...; past go -C dir
		return ""
	}
	switch argv[1] {
	case "run":
		return "go run builds the program before it runs, and the go command's own collector and memory would be measured with the program's: build it first (go build -o prog ./pkg) and give ./prog"
	case "test":
		for _, a := range argv[2:] {
			if a == "-c" || a == "--c" || a == "-c=true" || a == "--c=true" {
				return ""
			}
		}
		return "go test builds the test binary before it runs, and the go command's own collector and memory would be measured with the tests': build it first (go test -c -o pkg.test ./pkg) and give ./pkg.test with its -test. flags"
	}
	return ""
}

// commandGrace is how long a command of a sweep's point has between
// SIGTERM and SIGKILL when the sweep stops it (its timeout, its memory cap,
// an interrupt): a sweep's command is a batch job, not a service to drain.
const commandGrace = 2 * time.Second

// runCommand runs one repeat of one point of a sweep over a user's command
// (Runner.Command): the command with the point's settings, its output to
// the point's log, its document to the point's result file (or, when it
// failed, beside it as failedName, for a look). Its error is not nil only
// when the sweep was stopped while the command ran.
func (r *Runner) runCommand(ctx context.Context, p Point, rep int, limit time.Duration) (Outcome, error) {
	file := p.FileName(rep)
	o := Outcome{Point: p, Rep: rep}
	ch, f := r.newChild(ctx, p, rep, limit)
	if !f.IsZero() {
		o.Failed = f
		return o, nil
	}
	defer ch.stop()
	c := r.command(*r.Command, ch)
	c.Env = slices.Concat(r.Env, p.Env())
	c.GOGC, c.GOMEMLIMIT = p.GOGC.String(), p.MemLimit.String()
	if c.Grace <= 0 {
		c.Grace = commandGrace
	}
	start := time.Now()
	doc, res, err := runCommandResult(ch.ctx, c, r.Meta)
	o.Wall = time.Since(start)
	o.StderrTail = ch.tail.Lines()
	if doc == nil {
		if errors.Is(err, target.ErrNotStarted) {
			o.Failed = failure(NotStarted, "%v", err)
			return o, nil
		}
		if cause := context.Cause(ch.ctx); errors.Is(cause, ErrInterrupted) || ctx.Err() != nil {
			return o, cause
		}
		o.Failed = failure(Other, "%v", err)
		return o, nil
	}
	if o.Failed, err = ch.stopped(res.Stopped, r, " of its process tree"); err != nil {
		return o, err
	}
	if o.Failed.IsZero() && !doc.Exec.Success {
		if o.Failed = exitFailure(res); o.Failed.IsZero() {
			o.Failed = failure(Exited, "%s", doc.Exec.Status)
		}
	}
	if err := CheckApplied(p, doc); err != nil && o.Failed.IsZero() {
		o.Failed = failure(NotApplied, "%v", err)
	}
	if err != nil && o.Failed.IsZero() {
		o.Failed = failure(Other, "%v", err)
	}
	o.noteLog(ch.log)
	return r.keepDocument(o, file, doc), nil
}

// runCommandResult runs c as RunCommand does, and returns target's Result
// beside the document (nil with it).
func runCommandResult(ctx context.Context, c target.Command, meta report.Meta) (*report.Document, *target.Result, error) {
	run, err := StartCommand(ctx, c, meta)
	if err != nil {
		return nil, nil, err
	}
	doc, err := run.Wait()
	return doc, run.Result(), err
}

// keepDocument writes a command's document to the point's result file,
// or, when it failed, beside it as failedName, for a look.
func (r *Runner) keepDocument(o Outcome, file string, doc *report.Document) Outcome {
	name := file
	if !o.Failed.IsZero() {
		name = failedName(file)
	}
	if werr := r.temps.Write(filepath.Join(r.Dir, name), nil, true, func(w io.Writer) error { return report.JSON(w, doc) }); werr != nil {
		if o.Failed.IsZero() {
			o.Failed = failure(CannotWrite, "its result could not be written: %v", safefile.Cause(werr))
		}
		return o
	}
	o.File = name
	if o.Failed.IsZero() {
		o.Doc = doc
		o.StderrTail = nil
	}
	return o
}

// commandArgv is the command line of a sweep's command.
func (r *Runner) commandArgv() []string {
	return append([]string{r.Command.Path}, r.Command.Args...)
}
