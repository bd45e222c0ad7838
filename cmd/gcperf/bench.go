package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gcperf/gcperf/bench"
	"github.com/gcperf/gcperf/internal/interrupt"
	"github.com/gcperf/gcperf/internal/quote"
	"github.com/gcperf/gcperf/internal/safefile"
	"github.com/gcperf/gcperf/profiles"
	"github.com/gcperf/gcperf/workload"
)

// benchOptions are the engine's flags, shared by gcperf and gcperf run:
// bench.Options once finish has read the flags that need it.
type benchOptions struct {
	bench.Options
	norandom  bool
	seed      int64
	haltErr   bool
	haltTime  bool
	haltAny   bool
	verbose   bool
	quiet     bool               // -q: no progress bar
	out       map[string]*string // the output flags by format name: -json, -csv, -xml, -bench, -hgrm
	outDir    string             // -out
	gcstats   string
	rate      string // -rate, parsed by finish
	profile   map[profiles.Kind]*string
	profDir   string // -profile
	runsGiven map[string]bool
}

// register declares the engine's flags on fs, with defaults from def.
func (o *benchOptions) register(fs *flag.FlagSet, def workload.Config) {
	c := &o.Config
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
	var names []string
	for _, f := range bench.Formats {
		if f.Name != "text" {
			o.out[f.Name] = fs.String(f.Name, "", "write "+f.Doc+" to `file` (- for stdout, the text report then going to stderr)")
		}
		names = append(names, f.File)
	}
	fs.StringVar(&o.outDir, "out", "", "write every format to `dir`, created if missing: "+strings.Join(names, ", "))
	fs.BoolVar(&o.Overwrite, "overwrite", false, "replace existing output files")

	o.profile = map[profiles.Kind]*string{}
	for _, p := range profileFlags {
		o.profile[p.kind] = fs.String(p.flag, "", "write "+p.doc+" to `file`")
	}
	fs.StringVar(&o.profDir, "profile", "", "write every profile to `dir`, created if missing: cpu.pprof, heap.pprof, block.pprof, mutex.pprof, trace.out, fgprof.pprof")
	fs.IntVar(&o.ProfileRuns, "profile-runs", 0, "timed runs of the separate profiled pass (default: -runs)")
	fs.BoolVar(&o.ProfileInline, "profile-inline", false, "profile the measured runs instead of a separate pass (the report then says its figures were taken under a profiler)")
	fs.StringVar(&o.HTTP, "http", "", "serve net/http/pprof and a runtime/metrics snapshot on `addr` (such as 127.0.0.1:6060) during the run; loopback only unless -http-public")
	fs.BoolVar(&o.HTTPPublic, "http-public", false, "let -http listen on an address other machines reach (0.0.0.0:6060, :6060): anyone who can connect reads the command line, heap and CPU profiles and goroutine stacks")
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

// finish derives bench.Options from the parsed flags.
func (o *benchOptions) finish(fs *flag.FlagSet) error {
	g, err := workload.ParseGCStats(o.gcstats)
	if err != nil {
		return err
	}
	c := &o.Config
	c.GCStats = g
	if o.rate != "" {
		if c.Rate, err = parseRate(o.rate); err != nil {
			return err
		}
	}
	o.runsGiven = map[string]bool{}
	fs.Visit(func(f *flag.Flag) { o.runsGiven[f.Name] = true })
	c.Random = !o.norandom
	if !o.runsGiven["outliers"] && c.Runs > 0 && 2*c.Outliers >= c.Runs {
		// The default of 1 cannot apply to 1 or 2 runs: keep them all
		// rather than refuse a value the user never gave.
		c.Outliers = (c.Runs - 1) / 2
	}
	c.Seed = o.seed
	if !o.runsGiven["seed"] {
		c.Seed = rand.Int64N(1 << 31) // short enough to retype
	}
	if o.haltErr {
		c.Halt |= workload.HaltOnError
	}
	if o.haltTime {
		c.Halt |= workload.HaltOnTimeout
	}
	if o.haltAny {
		c.Halt |= workload.HaltAny
	}
	if !o.runsGiven["profile-runs"] {
		o.ProfileRuns = c.Runs
	}
	// The outputs: the format flags', then -out's.
	for _, f := range bench.Formats {
		if p := o.out[f.Name]; p != nil && *p != "" {
			o.Outputs = append(o.Outputs, bench.Output{Label: "-" + f.Name + " " + *p, Path: *p, Format: f})
		}
	}
	if o.outDir != "" {
		o.Outputs = append(o.Outputs, bench.DirOutputs(o.outDir, "-out "+o.outDir)...)
		o.Dirs = append(o.Dirs, safefile.Output{Label: "-out " + o.outDir, Path: o.outDir})
	}
	// -profile DIR gives every kind under fixed names; a kind's own flag
	// overrides its file.
	for _, p := range bench.DirProfiles(o.profDir, "-profile "+o.profDir) {
		given := false
		for _, f := range profileFlags {
			if v := *o.profile[f.kind]; f.kind == p.Kind && v != "" {
				p, given = bench.Profile{Request: profiles.Request{Kind: f.kind, Path: v}, Label: "-" + f.flag + " " + v}, true
			}
		}
		if given || o.profDir != "" {
			o.Profiles = append(o.Profiles, p)
		}
	}
	if o.profDir != "" && len(o.Profiles) > 0 {
		o.Dirs = append(o.Dirs, safefile.Output{Label: "-profile " + o.profDir, Path: o.profDir})
	}
	return nil
}

// execute runs the benchmark (bench.Run) and says how it went. memHint
// names the flags that set the mix's memory (bench.Options.MemHint).
func (o *benchOptions) execute(mix workload.Mix, memHint string, stdout, stderr io.Writer, sig <-chan os.Signal) int {
	switch {
	case o.outDir == "-":
		return fail(stderr, usagef("-out -: -out takes a directory; - (stdout) is for one format's flag"))
	case o.profDir == "-":
		return fail(stderr, usagef("-profile -: -profile takes a directory"))
	}
	stderr = &lockedWriter{w: stderr}
	o.MemHint, o.Version = memHint, version
	o.Notify = func(line string) { fmt.Fprintf(stderr, "gcperf: %s\n", line) }
	if o.verbose {
		o.Observers = append(o.Observers, workload.Verbose(stderr, processStart))
	}
	// The progress bar (progress.go): -v's lines take its place.
	if !o.verbose && !o.quiet {
		if p := progressObserver(stderr, stderrIsTerminal); p != nil {
			o.Observers = append(o.Observers, p)
		}
	}
	out, err := bench.Run(o.Options, mix, stdout, stderr, sig)
	switch {
	case errors.Is(err, bench.ErrAborted):
		return interrupt.ExitAborted
	case err != nil:
		return fail(stderr, err)
	case out.Doc == nil:
		return fail(stderr, out.Err)
	}
	for _, werr := range out.WriteErrs {
		fmt.Fprintf(stderr, "gcperf: %s\n", outputError(werr))
	}
	switch {
	case out.Err != nil:
		fmt.Fprintf(stderr, "gcperf: %s\n", oneLine(out.Err))
	case !out.Stopped && out.AllFailed:
		fmt.Fprintln(stderr, "gcperf: every run failed")
	}
	if out.Failed() {
		return exitFail
	}
	return exitOK
}

// outputError is the text of an output file's error, with the flag that
// replaces an existing file.
func outputError(err error) string {
	if errors.Is(err, safefile.ErrExists) {
		return err.Error() + " (use -overwrite to replace it)"
	}
	return err.Error()
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
