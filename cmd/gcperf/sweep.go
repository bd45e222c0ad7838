package main

import (
	_ "embed"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gcperf/gcperf/alloc"
	"github.com/gcperf/gcperf/bench"
	"github.com/gcperf/gcperf/internal/figure"
	"github.com/gcperf/gcperf/internal/quote"
	"github.com/gcperf/gcperf/internal/safefile"
	"github.com/gcperf/gcperf/report"
	"github.com/gcperf/gcperf/report/html"
	"github.com/gcperf/gcperf/sweep"
	"github.com/gcperf/gcperf/target"
	"github.com/gcperf/gcperf/workload"
)

// sweepFlags is gcperf sweep's command line, composed of groups: every
// flag is in fs, which parses them, and in one group, which says what it
// is for.
type sweepFlags struct {
	fs *flag.FlagSet
	// defining are the sweep's own flags that change what it measures,
	// loose those that do not (a resumed sweep may give them anew, its
	// plan does not record them); neither is passed to a child.
	defining, loose *flag.FlagSet
	// refused are the run flags a sweep cannot take, each one's usage
	// saying why; the other run flags go to every child.
	refused *flag.FlagSet

	o                          *benchFlags
	sizes                      []*int // alloc.list's -size, -base, -chunk; nil for gcperf run's mix
	gogc, memlimit, gomaxprocs string
	count                      int
	pointTimeout               timeoutValue
	pointMemory, slo, shard    string
	resume, merge              bool
	mix                        string // -mix: read by the sweep, its operations passed to the children
}

// sweepRefused are the run flags a sweep cannot take, and why: every
// format's own flag but -html (the sweep's page), the streams (-runlog,
// -hlog: every child would write the same file), -v, -http, and the
// single-file profiles (added in newSweepFlags).
func sweepRefused() [][2]string {
	why := map[string]string{
		"json":  "each point writes its JSON result to -out DIR",
		"csv":   "the sweep writes sweep.csv to -out DIR",
		"bench": "the sweep writes bench.txt, every point in the Go benchmark format, to -out DIR",
	}
	var refused [][2]string
	for _, f := range bench.Formats {
		if f.Name == "text" || f.Name == "html" {
			continue
		}
		w := why[f.Name]
		if w == "" {
			w = "the points' results are JSON files in -out DIR (gcperf report -format " + f.Name + " renders one)"
		}
		refused = append(refused, [2]string{f.Name, w})
	}
	for _, p := range profileFlags {
		refused = append(refused, [2]string{p.Flag, "-profile DIR profiles every point, each under DIR/POINT/"})
	}
	return append(refused,
		[2]string{"http", "the points run one after another in child processes: serve one with gcperf run -http"},
		[2]string{"http-public", "the points run one after another in child processes: serve one with gcperf run -http"},
		[2]string{"v", "the children's output goes to their .log files in -out DIR"},
		[2]string{"show-runs", "the children's output goes to their .log files in -out DIR"},
		[2]string{"runlog", "every point would stream its runs to the same file: stream one point with gcperf run -runlog"},
		[2]string{"hlog", "every point would stream its runtimes to the same file: stream one point with gcperf run -hlog"},
		[2]string{"hlog-interval", "it goes with -hlog, which is not for a sweep"})
}

