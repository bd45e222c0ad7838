package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gcperf/gcperf/env"
	"github.com/gcperf/gcperf/profiles"
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
	quiet     bool               // -q: no progress bar
	out       map[string]*string // the output flags by format name: -json, -csv, -xml, -bench, -hgrm
	outDir    string             // -out
	gcstats   string
	rate      string // -rate, parsed by finish
	overwrite bool
	command   []string

	// Profiles (-cpuprofile ... -fgprof, -profile DIR) and live inspection.
	profile       map[profiles.Kind]*string
	profileDir    string
	profileRuns   int
	profileRunsOK bool // -profile-runs was given
	profileInline bool
	httpAddr      string
	outliersSet   bool // -outliers was given: an impossible value is an error, not trimmed
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
	fs.DurationVar(&c.Hiccup, "hiccup", 0, "run a hiccup meter: a goroutine sleeping `d` at a time, recording how late it wakes (0: none)")
	fs.StringVar(&o.rate, "rate", "", "run open loop: start `R` operations per second across the threads on a fixed schedule (such as 200/s), reporting latency from each intended start beside the runtime (default: closed loop)")
	fs.BoolVar(&o.verbose, "v", false, "print a line as each timed run starts and ends (on stderr)")
	fs.BoolVar(&o.quiet, "q", false, "no progress bar (drawn on stderr when it is a terminal and -v is not given)")
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

	o.profile = map[profiles.Kind]*string{}
	for _, p := range profileFlags {
		o.profile[p.kind] = fs.String(p.flag, "", "write "+p.doc+" to `file`")
	}
	fs.StringVar(&o.profileDir, "profile", "", "write every profile to `dir`, created if missing: cpu.pprof, heap.pprof, block.pprof, mutex.pprof, trace.out, fgprof.pprof")
	fs.IntVar(&o.profileRuns, "profile-runs", 0, "timed runs of the separate profiled pass (default: -runs)")
	fs.BoolVar(&o.profileInline, "profile-inline", false, "profile the measured runs instead of a separate pass (the report then says its figures were taken under a profiler)")
	fs.StringVar(&o.httpAddr, "http", "", "serve net/http/pprof and a runtime/metrics snapshot on `addr` (such as 127.0.0.1:6060) during the run")
}

// profileFlags are the profile flags, named as go test names them.
var profileFlags = []struct {
	flag string
	kind profiles.Kind
	doc  string
}{
	{"cpuprofile", profiles.CPU, "a CPU profile"},
	{"memprofile", profiles.Heap, "a heap profile, with allocations,"},
	{"blockprofile", profiles.Block, "a goroutine blocking profile"},
	{"mutexprofile", profiles.Mutex, "a mutex contention profile"},
	{"trace", profiles.Trace, "an execution trace"},
	{"fgprof", profiles.FGProf, "an fgprof wall-clock profile (pprof format)"},
}

// profileRequests lists the profiles asked for: -profile DIR gives every
// kind under fixed names, and a kind's own flag overrides its file.
func (o *benchOptions) profileRequests() []profiles.Request {
	var reqs []profiles.Request
	for _, k := range profiles.Kinds {
		path := *o.profile[k]
		if path == "" && o.profileDir != "" {
			path = filepath.Join(o.profileDir, profiles.FileName(k))
		}
		if path != "" {
			reqs = append(reqs, profiles.Request{Kind: k, Path: path})
		}
	}
	return reqs
}

// checkProfiles refuses, before anything runs, profiles that could not be
// written, and an address that cannot be listened on. It creates -profile's
// directory.
func (o *benchOptions) checkProfiles() ([]profiles.Request, error) {
	if o.profileRunsOK && o.profileRuns < 1 {
		return nil, usagef("-profile-runs must be at least 1, got %d", o.profileRuns)
	}
	if !o.profileRunsOK {
		o.profileRuns = o.cfg.Runs
	}
	reqs := o.profileRequests()
	if len(reqs) == 0 {
		return nil, nil
	}
	if o.profileDir != "" {
		if err := makeDir(o.profileDir); err != nil {
			return nil, usagef("-profile %s: %v", o.profileDir, err)
		}
	}
	if err := profiles.Check(reqs, o.overwrite); err != nil {
		return nil, usagef("%s", flagOf(o, err.Error()))
	}
	return reqs, nil
}

