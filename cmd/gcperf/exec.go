package main

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"

	"github.com/gcperf/gcperf/bench"
	"github.com/gcperf/gcperf/env"
	"github.com/gcperf/gcperf/internal/quote"
	"github.com/gcperf/gcperf/internal/safefile"
	"github.com/gcperf/gcperf/internal/setting"
	"github.com/gcperf/gcperf/report"
	"github.com/gcperf/gcperf/sweep"
	"github.com/gcperf/gcperf/target"
)

// execOutput is one of exec's output files: its flag, its path, its format.
type execOutput struct {
	flag, path string
	format     bench.Format
}

// execOptions are gcperf exec's flags, checked.
type execOptions struct {
	c         *target.Command
	n         int // -count
	logOut    string
	quiet     bool
	overwrite bool
	outputs   []execOutput
	log       *execLog // -log's file, nil without -log
}

// execCmd runs a user's command once and reports what it and the collector
// did: gcperf exec [flags] -- CMD [ARGS...].
func execCmd(args []string, stdout, stderr io.Writer, sig <-chan os.Signal) int {
	o, code := parseExec(args, stdout, stderr)
	if o == nil {
		return code
	}
	// The program's own stderr lines go to c.Stderr; its trace lines are
	// taken out of them.
	switch {
	case o.quiet:
		o.c.Stderr = io.Discard
	case o.logOut != "":
		t, err := safefile.CreateTemp(o.logOut, o.overwrite)
		if err != nil {
			return fail(stderr, usagef("exec: -log %s", safefile.WithOverwrite(err)))
		}
		o.log = &execLog{t: t, w: wrapLog(t.File)}
		o.c.Stderr = o.log
		defer t.Abort() // after Commit, a no-op
	}
	meta := report.Meta{Version: version, Command: append([]string{"gcperf", "exec"}, args...)}
	set, code, ok := execRuns(o, meta, stderr, sig)
	if !ok {
		return code
	}
	// The measurement's own files first, whole; the log, which may have
	// taken the room they need (a full disk), after them.
	if c := writeExecReports(o, set, stdout, stderr); c != exitOK {
		code = c
	}
	if c := o.log.commit(stderr); c != exitOK {
		code = c
	}
	if set.Interrupted || set.Failed() > 0 {
		code = exitFail
	}
	return code
}