// newSweepFlags declares the sweep's flags and the run flags: gcperf's
// (alloc.list's -size, -base, -chunk, and its defaults) when list is set,
// else gcperf run's.
func newSweepFlags(list bool) *sweepFlags {
	sf := &sweepFlags{o: &benchFlags{}, pointTimeout: timeoutValue(sweep.AutoTimeout)}
	sf.fs = flag.NewFlagSet("sweep", flag.ContinueOnError)
	sf.defining = flag.NewFlagSet("sweep", flag.ContinueOnError)
	sf.loose = flag.NewFlagSet("sweep", flag.ContinueOnError)
	sf.refused = flag.NewFlagSet("sweep", flag.ContinueOnError)
	d, l := sf.defining, sf.loose
	d.StringVar(&sf.gogc, "gogc", "50,100,200,400", "GOGC `values`, comma-separated: off or a percentage")
	d.StringVar(&sf.memlimit, "memlimit", "off", "GOMEMLIMIT `values`, comma-separated: off or a size in Go's syntax (256MiB, 1GiB)")
	d.StringVar(&sf.gomaxprocs, "gomaxprocs", "", "GOMAXPROCS `values`, comma-separated, at most 1024, a third axis (default: not an axis; the children inherit it)")
	d.IntVar(&sf.count, "count", 1, "repeats of every point (at most 10000), interleaved: repeat 1 of every point, then repeat 2...")
	d.StringVar(&sf.shard, "shard", "", "run shard `i/n` of the grid: the points whose index mod n is i")
	l.Var(&sf.pointTimeout, "point-timeout", "stop a point that runs longer than `d`, recording it as failed: a duration, off, or auto: "+
		"10× the longest repeat that succeeded before it, at least 1m, and 30m until one has")
	l.StringVar(&sf.pointMemory, "point-memory", "80%", "stop a point whose RSS grows above `size` (4GiB), a percentage of the memory available (cgroup included), or off")
	l.StringVar(&sf.slo, "slo", "", "advise the setting with the lowest peak RSS that meets `bounds` on every repeat: p99=20ms, p999=, max=, throughput=; "+
		"with -- CMD: wall=30s, cpu=, pause-max=, a benchmark unit (sec/op=2ms, B/op=64KiB)")
	l.BoolVar(&sf.resume, "resume", false, "finish the sweep in -out DIR: run only the points without a complete result there")
	l.BoolVar(&sf.merge, "merge", false, "merge the sweeps in the directories given as arguments (shards) instead of running one")
	l.StringVar(&sf.mix, "mix", "", "read operations from `file` as gcperf run -mix does, before those given as arguments; "+
		"the sweep reads it once and passes its operations to every child as arguments")

	// The run flags: those the sweep takes as its own, those it refuses,
	// the rest for the children.
	run := flag.NewFlagSet("run", flag.ContinueOnError)
	def := workload.DefaultConfig()
	if list {
		def.Warmups, def.Runs = alloc.DefaultWarmup, alloc.DefaultRuns
	}
	sf.o.Register(run, def)
	// A server's flags, for the children of a sweep OP... -- SERVER:
	// -ready, -ready-timeout (the others the sweep sets, and refuses).
	// Declared for gcperf's flags too, which the first parse uses.
	var srv serverFlags
	srv.Register(run)
	if list {
		size, base, chunk := listFlags(run)
		sf.sizes = []*int{size, base, chunk}
	}
	for name, usage := range map[string]string{
		"out": "write the sweep to `dir`: one JSON result and .log per point and repeat, sweep.json, sweep.csv, bench.txt " +
			"(default: a new temporary directory); with -merge, where the merged sweep goes",
		"html":      "write the sweep's page (the table, the advice and its charts, as sweep.html in -out DIR) to `file` too",
		"overwrite": "run the sweep in a -out directory that is not empty, replacing its files",
		"q":         run.Lookup("q").Usage,
	} {
		l.Var(run.Lookup(name).Value, name, usage)
		l.Lookup(name).DefValue = run.Lookup(name).DefValue
	}
	for _, r := range sweepRefused() {
		sf.refused.Var(run.Lookup(r[0]).Value, r[0], r[1])
	}
	for _, group := range []*flag.FlagSet{d, l, sf.refused} {
		copyFlags(sf.fs, group, nil)
	}
	copyFlags(sf.fs, run, sf.forChild)
	sf.fs.Usage = func() {
		fmt.Fprint(sf.fs.Output(), sweepUsage)
		fmt.Fprintln(sf.fs.Output(), "Sweep flags:")
		printFlags(sf.fs, sf.isOwn)
		fmt.Fprintln(sf.fs.Output(), "\nRun flags, passed to every child (-json, -csv, -xml, -bench, -hgrm, -runlog, -hlog, -v, -http and the single-file\nprofiles are not for a sweep; -profile DIR gives each point its profiles under DIR/POINT/; the defaults shown are gcperf's,\nthose of gcperf run apply when operations follow):")
		printFlags(sf.fs, sf.forChild)
	}
	return sf
}

// isOwn reports whether name is one of the sweep's own flags;
// forChild whether it is a run flag passed to the children.
func (sf *sweepFlags) isOwn(name string) bool {
	return sf.defining.Lookup(name) != nil || sf.loose.Lookup(name) != nil
}

func (sf *sweepFlags) forChild(name string) bool {
	return !sf.isOwn(name) && sf.refused.Lookup(name) == nil
}

// copyFlags declares in dst the flags of src that keep selects (nil:
// all), with their values, usages and defaults.
func copyFlags(dst, src *flag.FlagSet, keep func(string) bool) {
	src.VisitAll(func(f *flag.Flag) {
		if dst.Lookup(f.Name) == nil && (keep == nil || keep(f.Name)) {
			dst.Var(f.Value, f.Name, f.Usage)
			dst.Lookup(f.Name).DefValue = f.DefValue
		}
	})
}

// printFlags prints the defaults of fs's flags that keep selects.
func printFlags(fs *flag.FlagSet, keep func(string) bool) {
	part := flag.NewFlagSet(fs.Name(), flag.ContinueOnError)
	part.SetOutput(fs.Output())
	copyFlags(part, fs, keep)
	part.PrintDefaults()
}

//go:embed help/sweep.txt
var sweepUsage string

// sweepCmd is gcperf sweep.
func sweepCmd(args []string, stdout, stderr io.Writer, sig <-chan os.Signal) int {
	return sweepWith(time.Now(), args, false, stdout, stderr, sig)
}

// parseSweep parses gcperf sweep's command line. The run flags are gcperf's
// unless operations follow them: a first parse with gcperf's, which hold
// gcperf run's, finds out. code is -1 when the caller should go on.
func parseSweep(args []string, stdout, stderr io.Writer) (sf *sweepFlags, code int) {
	sf = newSweepFlags(true)
	if code := parseFlags(sf.fs, args, stdout, stderr); code >= 0 {
		return nil, code
	}
	if (sf.fs.NArg() > 0 || sf.mix != "") && !sf.merge {
		sf = newSweepFlags(false)
		if code := parseFlags(sf.fs, args, stdout, stderr); code >= 0 {
			return nil, code
		}
	}
	return sf, -1
}

