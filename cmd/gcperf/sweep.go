package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/gcperf/gcperf/alloc"
	"github.com/gcperf/gcperf/internal/safefile"
	"github.com/gcperf/gcperf/report/html"
	"github.com/gcperf/gcperf/sweep"
	"github.com/gcperf/gcperf/workload"

	"github.com/gcperf/gcperf/internal/quote"

	"github.com/gcperf/gcperf/internal/interrupt"

	"github.com/gcperf/gcperf/internal/progress"
)

// sweepFlags are gcperf sweep's own flags; -out and -overwrite, declared by
// benchOptions.register, are the sweep's too.
type sweepFlags struct {
	gogc, memlimit, gomaxprocs string
	count                      int
	pointTimeout               time.Duration
	pointMemory                string
	slo                        string
	resume                     bool
	shard                      string
	merge                      bool
	mix                        string // -mix: read by the sweep, its operations passed to the children
}

// sweepOwn names the flags that are the sweep's, never passed to a child.
var sweepOwn = map[string]bool{
	"gogc": true, "memlimit": true, "gomaxprocs": true, "count": true, "point-timeout": true,
	"point-memory": true, "slo": true, "resume": true, "shard": true, "merge": true,
	"out": true, "overwrite": true, "mix": true, "html": true, "q": true,
}

// notInSweep are the run flags a child cannot take, with the reason.
var notInSweep = map[string]string{
	"json":         "each point writes its JSON result to -out DIR",
	"csv":          "the sweep writes sweep.csv to -out DIR",
	"xml":          "the points' results are JSON files in -out DIR (gcperf report -format xml renders one)",
	"bench":        "the sweep writes bench.txt, every point in the Go benchmark format, to -out DIR",
	"hgrm":         "the points' results are JSON files in -out DIR (gcperf report -format hgrm renders one)",
	"http":         "the points run one after another in child processes: serve one with gcperf run -http",
	"http-public":  "the points run one after another in child processes: serve one with gcperf run -http",
	"v":            "the children's output goes to their .log files in -out DIR",
	"cpuprofile":   "-profile DIR profiles every point, each under DIR/POINT/",
	"memprofile":   "-profile DIR profiles every point, each under DIR/POINT/",
	"blockprofile": "-profile DIR profiles every point, each under DIR/POINT/",
	"mutexprofile": "-profile DIR profiles every point, each under DIR/POINT/",
	"trace":        "-profile DIR profiles every point, each under DIR/POINT/",
	"fgprof":       "-profile DIR profiles every point, each under DIR/POINT/",
}

