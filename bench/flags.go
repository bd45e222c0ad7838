package bench

import (
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/gcperf/gcperf/internal/quote"
	"github.com/gcperf/gcperf/internal/safefile"
	"github.com/gcperf/gcperf/profiles"
	"github.com/gcperf/gcperf/workload"
)

// Flags are a benchmark's command-line flags as gcperf and gcperf run
// spell them (-runs, -warmup, -json, -out, -cpuprofile, -profile, -http
// ...), so that a program of its own with flag.Parse takes them too:
//
//	var f bench.Flags
//	f.Register(flag.CommandLine, workload.DefaultConfig())
//	flag.Parse()
//	if err := f.Finish(flag.CommandLine); err != nil { ... }
//	out, err := bench.Run(f.Options, mix, os.Stdout, os.Stderr, sig)
//
// The errors of Finish and Run name these flags.
type Flags struct {
	// Options are the benchmark's, filled by Register's flags and Finish.
	Options Options
	// Verbose (-v) asks for a line per run, Quiet (-q) for no progress
	// bar: what the command shows on its terminal.
	Verbose, Quiet bool
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
}

// File is the file a format's own flag names (-html FILE), "" when not
// given.
func (f *Flags) File(format string) string {
	if p := f.files[format]; p != nil {
		return *p
	}
	return ""
}

// Register declares the flags on fs, with the defaults of def.
func (f *Flags) Register(fs *flag.FlagSet, def workload.Config) {
	c := &f.Options.Config
	fs.IntVar(&c.Warmups, "warmup", def.Warmups, "warmup runs of the mix before the timed runs, not recorded")
	fs.IntVar(&c.Runs, "runs", def.Runs, "timed runs of the mix")
	fs.IntVar(&c.Outliers, "outliers", def.Outliers, "best and worst runs discarded before the mean-based statistics")
	fs.DurationVar(&c.Duration, "duration", 0, "run the timed runs for `d` (such as 10m) instead of a count: -runs is then the most, if given; open loop (-rate), the schedule is d long")
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
	fs.BoolVar(&f.Verbose, "v", false, "print a line as each timed run starts and ends (on stderr)")
	fs.BoolVar(&f.Quiet, "q", false, "no progress bar (drawn on stderr when it is a terminal and -v is not given)")
	f.files = map[string]*string{}
	var names []string
	for _, ff := range Formats {
		if ff.Name != "text" {
			f.files[ff.Name] = fs.String(ff.Name, "", "write "+ff.Doc+" to `file` (- for stdout, the text report then going to stderr)")
		}
		names = append(names, ff.File)
	}
	fs.StringVar(&f.Dir, "out", "", "write every format to `dir`, created if missing: "+strings.Join(names, ", "))
	fs.BoolVar(&f.Options.Overwrite, "overwrite", false, "replace existing output files")
	fs.StringVar(&f.Options.RunLog, "runlog", "", "stream every timed run to `file` as it ends, one CSV line each (run, thread, start_ns, runtime_ns... and the GC figures and the other causes of slow runs), whatever -keep-runs keeps (- for stdout)")
	fs.StringVar(&f.Options.HistogramLog, "hlog", "", "stream the mix runtimes to `file` as an HdrHistogram interval log (.hlog, as jHiccup writes it: HistogramLogAnalyzer reads it), one histogram every -hlog-interval (- for stdout)")
	fs.DurationVar(&f.Options.HistogramLogInterval, "hlog-interval", DefaultHistogramLogInterval, "the interval `d` of -hlog's histograms, at least 1ms; writing one allocates about 0.8MiB, so short intervals move the collector measured")

	f.profile = map[profiles.Kind]*string{}
	for _, p := range ProfileFlags {
		f.profile[p.Kind] = fs.String(p.Flag, "", "write "+p.Doc+" to `file`")
	}
	fs.StringVar(&f.ProfileDir, "profile", "", "write every profile to `dir`, created if missing: cpu.pprof, heap.pprof, block.pprof, mutex.pprof, trace.out, fgprof.pprof")
	fs.IntVar(&f.Options.ProfileRuns, "profile-runs", 0, "timed runs of the separate profiled pass (default: -runs)")
	fs.BoolVar(&f.Options.ProfileInline, "profile-inline", false, "profile the measured runs instead of a separate pass (the report then says its figures were taken under a profiler)")
	fs.StringVar(&f.Options.HTTP, "http", "", "serve net/http/pprof and a runtime/metrics snapshot on `addr` (such as 127.0.0.1:6060) during the run; loopback only unless -http-public")
	fs.BoolVar(&f.Options.HTTPPublic, "http-public", false, "let -http listen on an address other machines reach (0.0.0.0:6060, :6060): anyone who can connect reads the command line, heap and CPU profiles and goroutine stacks")
}

// ProfileFlags are the flags that ask for one profile each, named as go
// test names them.
var ProfileFlags = []struct {
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
func (f *Flags) Finish(fs *flag.FlagSet) error {
	g, err := workload.ParseGCStats(f.gcstats)
	if err != nil {
		return err
	}
	c := &f.Options.Config
	c.GCStats = g
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
	if given["hlog-interval"] && f.Options.HistogramLog == "" {
		return inputf("hlog-interval", "goes with -hlog FILE")
	}
	if given["profile-runs"] && f.Options.ProfileRuns < 1 {
		return inputf("profile-runs", "must be at least 1, got %d", f.Options.ProfileRuns)
	}
	// Finish may be called again: what it derives starts afresh.
	f.Options.Outputs, f.Options.Profiles, f.Options.Dirs = nil, nil, nil
	if f.Count != 1 {
		return f.finishCount(given)
	}
	// The outputs: the format flags', then -out's.
	for _, ff := range Formats {
		if p := f.files[ff.Name]; p != nil && *p != "" {
			f.Options.Outputs = append(f.Options.Outputs, Output{Label: "-" + ff.Name + " " + *p, Path: *p, Format: ff})
		}
	}
	if f.Dir != "" {
		f.Options.Outputs = append(f.Options.Outputs, DirOutputs(f.Dir, "-out "+f.Dir)...)
		f.Options.Dirs = append(f.Options.Dirs, safefile.Output{Label: "-out " + f.Dir, Path: f.Dir})
	}
	// -profile DIR gives every kind under fixed names; a kind's own flag
	// overrides its file.
	for _, p := range DirProfiles(f.ProfileDir, "-profile "+f.ProfileDir) {
		own := false
		for _, pf := range ProfileFlags {
			if v := *f.profile[pf.Kind]; pf.Kind == p.Kind && v != "" {
				p, own = Profile{Request: profiles.Request{Kind: pf.Kind, Path: v}, Label: "-" + pf.Flag + " " + v}, true
			}
		}
		if own || f.ProfileDir != "" {
			f.Options.Profiles = append(f.Options.Profiles, p)
		}
	}
	if f.ProfileDir != "" && len(f.Options.Profiles) > 0 {
		f.Options.Dirs = append(f.Options.Dirs, safefile.Output{Label: "-profile " + f.ProfileDir, Path: f.ProfileDir})
	}
	return nil
}

// parseRate reads -rate: operations per second, as "200/s" or "200".
func parseRate(s string) (float64, error) {
	r, err := strconv.ParseFloat(strings.TrimSuffix(s, "/s"), 64)
	if err != nil || r < 0 || math.IsNaN(r) || math.IsInf(r, 0) {
		return 0, &InputError{Msg: fmt.Sprintf("-rate: %q is not operations per second such as 200/s", quote.Clip(s))}
	}
	return r, nil
}