// sweepWith is gcperf sweep.
// fromOldPlan is set when args were rebuilt from the plan of an earlier
// gcperf (resumeOldPlan): the sweep resumes in -out and replaces that plan.
func sweepWith(began time.Time, args []string, fromOldPlan bool, stdout, stderr io.Writer, sig <-chan os.Signal) int {
	var server []string // the server after -- that the operations load, nil without one
	if i := slices.Index(args, "--"); i >= 0 {
		pre, code := parseSweep(args[:i], stdout, stderr)
		if code >= 0 {
			return code
		}
		if pre.fs.NArg() == 0 && pre.mix == "" {
			return sweepCommand(began, args[:i], args[i+1:], fromOldPlan, stdout, stderr, sig)
		}
		args, server = args[:i], append([]string{}, args[i+1:]...)
		if len(server) == 0 || server[0] == "" {
			return fail(stderr, usagef("no server after --"))
		}
		if why := sweep.GoBuildsFirst(server); why != "" {
			return fail(stderr, usagef("%s", why))
		}
	}
	sf, code := parseSweep(args, stdout, stderr)
	if code >= 0 {
		return code
	}
	var set []*flag.Flag
	sf.fs.Visit(func(f *flag.Flag) { set = append(set, f) })
	if err := sf.checkSet(set, server != nil); err != nil {
		return fail(stderr, err)
	}
	stderr = &lockedWriter{w: stderr}
	s, err := sf.newSession(stderr)
	if err != nil {
		return fail(stderr, err)
	}
	if sf.merge {
		return sf.mergeSweeps(s, set, stdout, stderr)
	}
	mix, ops, err := sf.benchmark(s, set, server)
	if err != nil {
		return fail(stderr, err)
	}
	switch {
	case fromOldPlan:
		s.FromOldPlan = true
	case sf.resume:
		err := sf.adopt(s, set, ops)
		if errors.Is(err, sweep.ErrOldPlan) {
			return sf.resumeOldPlan(began, set, sf.fs.NArg() > 0 || sf.mix != "" || server != nil, stdout, stderr, sig)
		}
		if err != nil {
			return fail(stderr, err)
		}
		return runSession(s, sf.o.Quiet, began, stdout, stderr, sig)
	}
	// The children's profiles, for the memory check only.
	if err := sf.o.checkMemory(mix); err != nil {
		return fail(stderr, err)
	}
	return runSession(s, sf.o.Quiet, began, stdout, stderr, sig)
}

// checkSet refuses the flags set that a sweep (of a server, withServer,
// or not) does not take.
func (sf *sweepFlags) checkSet(set []*flag.Flag, withServer bool) error {
	for _, f := range set {
		if r := sf.refused.Lookup(f.Name); r != nil {
			return usagef("-%s is not for a sweep: %s", f.Name, r.Usage)
		}
		switch f.Name {
		case "server-gogc", "server-memlimit", "server-memory", "server-log":
			if withServer {
				return usagef("-%s is not for a sweep: the grid sets the server's GOGC and GOMEMLIMIT, -point-memory its memory cap, and its log is in -out DIR", f.Name)
			}
		case "gomaxprocs":
			if withServer {
				return usagef("-gomaxprocs is not an axis of a server's sweep: set the server's GOMAXPROCS in its environment")
			}
		}
		if !withServer && (f.Name == "ready" || f.Name == "ready-timeout" || strings.HasPrefix(f.Name, "server-")) {
			return usagef("-%s goes with a server to load: gcperf sweep [flags] OP... -- SERVER [ARGS...]", f.Name)
		}
	}
	return nil
}

// mergeSweeps is gcperf sweep -merge DIR...: the flags set are those
// that apply to a merge.
func (sf *sweepFlags) mergeSweeps(s *sweep.Session, set []*flag.Flag, stdout, stderr io.Writer) int {
	for _, f := range set {
		if f.Name != "merge" && f.Name != "slo" && f.Name != "out" && f.Name != "overwrite" && f.Name != "html" {
			return fail(stderr, usagef("-%s does not apply to -merge: the directories hold their sweeps", f.Name))
		}
	}
	s.Dir = sf.o.Dir
	failed, err := s.Merge(sf.fs.Args(), stdout)
	return exitStatus(stderr, failed, err)
}

// benchmark checks every sweep value, then the run flags, into s, before
// anything runs: the grid, the children's options, their mix (alloc.list,
// or gcperf run's operations, ops with -- and the server when there is
// one).
func (sf *sweepFlags) benchmark(s *sweep.Session, set []*flag.Flag, server []string) (mix workload.Mix, ops []string, err error) {
	o := sf.o
	if err := sf.session(s); err != nil {
		return nil, nil, err
	}
	if err := o.Finish(sf.fs); err != nil {
		return nil, nil, err
	}
	if sf.sizes != nil {
		l, err := alloc.NewList(*sf.sizes[0], *sf.sizes[1], *sf.sizes[2])
		if err != nil {
			return nil, nil, err
		}
		mix = workload.Mix{l}
		o.memHint = fmt.Sprintf("-size %d with -base %d and -chunk %d", *sf.sizes[0], *sf.sizes[1], *sf.sizes[2])
	} else {
		s.Args = []string{"run"}
		// A mix file is read once, here: its operations go to every child
		// as arguments, so that the points run the same mix even if the
		// file changes during the sweep, and -resume, which compares the
		// plan's operations, refuses an edited one.
		if mix, s.Ops, err = loadMix(sf.mix, sf.fs.Args()); err != nil {
			return nil, nil, err
		}
	}
	if err := o.Options.Config.Validate(len(mix)); err != nil {
		return nil, nil, err
	}
	ops = s.Ops
	if server != nil {
		// What each child would refuse, said once before anything runs.
		if _, err := readyURL(sf.fs.Lookup("ready").Value.String(), s.Ops); err != nil {
			return nil, nil, err
		}
		if err := canStart(server[0]); err != nil {
			return nil, nil, err
		}
		s.Server = server
		ops = slices.Concat(s.Ops, []string{"--"}, server)
	}
	if f := sf.fs.Lookup("profile"); f != nil && slices.Contains(set, f) {
		s.ProfileDir = f.Value.String() // each point's profiles go under it
	}
	s.Args = append(s.Args, flagArgs(sf.fs, func(name string) bool { return name != "profile" && sf.forChild(name) })...)
	return mix, ops, nil
}