// newSweepFlags declares the sweep's flags and the run flags: gcperf's
// (alloc.list's -size, -base, -chunk, and its defaults) when list is set,
// else gcperf run's.
func newSweepFlags(list bool) (*flag.FlagSet, *benchOptions, *sweepFlags, []*int) {
	fs := flag.NewFlagSet("sweep", flag.ContinueOnError)
	sf := &sweepFlags{}
	fs.StringVar(&sf.gogc, "gogc", "50,100,200,400", "GOGC `values`, comma-separated: off or a percentage")
	fs.StringVar(&sf.memlimit, "memlimit", "off", "GOMEMLIMIT `values`, comma-separated: off or a size in Go's syntax (256MiB, 1GiB)")
	fs.StringVar(&sf.gomaxprocs, "gomaxprocs", "", "GOMAXPROCS `values`, comma-separated, at most 1024, a third axis (default: not an axis; the children inherit it)")
	fs.IntVar(&sf.count, "count", 1, "repeats of every point, interleaved: repeat 1 of every point, then repeat 2...")
	sf.pointTimeout = sweep.AutoTimeout
	fs.Var((*pointTimeout)(&sf.pointTimeout), "point-timeout", "stop a point that runs longer than `d`, recording it as failed: a duration, off, or auto: "+
		"10× the longest repeat that succeeded before it, at least 1m, and 30m until one has")
	fs.StringVar(&sf.pointMemory, "point-memory", "80%", "stop a point whose RSS grows above `size` (4GiB), a percentage of the memory available (cgroup included), or off")
	fs.StringVar(&sf.slo, "slo", "", "advise the setting with the lowest peak RSS that meets `bounds` on every repeat: p99=20ms, p999=, max=, throughput=")
	fs.BoolVar(&sf.resume, "resume", false, "finish the sweep in -out DIR: run only the points without a complete result there")
	fs.StringVar(&sf.shard, "shard", "", "run shard `i/n` of the grid: the points whose index mod n is i")
	fs.BoolVar(&sf.merge, "merge", false, "merge the sweeps in the directories given as arguments (shards) instead of running one")
	fs.StringVar(&sf.mix, "mix", "", "read operations from `file` as gcperf run -mix does, before those given as arguments; "+
		"the sweep reads it once and passes its operations to every child as arguments")
	o := &benchOptions{}
	def := workload.DefaultConfig()
	if list {
		def.Warmups, def.Runs = alloc.DefaultWarmup, alloc.DefaultRuns
	}
	o.register(fs, def)
	fs.Lookup("out").Usage = "write the sweep to `dir`: one JSON result and .log per point and repeat, sweep.json, sweep.csv, bench.txt " +
		"(default: a new temporary directory); with -merge, where the merged sweep goes"
	fs.Lookup("html").Usage = "write the sweep's page (the table, the advice and its charts, as sweep.html in -out DIR) to `file` too"
	fs.Lookup("overwrite").Usage = "run the sweep in a -out directory that is not empty, replacing its files"
	var sizes []*int
	if list {
		size, base, chunk := listFlags(fs)
		sizes = []*int{size, base, chunk}
	}
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), sweepUsage)
		fmt.Fprintln(fs.Output(), "Sweep flags:")
		printFlags(fs, func(name string) bool { return sweepOwn[name] })
		fmt.Fprintln(fs.Output(), "\nRun flags, passed to every child (-json, -csv, -xml, -bench, -hgrm, -v, -http and the single-file profiles are\nnot for a sweep; -profile DIR gives each point its profiles under DIR/POINT/; the defaults shown are gcperf's,\nthose of gcperf run apply when operations follow):")
		printFlags(fs, func(name string) bool { return !sweepOwn[name] && notInSweep[name] == "" })
	}
	return fs, o, sf, sizes
}

// printFlags prints the defaults of fs's flags that keep selects.
func printFlags(fs *flag.FlagSet, keep func(string) bool) {
	part := flag.NewFlagSet(fs.Name(), flag.ContinueOnError)
	part.SetOutput(fs.Output())
	fs.VisitAll(func(f *flag.Flag) {
		if keep(f.Name) {
			part.Var(f.Value, f.Name, f.Usage)
			part.Lookup(f.Name).DefValue = f.DefValue
		}
	})
	part.PrintDefaults()
}

const sweepUsage = `Usage: gcperf sweep [sweep flags] [run flags] [OP [-param value ...] ...]
       gcperf sweep -merge [-slo bounds] [-out dir] DIR...

Runs a benchmark once per setting of a grid of GOGC × GOMEMLIMIT (×
GOMAXPROCS), each repeat of each point in a fresh child process (this same
executable) with the setting in its environment, checks that the child's
runtime applied it, and prints one row per point: the figures are medians over
the repeats, * marks the Pareto frontier of P99 against peak RSS, and with
-slo the advice names the setting with the lowest peak RSS that meets the SLO
on every repeat.

The benchmark is gcperf's alloc.list (-size, -base, -chunk) or, when
operations follow the flags or -mix names a file of them, gcperf run's mix.
The run flags you set are passed to every child as given. A point that fails
(exits non-zero, is killed, exceeds -point-timeout or -point-memory) is
recorded with its reason and the sweep goes on; the exit status is then 1.
Interrupt stops the running point (its result is not kept) and prints the
table of the finished ones (exit status 1); interrupts while the table is
written do not stop it. The finished points stay in -out: -resume finishes
the sweep, with the flags it recorded there.

-shard i/n runs a part of the grid (in a batch job, say); gcperf sweep -merge
joins the shards' directories into one sweep.

  gcperf sweep -gogc 50,100,200,off -size 64 -runs 200 -count 3 -slo p99=5ms -out sweep/
  gcperf sweep -gogc 100,off -memlimit off,256MiB,1GiB -runs 1000 spin -d 10us
  gcperf sweep -merge -slo p99=5ms shard-0 shard-1

`

