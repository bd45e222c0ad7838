package main

import (
	"errors"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"net/url"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/gcperf/gcperf/bench"
	"github.com/gcperf/gcperf/internal/quote"
	"github.com/gcperf/gcperf/internal/setting"
	"github.com/gcperf/gcperf/load"
	"github.com/gcperf/gcperf/profiles"
	"github.com/gcperf/gcperf/sweep"
	"github.com/gcperf/gcperf/target"
	"github.com/gcperf/gcperf/workload"
)

// benchFlags are a benchmark's command-line flags as gcperf, gcperf run
// and gcperf sweep spell them (-runs, -warmup, -json, -out, -cpuprofile,
// -profile, -http ...), filling bench.Options.
type benchFlags struct {
	// Options are the benchmark's, filled by Register's flags and Finish.
	Options bench.Options
	// Verbose (-v) asks for the full text report, ShowRuns (-show-runs)
	// for a line per run, Quiet (-q) for no progress bar: what the
	// command shows on its terminal.
	Verbose, ShowRuns, Quiet bool
	// Dir (-out) and ProfileDir (-profile) are the directories of every
	// format and every profile.
	Dir, ProfileDir string
	// Count (-count) runs the benchmark in Count fresh processes, one
	// after another (RunCount), when above 1.
	Count int

	files    map[string]*string // the format flags: -json, -csv, -xml, -bench, -hgrm, -html
	profile  map[profiles.Kind]*string
	norandom bool
	seed     int64
	haltErr  bool
	haltTime bool
	haltAny  bool
	gcstats  string
	rate     string
	// runlog and hlog are -runlog's and -hlog's files.
	runlog, hlog string
	// memHint names the flags that set the mix's memory (benchMemory).
	memHint string
}

// File is the file a format's own flag names (-html FILE), "" when not
// given.
func (f *benchFlags) File(format string) string {
	if p := f.files[format]; p != nil {
		return *p
	}
	return ""
}

