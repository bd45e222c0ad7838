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
	"github.com/gcperf/gcperf/report"
	"github.com/gcperf/gcperf/sweep"
	"github.com/gcperf/gcperf/target"
)

// execCmd runs a user's command once and reports what it and the collector
// did: gcperf exec [flags] -- CMD [ARGS...].
func execCmd(args []string, stdout, stderr io.Writer, sig <-chan os.Signal) int {
	fs := newFlags("exec", execUsage)
	gogc := fs.String("gogc", "", "run the command with GOGC=`value` (a percentage or off; default: the environment's)")
	memlimit := fs.String("memlimit", "", "run the command with GOMEMLIMIT=`limit` (256MiB, 1GiB, off; default: the environment's)")
	count := fs.Int("count", 1, "run the command `N` times, each afresh, one after another (the JSON is then gcperf-count/v1: every run's result)")
	outFlags := []struct {
		name, doc string
		path      *string
	}{
		{"json", "also write the result as JSON (schema gcperf/v2; with -count, gcperf-count/v1) to `file`", nil},
		{"csv", "also write the result as CSV to `file` (not with -count)", nil},
		{"xml", "also write the result as XML to `file` (not with -count)", nil},
		{"bench", "also write the result in the Go benchmark format to `file`, for benchstat and gcperf compare (with -count, a line per run)", nil},
		{"html", "also write the report as an HTML page to `file` (not with -count)", nil},
	}
	for i := range outFlags {
		outFlags[i].path = fs.String(outFlags[i].name, "", outFlags[i].doc+" (not -: stdout is the command's)")
	}
	logOut := fs.String("log", "", "write the command's own stderr (not its trace lines) to `file` instead of gcperf's stderr")
	quiet := fs.Bool("q", false, "drop the command's own stderr (not its trace lines)")
	overwrite := fs.Bool("overwrite", false, "replace existing output and -log files")
	i := slices.Index(args, "--")
	if i < 0 {
		// -h without a command still prints the usage.
		if code := parseFlags(fs, args, stdout, stderr); code >= 0 {
			return code
		}
		return fail(stderr, usagef("exec: no command: gcperf exec [flags] -- CMD [ARGS...]"))
	}
	if code := parseFlags(fs, args[:i], stdout, stderr); code >= 0 {
		return code
	}
	if fs.NArg() > 0 {
		return fail(stderr, usagef("exec: %q before --: the command follows -- (gcperf exec [flags] -- CMD [ARGS...])", fs.Arg(0)))
	}
	argv := args[i+1:]
	if len(argv) == 0 || argv[0] == "" {
		return fail(stderr, usagef("exec: no command after --"))
	}
	if why := sweep.GoBuildsFirst(argv); why != "" {
		return fail(stderr, usagef("exec: %s", why))
	}
	c := &target.Command{Path: argv[0], Args: argv[1:], Stdin: os.Stdin, Stdout: stdout, Stderr: stderr}
	var err error
	if c.GOGC, err = sweep.ParseOne("gogc", *gogc, sweep.ParseGOGC); err != nil {
		return fail(stderr, usagef("exec: %v", err))
	}
	if c.GOMEMLIMIT, err = sweep.ParseOne("memlimit", *memlimit, sweep.ParseMemLimit); err != nil {
		return fail(stderr, usagef("exec: %v", err))
	}
	if err := sweep.CheckCount(*count); err != nil {
		return fail(stderr, usagef("exec: %v", err))
	}
	n := *count
	if *quiet && *logOut != "" {
		return fail(stderr, usagef("exec: -q and -log both say where the command's stderr goes: give one"))
	}
	// The outputs, each checked before the command runs.
	type output struct {
		flag, path string
		format     bench.Format
	}
	var outputs []output
	outs := []safefile.Output{{Label: "-log " + *logOut, Path: *logOut}}
	for _, o := range outFlags {
		path := *o.path
		switch {
		case path == "":
			continue
		case path == "-":
			return fail(stderr, usagef("exec: -%s - : gcperf's stdout is the command's own; give a file", o.name))
		}
		f, _ := bench.LookupFormat(o.name)
		if n > 1 && f.WriteSet == nil {
			return fail(stderr, usagef("exec: -%s %s: one run's file, not for -count %d (-json and -bench hold every run's)", o.name, quote.Clip(path), n))
		}
		outputs = append(outputs, output{"-" + o.name, path, f})
		outs = append(outs, safefile.Output{Label: "-" + o.name + " " + path, Path: path})
	}
	if *logOut == "-" {
		return fail(stderr, usagef("exec: -log - : the command's stderr goes to gcperf's stderr without -log"))
	}
	if err := safefile.Check(outs, *overwrite); err != nil {
		return fail(stderr, usagef("exec: %s", safefile.WithOverwrite(err)))
	}
	var log *safefile.Temp
	// The program's own stderr lines go to c.Stderr; its trace lines are
	// taken out of them.
	switch {
	case *quiet:
		c.Stderr = io.Discard
	case *logOut != "":
		t, err := safefile.CreateTemp(*logOut, *overwrite)
		if err != nil {
			return fail(stderr, usagef("exec: -log %s", safefile.WithOverwrite(err)))
		}
		log, c.Stderr = t, t.File
		defer t.Abort() // after Commit, a no-op
	}

	meta := report.Meta{Version: version, Command: append([]string{"gcperf", "exec"}, args...)}
	set := &report.Set{Tool: report.Tool{Name: "gcperf", Version: version, Command: meta.Command}, Count: n}
	var mach *env.Env
	code := exitOK
	for k := 1; k <= n; k++ {
		if k > 1 && interrupted(sig) {
			// An interrupt between two runs stops the sequence.
			set.Interrupted = true
			break
		}
		doc, err := sweep.RunCommand(context.Background(), *c, sig, meta)
		if errors.Is(err, target.ErrNotStarted) && k == 1 {
			var se *target.StartError
			if errors.As(err, &se) {
				return fail(stderr, usagef("exec: cannot start %q: %v", se.Path, se.Err))
			}
			return fail(stderr, usagef("exec: %v", err))
		}
		if doc == nil {
			if n == 1 {
				return fail(stderr, fmt.Errorf("exec: %w", err))
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
	if log != nil {
		if err := log.Commit(); err != nil {
			fmt.Fprintf(stderr, "gcperf: exec: -log %s\n", quote.OneLine(err))
			code = exitFail
		}
	}
	// The report goes to stderr, as time(1)'s does: the command's stdout
	// stays its own, to pipe or redirect.
	var err2 error
	var one *report.Document
	if n == 1 {
		one = set.Processes[0].Result
		err2 = report.WriteExecText(stderr, one)
	} else {
		err2 = report.SetText(stderr, set)
	}
	if err2 != nil {
		return fail(stderr, err2)
	}
	for _, o := range outputs {
		write := func(w io.Writer) error { return o.format.Write(w, one) }
		if n > 1 {
			write = func(w io.Writer) error { return o.format.WriteSet(w, set) }
		}
		if err := report.WriteFile(o.path, stdout, *overwrite, write); err != nil {
			fmt.Fprintf(stderr, "gcperf: exec: %s %s\n", o.flag, quote.Line(safefile.WithOverwrite(err)))
			code = exitFail
		}
	}
	if set.Interrupted || set.Failed() > 0 {
		code = exitFail
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