// sweepCmd is gcperf sweep.
func sweepCmd(args []string, stdout, stderr io.Writer, sig <-chan os.Signal) int {
	return sweepWith(time.Now(), args, false, stdout, stderr, sig)
}

// nonDefining are the sweep's flags that do not change what it measures:
// a resumed sweep may give them anew, and its plan does not record them.
// (-mix is not recorded either: its operations are.)
var nonDefining = map[string]bool{
	"resume": true, "out": true, "overwrite": true, "q": true, "html": true, "slo": true,
	"point-timeout": true, "point-memory": true, "mix": true, "merge": true,
}

// parseSweep parses gcperf sweep's command line. The run flags are gcperf's
// unless operations follow them: a first parse with gcperf's, which hold
// gcperf run's, finds out. code is -1 when the caller should go on.
func parseSweep(args []string, stdout, stderr io.Writer) (fs *flag.FlagSet, o *benchOptions, sf *sweepFlags, sizes []*int, code int) {
	fs, o, sf, sizes = newSweepFlags(true)
	if code := parseFlags(fs, args, stdout, stderr); code >= 0 {
		return nil, nil, nil, nil, code
	}
	if (fs.NArg() > 0 || sf.mix != "") && !sf.merge {
		fs, o, sf, sizes = newSweepFlags(false)
		if code := parseFlags(fs, args, stdout, stderr); code >= 0 {
			return nil, nil, nil, nil, code
		}
	}
	return fs, o, sf, sizes, -1
}

