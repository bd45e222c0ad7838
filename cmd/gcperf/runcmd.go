package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/gcperf/gcperf/workload"

	"github.com/gcperf/gcperf/internal/quote"
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
	o.command = append([]string{"gcperf", "run"}, args...)
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

// errDashDash is a "--" among the operations: gcperf run starts no program.
var errDashDash = usagef("--: gcperf run starts no program after --; operations follow the flags: OP key=value ... (gcperf list shows them)")

// parseMix reads OP [params] OP [params]... into operations.
func parseMix(args []string) (workload.Mix, error) {
	if len(args) == 0 {
		return nil, usagef("run needs at least one operation (gcperf list shows them)")
	}
	var mix workload.Mix
	for len(args) > 0 {
		name := args[0]
		if name == "--" {
			return nil, errDashDash
		}
		if strings.HasPrefix(name, "-") {
			return nil, usagef("flag %s after the operations: flags go before the first operation", quote.Clip(name))
		}
		if _, ok := workload.Lookup(name); !ok {
			return nil, usagef("unknown operation %q (gcperf list shows them)", quote.Clip(name))
		}
		ot, n, err := scanOp(args)
		if err != nil {
			return nil, err
		}
		args = args[n:]
		op, err := workload.New(name, ot.params)
		if errors.Is(err, workload.ErrUnknownParam) {
			if key := ot.engineFlag(); key != "" {
				return nil, usagef("flag -%s after the operations: flags go before the first operation", key)
			}
		}
		if err != nil {
			return nil, err
		}
		mix = append(mix, op)
	}
	return mix, nil
}

// opText is one operation as text: its name and its parameters.
type opText struct {
	name   string
	keys   []string // the parameters in the order given
	params map[string]string
}

// args returns the operation as command-line arguments, name key=value...,
// which parseMix reads back into the same operation.
func (o opText) args() []string {
	out := []string{o.name}
	for _, k := range o.keys {
		out = append(out, k+"="+o.params[k])
	}
	return out
}

// engineFlag returns the first of the operation's parameters that is a
// flag of gcperf run, or "".
func (o opText) engineFlag() string {
	for _, k := range o.keys {
		if isEngineFlag(k) {
			return k
		}
	}
	return ""
}

// scanOp reads one operation from args: its name, args[0], then its
// parameters, as -param value, -param=value or param=value, up to the next
// argument that is none of these (the next operation's name). It returns
// how many arguments it read.
func scanOp(args []string) (opText, int, error) {
	name := args[0]
	ot := opText{name: name, params: map[string]string{}}
	i := 1
	for i < len(args) {
		a := args[i]
		if a == "--" {
			return opText{}, 0, errDashDash
		}
		key, val, hasEq := strings.Cut(strings.TrimLeft(a, "-"), "=")
		dashed := strings.HasPrefix(a, "-")
		if !dashed && !hasEq {
			break // the next operation
		}
		i++
		if dashed && !hasEq {
			if i == len(args) {
				return opText{}, 0, usagef("%s: parameter %s needs a value", name, quote.Clip(a))
			}
			val = args[i]
			i++
		}
		if key == "" {
			return opText{}, 0, usagef("%s: %s is not a parameter: key=value or -key value", name, quote.Clip(a))
		}
		if _, dup := ot.params[key]; dup {
			return opText{}, 0, usagef("%s: parameter %s given twice", name, quote.Clip(key))
		}
		ot.params[key] = val
		ot.keys = append(ot.keys, key)
	}
	return ot, i, nil
}

// isEngineFlag reports whether name is one of gcperf run's own flags.
func isEngineFlag(name string) bool {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	var o benchOptions
	o.register(fs, workload.DefaultConfig())
	registerMix(fs)
	return fs.Lookup(name) != nil
}
