package main

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"

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
	jsonOut := fs.String("json", "", "also write the result as JSON (schema gcperf-exec/v1) to `file` (not -: stdout is the command's)")
	logOut := fs.String("log", "", "write the command's own stderr (not its trace lines) to `file` instead of gcperf's stderr")
	quiet := fs.Bool("q", false, "drop the command's own stderr (not its trace lines)")
	overwrite := fs.Bool("overwrite", false, "replace existing -json and -log files")
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
	if c.GOGC, err = oneSetting("gogc", *gogc, sweep.ParseGOGC); err != nil {
		return fail(stderr, err)
	}
	if c.GOMEMLIMIT, err = oneSetting("memlimit", *memlimit, sweep.ParseMemLimit); err != nil {
		return fail(stderr, err)
	}
	if *quiet && *logOut != "" {
		return fail(stderr, usagef("exec: -q and -log both say where the command's stderr goes: give one"))
	}
	if *jsonOut == "-" {
		return fail(stderr, usagef("exec: -json - : gcperf's stdout is the command's own; give a file"))
	}
	if *logOut == "-" {
		return fail(stderr, usagef("exec: -log - : the command's stderr goes to gcperf's stderr without -log"))
	}
	outs := []safefile.Output{{Label: "-json " + *jsonOut, Path: *jsonOut}, {Label: "-log " + *logOut, Path: *logOut}}
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

	doc, err := sweep.RunCommand(context.Background(), *c, sig, report.Meta{Version: version, Command: append([]string{"gcperf", "exec"}, args...)})
	if errors.Is(err, target.ErrNotStarted) {
		var se *target.StartError
		if errors.As(err, &se) {
			return fail(stderr, usagef("exec: cannot start %q: %v", se.Path, se.Err))
		}
		return fail(stderr, usagef("exec: %v", err))
	}
	if doc == nil {
		return fail(stderr, fmt.Errorf("exec: %w", err))
	}
	// The machine, read once the command has ended: its few milliseconds
	// are not in the command's wall time, and do not compete with it.
	doc.Env, _ = env.CaptureMachine(context.Background(), "/") // what it could read
	code := exitOK
	if err != nil {
		// A writer that failed (a closed stdout): the command ran, and
		// its result is still worth the report.
		fmt.Fprintf(stderr, "gcperf: exec: %s\n", quote.OneLine(err))
		code = exitFail
	}
	if log != nil {
		if err := log.Commit(); err != nil {
			fmt.Fprintf(stderr, "gcperf: exec: -log %s\n", quote.OneLine(err))
			code = exitFail
		}
	}
	if !doc.Exec.Success {
		code = exitFail
	}
	// The report goes to stderr, as time(1)'s does: the command's stdout
	// stays its own, to pipe or redirect.
	if err := report.WriteExecText(stderr, doc); err != nil {
		return fail(stderr, err)
	}
	if *jsonOut != "" {
		if err := report.WriteFile(*jsonOut, stdout, *overwrite, func(w io.Writer) error { return report.JSON(w, doc) }); err != nil {
			fmt.Fprintf(stderr, "gcperf: exec: -json %s\n", quote.Line(safefile.WithOverwrite(err)))
			code = exitFail
		}
	}
	return code
}

// oneSetting checks the value of -name ("" when not given) with sweep's
// parser of the grid's list of values: exec runs one.
func oneSetting(name, value string, parse func(string) ([]string, error)) (string, error) {
	if value == "" {
		return "", nil
	}
	v, err := parse(value)
	if err != nil {
		return "", usagef("exec: %v", err)
	}
	if len(v) != 1 {
		return "", usagef("exec: -%s takes one value, got %q", name, value)
	}
	return v[0], nil
}

//go:embed help/exec.txt
var execUsage string