// sweepWith is gcperf sweep; adopted is set when args are a resumed sweep's
// plan with the command line's own flags, so that it never adopts twice.
func sweepWith(began time.Time, args []string, adopted bool, stdout, stderr io.Writer, sig <-chan os.Signal) int {
	fs, o, sf, sizes, code := parseSweep(args, stdout, stderr)
	if code >= 0 {
		return code
	}
	var set []*flag.Flag
	fs.Visit(func(f *flag.Flag) { set = append(set, f) })
	for _, f := range set {
		if why, ok := notInSweep[f.Name]; ok {
			return fail(stderr, usagef("-%s is not for a sweep: %s", f.Name, why))
		}
	}
	slo, err := sweep.ParseSLO(sf.slo)
	if err != nil {
		return fail(stderr, usagef("%v", err))
	}
	if sf.merge {
		for _, f := range set {
			if f.Name != "merge" && f.Name != "slo" && f.Name != "out" && f.Name != "overwrite" && f.Name != "html" {
				return fail(stderr, usagef("-%s does not apply to -merge: the directories hold their sweeps", f.Name))
			}
		}
		return sweepMerge(fs.Args(), o.outDir, *o.out["html"], o.overwrite, slo, sf.slo != "", stdout, stderr)
	}

	// Every sweep value, then the run flags, before anything runs.
	plan, err := sf.plan(o)
	if err != nil {
		return fail(stderr, err)
	}
	plan.sloSet = sf.slo != ""
	plan.html, plan.overwrite = *o.out["html"], o.overwrite
	plan.quiet = o.quiet
	plan.slo = slo
	if err := o.finish(fs); err != nil {
		return fail(stderr, err)
	}
	var mix workload.Mix
	hint := ""
	if sizes != nil {
		l, err := alloc.NewList(*sizes[0], *sizes[1], *sizes[2])
		if err != nil {
			return fail(stderr, err)
		}
		mix = workload.Mix{l}
		hint = fmt.Sprintf("-size %d with -base %d and -chunk %d", *sizes[0], *sizes[1], *sizes[2])
	} else {
		plan.runner.Args = []string{"run"}
		// A mix file is read once, here: its operations go to every child
		// as arguments, so that the points run the same mix even if the
		// file changes during the sweep, and -resume, which compares the
		// children's command lines, reruns the points of an edited one.
		if mix, plan.runner.Ops, err = loadMix(sf.mix, fs.Args()); err != nil {
			return fail(stderr, err)
		}
	}
	if err := o.cfg.Validate(len(mix)); err != nil {
		return fail(stderr, err)
	}
	// What the sweep measures, as its plan records it: -resume compares it
	// with the directory's, or takes the directory's.
	var defining []string
	for _, f := range set {
		if nonDefining[f.Name] || f.Value.String() == f.DefValue {
			continue
		}
		v := f.Value.String()
		if f.Name == "profile" {
			if abs, err := filepath.Abs(v); err == nil {
				v = abs
			}
		}
		defining = append(defining, "-"+f.Name+"="+v)
	}
	if sf.resume && !adopted {
		// The sweep in the directory, as its plan records it, with this
		// command line's own flags (-q, -slo, -point-timeout...); a flag
		// or operation that would measure something else is refused.
		rec, err := sweep.ReadPlan(o.outDir)
		if err != nil {
			return fail(stderr, resumeError(o.outDir, err))
		}
		for _, a := range rec.Args {
			// A plan records what the sweep measures, never where its files
			// go: a plan that says otherwise was not written by gcperf.
			name, _, _ := strings.Cut(strings.TrimLeft(a, "-"), "=")
			if strings.HasPrefix(a, "-") && nonDefining[name] {
				return fail(stderr, usagef("-resume -out %s: %s holds -%s, which no plan records: not a plan gcperf wrote",
					o.outDir, sweep.PlanFile, quote.Clip(name)))
			}
		}
		opsGiven := fs.NArg() > 0 || sf.mix != ""
		if msg := resumeDiff(set, plan.runner.Ops, opsGiven, rec.Args); msg != "" {
			return fail(stderr, usagef("-resume: %s the sweep in %s records (-resume -out %s alone finishes it with its own flags)",
				msg, o.outDir, o.outDir))
		}
		var own []string
		for _, f := range set {
			if nonDefining[f.Name] && f.Name != "mix" {
				own = append(own, "-"+f.Name+"="+f.Value.String())
			}
		}
		return sweepWith(began, slices.Concat(own, rec.Args), true, stdout, stderr, sig)
	}
	// The children's profiles, for the memory check only.
	if _, err := o.checkFootprint(mix, o.profileRequests(), hint); err != nil {
		return fail(stderr, err)
	}
	for _, f := range set {
		switch {
		case f.Name == "profile":
			// Each point profiles into a directory of its own, under one
			// checked now, before anything runs.
			d, err := filepath.Abs(f.Value.String())
			if err == nil {
				err = safefile.MakeDir(d)
			}
			if err != nil {
				return fail(stderr, usagef("-profile %s: %v", f.Value, err))
			}
			plan.runner.ProfileDir = d
		case !sweepOwn[f.Name]:
			plan.runner.Args = append(plan.runner.Args, "-"+f.Name+"="+f.Value.String())
		}
	}
	exe, err := os.Executable()
	if err != nil {
		return fail(stderr, fmt.Errorf("sweep: cannot find this executable to run the points: %w", err))
	}
	if err := plan.checkOutputs(o.outDir); err != nil {
		return fail(stderr, err)
	}
	// Last: the directory is created.
	dir, err := sweepDir(o.outDir, sf.resume || o.overwrite, "-resume finishes the sweep there, -overwrite runs it again")
	if err != nil {
		return fail(stderr, err)
	}
	if err := sweep.WritePlan(dir, sweep.Plan{Args: slices.Concat(defining, plan.runner.Ops)}); err != nil {
		return fail(stderr, fmt.Errorf("sweep: %v", err))
	}
	return plan.run(began, exe, dir, stdout, stderr, sig)
}

// resumeError says why -resume cannot read the plan of dir.
func resumeError(dir string, err error) error {
	if !errors.Is(err, sweep.ErrNoPlan) {
		return usagef("-resume: %v", err)
	}
	if _, serr := os.Stat(filepath.Join(dir, sweep.SummaryFile)); serr == nil {
		return usagef("-resume -out %s: the sweep there has no %s (an earlier gcperf wrote it): run it again with -overwrite", dir, sweep.PlanFile)
	}
	return usagef("-resume -out %s: no sweep to finish there (no %s)", dir, sweep.PlanFile)
}