// parseExec reads exec's flags and command and checks its outputs before
// anything runs. A nil execOptions comes with the exit status.
func parseExec(args []string, stdout, stderr io.Writer) (*execOptions, int) {
	fs := newFlags("exec", execUsage)
	gogc := fs.String("gogc", "", "run the command with GOGC=`value` (a percentage or off; default: the environment's)")
	memlimit := fs.String("memlimit", "", "run the command with GOMEMLIMIT=`limit` (256MiB, 1GiB, off; default: the environment's)")
	count := fs.Int("count", 1, "run the command `N` times, each afresh, one after another (the JSON is then gcperf-count/v1: every run's result)")
	outFlags := []outFlag{
		{"json", "also write the result as JSON (schema gcperf/v2; with -count, gcperf-count/v1) to `file`", nil},
		{"csv", "also write the result as CSV to `file` (not with -count)", nil},
		{"xml", "also write the result as XML to `file` (not with -count)", nil},
		{"bench", "also write the result in the Go benchmark format to `file`, for benchstat and gcperf compare (with -count, a line per run)", nil},
		{"html", "also write the report as an HTML page to `file` (not with -count)", nil},
	}
	for i := range outFlags {
		outFlags[i].path = fs.String(outFlags[i].name, "", outFlags[i].doc+" (not -: stdout is the command's)")
	}
	o := &execOptions{}
	fs.StringVar(&o.logOut, "log", "", "write the command's own stderr (not its trace lines) to `file` instead of gcperf's stderr")
	fs.BoolVar(&o.quiet, "q", false, "drop the command's own stderr (not its trace lines)")
	fs.BoolVar(&o.overwrite, "overwrite", false, "replace existing output and -log files")
	i := slices.Index(args, "--")
	if i < 0 {
		// -h without a command still prints the usage.
		if code := parseFlags(fs, args, stdout, stderr); code >= 0 {
			return nil, code
		}
		if fs.NArg() > 0 {
			// gcperf exec ./cache: the command is there, without its --.
			return nil, fail(stderr, usagef("exec: the command follows --: gcperf exec -- %s", quote.Line(quote.Shell(fs.Args()))))
		}
		return nil, fail(stderr, usagef("exec: no command: gcperf exec [flags] -- CMD [ARGS...]"))
	}
	if code := parseFlags(fs, args[:i], stdout, stderr); code >= 0 {
		return nil, code
	}
	if fs.NArg() > 0 {
		return nil, fail(stderr, usagef("exec: %q before --: the command follows -- (gcperf exec [flags] -- CMD [ARGS...])", fs.Arg(0)))
	}
	argv := args[i+1:]
	if len(argv) == 0 || argv[0] == "" {
		return nil, fail(stderr, usagef("exec: no command after --"))
	}
	if why := sweep.GoBuildsFirst(argv); why != "" {
		return nil, fail(stderr, usagef("exec: %s", why))
	}
	o.c = &target.Command{Path: argv[0], Args: argv[1:], Stdin: os.Stdin, Stdout: stdout, Stderr: stderr}
	var err error
	if o.c.GOGC, err = parseOne("gogc", *gogc, sweep.ParseGOGC); err != nil {
		return nil, fail(stderr, usagef("exec: %v", err))
	}
	if o.c.GOMEMLIMIT, err = parseOne("memlimit", *memlimit, sweep.ParseMemLimit); err != nil {
		return nil, fail(stderr, usagef("exec: %v", err))
	}
	if err := setting.CheckCount(*count); err != nil {
		return nil, fail(stderr, usagef("exec: -count %v", err))
	}
	o.n = *count
	if o.quiet && o.logOut != "" {
		return nil, fail(stderr, usagef("exec: -q and -log both say where the command's stderr goes: give one"))
	}
	if code := o.checkOutputs(outFlags, stderr); code != exitOK {
		return nil, code
	}
	return o, exitOK
}

// An outFlag is one of exec's output flags.
type outFlag struct {
	name, doc string
	path      *string
}

// checkOutputs checks exec's outputs, each before the command runs, and
// sets o.outputs; it returns exitOK, or gcperf's exit status.
func (o *execOptions) checkOutputs(outFlags []outFlag, stderr io.Writer) int {
	outs := []safefile.Output{{Label: "-log " + o.logOut, Path: o.logOut}}
	for _, f := range outFlags {
		path := *f.path
		switch {
		case path == "":
			continue
		case path == "-":
			return fail(stderr, usagef("exec: -%s - : gcperf's stdout is the command's own; give a file", f.name))
		}
		format, _ := bench.LookupFormat(f.name)
		if o.n > 1 && format.WriteSet == nil {
			return fail(stderr, usagef("exec: -%s %s: one run's file, not for -count %d (-json and -bench hold every run's)", f.name, quote.Clip(path), o.n))
		}
		o.outputs = append(o.outputs, execOutput{"-" + f.name, path, format})
		outs = append(outs, safefile.Output{Label: "-" + f.name + " " + path, Path: path})
	}
	if o.logOut == "-" {
		return fail(stderr, usagef("exec: -log - : the command's stderr goes to gcperf's stderr without -log"))
	}
	if err := safefile.Check(outs, o.overwrite); err != nil {
		return fail(stderr, usagef("exec: %s", safefile.WithOverwrite(err)))
	}
	return exitOK
}