// Register declares the flags on fs, with the defaults of def.
func (f *benchFlags) Register(fs *flag.FlagSet, def workload.Config) {
	c := &f.Options.Config
	fs.IntVar(&c.Warmups, "warmup", def.Warmups, "warmup runs of the mix before the timed runs, not recorded")
	fs.IntVar(&c.Runs, "runs", def.Runs, "timed runs of the mix")
	fs.IntVar(&c.Outliers, "outliers", def.Outliers, "best and worst runs discarded before the mean-based statistics")
	fs.DurationVar(&c.Duration, "duration", 0, "run the timed runs for `d` (such as 10m) instead of a count, at least one however short d: -runs is then the most, if given; open loop (-rate), the schedule is d long and ends at d however far behind it, the starts due and not made reported as skipped")
	fs.DurationVar(&c.WarmupDuration, "warmup-duration", 0, "run the warmups for `d` instead of a count: -warmup is then the most, if given")
	fs.IntVar(&c.KeepRuns, "keep-runs", workload.DefaultKeepRuns, "keep the per-run records (JSON and CSV runs, the timeline) of the first `N` timed runs; every statistic covers all runs, and memory does not grow beyond N (0: the default)")
	fs.IntVar(&c.Threads, "threads", def.Threads, "goroutines running whole mixes from one pool of runs")
	fs.DurationVar(&c.MaxDelay, "delay", def.MaxDelay, "random delay of 0..`d` between operations (never timed)")
	fs.DurationVar(&c.Timeout, "timeout", def.Timeout, "per-operation timeout `d` (0: none)")
	fs.Int64Var(&f.seed, "seed", 0, "seed of the random orders and delays (default: a random seed, printed)")
	fs.BoolVar(&f.norandom, "norandom", false, "run the operations in mix order instead of a random order")
	fs.IntVar(&c.Sample, "sample", 0, "run `N` operations drawn from the mix per run instead of each once")
	fs.BoolVar(&c.Repeats, "repeats", false, "with -sample, draw with repetition")
	fs.BoolVar(&f.haltErr, "halt-on-error", false, "stop at the first operation error or panic")
	fs.BoolVar(&f.haltTime, "halt-on-timeout", false, "stop at the first timeout")
	fs.BoolVar(&f.haltAny, "halt-any", false, "stop at the first failure of any kind")
	fs.StringVar(&f.gcstats, "gcstats", "run", "follow the collector: `mode` run (each run and the total, with the other causes of slow runs: page faults, context switches, scheduling waits; ~2µs between runs), total, or off")
	fs.BoolVar(&c.Pin, "pin", false, "lock each goroutine running the mix to its own OS thread, so that each run's page faults and context switches are its thread's, not the whole process's (which delays the wake-up of an operation that blocks: see README)")
	fs.DurationVar(&c.Hiccup, "hiccup", 0, "run a hiccup meter: a goroutine sleeping `d` at a time, recording how late it wakes (0: none)")
	fs.StringVar(&f.rate, "rate", "", "run open loop: start `R` operations per second across the threads on a fixed schedule (such as 200/s), reporting latency from each intended start beside the runtime (default: closed loop)")
	fs.IntVar(&f.Count, "count", 1, "run the benchmark `N` times (at most 10000), each in a fresh process, one after another, as go test -count does: "+
		"-bench then holds N lines per benchmark, the samples benchstat and gcperf compare need; -json every process's result, the text report each process's figures")
	fs.BoolVar(&f.Verbose, "v", false, "the full report: below the first screen, the settings in full, the statistics table, the collector's paragraph, "+
		"GCPerfP99's worst runs and the explanations, which -json, -csv, -xml and -html always hold (a line per run, which -v printed before: -show-runs)")
	fs.BoolVar(&f.ShowRuns, "show-runs", false, "print a line as each timed run starts and ends (on stderr)")
	fs.BoolVar(&f.Quiet, "q", false, "no progress bar (drawn on stderr when it is a terminal and -show-runs is not given)")
	f.files = map[string]*string{}
	var names []string
	for _, ff := range bench.Formats {
		if ff.Name != "text" {
			f.files[ff.Name] = fs.String(ff.Name, "", "write "+ff.Doc+" to `file` (- for stdout, the text report then going to stderr)")
		}
		names = append(names, ff.File)
	}
	fs.StringVar(&f.Dir, "out", "", "write every format to `dir`, created if missing: "+strings.Join(names, ", "))
	fs.BoolVar(&f.Options.Overwrite, "overwrite", false, "replace existing output files")
	fs.StringVar(&f.runlog, "runlog", "", "stream every timed run to `file` as it ends, one CSV line each (run, thread, start_ns, runtime_ns... and the GC figures and the other causes of slow runs), whatever -keep-runs keeps, as file.incomplete until the runs are over (- for stdout)")
	fs.StringVar(&f.hlog, "hlog", "", "stream the mix runtimes to `file` as an HdrHistogram interval log (.hlog, as jHiccup writes it: HistogramLogAnalyzer reads it), one histogram every -hlog-interval, as file.incomplete until the runs are over (- for stdout)")
	fs.DurationVar(&f.Options.HistogramLogInterval, "hlog-interval", bench.DefaultHistogramLogInterval, "the interval `d` of -hlog's histograms, at least 1ms; writing one allocates about 0.8MiB, so short intervals move the collector measured")

	f.profile = map[profiles.Kind]*string{}
	for _, p := range profileFlags {
		f.profile[p.Kind] = fs.String(p.Flag, "", "write "+p.Doc+" to `file`")
	}
	fs.StringVar(&f.ProfileDir, "profile", "", "write every profile to `dir`, created if missing: cpu.pprof, heap.pprof, block.pprof, mutex.pprof, trace.out, fgprof.pprof")
	fs.IntVar(&f.Options.ProfileRuns, "profile-runs", 0, "timed runs of the separate profiled pass (default: -runs)")
	fs.BoolVar(&f.Options.ProfileInline, "profile-inline", false, "profile the measured runs instead of a separate pass (the report then says its figures were taken under a profiler)")
	fs.StringVar(&f.Options.HTTP, "http", "", "serve net/http/pprof and a runtime/metrics snapshot on `addr` (such as 127.0.0.1:6060) during the run; loopback only unless -http-public")
	fs.BoolVar(&f.Options.HTTPPublic, "http-public", false, "let -http listen on an address other machines reach (0.0.0.0:6060, :6060): anyone who can connect reads the command line, heap and CPU profiles and goroutine stacks")
}