// resumeDiff says how the flags set on a -resume command line, and its
// operations ops when opsGiven, differ from the sweep recorded as rec
// ("" when they ask for nothing else): the first flag whose value differs
// from the recorded one (a flag not given takes the recorded value), or
// the operations.
func resumeDiff(set []*flag.Flag, ops []string, opsGiven bool, rec []string) string {
	recFS, _, _, _, code := parseSweep(rec, io.Discard, io.Discard)
	if code >= 0 {
		return fmt.Sprintf("%s cannot be read as a sweep's flags:", quote.Clip(strings.Join(rec, " ")))
	}
	for _, f := range set {
		if nonDefining[f.Name] {
			continue
		}
		r := recFS.Lookup(f.Name)
		if r == nil {
			return fmt.Sprintf("-%s is not a flag of the benchmark", f.Name)
		}
		v, rv := f.Value.String(), r.Value.String()
		if f.Name == "profile" {
			if abs, err := filepath.Abs(v); err == nil {
				v = abs
			}
		}
		if v != rv {
			shown := func(s string) string {
				if s == "" {
					return `""`
				}
				return quote.Clip(s)
			}
			return fmt.Sprintf("-%s %s differs from the -%s %s that", f.Name, shown(v), f.Name, shown(rv))
		}
	}
	if opsGiven && !slices.Equal(ops, recFS.Args()) {
		what := "gcperf's alloc.list"
		if len(recFS.Args()) > 0 {
			what = strings.Join(recFS.Args(), " ")
		}
		return fmt.Sprintf("the operations %s differ from the operations (%s) that", quote.Clip(strings.Join(ops, " ")), quote.Clip(what))
	}
	return ""
}

// sweepPlan is a validated sweep.
type sweepPlan struct {
	grid      sweep.Grid
	points    []sweep.Point
	shard     string // "i/n", "" for the whole grid
	memNote   string // how the memory cap was chosen
	slo       sweep.SLO
	sloSet    bool
	html      string // -html FILE: the sweep's page, besides sweep.html in the directory
	overwrite bool   // -overwrite: replace an existing -html FILE
	quiet     bool   // -q: no progress bar
	runner    sweep.Runner
}

// plan checks the sweep's flags.
func (sf *sweepFlags) plan(o *benchOptions) (*sweepPlan, error) {
	p := &sweepPlan{}
	var err error
	if p.grid.GOGC, err = sweep.ParseGOGC(sf.gogc); err != nil {
		return nil, usagef("%v", err)
	}
	if p.grid.MemLimit, err = sweep.ParseMemLimit(sf.memlimit); err != nil {
		return nil, usagef("%v", err)
	}
	if sf.gomaxprocs != "" {
		if p.grid.GOMAXPROCS, err = sweep.ParseGOMAXPROCS(sf.gomaxprocs); err != nil {
			return nil, usagef("%v", err)
		}
	}
	p.points = p.grid.Points()
	r := &p.runner
	if sf.count < 1 {
		return nil, usagef("-count must be at least 1, got %d", sf.count)
	}
	r.Count = sf.count
	if sf.shard != "" {
		if r.Shard, r.Shards, err = sweep.ParseShard(sf.shard); err != nil {
			return nil, usagef("%v", err)
		}
		p.shard = fmt.Sprintf("%d/%d", r.Shard, r.Shards)
		if r.Shards > len(p.points) {
			return nil, usagef("-shard %s: the grid has %d points, fewer than %d shards", sf.shard, len(p.points), r.Shards)
		}
	}
	r.Timeout = sf.pointTimeout
	if r.MemCap, p.memNote, err = sweep.ParseMemCap(sf.pointMemory, "/"); err != nil {
		return nil, usagef("%v", err)
	}
	if r.MemCap > 0 && runtime.GOOS != "linux" {
		r.MemCap, p.memNote = 0, "no memory cap: a child's RSS is read from Linux's /proc"
	}
	switch {
	case sf.resume && o.overwrite:
		return nil, usagef("-resume and -overwrite exclude each other: -resume keeps the complete results in -out, -overwrite runs every point again")
	case sf.resume && o.outDir == "":
		return nil, usagef("-resume needs -out, the directory of the sweep to finish")
	}
	r.Resume = sf.resume
	return p, nil
}

