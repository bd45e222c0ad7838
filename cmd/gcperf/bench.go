package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/gcperf/gcperf/env"
	"github.com/gcperf/gcperf/report"
	"github.com/gcperf/gcperf/workload"
)

// benchOptions are the engine's flags, shared by gcperf and gcperf run.
type benchOptions struct {
	cfg       workload.Config
	norandom  bool
	seed      int64
	seedSet   bool
	haltErr   bool
	haltTime  bool
	haltAny   bool
	verbose   bool
	out       map[string]*string // the output flags by format name: -json, -csv, -xml, -bench, -hgrm
	outDir    string             // -out
	gcstats   string
	overwrite bool
	command   []string
}

// register declares the engine's flags on fs, with defaults from def.
func (o *benchOptions) register(fs *flag.FlagSet, def workload.Config) {
	c := &o.cfg
	fs.IntVar(&c.Warmups, "warmup", def.Warmups, "warmup runs of the mix before the timed runs, not recorded")
	fs.IntVar(&c.Runs, "runs", def.Runs, "timed runs of the mix")
	fs.IntVar(&c.Outliers, "outliers", def.Outliers, "best and worst runs discarded before the mean-based statistics")
	fs.IntVar(&c.Threads, "threads", def.Threads, "goroutines running whole mixes from one pool of runs")
	fs.DurationVar(&c.MaxDelay, "delay", def.MaxDelay, "random delay of 0..`d` between operations (never timed)")
	fs.DurationVar(&c.Timeout, "timeout", def.Timeout, "per-operation timeout `d` (0: none)")
	fs.Int64Var(&o.seed, "seed", 0, "seed of the random orders and delays (default: a random seed, printed)")
	fs.BoolVar(&o.norandom, "norandom", false, "run the operations in mix order instead of a random order")
	fs.IntVar(&c.Sample, "sample", 0, "run `N` operations drawn from the mix per run instead of each once")
	fs.BoolVar(&c.Repeats, "repeats", false, "with -sample, draw with repetition")
	fs.BoolVar(&o.haltErr, "halt-on-error", false, "stop at the first operation error or panic")
	fs.BoolVar(&o.haltTime, "halt-on-timeout", false, "stop at the first timeout")
	fs.BoolVar(&o.haltAny, "halt-any", false, "stop at the first failure of any kind")
	fs.StringVar(&o.gcstats, "gcstats", "run", "follow the collector: `mode` run (each run and the total; ~0.7µs between runs), total, or off")
	fs.BoolVar(&o.verbose, "v", false, "print a line as each timed run starts and ends (on stderr)")
	o.out = map[string]*string{}
	for _, f := range formats {
		if f.name != "text" {
			o.out[f.name] = fs.String(f.name, "", "write "+f.doc+" to `file` (- for stdout, the text report then going to stderr)")
		}
	}
	var names []string
	for _, f := range formats {
		names = append(names, f.file)
	}
	fs.StringVar(&o.outDir, "out", "", "write every format to `dir`, created if missing: "+strings.Join(names, ", "))
	fs.BoolVar(&o.overwrite, "overwrite", false, "replace existing output files")
}

// finish derives the Config from the parsed flags.
func (o *benchOptions) finish(fs *flag.FlagSet) error {
	g, err := workload.ParseGCStats(o.gcstats)
	if err != nil {
		return err
	}
	o.cfg.GCStats = g
	fs.Visit(func(f *flag.Flag) {
		if f.Name == "seed" {
			o.seedSet = true
		}
	})
	o.cfg.Random = !o.norandom
	o.cfg.Seed = o.seed
	if !o.seedSet {
		o.cfg.Seed = rand.Int64N(1 << 31) // short enough to retype
	}
	if o.haltErr {
		o.cfg.Halt |= workload.HaltOnError
	}
	if o.haltTime {
		o.cfg.Halt |= workload.HaltOnTimeout
	}
	if o.haltAny {
		o.cfg.Halt |= workload.HaltAny
	}
	return nil
}