// newSession is the session of the sweep's own flags: its page, where its
// notices go, its SLO.
func (sf *sweepFlags) newSession(stderr io.Writer) (*sweep.Session, error) {
	s := &sweep.Session{HTML: sf.o.File("html"), Overwrite: sf.o.Options.Overwrite, Page: html.Sweep,
		Observe: func(e sweep.Event) { fmt.Fprintf(stderr, "gcperf: %s\n", sweepLine(e)) }}
	s.Label = func(field, path string) string { return sweepFileLabel(s, field, path) }
	if sf.slo != "" {
		slo, err := sweep.ParseSLO(sf.slo)
		if err != nil {
			return nil, inFlags(err)
		}
		s.SLO = &slo
	}
	return s, nil
}

// runSession prepares s and runs it, drawing the bar of the points on a
// terminal unless quiet: the per-point lines go through it, above it (see
// progress.Sweep).
func runSession(s *sweep.Session, quiet bool, began time.Time, stdout, stderr io.Writer, sig <-chan os.Signal) int {
	if err := s.Prepare(); err != nil {
		return fail(stderr, inFlags(err))
	}
	defer s.Close() // -out's lock, held from Prepare until the sweep's files are written
	if !quiet {
		s.Bar = newSweepProgress(stderr, s.Repeats(), "gcperf: sweep: points", stderrIsTerminal)
	}
	s.Announce()
	outs, in, err := runPoints(&s.Runner, s.Points(), sig, stderr, s.Bar)
	if errors.Is(err, errAborted) {
		s.Aborted()
		return exitAborted
	}
	defer in.Close()
	failed, err := s.Report(began, outs, err, stdout)
	return exitStatus(stderr, failed || in.Interrupted(), err) // interrupted while the table was written: it was, whole
}

// sweepCommand is gcperf sweep [flags] -- CMD [ARGS...], without
// operations before -- (sweepWith sends those to a server's sweep): the
// grid applies to CMD, which every point runs afresh (see
// sweep.Runner.Command).
func sweepCommand(began time.Time, args, argv []string, fromOldPlan bool, stdout, stderr io.Writer, sig <-chan os.Signal) int {
	sf := newSweepFlags(true)
	if code := parseFlags(sf.fs, args, stdout, stderr); code >= 0 {
		return code
	}
	if len(argv) == 0 || argv[0] == "" {
		return fail(stderr, usagef("no command after --"))
	}
	if why := sweep.GoBuildsFirst(argv); why != "" {
		return fail(stderr, usagef("%s", why))
	}
	var set []*flag.Flag
	sf.fs.Visit(func(f *flag.Flag) { set = append(set, f) })
	for _, f := range set {
		switch {
		case sf.refused.Lookup(f.Name) != nil:
			return fail(stderr, usagef("-%s is not for a sweep: %s", f.Name, sf.refused.Lookup(f.Name).Usage))
		case f.Name == "mix" || f.Name == "merge":
			return fail(stderr, usagef("-%s is not for a sweep over a command (-- %s)", f.Name, quote.Clip(argv[0])))
		case sf.forChild(f.Name) && f.Name != "out" && f.Name != "html" && f.Name != "overwrite" && f.Name != "q":
			return fail(stderr, usagef("-%s is a flag of gcperf's own benchmark, not of a sweep over a command: the command's flags go after -- %s", f.Name, quote.Clip(argv[0])))
		}
	}
	o := sf.o
	stderr = &lockedWriter{w: stderr}
	s, err := sf.newSession(stderr)
	if err != nil {
		return fail(stderr, err)
	}
	s.Command = &target.Command{Path: argv[0], Args: argv[1:]}
	if err := sf.session(s); err != nil {
		return fail(stderr, err)
	}
	s.Meta = report.Meta{Version: version, Command: slices.Concat([]string{"gcperf", "sweep"}, args, []string{"--"}, argv)}
	switch {
	case fromOldPlan:
		s.FromOldPlan = true
	case sf.resume:
		err := sf.adoptCommand(s, set, argv)
		if errors.Is(err, sweep.ErrOldPlan) {
			return sf.resumeOldPlan(began, set, true, stdout, stderr, sig)
		}
		if err != nil {
			return fail(stderr, err)
		}
	}
	return runSession(s, o.Quiet, began, stdout, stderr, sig)
}