// sweepDir checks -out and creates it (sweep.PrepareDir): a new temporary
// directory when not given, else an empty or missing one unless keep (a
// resumed or overwritten sweep). notEmpty says what to do about a -out that
// is not empty.
func sweepDir(dir string, keep bool, notEmpty string) (string, error) {
	if dir == "-" {
		return "", usagef("-out -: a sweep writes a directory of files")
	}
	d, err := sweep.PrepareDir(dir, keep)
	switch {
	case errors.Is(err, sweep.ErrNotEmpty):
		return "", usagef("-out %s: not empty (%s)", dir, notEmpty)
	case err != nil && dir == "":
		return "", fmt.Errorf("%w (give -out)", err)
	case err != nil:
		return "", usagef("-out %s: %v", dir, err)
	}
	return d, nil
}

// run runs the sweep and writes its table and files.
func (p *sweepPlan) run(began time.Time, exe, dir string, stdout, stderr io.Writer, sig <-chan os.Signal) int {
	stderr = &lockedWriter{w: stderr}
	r := &p.runner
	r.Exe, r.Dir, r.Stderr, r.ProcRoot = exe, dir, stderr, "/"
	r.Env = sweep.ChildEnv(os.Environ(), p.grid)
	stop := make(chan struct{})
	r.Stop = stop
	// The runner says so on its progress line when it stops a point; there
	// is nothing more to cancel after that.
	in := interrupt.Watch(sig, stderr, func() { close(stop) }, nil, true)
	defer in.Close()

	n := 0
	for _, pt := range p.points {
		if r.Shards <= 1 || pt.InShard(r.Shard, r.Shards) {
			n++
		}
	}
	of := ""
	if p.shard != "" {
		of = fmt.Sprintf(" (shard %s of %d)", p.shard, len(p.points))
	}
	timeout := "no point timeout"
	switch {
	case r.Timeout == sweep.AutoTimeout:
		timeout = "point timeout auto (-point-timeout)"
	case r.Timeout > 0:
		timeout = "point timeout " + r.Timeout.String()
	}
	fmt.Fprintf(stderr, "gcperf: sweep: %d %s%s × %d %s into %s; %s; %s\n", n, plural(n, "point", "points"), of,
		r.Count, plural(r.Count, "repeat", "repeats"), dir, p.memNote, timeout)

	// The bar of the points, on a terminal without -q: the per-point
	// lines go through it, above it (see progress.Sweep).
	var bar *progress.Sweep
	if !p.quiet {
		bar = newSweepProgress(stderr, n*r.Count, stderrIsTerminal)
	}
	if bar != nil {
		r.Stderr, r.Progress = bar, bar.Progress
		bar.Start()
	}
	outs, err, ok := interrupt.Unless(in.Abort(), func() ([]sweep.Outcome, error) { return r.Run(context.Background(), p.points) })
	if bar != nil {
		bar.End()
	}
	if !ok || !in.Enter(interrupt.Writing) {
		// Each finished point's result is in dir already: -resume finds it.
		safefile.RemoveTemps()
		fmt.Fprintf(stderr, "gcperf: sweep: exiting without the table; the finished points are in %s (-resume -out %s runs the rest)\n", dir, dir)
		return interrupt.ExitAborted
	}
	interrupted := errors.Is(err, sweep.ErrInterrupted)
	if err != nil && !interrupted {
		return fail(stderr, err)
	}
	rows := sweep.Summarize(outs)
	sweep.MarkFrontier(rows)
	var adv *sweep.Advice
	if p.sloSet && !interrupted && p.shard == "" {
		a := sweep.Advise(rows, outs, p.slo)
		adv = &a
	}
	code := exitOK
	if werr := sweep.Table(stdout, rows, adv); werr != nil {
		fmt.Fprintf(stderr, "gcperf: writing the table: %v\n", werr)
		code = exitFail
	}
	sum := &sweep.Summary{Grid: p.grid, Count: r.Count, Shard: p.shard, Outcomes: outs, Rows: rows, Advice: adv}
	written, werr := writeSweep(dir, p.html, p.overwrite, sum, stdout)
	if werr != nil {
		fmt.Fprintf(stderr, "gcperf: sweep: %v\n", oneLine(werr))
		code = exitFail
	}
	var children time.Duration
	failed := 0
	for _, o := range outs {
		children += o.Wall
		if o.Failed != "" {
			failed++
		}
	}
	wall := time.Since(began)
	if children > 0 {
		note := ""
		if interrupted {
			note = "; the stopped point's time counts as the sweep's"
		}
		fmt.Fprintf(stdout, "\nsweep overhead: %.2f (wall %s, children %s%s)\n", wall.Seconds()/children.Seconds(),
			wall.Round(10*time.Millisecond), children.Round(10*time.Millisecond), note)
	} else {
		fmt.Fprintf(stdout, "\nsweep overhead: none measured: no point ran (wall %s)\n", wall.Round(10*time.Millisecond))
	}
	switch {
	case len(written) == 0:
		fmt.Fprintf(stderr, "gcperf: sweep: the points' results are in %s; none of the sweep's own files could be written\n", dir)
	case slices.Contains(written, sweep.BenchFile):
		fmt.Fprintf(stderr, "gcperf: sweep: results in %s: %s (benchstat -col /gogc %s)\n",
			dir, strings.Join(written, ", "), filepath.Join(dir, sweep.BenchFile))
	default:
		fmt.Fprintf(stderr, "gcperf: sweep: results in %s: %s\n", dir, strings.Join(written, ", "))
	}
	switch {
	case p.sloSet && p.shard != "":
		fmt.Fprintln(stderr, "gcperf: sweep: no advice for one shard: gcperf sweep -merge -slo ... gives it over the merged shards")
	case p.sloSet && interrupted:
		fmt.Fprintln(stderr, "gcperf: sweep: no advice for an interrupted sweep")
	}
	if interrupted {
		fmt.Fprintf(stderr, "gcperf: sweep: interrupted: %d finished %s kept; -resume -out %s runs the rest\n",
			len(outs), plural(len(outs), "repeat", "repeats"), dir)
		code = exitFail
	}
	if failed > 0 {
		fmt.Fprintf(stderr, "gcperf: sweep: %d of %d %s failed\n", failed, len(outs), plural(len(outs), "repeat", "repeats"))
		code = exitFail
	}
	if in.Interrupted() {
		code = exitFail // while the table was written: it was, whole
	}
	return code
}

