package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gcperf/gcperf/env"
	"github.com/gcperf/gcperf/internal/safefile"
	"github.com/gcperf/gcperf/profiles"
	"github.com/gcperf/gcperf/report"
	"github.com/gcperf/gcperf/workload"

	"github.com/gcperf/gcperf/internal/quote"

	"github.com/gcperf/gcperf/internal/interrupt"
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
	httpPublic    bool // -http-public: serve -http on an address other machines reach
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
	fs.StringVar(&o.httpAddr, "http", "", "serve net/http/pprof and a runtime/metrics snapshot on `addr` (such as 127.0.0.1:6060) during the run; loopback only unless -http-public")
	fs.BoolVar(&o.httpPublic, "http-public", false, "let -http listen on an address other machines reach (0.0.0.0:6060, :6060): anyone who can connect reads the command line, heap and CPU profiles and goroutine stacks")
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

// profileConfig is the configuration of the separate profiled pass,
// validated with the rest before anything runs: -profile-runs runs with the
// measured runs' settings, no outliers discarded. ok is false when no
// separate pass will run.
func (o *benchOptions) profileConfig(ops int, reqs []profiles.Request) (cfg workload.Config, ok bool, err error) {
	if o.profileRunsOK && o.profileRuns < 1 {
		return cfg, false, usagef("-profile-runs must be at least 1, got %d", o.profileRuns)
	}
	if !o.profileRunsOK {
		o.profileRuns = o.cfg.Runs
	}
	if len(reqs) == 0 || o.profileInline {
		return cfg, false, nil
	}
	cfg = profiles.PassConfig(o.cfg, o.profileRuns)
	if err := cfg.Validate(ops); err != nil {
		var ce *workload.ConfigError
		if errors.As(err, &ce) && ce.Field == "runs" {
			return cfg, false, usagef("-profile-runs %s", ce.Msg)
		}
		return cfg, false, err
	}
	return cfg, true, nil
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
// memHint names the flags that set the mix's memory, for the error when
// it cannot fit ("" in gcperf run: the operation is named instead).
func (o *benchOptions) execute(mix workload.Mix, memHint string, stdout, stderr io.Writer, sig <-chan os.Signal) int {
	if err := o.cfg.Validate(len(mix)); err != nil {
		return fail(stderr, err)
	}
	reqs := o.profileRequests()
	profCfg, err := o.checkFootprint(mix, reqs, memHint)
	if err != nil {
		return fail(stderr, err)
	}
	if err := o.checkHTTP(); err != nil {
		return fail(stderr, err)
	}
	// Last of the checks: it creates -out's and -profile's directories.
	if err := o.checkOutput(reqs); err != nil {
		return fail(stderr, err)
	}
	if o.httpAddr != "" {
		srv, err := o.serveHTTP(stderr)
		if err != nil {
			return fail(stderr, err)
		}
		defer srv.Close()
	}

	stderr = &lockedWriter{w: stderr}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stop := make(chan struct{})
	o.cfg.Stop = stop
	in := interrupt.Watch(sig, stderr, func() { close(stop) }, cancel, false)
	defer in.Close()

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
	res, err, ok := interrupt.Unless(in.Abort(), func() (*workload.Result, error) { return workload.Run(ctx, o.cfg, mix, obs...) })
	if !ok || !in.Enter(interrupt.Profiling) {
		if inline != nil {
			inline.Abandon() // its temporary files, and none started after this
		}
		safefile.RemoveTemps()
		return interrupt.ExitAborted
	}
	if err != nil && res == nil {
		in.Enter(interrupt.Writing)
		return fail(stderr, err)
	}
	meta := report.Meta{Version: version, Command: o.command, Env: captured}
	if len(reqs) > 0 {
		var perr error
		if inline != nil {
			meta.Profiles, perr = inline.Profiles()
		} else {
			fmt.Fprintf(stderr, "gcperf: profiling a separate pass of %d runs\n", profCfg.Runs)
			meta.Profiles, perr = profiles.Pass(ctx, profCfg, mix, reqs, res, in.Abandon())
		}
		meta.Inline, meta.ProfileRuns = o.profileInline, o.profileRuns
		if o.profileInline {
			meta.ProfileRuns = len(res.Runs)
		}
		if perr != nil {
			err = errors.Join(err, fmt.Errorf("profiles: %w", perr)) // printed once, with the exit status below
		}
	}
	in.Enter(interrupt.Writing)
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
		if werr := safefile.Write(t.path, stdout, o.overwrite, func(w io.Writer) error { return write(w, doc) }); werr != nil {
			fmt.Fprintf(stderr, "gcperf: %s: %s\n", t.label, strings.TrimPrefix(outputError(werr), t.path+": "))
			code = exitFail
		}
	}
	switch {
	case err != nil:
		fmt.Fprintf(stderr, "gcperf: %s\n", oneLine(err))
		code = exitFail
	case res.Interrupted, res.Halted != "", in.Interrupted():
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

// checkOutput refuses, before anything runs, any output that could not be
// written at the end, so that a long benchmark is never lost: an existing
// file (without -overwrite), anything but a regular file, two outputs on one
// file (results, profiles, the files -out and -profile will hold, compared
// by resolved path), two formats on stdout, a directory that cannot be
// written. Last, it creates -out's and -profile's directories when missing.
func (o *benchOptions) checkOutput(reqs []profiles.Request) error {
	if o.outDir == "-" {
		return usagef("-out -: -out takes a directory; - (stdout) is for one format's flag")
	}
	if o.profileDir == "-" {
		return usagef("-profile -: -profile takes a directory")
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
	var outs, dirs []safefile.Output
	for _, t := range ts {
		outs = append(outs, safefile.Output{Label: t.label, Path: t.path})
	}
	for _, r := range reqs {
		outs = append(outs, safefile.Output{Label: o.profileLabel(r), Path: r.Path})
	}
	if o.outDir != "" {
		dirs = append(dirs, safefile.Output{Label: "-out " + o.outDir, Path: o.outDir})
	}
	if o.profileDir != "" && len(reqs) > 0 {
		dirs = append(dirs, safefile.Output{Label: "-profile " + o.profileDir, Path: o.profileDir})
	}
	if err := safefile.Check(outs, o.overwrite, dirs...); err != nil {
		return usagef("%s", outputError(err))
	}
	for _, d := range dirs {
		if err := safefile.MakeDir(d.Path); err != nil {
			return usagef("%s: %v", d.Label, err)
		}
	}
	return nil
}

// profileLabel names a profile's file as the flag that asked for it:
// "-cpuprofile c.pprof" or "-profile dir: dir/cpu.pprof".
func (o *benchOptions) profileLabel(r profiles.Request) string {
	for _, p := range profileFlags {
		if p.kind == r.Kind && *o.profile[p.kind] == r.Path {
			return "-" + p.flag + " " + r.Path
		}
	}
	return "-profile " + o.profileDir + ": " + r.Path
}

// outputError is the text of an output file's error, with the flag that
// replaces an existing file.
func outputError(err error) string {
	if errors.Is(err, safefile.ErrExists) {
		return err.Error() + " (use -overwrite to replace it)"
	}
	return err.Error()
}

// checkFootprint checks, before anything runs, that the mix fits in memory
// with the engine's records, then with those of the separate profiled pass
// too (the measured runs' stay alive during it), and returns that pass's
// configuration (Runs 0 when there is none).
func (o *benchOptions) checkFootprint(mix workload.Mix, reqs []profiles.Request, memHint string) (workload.Config, error) {
	profCfg, profPass, err := o.profileConfig(len(mix), reqs)
	if err != nil {
		return profCfg, err
	}
	mem, err := env.ReadMemory(context.Background(), "/")
	if err != nil {
		return profCfg, nil // not Linux, or no /proc: nothing to check against
	}
	need := o.cfg.Need(mix)
	if err := checkMemory(need, o.cfg.Threads, len(mix), mem, memHint); err != nil || !profPass {
		return profCfg, err
	}
	// The measured runs' records stay alive during the profiled pass.
	prof := profCfg.Footprint(len(mix))
	if workload.SatAdd(need.Total(), prof) > mem.Available {
		return profCfg, usagef("-profile-runs %d: the profiled pass needs %s for its records beside the measured runs' %s, but only %s is available (a smaller -profile-runs fits)",
			o.profileRuns, env.Bytes(prof), env.Bytes(need.Engine), env.Bytes(mem.Available))
	}
	return profCfg, nil
}

// checkMemory refuses a benchmark whose need (workload.Config.Need) does
// not fit in the memory available, before allocating any of it. hint names
// what sets the mix's memory; when it is "" the operation needing the most
// is named, with its parameters.
func checkMemory(need workload.Need, threads, ops int, mem env.Memory, hint string) error {
	if need.Total() <= mem.Available {
		return nil
	}
	where := "on this machine"
	if mem.Limit == "cgroup" {
		where = "under this cgroup's memory.max"
	}
	size := func(n int64) string {
		if n == math.MaxInt64 {
			return "more than 8EiB"
		}
		return env.Bytes(n)
	}
	live := need.Live
	if hint == "" && need.Biggest != nil {
		hint = need.Biggest.Name()
		if d, ok := need.Biggest.(workload.Describer); ok {
			hint += " " + quote.Clip(d.Describe())
		}
		if _, ok := need.Biggest.(workload.Cloner); ok && threads > 1 {
			hint += fmt.Sprintf(" (one copy per thread, -threads %d)", threads)
		}
		if ops > 1 && need.Most != need.Live {
			hint += fmt.Sprintf(" (the mix: %s live in all)", size(need.Live))
		}
		live = need.Most
	}
	if hint == "" {
		hint = "the mix"
	}
	return usagef("%s needs %s live plus %s for the engine's records, but only %s is available %s",
		hint, size(live), env.Bytes(need.Engine), env.Bytes(mem.Available), where)
}

// checkHTTP refuses an -http address that other machines could reach,
// unless -http-public says so: pprof's pages hold the command line, the
// heap, every goroutine's stack and CPU profiles on demand.
func (o *benchOptions) checkHTTP() error {
	switch {
	case o.httpAddr == "" && o.httpPublic:
		return usagef("-http-public goes with -http ADDR")
	case o.httpAddr == "":
		return nil
	}
	return o.httpError(profiles.CheckAddr(o.httpAddr, o.httpPublic))
}

// httpError is err about -http's address, with the flag that allows it.
func (o *benchOptions) httpError(err error) error {
	switch {
	case errors.Is(err, profiles.ErrNotLoopback):
		return usagef("-http %s: %v (-http-public allows it)", quote.Clip(o.httpAddr), err)
	case err != nil:
		if oe := (*net.OpError)(nil); errors.As(err, &oe) {
			err = oe.Err // "address already in use", without the operation and address
		}
		return usagef("-http %s: %v", quote.Clip(o.httpAddr), err)
	}
	return nil
}

// serveHTTP starts -http's server, before the runs.
func (o *benchOptions) serveHTTP(stderr io.Writer) (*profiles.Server, error) {
	srv, exposed, err := profiles.ServeLocal(o.httpAddr, o.httpPublic)
	if err != nil {
		return nil, o.httpError(err)
	}
	if exposed {
		fmt.Fprintf(stderr, "gcperf: warning: -http-public: anyone who can connect to %s reads this process's command line, heap and CPU profiles and goroutine stacks\n", srv.Addr())
	}
	fmt.Fprintf(stderr, "gcperf: serving http://%s/debug/pprof/ and /debug/metrics while the benchmark runs\n", srv.Addr())
	return srv, nil
}

var processStart = time.Now()

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
		return 0, usagef("-rate: %q is not operations per second such as 200/s", quote.Clip(s))
	}
	return r, nil
}