// flagOf prefixes a profile error (which names its file) with the flag that
// asked for that file.
func flagOf(o *benchOptions, msg string) string {
	for _, p := range profileFlags {
		if path := *o.profile[p.kind]; path != "" && strings.HasPrefix(msg, path+":") {
			return "-" + p.flag + " " + msg
		}
	}
	if o.profileDir != "" {
		return "-profile " + msg
	}
	return msg
}

// finish derives the Config from the parsed flags.
func (o *benchOptions) finish(fs *flag.FlagSet) error {
	g, err := workload.ParseGCStats(o.gcstats)
	if err != nil {
		return err
	}
	o.cfg.GCStats = g
	if o.rate != "" {
		r, err := parseRate(o.rate)
		if err != nil {
			return err
		}
		o.cfg.Rate = r
	}
	fs.Visit(func(f *flag.Flag) {
		switch f.Name {
		case "seed":
			o.seedSet = true
		case "profile-runs":
			o.profileRunsOK = true
		case "outliers":
			o.outliersSet = true
		}
	})
	o.cfg.Random = !o.norandom
	if !o.outliersSet && o.cfg.Runs > 0 && 2*o.cfg.Outliers >= o.cfg.Runs {
		// The default of 1 cannot apply to 1 or 2 runs: keep them all
		// rather than refuse a value the user never gave.
		o.cfg.Outliers = (o.cfg.Runs - 1) / 2
	}
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
	// Last of the checks: they create -out's and -profile's directories.
	if err := o.checkOutput(); err != nil {
		return fail(stderr, err)
	}
	reqs, err := o.checkProfiles()
	if err != nil {
		return fail(stderr, err)
	}
	if o.httpAddr != "" {
		srv, err := profiles.Serve(o.httpAddr)
		if err != nil {
			return fail(stderr, usagef("-http %s: %v", o.httpAddr, errors.Unwrap(err)))
		}
		defer srv.Close()
		fmt.Fprintf(stderr, "gcperf: serving http://%s/debug/pprof/ and /debug/metrics while the benchmark runs\n", srv.Addr())
	}

	stderr = &lockedWriter{w: stderr}
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
				switch n {
				case 1:
					fmt.Fprintln(stderr, "gcperf: interrupted: stopping after the runs in progress (interrupt again to cancel them)")
					close(stop)
				case 2:
					fmt.Fprintln(stderr, "gcperf: interrupted again: cancelling the operations in progress (a third time exits at once)")
					cancel()
				default:
					fmt.Fprintln(stderr, "gcperf: interrupted three times: exiting without a report")
					os.Exit(130)
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
	// The progress bar (progress.go): -v's lines take its place.
	if !o.verbose && !o.quiet {
		if p := progressObserver(stderr, stderrIsTerminal); p != nil {
			obs = append(obs, p)
		}
	}
	var inline *profiles.Profiler
	if len(reqs) > 0 && o.profileInline {
		inline = profiles.NewProfiler(reqs)
		obs = append(obs, inline)
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
	meta := report.Meta{Version: version, Command: o.command, Env: captured}
	if len(reqs) > 0 {
		var perr error
		meta.Profiles, perr = o.profileRun(ctx, inline, reqs, mix, res, stderr)
		meta.Inline, meta.ProfileRuns = o.profileInline, o.profileRuns
		if o.profileInline {
			meta.ProfileRuns = len(res.Runs)
		}
		if perr != nil {
			err = errors.Join(err, fmt.Errorf("profiles: %w", perr)) // printed once, with the exit status below
		}
	}
	doc := report.New(res, meta)

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
		fmt.Fprintf(stderr, "gcperf: %s\n", oneLine(err))
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

// profileRun returns the profiles: those of the measured runs when inline,
// else those of a separate pass of -profile-runs runs with the same
// configuration, run after the measured one (and not after an interrupted
// or halted one). The profiled pass's own figures are discarded.
func (o *benchOptions) profileRun(ctx context.Context, inline *profiles.Profiler, reqs []profiles.Request,
	mix workload.Mix, measured *workload.Result, stderr io.Writer) ([]profiles.Profile, error) {
	if inline != nil {
		return inline.Profiles()
	}
	if !measured.Complete() {
		return nil, errors.New("no profiled pass after an incomplete benchmark")
	}
	cfg := o.cfg
	cfg.Runs, cfg.Outliers = o.profileRuns, 0
	fmt.Fprintf(stderr, "gcperf: profiling a separate pass of %d runs\n", cfg.Runs)
	p := profiles.NewProfiler(reqs)
	res, err := workload.Run(ctx, cfg, mix, p)
	if err != nil && res == nil {
		return nil, err
	}
	got, err := p.Profiles()
	switch {
	case err != nil:
		return got, err
	case res.Interrupted:
		return got, fmt.Errorf("the profiled pass was interrupted after %d of %d runs: its profiles cover those only", len(res.Runs), cfg.Runs)
	case res.Halted != "":
		return got, fmt.Errorf("the profiled pass halted after %d of %d runs: %s", len(res.Runs), cfg.Runs, res.Halted)
	}
	return got, nil
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

// makeDir creates dir when missing and checks that files can be created in
// it: "not a directory", "permission denied", "cannot write there: ...".
func makeDir(dir string) error {
	if st, err := os.Stat(dir); err == nil && !st.IsDir() {
		return errors.New("not a directory")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return errors.Unwrap(err)
	}
	if err := canWrite(dir); err != nil {
		return fmt.Errorf("cannot write there: %w", err)
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
				n = satMul(n, int64(o.cfg.Threads))
			}
			live = satAdd(live, n)
		}
	}
	engine := o.cfg.Footprint(len(mix))
	if need := satAdd(live, engine); need > mem.Available {
		where := "on this machine"
		if mem.Limit == "cgroup" {
			where = "under this cgroup's memory.max"
		}
		needs := env.Bytes(live)
		if live == math.MaxInt64 {
			needs = "more than 8EiB"
		}
		return usagef("%s needs %s live plus %s for the engine's records, but only %s is available %s",
			hint, needs, env.Bytes(engine), env.Bytes(mem.Available), where)
	}
	return nil
}

var processStart = time.Now()

// satAdd and satMul add and multiply non-negative sizes, saturating at
// math.MaxInt64 instead of wrapping.
func satAdd(a, b int64) int64 {
	if a > math.MaxInt64-b {
		return math.MaxInt64
	}
	return a + b
}

func satMul(a, b int64) int64 {
	if b != 0 && a > math.MaxInt64/b {
		return math.MaxInt64
	}
	return a * b
}

// lockedWriter serialises the writes of the goroutines that share stderr
// (the run, the signal handler, -v's lines) so that lines never interleave.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// oneLine joins a multi-line error (errors.Join) into one line.
func oneLine(err error) string {
	return strings.ReplaceAll(err.Error(), "\n", "; ")
}

// parseRate reads -rate: operations per second, as "200/s" or "200".
func parseRate(s string) (float64, error) {
	r, err := strconv.ParseFloat(strings.TrimSuffix(s, "/s"), 64)
	if err != nil || r < 0 || math.IsNaN(r) || math.IsInf(r, 0) {
		return 0, usagef("-rate: %q is not operations per second such as 200/s", s)
	}
	return r, nil
}