// writeSweep writes a sweep's own files to dir (sweep.WriteDir), when dir
// is not "", and with html (-html FILE, - for stdout) its page there too. It
// returns the names, in dir, of the files it wrote, and every error, each
// naming its file.
func writeSweep(dir, page string, overwrite bool, s *sweep.Summary, stdout io.Writer) ([]string, error) {
	var written []string
	var errs []error
	if dir != "" { // -merge without -out writes the -html page only
		var err error
		written, err = sweep.WriteDir(dir, s, html.Sweep)
		errs = append(errs, err)
	}
	if page != "" {
		if err := safefile.Write(page, stdout, overwrite, func(w io.Writer) error { return html.Sweep(w, s) }); err != nil {
			errs = append(errs, fmt.Errorf("-html %s", outputError(err)))
		}
	}
	return written, errors.Join(errs...)
}

// checkOutputs refuses, before the sweep runs, an -html FILE that could
// not be written at the end (it exists without -overwrite, it is not a
// regular file, its directory is missing) or that is one of the files the
// sweep writes in dir (its summary, a point's result or log).
func (p *sweepPlan) checkOutputs(dir string) error {
	var outs []safefile.Output
	if p.html != "" && p.html != "-" {
		outs = append(outs, safefile.Output{Label: "-html " + p.html, Path: p.html})
	}
	if dir != "" {
		for _, name := range sweep.Files(p.points, p.runner.Count) {
			path := filepath.Join(dir, name)
			outs = append(outs, safefile.Output{Label: "-out " + dir + ": " + path, Path: path, Replace: true})
		}
	}
	if err := safefile.Check(outs, p.overwrite, safefile.Output{Label: "-out " + dir, Path: dir}); err != nil {
		return usagef("%s", outputError(err))
	}
	return nil
}