// profileFlags are the flags that ask for one profile each, named as go
// test names them.
var profileFlags = []struct {
	Flag string
	Kind profiles.Kind
	Doc  string
}{
	{"cpuprofile", profiles.CPU, "a CPU profile"},
	{"memprofile", profiles.Heap, "a heap profile, with allocations,"},
	{"blockprofile", profiles.Block, "a goroutine blocking profile"},
	{"mutexprofile", profiles.Mutex, "a mutex contention profile"},
	{"trace", profiles.Trace, "an execution trace"},
	{"fgprof", profiles.FGProf, "an fgprof wall-clock profile (pprof format)"},
}

// Finish derives Options from the parsed flags: the halt policy, the seed
// (a random one when -seed is not given), the outputs and profiles, -rate.
// The default of one outlier at each end does not apply to 1 or 2 runs.
func (f *benchFlags) Finish(fs *flag.FlagSet) error {
	g, err := workload.ParseGCStats(f.gcstats)
	if err != nil {
		return err
	}
	c := &f.Options.Config
	c.GCStats = g
	f.Options.Text.Verbose = f.Verbose
	if f.rate != "" {
		if c.Rate, err = parseRate(f.rate); err != nil {
			return err
		}
	}
	given := map[string]bool{}
	fs.Visit(func(fl *flag.Flag) { given[fl.Name] = true })
	if given["duration"] && !given["runs"] {
		c.Runs = 0 // as many as the time allows
	}
	if given["warmup-duration"] && !given["warmup"] {
		c.Warmups = 0
	}
	c.Random = !f.norandom
	if !given["outliers"] && c.Runs > 0 && 2*c.Outliers >= c.Runs {
		// The default of 1 cannot apply to 1 or 2 runs: keep them all
		// rather than refuse a value the user never gave.
		c.Outliers = (c.Runs - 1) / 2
	}
	c.Seed = f.seed
	if !given["seed"] {
		c.Seed = rand.Int64N(1 << 31) // short enough to retype
	}
	if f.haltErr {
		c.Halt |= workload.HaltOnError
	}
	if f.haltTime {
		c.Halt |= workload.HaltOnTimeout
	}
	if f.haltAny {
		c.Halt |= workload.HaltAny
	}
	if given["hlog-interval"] && f.hlog == "" {
		return flagError("hlog-interval", "goes with -hlog FILE")
	}
	if given["profile-runs"] && f.Options.ProfileRuns < 1 {
		return flagError("profile-runs", "must be at least 1, got %d", f.Options.ProfileRuns)
	}
	// Finish may be called again: what it derives starts afresh.
	f.Options.Outputs, f.Options.Profiles, f.Options.Dirs = nil, nil, nil
	f.Options.RunLog, f.Options.HistogramLog = stream("runlog", f.runlog), stream("hlog", f.hlog)
	if f.Count != 1 {
		return f.finishCount(given)
	}
	// The outputs: the format flags', then -out's.
	for _, ff := range bench.Formats {
		if p := f.files[ff.Name]; p != nil && *p != "" {
			f.Options.Outputs = append(f.Options.Outputs, bench.Output{Label: "-" + ff.Name + " " + *p, Path: *p, Format: ff})
		}
	}
	if f.Dir != "" {
		f.Options.Outputs = append(f.Options.Outputs, dirOutputs(f.Dir, "-out "+f.Dir)...)
		f.Options.Dirs = append(f.Options.Dirs, bench.File{Path: f.Dir, Label: "-out " + f.Dir, Lock: true})
	}
	// -profile DIR gives every kind under fixed names; a kind's own flag
	// overrides its file.
	for _, p := range dirProfiles(f.ProfileDir, "-profile "+f.ProfileDir) {
		own := false
		for _, pf := range profileFlags {
			if v := *f.profile[pf.Kind]; pf.Kind == p.Kind && v != "" {
				p, own = bench.Profile{Request: profiles.Request{Kind: pf.Kind, Path: v}, Label: "-" + pf.Flag + " " + v}, true
			}
		}
		if own || f.ProfileDir != "" {
			f.Options.Profiles = append(f.Options.Profiles, p)
		}
	}
	if f.ProfileDir != "" && len(f.Options.Profiles) > 0 {
		f.Options.Dirs = append(f.Options.Dirs, bench.File{Path: f.ProfileDir, Label: "-profile " + f.ProfileDir})
	}
	return nil
}