// execRuns runs the command -count times, one after another, forwarding
// the interrupts on sig to the running one. ok is false when gcperf is to
// exit at once with code (the command could not start).
func execRuns(o *execOptions, meta report.Meta, stderr io.Writer, sig <-chan os.Signal) (set *report.Set, code int, ok bool) {
	n := o.n
	set = &report.Set{Tool: report.Tool{Name: "gcperf", Version: version, Command: meta.Command}, Count: n}
	var mach *env.Env
	code = exitOK
	for k := 1; k <= n; k++ {
		if k > 1 && interrupted(sig) {
			// An interrupt between two runs stops the sequence.
			set.Interrupted = true
			break
		}
		doc, err := runForwarding(*o.c, meta, sig)
		if errors.Is(err, target.ErrNotStarted) && k == 1 {
			var se *target.StartError
			if errors.As(err, &se) {
				return nil, fail(stderr, usagef("exec: cannot start %q: %v", se.Path, se.Err)), false
			}
			return nil, fail(stderr, usagef("exec: %v", err)), false
		}
		if doc == nil {
			if n == 1 {
				return nil, fail(stderr, fmt.Errorf("exec: %w", err)), false
			}
			// A later run that could not start: recorded, and the
			// others go on.
			fmt.Fprintf(stderr, "gcperf: exec: run %d of %d: %s\n", k, n, quote.OneLine(err))
			set.Processes = append(set.Processes, report.ProcessResult{N: k, Failed: quote.OneLine(err)})
			code = exitFail
			continue
		}
		// The machine, read once the first run has ended: its 11ms
		// (gopsutil runs lsb_release on Debian) are not in the command's
		// wall time and do not compete with it. Read during the first
		// run, they made gcperf exec -- CMD 1.04 of CMD's wall time
		// instead of 1.02.
		if mach == nil {
			e, _ := env.CaptureMachine(context.Background(), "/") // what it could read
			mach = &e
		}
		doc.Env = *mach
		o.log.note(doc, o.logOut)
		if err != nil {
			// A writer that failed (a closed stdout): the command ran,
			// and its result is still worth the report.
			fmt.Fprintf(stderr, "gcperf: exec: %s\n", quote.OneLine(err))
			code = exitFail
		}
		if !doc.Exec.Success {
			code = exitFail
		}
		if n > 1 && doc.Exec.Interrupted {
			// The run stopped is not kept; the finished ones are reported.
			set.Interrupted = true
			break
		}
		set.Processes = append(set.Processes, report.ProcessResult{N: k, Wall: doc.Exec.Wall, Result: doc})
	}
	return set, code, true
}

// runForwarding runs the command once, as a terminal would: the first two
// interrupts on sig are forwarded to it, the third kills it.
func runForwarding(c target.Command, meta report.Meta, sig <-chan os.Signal) (*report.Document, error) {
	r, err := sweep.StartCommand(context.Background(), c, meta)
	if err != nil {
		return nil, err
	}
	for n := 0; ; {
		select {
		case <-r.Done():
			return r.Wait()
		case s, ok := <-sig:
			if !ok {
				sig = nil
				continue
			}
			if n++; n < 3 {
				r.Interrupt(s)
			} else {
				r.Kill(target.ErrInterrupted)
			}
		}
	}
}

// writeExecReports writes the text report to stderr, as time(1) does (the
// command's stdout stays its own, to pipe or redirect), and the output
// files; it returns exitFail when one could not be written. A text report
// that could not be written (stderr closed or full) does not keep the
// files from being written: they hold the measurement, the terminal only
// shows it; nor does a log that filled the disk (execLog.writeFile).
func writeExecReports(o *execOptions, set *report.Set, stdout, stderr io.Writer) (code int) {
	var err error
	var one *report.Document
	if o.n == 1 {
		one = set.Processes[0].Result
		err = report.WriteExecText(stderr, one)
	} else {
		err = report.SetText(stderr, set)
	}
	code = exitOK
	if err != nil {
		code = fail(stderr, err)
	}
	for _, out := range o.outputs {
		write := func(w io.Writer) error { return out.format.Write(w, one) }
		if o.n > 1 {
			write = func(w io.Writer) error { return out.format.WriteSet(w, set) }
		}
		if err := o.log.writeFile(out.path, stdout, o.overwrite, write); err != nil {
			fmt.Fprintf(stderr, "gcperf: exec: %s %s\n", out.flag, quote.Line(safefile.WithOverwrite(err)))
			code = exitFail
		}
	}
	return code
}

// interrupted reports whether a signal is waiting on sig, taking it.
func interrupted(sig <-chan os.Signal) bool {
	select {
	case <-sig:
		return true
	default:
		return false
	}
}

//go:embed help/exec.txt
var execUsage string