// execute validates everything, runs the benchmark and writes the reports.
// flagsHint names the flags that set the mix's memory, for the error when
// it cannot fit.
func (o *benchOptions) execute(mix workload.Mix, memHint string, stdout, stderr io.Writer, sig <-chan os.Signal) int {
	if err := o.cfg.Validate(len(mix)); err != nil {
		return fail(stderr, err)
	}
	if err := o.checkMemory(mix, memHint); err != nil {
		return fail(stderr, err)
	}
	// Last of the checks: it creates -out's directory.
	if err := o.checkOutput(); err != nil {
		return fail(stderr, err)
	}

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stop := make(chan struct{})
	o.cfg.Stop = stop
	done := make(chan struct{})
	defer close(done)
	go func() {
		n := 0
		for {
			select {
			case <-sig:
				n++
				if n == 1 {
					fmt.Fprintln(stderr, "gcperf: interrupted: stopping after the runs in progress (interrupt again to cancel them)")
					close(stop)
				} else {
					cancel()
				}
			case <-done:
				return
			}
		}
	}()

	var obs []workload.Observer
	if o.verbose {
		obs = append(obs, workload.Verbose(stderr, processStart))
	}
	names := make([]string, len(mix))
	for i, op := range mix {
		names[i] = op.Name()
		if d, ok := op.(workload.Describer); ok {
			names[i] += " " + d.Describe()
		}
	}
	// The environment is captured before the runs: reading it costs
	// milliseconds and must not disturb them.
	captured, cerr := env.Capture(context.Background(), "/")
	if cerr != nil {
		fmt.Fprintf(stderr, "gcperf: warning: the environment is incomplete: %v\n", oneLine(cerr))
	}
	fmt.Fprintf(stderr, "gcperf: running %s: %d warmups, %d timed runs, seed %d; interrupt stops after the current run\n",
		strings.Join(names, ", "), o.cfg.Warmups, o.cfg.Runs, o.cfg.Seed)
	res, err := workload.Run(ctx, o.cfg, mix, obs...)
	if err != nil && res == nil {
		return fail(stderr, err)
	}
	doc := report.New(res, report.Meta{Version: version, Command: o.command, Env: captured})

	targets := o.targets()
	text := stdout
	for _, t := range targets {
		if t.path == "-" {
			text = stderr // stdout carries that format alone
		}
	}
	code := exitOK
	if werr := report.Text(text, doc); werr != nil {
		fmt.Fprintf(stderr, "gcperf: writing the report: %v\n", werr)
		code = exitFail
	}
	for _, t := range targets {
		write := t.format.write
		if werr := report.WriteFile(t.path, stdout, o.overwrite, func(w io.Writer) error { return write(w, doc) }); werr != nil {
			fmt.Fprintf(stderr, "gcperf: %s: %v\n", t.label, werr)
			code = exitFail
		}
	}
	switch {
	case err != nil:
		fmt.Fprintf(stderr, "gcperf: %v\n", err)
		code = exitFail
	case res.Interrupted, res.Halted != "":
		code = exitFail
	case res.Mix.Stats.Runs > 0 && res.Mix.Stats.Runtime.Count == 0:
		fmt.Fprintln(stderr, "gcperf: every run failed")
		code = exitFail
	}
	return code
}

// target is one output file of a run.
type target struct {
	label  string // what error messages name: "-csv out.csv", "-out dir: dir/result.csv"
	path   string // "-" for stdout
	format format
}

// targets lists the output files the flags ask for: the output flags', then
// -out's.
func (o *benchOptions) targets() []target {
	var ts []target
	for _, f := range formats {
		if p := o.out[f.name]; p != nil && *p != "" {
			ts = append(ts, target{"-" + f.name + " " + *p, *p, f})
		}
	}
	if o.outDir != "" {
		for _, f := range formats {
			path := filepath.Join(o.outDir, f.file)
			ts = append(ts, target{"-out " + o.outDir + ": " + path, path, f})
		}
	}
	return ts
}

