package main

import (
	_ "embed"
	"flag"
	"io"
	"os"
	"slices"

	"github.com/gcperf/gcperf/sweep"
	"github.com/gcperf/gcperf/workload"
)

// runCmd runs named operations: gcperf run [flags] OP [-param value...]
// ... [-- SERVER [ARGS...]], the server under the operations' load.
func runCmd(args []string, stdout, stderr io.Writer, sig <-chan os.Signal) int {
	fs := newFlags("run", runUsage)
	var o benchFlags
	o.Register(fs, workload.DefaultConfig())
	var sf serverFlags
	sf.Register(fs)
	mixFile := registerMix(fs)
	var argv []string // the server after --, nil without one
	own := args
	if i := slices.Index(args, "--"); i >= 0 {
		own, argv = args[:i], append([]string{}, args[i+1:]...)
	}
	if code := parseFlags(fs, own, stdout, stderr); code >= 0 {
		return code
	}
	if err := o.Finish(fs); err != nil {
		return fail(stderr, err)
	}
	o.Options.Command = append([]string{"gcperf", "run"}, args...)
	mix, ops, err := loadMix(*mixFile, fs.Args())
	if err != nil {
		return fail(stderr, err)
	}
	if o.Options.Server, err = sf.Server(fs, argv, ops); err != nil {
		return fail(stderr, err)
	}
	if argv != nil {
		if why := sweep.GoBuildsFirst(argv); why != "" {
			return fail(stderr, usagef("%s", why))
		}
		// Each process of -count starts the server afresh.
		ops = slices.Concat(ops, []string{"--"}, argv)
	}
	// With -count, each process is given the operations, -mix's read once
	// here, as a sweep's children are.
	child := append([]string{"run"}, flagArgs(fs, func(name string) bool { return name != "mix" && o.forProcess(name) })...)
	return execute(&o, mix, "", child, ops, stdout, stderr, sig)
}

//go:embed help/run.txt
var runUsage string

// isEngineFlag reports whether name is one of gcperf run's own flags.
func isEngineFlag(name string) bool {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	var o benchFlags
	o.Register(fs, workload.DefaultConfig())
	var sf serverFlags
	sf.Register(fs)
	registerMix(fs)
	return fs.Lookup(name) != nil
}