// exitStatus is the exit status of a sweep that ran (Session.Run, Merge).
func exitStatus(stderr io.Writer, failed bool, err error) int {
	switch {
	case err != nil:
		return fail(stderr, inFlags(err))
	case failed:
		return exitFail
	}
	return exitOK
}

// value is f's value as a plan records it: -profile's directory absolute.
func (sf *sweepFlags) value(f *flag.Flag) string {
	v := f.Value.String()
	if f.Name == "profile" {
		if abs, err := filepath.Abs(v); err == nil {
			v = abs
		}
	}
	return v
}

// adopt makes s, the session of a -resume command line whose flags set
// are given, the sweep that -out's plan records, with this command line's
// loose flags (-q, -slo, -point-timeout...); a flag or operation that
// would measure something else is refused. ops are the operations given,
// with -- and the server.
func (sf *sweepFlags) adopt(s *sweep.Session, set []*flag.Flag, ops []string) error {
	dir := sf.o.Dir
	rec, err := sweep.ReadPlan(dir)
	if err != nil {
		return resumeError(dir, err)
	}
	for _, a := range rec.Args {
		// A plan records what the sweep measures, never where its files
		// go: a plan that says otherwise was not written by gcperf.
		name, _, _ := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if strings.HasPrefix(a, "-") && sf.loose.Lookup(name) != nil {
			return usagef("-resume -out %s: %s holds -%s, which no plan records: not a plan gcperf wrote",
				dir, sweep.PlanFile, quote.Clip(name))
		}
	}
	if msg := sf.resumeDiff(s, set, ops, rec); msg != "" {
		return usagef("-resume: %s the sweep in %s records (-resume -out %s alone finishes it with its own flags)", msg, dir, dir)
	}
	s.Grid, s.Count, s.Shard, s.Shards = rec.Grid, rec.Count, rec.Shard, rec.Shards
	s.Args, s.Ops, s.Server, s.ProfileDir = rec.Args, rec.Ops, rec.Server, rec.ProfileDir
	if len(rec.Command) > 0 {
		s.Command = &target.Command{Path: rec.Command[0], Args: rec.Command[1:]}
		s.Meta = report.Meta{Version: version, Command: slices.Concat([]string{"gcperf", "sweep", "-resume", "-out", dir}, []string{"--"}, rec.Command)}
	}
	if len(rec.Server) > 0 {
		if err := canStart(rec.Server[0]); err != nil {
			return err
		}
	}
	return nil
}

// adoptCommand is adopt for a -resume command line that gives the command
// after --: it finishes the sweep of that command, and refuses one of
// another command or of gcperf's own benchmark.
func (sf *sweepFlags) adoptCommand(s *sweep.Session, set []*flag.Flag, argv []string) error {
	dir := sf.o.Dir
	rec, err := sweep.ReadPlan(dir)
	if err != nil {
		return resumeError(dir, err)
	}
	given := quote.Clip(strings.Join(argv, " "))
	switch {
	case len(rec.Command) == 0:
		return usagef("-resume: the command %s differs from the benchmark (%s) that the sweep in %s records (-resume -out %s alone finishes it with its own flags)",
			given, quote.Clip(recordedOps(rec)), dir, dir)
	case !slices.Equal(argv, rec.Command):
		return usagef("-resume: the command %s differs from the command (%s) that the sweep in %s records (-resume -out %s alone finishes it with its own flags)",
			given, quote.Clip(strings.Join(rec.Command, " ")), dir, dir)
	}
	return sf.adopt(s, set, nil)
}

// recordedOps is what the sweep recorded as rec runs, as a person reads
// it: its command, its operations (and server), or gcperf's alloc.list.
func recordedOps(rec sweep.Plan) string {
	switch {
	case len(rec.Command) > 0:
		return "the command " + strings.Join(rec.Command, " ")
	case rec.Server != nil:
		return strings.Join(slices.Concat(rec.Ops, []string{"--"}, rec.Server), " ")
	case len(rec.Ops) > 0:
		return strings.Join(rec.Ops, " ")
	}
	return "gcperf's alloc.list"
}

// resumeOldPlan finishes the sweep in -out whose plan an earlier gcperf
// wrote as the sweep's arguments: the sweep they give, with this command
// line's loose flags (-resume, -out, -q, -slo...), resumes there and
// records its plan anew. A flag or operation given beside -resume would
// have to be compared with those arguments: it is refused.
func (sf *sweepFlags) resumeOldPlan(began time.Time, set []*flag.Flag, more bool, stdout, stderr io.Writer, sig <-chan os.Signal) int {
	dir := sf.o.Dir
	old, err := sweep.OldPlanArgs(dir)
	if err != nil {
		return fail(stderr, usagef("-resume: %v", err))
	}
	var own []string
	for _, f := range set {
		if sf.loose.Lookup(f.Name) == nil || f.Name == "mix" {
			return fail(stderr, usagef("-resume -out %s: the sweep there was planned by an earlier gcperf: -resume -out %s alone finishes it with its own flags", dir, dir))
		}
		own = append(own, "-"+f.Name+"="+f.Value.String())
	}
	if more {
		return fail(stderr, usagef("-resume -out %s: the sweep there was planned by an earlier gcperf: -resume -out %s alone finishes it with its own flags", dir, dir))
	}
	return sweepWith(began, slices.Concat(own, old), true, stdout, stderr, sig)
}

