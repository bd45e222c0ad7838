package main

import (
	_ "embed"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/gcperf/gcperf/alloc"
	"github.com/gcperf/gcperf/workload"
)

// defaultCmd is the bare gcperf: GCPerfP99's workload with its defaults.
func defaultCmd(args []string, stdout, stderr io.Writer, sig <-chan os.Signal) int {
	fs := newFlags("gcperf", defaultUsage)
	var o benchFlags
	def := workload.DefaultConfig()
	def.Warmups, def.Runs = alloc.DefaultWarmup, alloc.DefaultRuns
	o.Register(fs, def)
	size, base, chunk := listFlags(fs)
	showVersion := fs.Bool("version", false, "print gcperf's version, the commit it was built from and its Go, then exit")
	if code := parseFlags(fs, args, stdout, stderr); code >= 0 {
		return code
	}
	if *showVersion {
		return printVersion(stdout, stderr)
	}
	if fs.NArg() > 0 {
		return fail(stderr, usagef("unexpected argument %q (gcperf run OP... runs named operations)", fs.Arg(0)))
	}
	if err := o.Finish(fs); err != nil {
		return fail(stderr, err)
	}
	o.Options.Command = append([]string{"gcperf"}, args...)
	list, err := alloc.NewList(*size, *base, *chunk)
	if err != nil {
		return fail(stderr, err)
	}
	hint := fmt.Sprintf("-size %d with -base %d and -chunk %d", *size, *base, *chunk)
	return execute(&o, workload.Mix{list}, hint, flagArgs(fs, o.forProcess), nil, stdout, stderr, sig)
}

// listFlags declares alloc.list's flags, shared by gcperf and gcperf sweep.
func listFlags(fs *flag.FlagSet) (size, base, chunk *int) {
	size = fs.Int("size", alloc.DefaultSize, "KB per object")
	base = fs.Int("base", alloc.DefaultBase, "objects added before the warmups and kept alive")
	chunk = fs.Int("chunk", alloc.DefaultChunk, "objects added, then removed, by each run")
	return size, base, chunk
}

//go:embed help/gcperf.txt
var defaultUsage string
