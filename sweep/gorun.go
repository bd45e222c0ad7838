package sweep

import (
	"path/filepath"
	"strings"
)

// A wrapper is a command that runs another, given after its options (and
// positional arguments): env, nice, time, timeout...
type wrapper struct {
	values     []string // its options that take a value (-u NAME), short or long
	positional int      // its arguments before the command (timeout's duration)
	assigns    bool     // NAME=VALUE arguments before the command (env)
}

// wrappers are the commands that run the command of their arguments, as
// GoBuildsFirst looks through them.
var wrappers = map[string]wrapper{
	"env":     {values: []string{"-u", "--unset", "-C", "--chdir", "-S", "--split-string"}, assigns: true},
	"nice":    {values: []string{"-n", "--adjustment"}},
	"nohup":   {},
	"time":    {values: []string{"-f", "--format", "-o", "--output"}},
	"timeout": {values: []string{"-s", "--signal", "-k", "--kill-after"}, positional: 1},
	"ionice":  {values: []string{"-c", "--class", "-n", "--classdata"}},
	"taskset": {positional: 1},
	"chrt":    {values: []string{"-T", "--sched-runtime", "-P", "--sched-period", "-D", "--sched-deadline"}, positional: 1},
	"setsid":  {},
	"stdbuf":  {values: []string{"-i", "--input", "-o", "--output", "-e", "--error"}},
	"command": {},
}

// unwrap returns the command argv runs: argv itself, or what the wrappers
// at its head (env go run ., nice -n 5 time -p go test) run in the end,
// nil when a wrapper is given no command.
func unwrap(argv []string) []string {
	for len(argv) > 0 {
		w, ok := wrappers[filepath.Base(argv[0])]
		if !ok {
			return argv
		}
		rest := argv[1:]
		if split, ok := splitString(rest); ok && filepath.Base(argv[0]) == "env" {
			rest = split // env -S 'go run .'
		}
		argv = w.skip(rest)
	}
	return argv
}

// splitString returns env's arguments with its -S STRING (--split-string)
// split into words in place, and whether it had one.
func splitString(args []string) ([]string, bool) {
	for i, a := range args {
		var s string
		switch {
		case a == "--":
			return nil, false
		case (a == "-S" || a == "--split-string") && i+1 < len(args):
			s, args = args[i+1], append(args[:i:i], args[i+2:]...)
		case strings.HasPrefix(a, "--split-string="):
			s, args = strings.TrimPrefix(a, "--split-string="), append(args[:i:i], args[i+1:]...)
		case strings.HasPrefix(a, "-S"):
			s, args = strings.TrimPrefix(a, "-S"), append(args[:i:i], args[i+1:]...)
		case !strings.HasPrefix(a, "-"):
			return nil, false
		default:
			continue
		}
		return append(append(args[:i:i], strings.Fields(s)...), args[i:]...), true
	}
	return nil, false
}

// skip returns args past the wrapper's options, positional arguments and
// assignments: the command it runs.
func (w wrapper) skip(args []string) []string {
	for len(args) > 0 {
		a := args[0]
		switch {
		case a == "--":
			args = args[1:]
			return w.skipPositional(args)
		case a == "-" || !strings.HasPrefix(a, "-"):
			return w.skipPositional(args)
		}
		args = args[1:]
		for _, v := range w.values {
			if a == v && len(args) > 0 {
				args = args[1:] // the option's value
				break
			}
		}
	}
	return args
}

// skipPositional returns args past the wrapper's positional arguments and
// NAME=VALUE assignments.
func (w wrapper) skipPositional(args []string) []string {
	if len(args) > 0 && args[0] == "-" && w.assigns {
		args = args[1:] // env -: an empty environment
	}
	args = args[min(w.positional, len(args)):]
	for w.assigns && len(args) > 0 && strings.Contains(args[0], "=") {
		args = args[1:]
	}
	return args
}

// goCommand returns argv as go sub ARGS... when it runs the go command
// (through wrappers, and past the go command's own flags before its
// subcommand: go -C dir run .), else nil.
func goCommand(argv []string) []string {
	argv = unwrap(argv)
	if len(argv) < 2 || filepath.Base(argv[0]) != "go" {
		return nil
	}
	rest := argv[1:]
	for len(rest) > 0 && strings.HasPrefix(rest[0], "-") {
		if (rest[0] == "-C" || rest[0] == "--C") && len(rest) > 1 {
			rest = rest[1:] // the directory
		}
		rest = rest[1:]
	}
	return append([]string{argv[0]}, rest...)
}