// resumeError says why -resume cannot read the plan of dir.
func resumeError(dir string, err error) error {
	switch {
	case errors.Is(err, sweep.ErrOldPlan):
		return err // resumeOldPlan's
	case !errors.Is(err, sweep.ErrNoPlan):
		return usagef("-resume: %v", err)
	}
	if _, serr := os.Stat(filepath.Join(dir, sweep.SummaryFile)); serr == nil {
		return usagef("-resume -out %s: the sweep there has no %s (an earlier gcperf wrote it): run it again with -overwrite", dir, sweep.PlanFile)
	}
	return usagef("-resume -out %s: no sweep to finish there (no %s)", dir, sweep.PlanFile)
}

// resumeDiff says how the flags set on a -resume command line, whose
// session is s, and its operations ops when given, differ from the sweep
// recorded as rec ("" when they ask for nothing else): the first flag
// whose value makes the plan another (a flag not given takes the recorded
// value, a flag given at its default value is the plan's default), or the
// operations.
func (sf *sweepFlags) resumeDiff(s *sweep.Session, set []*flag.Flag, ops []string, rec sweep.Plan) string {
	recFlags := newSweepFlags(len(rec.Ops) == 0) // the recorded sweep's flags, for their defaults
	shown := func(s string) string {
		if s == "" {
			return `""`
		}
		return quote.Clip(s)
	}
	for _, f := range set {
		if sf.loose.Lookup(f.Name) != nil {
			continue
		}
		r := recFlags.fs.Lookup(f.Name)
		if r == nil {
			return fmt.Sprintf("-%s is not a flag of the benchmark", f.Name)
		}
		want := withFlag(s, rec, f.Name, sf.value(f), r.DefValue)
		if want.Diff(rec) != "" {
			return fmt.Sprintf("-%s %s differs from the -%s %s that", f.Name, shown(sf.value(f)), f.Name, shown(recordedFlag(rec, f.Name, r.DefValue)))
		}
	}
	recOps := rec.Ops
	if rec.Server != nil {
		recOps = slices.Concat(rec.Ops, []string{"--"}, rec.Server)
	}
	if (sf.fs.NArg() > 0 || sf.mix != "") && (len(rec.Command) > 0 || !slices.Equal(ops, recOps)) {
		return fmt.Sprintf("the operations %s differ from the operations (%s) that", quote.Clip(strings.Join(ops, " ")), quote.Clip(recordedOps(rec)))
	}
	return ""
}

// withFlag is the plan rec with the part that flag name sets taken from
// s, the session of the command line that gives it as value; a child's
// flag given at its default value def is not in the plan's Args, as
// when it is not given.
func withFlag(s *sweep.Session, rec sweep.Plan, name, value, def string) sweep.Plan {
	switch name {
	case "gogc":
		rec.Grid.GOGC = s.Grid.GOGC
	case "memlimit":
		rec.Grid.MemLimit = s.Grid.MemLimit
	case "gomaxprocs":
		rec.Grid.GOMAXPROCS = s.Grid.GOMAXPROCS
	case "count":
		rec.Count = s.Count
	case "shard":
		rec.Shard, rec.Shards = 0, 0
		if s.Shards > 1 {
			rec.Shard, rec.Shards = s.Shard, s.Shards
		}
	case "profile":
		rec.ProfileDir = value
	default:
		args := slices.DeleteFunc(slices.Clone(rec.Args), func(a string) bool { return strings.HasPrefix(a, "-"+name+"=") })
		if i := slices.IndexFunc(rec.Args, func(a string) bool { return strings.HasPrefix(a, "-"+name+"=") }); i >= 0 || value != def {
			// In its place, or where a flag given anew goes: the plan
			// differs either way unless the value is the recorded one.
			if i < 0 {
				i = len(args)
			}
			args = slices.Insert(args, i, "-"+name+"="+value)
		}
		rec.Args = args
	}
	return rec
}

// recordedFlag is the value of flag name in the plan rec, def when the
// plan does not record it.
func recordedFlag(rec sweep.Plan, name, def string) string {
	switch name {
	case "gogc", "memlimit", "gomaxprocs":
		g := recGrid(rec.Grid)
		return g[name]
	case "count":
		return strconv.Itoa(rec.Count)
	case "shard":
		if rec.Shards > 1 {
			return fmt.Sprintf("%d/%d", rec.Shard, rec.Shards)
		}
		return ""
	case "profile":
		return rec.ProfileDir
	}
	for _, a := range rec.Args {
		if v, ok := strings.CutPrefix(a, "-"+name+"="); ok {
			return v
		}
	}
	return def
}

// recGrid is g's axes as the flags spell them.
func recGrid(g sweep.Grid) map[string]string {
	join := func(vs []string) string { return strings.Join(vs, ",") }
	var gogc, mem, procs []string
	for _, v := range g.GOGC {
		gogc = append(gogc, v.String())
	}
	for _, v := range g.MemLimit {
		mem = append(mem, v.String())
	}
	for _, n := range g.GOMAXPROCS {
		procs = append(procs, strconv.Itoa(n))
	}
	return map[string]string{"gogc": join(gogc), "memlimit": join(mem), "gomaxprocs": join(procs)}
}