// stream is the file of a stream's flag (-runlog, -hlog), none for "".
func stream(flag, path string) bench.File {
	if path == "" {
		return bench.File{}
	}
	return bench.File{Path: path, Label: "-" + flag + " " + path}
}

// checkMemory checks that mix fits in memory (bench.Options.CheckMemory),
// its error naming the flags.
func (f *benchFlags) checkMemory(mix workload.Mix) error {
	_, err := f.Options.CheckMemory(mix)
	return benchError(err, f.memHint)
}

// parseRate reads -rate: operations per second, as "200/s" or "200".
func parseRate(s string) (float64, error) {
	r, err := strconv.ParseFloat(strings.TrimSuffix(s, "/s"), 64)
	if err != nil || r < 0 || math.IsNaN(r) || math.IsInf(r, 0) {
		return 0, usagef("-rate: %q is not operations per second such as 200/s", quote.Clip(s))
	}
	return r, nil
}

// processName is the name of process k's files without their extension:
// "process-2", as the sweep's Runner names them (sweep.Inherited).
func processName(k int) string {
	return strings.TrimSuffix(sweep.Inherited.FileName(k), ".json")
}

// finishCount derives the options of a benchmark of f.Count processes
// (-count): the outputs of every process's result, -out's files (countDirOutputs),
// each process's profiles under -profile DIR/process-N, for the checks.
// It refuses the flags of one process's files and terminal.
func (f *benchFlags) finishCount(given map[string]bool) error {
	n := f.Count
	if err := setting.CheckCount(n); err != nil {
		return &usageError{msg: "-count " + err.Error(), err: err}
	}
	for _, ff := range bench.Formats {
		p := f.files[ff.Name]
		switch {
		case p == nil || *p == "":
		case ff.WriteSet == nil:
			return flagError(ff.Name, "%s: one process's file, not for -count %d: -out DIR holds each process's (%s%s, ...)",
				quote.Clip(*p), n, processName(1), filepath.Ext(ff.File))
		default:
			f.Options.Outputs = append(f.Options.Outputs, bench.Output{Label: "-" + ff.Name + " " + *p, Path: *p, Format: ff})
		}
	}
	for _, pf := range profileFlags {
		if v := *f.profile[pf.Kind]; v != "" {
			return flagError(pf.Flag, "%s: one process's profile, not for -count %d: -profile DIR profiles each process under DIR/process-N/",
				quote.Clip(v), n)
		}
	}
	o := &f.Options
	switch {
	case f.runlog != "":
		return flagError("runlog", "%s: streams the runs of one process, not for -count %d", quote.Clip(f.runlog), n)
	case f.hlog != "":
		return flagError("hlog", "%s: streams the runtimes of one process, not for -count %d", quote.Clip(f.hlog), n)
	case o.HTTP != "":
		return flagError("http", "%s: serves one process, not for -count %d, whose processes run one after another", quote.Clip(o.HTTP), n)
	case given["http-public"]:
		return flagError("http-public", "goes with -http, which is not for -count %d", n)
	case f.ShowRuns:
		return flagError("show-runs", "prints the runs of one process, not for -count %d: each process's output goes to its log (process-N.log in -out DIR)", n)
	}
	if f.Dir != "" {
		o.Outputs = append(o.Outputs, countDirOutputs(f.Dir, "-out "+f.Dir, n)...)
		o.Dirs = append(o.Dirs, bench.File{Path: f.Dir, Label: "-out " + f.Dir, Lock: true})
	}
	if f.ProfileDir != "" {
		label := "-profile " + f.ProfileDir
		o.Dirs = append(o.Dirs, bench.File{Path: f.ProfileDir, Label: label})
		for k := 1; k <= n; k++ {
			dir := filepath.Join(f.ProfileDir, processName(k))
			o.Profiles = append(o.Profiles, dirProfiles(dir, label)...)
			o.Dirs = append(o.Dirs, bench.File{Path: dir, Label: label + ": " + dir})
		}
	}
	return nil
}

