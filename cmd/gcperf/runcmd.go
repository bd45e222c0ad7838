package main

import (
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/gcperf/gcperf/workload"
)

// runCmd runs named operations: gcperf run [flags] OP [-param value...] ...
func runCmd(args []string, stdout, stderr io.Writer, sig <-chan os.Signal) int {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	var o benchOptions
	o.register(fs, workload.DefaultConfig())
	mixFile := registerMix(fs)
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), runUsage)
		fs.PrintDefaults()
	}
	if code := parseFlags(fs, args, stdout, stderr); code >= 0 {
		return code
	}
	if err := o.finish(fs); err != nil {
		return fail(stderr, err)
	}
	o.Command = append([]string{"gcperf", "run"}, args...)
	mix, _, err := loadMix(*mixFile, fs.Args())
	if err != nil {
		return fail(stderr, err)
	}
	return o.execute(mix, "", stdout, stderr, sig)
}

const runUsage = `Usage: gcperf run [flags] OP [-param value ...] [OP ...]
       gcperf run [flags] -mix FILE [OP [-param value ...] ...]

Runs the named operations as one mix: every operation once per run, in a
random order, unless the flags say otherwise. Each operation takes its own
parameters after its name, as -param value, -param=value or param=value
(gcperf list shows them). The flags go before the first operation.

-mix FILE reads operations from a file, one a line, written as on the command
line (name key=value ...); # starts a comment, blank lines are ignored, an
operation may appear on several lines, and a line "mix other.mix" includes
another file (relative to this one's directory). The file's operations come
first, then the command line's. A bad line is reported as FILE:LINE.

  gcperf run -runs 100000 noop
  gcperf run spin -d 100us sleep -d 1ms
  gcperf run -runs 1000 -mix service.mix

Flags:
`

// isEngineFlag reports whether name is one of gcperf run's own flags.
func isEngineFlag(name string) bool {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	var o benchOptions
	o.register(fs, workload.DefaultConfig())
	registerMix(fs)
	return fs.Lookup(name) != nil
}