// session checks the sweep's own flags into s.
func (sf *sweepFlags) session(s *sweep.Session) error {
	var err error
	if s.Grid.GOGC, err = sweep.ParseGOGC(sf.gogc); err != nil {
		return inFlags(err)
	}
	if s.Grid.MemLimit, err = sweep.ParseMemLimit(sf.memlimit); err != nil {
		return inFlags(err)
	}
	if sf.gomaxprocs != "" {
		if s.Grid.GOMAXPROCS, err = sweep.ParseGOMAXPROCS(sf.gomaxprocs); err != nil {
			return inFlags(err)
		}
	}
	s.Count = sf.count
	if sf.shard != "" {
		if s.Shard, s.Shards, err = sweep.ParseShard(sf.shard); err != nil {
			return inFlags(err)
		}
	}
	s.Timeout = time.Duration(sf.pointTimeout)
	if s.MemCap, s.MemNote, err = sweep.ParseMemCap(sf.pointMemory, "/"); err != nil {
		return inFlags(err)
	}
	s.Resume, s.Dir = sf.resume, sf.o.Dir
	return inFlags(s.Check())
}

// inFlags is err in gcperf sweep's words: a sweep.UsageError, which names
// the session's fields, says what it says about the flags that set them.
// Any other error is err.
func inFlags(err error) error {
	var ve *sweep.ValueError
	if errors.As(err, &ve) {
		return &usageError{msg: "-" + fieldFlags[ve.Field] + ": " + ve.Reason, err: err}
	}
	var ue *sweep.UsageError
	if !errors.As(err, &ue) {
		return err
	}
	var pe *sweep.PlanError
	var se *target.StartError
	switch ue.Field {
	case "Command":
		if errors.As(ue.Err, &se) {
			return &usageError{msg: fmt.Sprintf("cannot start %q: %v", ue.Value, se.Err), err: err}
		}
	case "ProfileDir":
		return &usageError{msg: fmt.Sprintf("-profile %s: %v", ue.Value, ue.Err), err: err}
	case "Count":
		return &usageError{msg: "-count " + ue.Err.Error(), err: err}
	case "Outputs":
		return &usageError{msg: safefile.WithOverwrite(ue.Err), err: err}
	case "Resume":
		switch {
		case errors.Is(ue.Err, sweep.ErrResumeOverwrite):
			return usagef("-resume and -overwrite exclude each other: -resume keeps the complete results in -out, -overwrite runs every point again")
		case errors.Is(ue.Err, sweep.ErrResumeNoDir):
			return usagef("-resume needs -out, the directory of the sweep to finish")
		case errors.As(ue.Err, &pe) && pe.Part == "program" && pe.Path != "":
			return usagef("-resume -out %s: the sweep there measured %s; the program it runs is now another, %s: run it again with -overwrite",
				ue.Value, pe.Recorded, pe.Given)
		case errors.As(ue.Err, &pe):
			return usagef("-resume -out %s: the sweep there records another %s: %s, not %s", ue.Value, pe.Part,
				quote.Clip(pe.Recorded), quote.Clip(pe.Given))
		}
		return &usageError{msg: "-resume: " + ue.Err.Error(), err: err}
	case "Shard":
		_, shards, _ := strings.Cut(ue.Value, "/")
		if errors.Is(ue.Err, sweep.ErrTooManyShards) {
			return usagef("-shard %s: the grid has %d points, fewer than %s shards", ue.Value, ue.Limit, shards)
		}
		return usagef("-shard %s: the index must be from 0 to %d", ue.Value, ue.Limit)
	case "Dir":
		return &usageError{msg: outDirText(ue), err: err}
	case "Dirs":
		if errors.Is(ue.Err, sweep.ErrNoDirs) {
			return usagef("-merge needs the directories to merge: gcperf sweep -merge DIR...")
		}
		return &usageError{msg: "-merge: " + quote.OneLine(ue.Err), err: err}
	}
	return err
}