// checkOutput refuses, before anything runs, an output file that exists
// (without -overwrite), a directory that cannot be written, two formats on
// stdout or two flags writing one file, so that a long benchmark is never
// lost at the end. It creates -out's directory when missing, last.
func (o *benchOptions) checkOutput() error {
	if o.outDir == "-" {
		return usagef("-out -: -out takes a directory; - (stdout) is for one format's flag")
	}
	ts := o.targets()
	var toStdout []string
	for _, t := range ts {
		if t.path == "-" {
			toStdout = append(toStdout, "-"+t.format.name)
		}
	}
	if len(toStdout) > 1 {
		return usagef("%s - and %s -: at most one format can go to stdout", toStdout[0], toStdout[1])
	}
	createDir := false
	if o.outDir != "" {
		st, err := os.Stat(o.outDir)
		switch {
		case err == nil && !st.IsDir():
			return usagef("-out %s: not a directory", o.outDir)
		case errors.Is(err, fs.ErrNotExist):
			createDir = true
		case err != nil:
			return usagef("-out %s: %v", o.outDir, errors.Unwrap(err))
		}
	}
	seen := map[string]string{}
	checked := map[string]bool{}
	for _, t := range ts {
		if t.path == "-" {
			continue
		}
		clean := filepath.Clean(t.path)
		if prev, dup := seen[clean]; dup {
			return usagef("%s: the same file as %s", t.label, prev)
		}
		seen[clean] = t.label
		if st, err := os.Stat(t.path); err == nil {
			if st.IsDir() {
				return usagef("%s: is a directory", t.label)
			}
			if !o.overwrite {
				return usagef("%s: file exists (use -overwrite to replace it)", t.label)
			}
		}
		dir := filepath.Dir(t.path)
		if checked[dir] || createDir && dir == filepath.Clean(o.outDir) {
			continue
		}
		checked[dir] = true
		if err := canWrite(dir); err != nil {
			return usagef("%s: cannot write there: %v", t.label, err)
		}
	}
	if createDir {
		if err := os.MkdirAll(o.outDir, 0o755); err != nil {
			return usagef("-out %s: cannot create it: %v", o.outDir, errors.Unwrap(err))
		}
		if err := canWrite(o.outDir); err != nil {
			return usagef("-out %s: cannot write there: %v", o.outDir, err)
		}
	}
	return nil
}

// canWrite checks that a file can be created in dir, by creating one.
func canWrite(dir string) error {
	f, err := os.CreateTemp(dir, ".gcperf-check*")
	if err != nil {
		return errors.Unwrap(err)
	}
	f.Close()
	os.Remove(f.Name())
	return nil
}

// checkMemory refuses a mix whose live set, with what the engine
// preallocates, cannot fit in the memory available, before allocating any of it.
func (o *benchOptions) checkMemory(mix workload.Mix, hint string) error {
	mem, err := env.ReadMemory(context.Background(), "/")
	if err != nil {
		return nil // not Linux, or no /proc: nothing to check against
	}
	var live int64
	for _, op := range mix {
		if f, ok := op.(workload.Footprinter); ok {
			n := f.LiveBytes()
			if _, ok := op.(workload.Cloner); ok {
				n *= int64(o.cfg.Threads)
			}
			live += n
		}
	}
	engine := o.cfg.Footprint(len(mix))
	if need := live + engine; need > mem.Available {
		where := "on this machine"
		if mem.Limit == "cgroup" {
			where = "under this cgroup's memory.max"
		}
		return usagef("%s needs %s live plus %s for the engine's records, but only %s is available %s",
			hint, env.Bytes(live), env.Bytes(engine), env.Bytes(mem.Available), where)
	}
	return nil
}

var processStart = time.Now()

// oneLine joins a multi-line error (errors.Join) into one line.
func oneLine(err error) string {
	return strings.ReplaceAll(err.Error(), "\n", "; ")
}