// sweepMerge is gcperf sweep -merge DIR...: it joins the sweeps of the
// directories, prints the table (and the advice with -slo), and with -out
// writes a sweep directory holding the merged results.
func sweepMerge(dirs []string, out, page string, overwrite bool, slo sweep.SLO, sloSet bool, stdout, stderr io.Writer) int {
	if len(dirs) == 0 {
		return fail(stderr, usagef("-merge needs the directories to merge: gcperf sweep -merge DIR..."))
	}
	if out != "" {
		ost, oerr := os.Stat(out)
		for _, d := range dirs {
			dst, derr := os.Stat(d)
			if filepath.Clean(d) == filepath.Clean(out) || oerr == nil && derr == nil && os.SameFile(ost, dst) {
				return fail(stderr, usagef("-out %s is one of the directories to merge", out))
			}
		}
	}
	if err := (&sweepPlan{html: page, overwrite: overwrite}).checkOutputs(out); err != nil {
		return fail(stderr, err)
	}
	s, err := sweep.Merge(dirs...)
	if err != nil {
		return fail(stderr, usagef("-merge: %v", oneLine(err)))
	}
	// Advice over part of the grid could name a setting that a missing
	// point beats: as a live single-shard sweep, an incomplete merge gives none.
	if sloSet && s.Complete() {
		a := sweep.Advise(s.Rows, s.Outcomes, slo)
		s.Advice = &a
	}
	if out != "" {
		if _, err := sweepDir(out, overwrite, "-overwrite replaces its files"); err != nil {
			return fail(stderr, err)
		}
		// The results are copied, so that the merged directory is a sweep
		// like any other (gcperf sweep -merge takes it again).
		if err := sweep.CopyResults(s, out); err != nil {
			return fail(stderr, err)
		}
	}
	code := exitOK
	if err := sweep.Table(stdout, s.Rows, s.Advice); err != nil {
		fmt.Fprintf(stderr, "gcperf: writing the table: %v\n", err)
		code = exitFail
	}
	if out != "" || page != "" {
		if _, err := writeSweep(out, page, overwrite, s, stdout); err != nil {
			fmt.Fprintf(stderr, "gcperf: sweep: %v\n", oneLine(err))
			code = exitFail
		}
	}
	if out != "" {
		fmt.Fprintf(stderr, "gcperf: sweep: merged into %s\n", out)
	}
	switch {
	case s.Shard != "":
		fmt.Fprintf(stderr, "gcperf: sweep: the directories hold shard %s only: the grid is not complete, so no advice\n", s.Shard)
		code = exitFail
	case !s.Complete():
		fmt.Fprintf(stderr, "gcperf: sweep: %d of the grid's %d repeats are in the directories (an interrupted sweep?): no advice; -resume finishes it\n",
			len(s.Outcomes), len(s.Grid.Points())*s.Count)
		code = exitFail
	}
	failed := 0
	for _, o := range s.Outcomes {
		if o.Failed != "" {
			failed++
		}
	}
	if failed > 0 {
		fmt.Fprintf(stderr, "gcperf: sweep: %d of %d repeats failed\n", failed, len(s.Outcomes))
		code = exitFail
	}
	return code
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// pointTimeout is -point-timeout's value: a positive duration, off (0), or
// auto (sweep.AutoTimeout).
type pointTimeout time.Duration

func (t *pointTimeout) String() string {
	switch d := time.Duration(*t); {
	case d == sweep.AutoTimeout:
		return "auto"
	case d == 0:
		return "off"
	default:
		return d.String()
	}
}

func (t *pointTimeout) Set(s string) error {
	switch s {
	case "auto":
		*t = pointTimeout(sweep.AutoTimeout)
		return nil
	case "off", "0":
		*t = 0
		return nil
	}
	d, err := time.ParseDuration(s)
	switch {
	case err != nil:
		return errors.New("not a duration (30m), off or auto")
	case d <= 0:
		return errors.New("must be positive, off or auto")
	}
	*t = pointTimeout(d)
	return nil
}