// forProcess reports whether the flag name goes to each process of
// -count: all but -count itself, the outputs and -profile (which the
// parent gives each process its own) and -q.
func (f *benchFlags) forProcess(name string) bool {
	switch name {
	case "count", "out", "overwrite", "profile", "q":
		return false
	}
	_, format := f.files[name]
	return !format
}

// countDirOutputs are the files of an output directory of n processes
// (-out DIR with -count n): every process's result in the formats that
// hold them all (result.json, bench.txt, report.txt), each labelled
// label + ": " + its path; then each process's own: its JSON result and
// its log, which the process writes (process-N.json, process-N.log), and
// its other formats (process-N.csv, .xml, .hgrm, .html, .txt).
func countDirOutputs(dir, label string, n int) []bench.Output {
	var outs []bench.Output
	add := func(name string, o bench.Output) {
		o.Path = filepath.Join(dir, name)
		o.Label = label + ": " + o.Path
		outs = append(outs, o)
	}
	for _, f := range bench.Formats {
		if f.WriteSet != nil {
			add(f.File, bench.Output{Format: f})
		}
	}
	for k := 1; k <= n; k++ {
		add(processName(k)+".json", bench.Output{Process: k, Child: true})
		add(processName(k)+".log", bench.Output{Process: k, Child: true})
		for _, f := range bench.Formats {
			if f.Name != "json" && f.Name != "bench" {
				add(processName(k)+filepath.Ext(f.File), bench.Output{Format: f, Process: k})
			}
		}
	}
	return outs
}

// dirOutputs are the outputs of every format in dir, each labelled
// label + ": " + its path.
func dirOutputs(dir, label string) []bench.Output {
	outs := make([]bench.Output, len(bench.Formats))
	for i, f := range bench.Formats {
		path := filepath.Join(dir, f.File)
		outs[i] = bench.Output{Label: label + ": " + path, Path: path, Format: f}
	}
	return outs
}

// dirProfiles are the profiles of every kind in dir, under their fixed
// names (profiles.FileName), each labelled label + ": " + its path.
func dirProfiles(dir, label string) []bench.Profile {
	ps := make([]bench.Profile, len(profiles.Kinds))
	for i, k := range profiles.Kinds {
		path := filepath.Join(dir, profiles.FileName(k))
		ps[i] = bench.Profile{Request: profiles.Request{Kind: k, Path: path}, Label: label + ": " + path}
	}
	return ps
}

// serverFlags are gcperf run's flags for a server under test (gcperf run
// [flags] OP... -- SERVER [ARGS...]).
type serverFlags struct {
	ready, log, gogc, memlimit, memory string
	readyTimeout                       time.Duration
}

// Register declares the server's flags on fs.
func (sf *serverFlags) Register(fs *flag.FlagSet) {
	fs.StringVar(&sf.ready, "ready", "", "with -- SERVER: poll `url` until the server gives any HTTP response before the warmups (default: the first operation's -url)")
	fs.DurationVar(&sf.readyTimeout, "ready-timeout", bench.DefaultReadyTimeout, "with -- SERVER: how long the server has to answer -ready")
	fs.StringVar(&sf.log, "server-log", "", "with -- SERVER: write the server's output (but its gctrace lines) to `file` (default: a new temporary file, named in the report)")
	fs.StringVar(&sf.gogc, "server-gogc", "", "with -- SERVER: run the server with GOGC=`value` (a percentage or off; default: the environment's)")
	fs.StringVar(&sf.memlimit, "server-memlimit", "", "with -- SERVER: run the server with GOMEMLIMIT=`limit` (256MiB, off; default: the environment's)")
	fs.StringVar(&sf.memory, "server-memory", "", "with -- SERVER: stop the server, a failed run, when its process tree's RSS grows above `size` (4GiB; default: no cap)")
}

