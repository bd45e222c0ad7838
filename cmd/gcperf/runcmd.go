package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/gcperf/gcperf/workload"
)

// runCmd runs named operations: gcperf run [flags] OP [-param value...] ...
func runCmd(args []string, stdout, stderr io.Writer, sig <-chan os.Signal) int {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	var o benchOptions
	o.register(fs, workload.DefaultConfig())
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
	o.command = append([]string{"gcperf", "run"}, args...)
	mix, err := parseMix(fs.Args())
	if err != nil {
		return fail(stderr, err)
	}
	return o.execute(mix, "the mix", stdout, stderr, sig)
}

const runUsage = `Usage: gcperf run [flags] OP [-param value ...] [OP ...]

Runs the named operations as one mix: every operation once per run, in a
random order, unless the flags say otherwise. Each operation takes its own
parameters after its name, as -param value, -param=value or param=value
(gcperf list shows them). The flags go before the first operation.

  gcperf run -runs 100000 noop
  gcperf run spin -d 100us sleep -d 1ms

Flags:
`

// parseMix reads OP [params] OP [params]... into operations.
func parseMix(args []string) (workload.Mix, error) {
	if len(args) == 0 {
		return nil, usagef("run needs at least one operation (gcperf list shows them)")
	}
	var mix workload.Mix
	for i := 0; i < len(args); {
		name := args[i]
		if strings.HasPrefix(name, "-") {
			return nil, usagef("flag %s after the operations: flags go before the first operation", name)
		}
		if _, ok := workload.Lookup(name); !ok {
			return nil, usagef("unknown operation %q (gcperf list shows them)", name)
		}
		i++
		params := map[string]string{}
		for i < len(args) {
			a := args[i]
			key, val, hasEq := strings.Cut(strings.TrimLeft(a, "-"), "=")
			dashed := strings.HasPrefix(a, "-")
			if !dashed && !hasEq {
				break // the next operation
			}
			i++
			if dashed && !hasEq {
				if i == len(args) {
					return nil, usagef("%s: parameter %s needs a value", name, a)
				}
				val = args[i]
				i++
			}
			if _, dup := params[key]; dup {
				return nil, usagef("%s: parameter %s given twice", name, key)
			}
			params[key] = val
		}
		op, err := workload.New(name, params)
		if errors.Is(err, workload.ErrUnknownParam) {
			for key := range params {
				if isEngineFlag(key) {
					return nil, usagef("flag -%s after the operations: flags go before the first operation", key)
				}
			}
		}
		if err != nil {
			return nil, err
		}
		mix = append(mix, op)
	}
	return mix, nil
}

// isEngineFlag reports whether name is one of gcperf run's own flags.
func isEngineFlag(name string) bool {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	var o benchOptions
	o.register(fs, workload.DefaultConfig())
	return fs.Lookup(name) != nil
}