// sweepLine is the line gcperf sweep prints for e, without "gcperf: ".
func sweepLine(e sweep.Event) string {
	switch e.Kind {
	case sweep.Started:
		of := ""
		if e.Shard != "" {
			of = fmt.Sprintf(" (shard %s of %d)", e.Shard, e.Of)
		}
		timeout := "no point timeout"
		switch {
		case e.Timeout == sweep.AutoTimeout:
			timeout = "point timeout auto (-point-timeout)"
		case e.Timeout > 0:
			timeout = "point timeout " + e.Timeout.String()
		}
		memNote := e.MemNote
		if memNote == "" && e.MemCap == 0 {
			memNote = "no memory cap"
		}
		return fmt.Sprintf("sweep: %d %s%s × %d %s into %s; %s; %s", e.Points, figure.Plural(e.Points, "point", "points"), of,
			e.Count, figure.Plural(e.Count, "repeat", "repeats"), e.Dir, memNote, timeout)
	case sweep.Aborted:
		return fmt.Sprintf("sweep: exiting without the table; the finished points are in %s (-resume -out %s runs the rest)", e.Dir, e.Dir)
	case sweep.TableFailed:
		return fmt.Sprintf("writing the table: %v", e.Err)
	case sweep.WriteFailed:
		return "sweep: " + quote.OneLine(e.Err)
	case sweep.Written:
		switch {
		case len(e.Files) == 0:
			return fmt.Sprintf("sweep: the points' results are in %s; none of the sweep's own files could be written", e.Dir)
		case slices.Contains(e.Files, sweep.BenchFile):
			return fmt.Sprintf("sweep: results in %s: %s (benchstat -col /gogc %s)", e.Dir, strings.Join(e.Files, ", "), filepath.Join(e.Dir, sweep.BenchFile))
		}
		return fmt.Sprintf("sweep: results in %s: %s", e.Dir, strings.Join(e.Files, ", "))
	case sweep.NoAdvice:
		switch {
		case errors.Is(e.Err, sweep.ErrOneShard) && e.Merge:
			return fmt.Sprintf("sweep: the directories hold shard %s only: the grid is not complete, so no advice", e.Shard)
		case errors.Is(e.Err, sweep.ErrOneShard):
			return "sweep: no advice for one shard: gcperf sweep -merge -slo ... gives it over the merged shards"
		case errors.Is(e.Err, sweep.ErrIncomplete):
			return fmt.Sprintf("sweep: %d of the grid's %d repeats are in the directories (an interrupted sweep?): no advice; -resume finishes it", e.Repeats, e.Of)
		}
		if errors.Is(e.Err, sweep.ErrCannotWrite) {
			return "sweep: no advice for a sweep stopped before its end"
		}
		return "sweep: no advice for an interrupted sweep"
	case sweep.Interrupted:
		return fmt.Sprintf("sweep: interrupted: %d finished %s kept; -resume -out %s runs the rest",
			e.Repeats, figure.Plural(e.Repeats, "repeat", "repeats"), e.Dir)
	case sweep.Stopped:
		return fmt.Sprintf("sweep: stopped: %v; %d finished %s kept; -resume -out %s runs the rest once there is room",
			strings.TrimPrefix(quote.OneLine(e.Err), "sweep: "), e.Repeats, figure.Plural(e.Repeats, "repeat", "repeats"), e.Dir)
	case sweep.RepeatsFailed:
		repeats := figure.Plural(e.Repeats, "repeat", "repeats")
		if e.Merge {
			repeats = "repeats"
		}
		return fmt.Sprintf("sweep: %d of %d %s failed", e.Failed, e.Repeats, repeats)
	case sweep.Merged:
		return "sweep: merged into " + e.Dir
	}
	return fmt.Sprintf("sweep: %+v", e)
}

// fieldFlags are the flags that set the fields a sweep.ValueError names.
var fieldFlags = map[string]string{"GOGC": "gogc", "MemLimit": "memlimit", "GOMAXPROCS": "gomaxprocs",
	"Shard": "shard", "SLO": "slo", "MemCap": "point-memory"}

// parseOne reads the one setting that a flag other than the sweep's grid
// gives (gcperf exec -gogc, gcperf run -server-memlimit) with a grid's
// parser (sweep.ParseGOGC, sweep.ParseMemLimit): "" for none. Its errors
// name flag.
func parseOne[T fmt.Stringer](flag, value string, parse func(string) ([]T, error)) (string, error) {
	if value == "" {
		return "", nil
	}
	v, err := parse(value)
	var ve *sweep.ValueError
	switch {
	case errors.As(err, &ve):
		return "", &usageError{msg: "-" + flag + ": " + ve.Reason, err: err}
	case err != nil:
		return "", err
	case len(v) != 1:
		return "", usagef("-%s takes one value, got %q", flag, quote.Clip(value))
	}
	return v[0].String(), nil
}

// outDirText is what a UsageError about the session's Dir says of -out.
func outDirText(ue *sweep.UsageError) string {
	switch {
	case ue.Value == "": // the temporary directory of a sweep without -out
		return fmt.Sprintf("%v (give -out)", ue.Err)
	case errors.Is(ue.Err, sweep.ErrDirStdout):
		return "-out -: a sweep writes a directory of files"
	case errors.Is(ue.Err, sweep.ErrMergeInto):
		return "-out " + ue.Value + " is one of the directories to merge"
	case errors.Is(ue.Err, sweep.ErrNotEmpty) && ue.Op == "merge":
		return "-out " + ue.Value + ": not empty (-overwrite replaces its files)"
	case errors.Is(ue.Err, sweep.ErrNotEmpty):
		return "-out " + ue.Value + ": not empty (-resume finishes the sweep there, -overwrite runs it again)"
	}
	return fmt.Sprintf("-out %s: %v", ue.Value, ue.Err)
}

// timeoutValue is -point-timeout, sweep.Runner.Timeout: a positive duration,
// "off" (0) or "auto" (sweep.AutoTimeout).
type timeoutValue time.Duration

func (t *timeoutValue) String() string {
	switch d := time.Duration(*t); {
	case d == sweep.AutoTimeout:
		return "auto"
	case d == 0:
		return "off"
	default:
		return d.String()
	}
}

func (t *timeoutValue) Set(s string) error {
	switch s {
	case "auto":
		*t = timeoutValue(sweep.AutoTimeout)
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
	*t = timeoutValue(d)
	return nil
}

// sweepFileLabel names a file of session s by the flag that set it, in
// errors: "-html page.html", "-out d", "-out d: d/sweep.json".
func sweepFileLabel(s *sweep.Session, field, path string) string {
	switch {
	case field == "HTML":
		return "-html " + path
	case path == s.Dir:
		return "-out " + path
	}
	return "-out " + s.Dir + ": " + path
}