// Server checks the server's flags against the command after -- (argv,
// nil without one) and the operations' arguments (ops, for the default
// -ready: the first -url), and returns the Server to run, nil without
// one. fs is the flag set Register declared them on.
func (sf *serverFlags) Server(flags *flag.FlagSet, argv, ops []string) (*bench.Server, error) {
	var set []string
	flags.Visit(func(f *flag.Flag) {
		switch f.Name {
		case "ready", "ready-timeout", "server-log", "server-gogc", "server-memlimit", "server-memory":
			set = append(set, f.Name)
		}
	})
	if argv == nil {
		if len(set) > 0 {
			return nil, flagError(set[0], "goes with a server to load: gcperf run [flags] OP... -- SERVER [ARGS...]")
		}
		return nil, nil
	}
	if len(argv) == 0 || argv[0] == "" {
		return nil, usagef("no server after --")
	}
	if c := flags.Lookup("count"); sf.log != "" && c != nil && c.Value.String() != "1" {
		// Each process starts its own server: one file cannot hold
		// their outputs, nor be checked once for them all.
		return nil, flagError("server-log", "%s: the output of one process's server, not for -count %s: each process's server writes to a new temporary file, named in its result",
			quote.Clip(sf.log), c.Value.String())
	}
	s := &bench.Server{Command: target.Command{Path: argv[0], Args: argv[1:]}, Ready: sf.ready, ReadyTimeout: sf.readyTimeout}
	if sf.log != "" {
		// Checked with the other outputs (bench.Options.Outputs), before
		// anything starts.
		s.Log = bench.File{Path: sf.log, Label: "-server-log " + sf.log}
	}
	var err error
	if s.Ready, err = readyURL(sf.ready, ops); err != nil {
		return nil, err
	}
	if s.ReadyTimeout <= 0 {
		return nil, flagError("ready-timeout", "must be above 0, got %v", s.ReadyTimeout)
	}
	if s.Command.GOGC, err = parseOne("server-gogc", sf.gogc, sweep.ParseGOGC); err != nil {
		return nil, &usageError{msg: err.Error(), err: err}
	}
	if s.Command.GOMEMLIMIT, err = parseOne("server-memlimit", sf.memlimit, sweep.ParseMemLimit); err != nil {
		return nil, &usageError{msg: err.Error(), err: err}
	}
	if sf.memory != "" {
		n, ok := setting.MemLimitBytes(sf.memory)
		if !ok || n <= 0 {
			return nil, flagError("server-memory", "%q is not a size such as 4GiB", quote.Clip(sf.memory))
		}
		s.MemCap = n
	}
	if err := canStart(argv[0]); err != nil {
		return nil, err
	}
	return s, nil
}

// readyURL is the readiness URL of a server: ready (-ready), or the first
// -url of the operations' arguments; an error names -ready.
func readyURL(ready string, ops []string) (string, error) {
	if ready == "" {
		ready = firstURL(ops)
		if ready == "" {
			return "", flagError("ready", "is needed: no operation before -- has a -url to poll")
		}
	}
	if u, err := url.Parse(ready); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", flagError("ready", "%q is not an http or https URL", quote.Clip(ready))
	}
	// A port out of range or no host name: refused before the server
	// starts, not after -ready-timeout.
	if _, err := load.ParseURL(ready); err != nil {
		return "", flagError("ready", "%s", err)
	}
	return ready, nil
}

// canStart refuses a server that cannot be started (not found, not
// executable), in one line, before anything runs.
func canStart(path string) error {
	var se *target.StartError
	if err := target.CanStart(path); errors.As(err, &se) {
		return &usageError{msg: fmt.Sprintf("cannot start the server %q: %v", path, se.Err), err: err}
	}
	return nil
}

// firstURL is the value of the first -url in the operations' arguments.
func firstURL(ops []string) string {
	for i, a := range ops {
		switch {
		case (a == "-url" || a == "--url") && i+1 < len(ops):
			return ops[i+1]
		case strings.HasPrefix(a, "-url="):
			return strings.TrimPrefix(a, "-url=")
		case strings.HasPrefix(a, "--url="):
			return strings.TrimPrefix(a, "--url=")
		}
	}
	return ""
}
