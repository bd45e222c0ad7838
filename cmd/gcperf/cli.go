package main

import (
	_ "embed"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	_ "github.com/gcperf/gcperf/alloc" // registers alloc.list
	"github.com/gcperf/gcperf/bench"
	"github.com/gcperf/gcperf/internal/quote"
	"github.com/gcperf/gcperf/internal/safefile"
	_ "github.com/gcperf/gcperf/load" // registers http
	"github.com/gcperf/gcperf/sweep"
	"github.com/gcperf/gcperf/workload"
	"github.com/gcperf/gcperf/workload/mixfile"
)

// version is gcperf's version, written into every report.
var version = "0.1.0-dev"

// Exit statuses.
const (
	exitOK    = 0 // success
	exitFail  = 1 // a run that failed, halted or was interrupted
	exitUsage = 2 // bad usage or bad input
)

// A command is one subcommand: its arguments after its name, its output,
// and the signals (interrupts) sent to the process.
type command func(args []string, stdout, stderr io.Writer, sig <-chan os.Signal) int

// commands are the subcommands by name; without one, gcperf runs
// GCPerfP99's workload (defaultCmd).
var commands = map[string]command{
	"run": runCmd, "sweep": sweepCmd, "list": listCmd, "env": envCmd, "report": reportCmd,
	"compare": compareCmd, "profile": profileCmd, "plot": plotCmd, "exec": execCmd,
}

// help is a command too; it looks the others up, so it joins them here.
func init() { commands["help"] = helpCmd }

// run is the whole command: main only adds the process around it, so tests
// run the CLI in-process. Signals arrive on sig: the first stops the
// benchmark after the runs in progress, the second cancels the operations.
func run(args []string, stdout, stderr io.Writer, sig <-chan os.Signal) int {
	if len(args) > 0 {
		if c, ok := commands[args[0]]; ok {
			return c(args[1:], stdout, stderr, sig)
		}
	}
	return defaultCmd(args, stdout, stderr, sig)
}

// helpCmd prints the list of commands, or with one argument that command's
// own usage (gcperf help run is gcperf run -h).
func helpCmd(args []string, stdout, stderr io.Writer, sig <-chan os.Signal) int {
	if len(args) > 1 {
		return fail(stderr, usagef("help: one command at most: gcperf help [COMMAND]"))
	}
	if len(args) == 1 {
		if args[0] == "gcperf" {
			return defaultCmd([]string{"-h"}, stdout, stderr, sig)
		}
		if c, ok := commands[args[0]]; ok && args[0] != "help" {
			return c([]string{"-h"}, stdout, stderr, sig)
		}
		if args[0] != "help" {
			return fail(stderr, usagef("help: no command %q (gcperf help lists them)", args[0]))
		}
	}
	if _, err := fmt.Fprint(stdout, topUsage); err != nil {
		return fail(stderr, fmt.Errorf("writing the usage: %w", err))
	}
	return exitOK
}

//go:embed help/gcperf-help.txt
var topUsage string

// usageError is bad input: one line on stderr, exit status 2. err is
// its cause, when there is one.
type usageError struct {
	msg string
	err error
}

func (e *usageError) Error() string { return e.msg }
func (e *usageError) Unwrap() error { return e.err }

// flagError is bad input to the flag name: "-name " + the message.
func flagError(name, format string, args ...any) error {
	return usagef("-"+name+" "+format, args...)
}

func usagef(format string, args ...any) error {
	return &usageError{msg: fmt.Sprintf(format, args...)}
}

// fail prints err as one line and returns the exit status it deserves.
func fail(stderr io.Writer, err error) int {
	var ue *usageError
	var ce *workload.ConfigError
	var ie *bench.InputError
	var me *bench.MemoryError
	if errors.As(err, &ie) || errors.As(err, &me) {
		err = benchError(err, "")
	}
	switch {
	case errors.Is(err, sweep.ErrUsage):
		fmt.Fprintf(stderr, "gcperf: %s\n", quote.Line(err.Error()))
		return exitUsage
	case errors.As(err, &ue):
		fmt.Fprintf(stderr, "gcperf: %s\n", quote.Line(safefile.WithOverwrite(ue)))
		return exitUsage
	case errors.As(err, &ce):
		fmt.Fprintf(stderr, "gcperf: -%s %s\n", ce.Field, quote.Line(ce.Msg))
		return exitUsage
	case errors.Is(err, workload.ErrUnknownOperation), errors.Is(err, workload.ErrUnknownParam),
		errors.Is(err, workload.ErrBadParam), errors.Is(err, mixfile.ErrInvalid):
		fmt.Fprintf(stderr, "gcperf: %s\n", quote.Line(err.Error()))
		return exitUsage
	}
	fmt.Fprintf(stderr, "gcperf: %s\n", quote.Line(err.Error()))
	return exitFail
}

// newFlags is a command's flag set, whose usage is usage followed by the
// flags' defaults.
func newFlags(name, usage string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), usage)
		fs.PrintDefaults()
	}
	return fs
}

// parseFlags parses args with fs, turning the flag package's errors into one
// line and exit status 2, and -h into the usage on stdout and status 0.
// It returns -1 when the caller should go on.
func parseFlags(fs *flag.FlagSet, args []string, stdout, stderr io.Writer) int {
	fs.SetOutput(io.Discard)
	err := fs.Parse(args)
	if errors.Is(err, flag.ErrHelp) {
		w := &firstError{w: stdout}
		fs.SetOutput(w)
		fs.Usage()
		if w.err != nil {
			return fail(stderr, fmt.Errorf("writing the usage: %w", w.err))
		}
		return exitOK
	}
	if err != nil {
		fmt.Fprintf(stderr, "gcperf: %s (gcperf %s-h lists the flags)\n", quote.Line(err.Error()), subName(fs))
		return exitUsage
	}
	return -1
}

func subName(fs *flag.FlagSet) string {
	if fs.Name() == "gcperf" {
		return ""
	}
	return fs.Name() + " "
}

// firstError is w, keeping the first error a write returned (a closed
// stdout), for a printer that does not return its errors (flag's usage).
type firstError struct {
	w   io.Writer
	err error
}

func (f *firstError) Write(p []byte) (int, error) {
	n, err := f.w.Write(p)
	if err != nil && f.err == nil {
		f.err = err
	}
	return n, err
}
