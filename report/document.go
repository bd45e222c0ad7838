package report

import (
	"encoding/json"
	"strconv"
	"time"

	"github.com/gcperf/gcperf/env"
	"github.com/gcperf/gcperf/internal/redact"
	"github.com/gcperf/gcperf/latency"
	"github.com/gcperf/gcperf/profiles/profinfo"
	"github.com/gcperf/gcperf/runstats"
	"github.com/gcperf/gcperf/workload"
)

// Schema identifies the JSON document's layout. A reader refuses a document
// whose schema it does not know; it reads one of the earlier schemas,
// gcperf/v1, converting it (see Document.UnmarshalJSON).
//
// gcperf/v2 gives each figure one name: the collector's cycles are
// "gc_cycles" in "gc" as in each run (v1: "cycles"), and the hiccup
// meter's percentiles are those of every distribution, its maximum
// "pmax_ns" (v1: "max_ns").
const Schema = "gcperf/v2"

// schemaV1 is the layout before gcperf/v2, which ReadJSON still reads.
const schemaV1 = "gcperf/v1"

// Meta is what a report says besides the measurement: who measured, with
// what command, on which machine and runtime, and the profiles attached.
type Meta struct {
	Version string   // gcperf's version
	Command []string // the command line, when run from one
	Env     env.Env

	Profiles []profinfo.Profile
	// Inline is set when the profiles were taken during the measured runs
	// (-profile-inline), so the figures were measured under a profiler;
	// otherwise they come from a separate pass of ProfileRuns runs.
	Inline      bool
	ProfileRuns int
}

// Document is one benchmark's report: its settings, environment, statistics
// and per-run records. Durations are integer nanoseconds in JSON, in keys
// ending in _ns.
type Document struct {
	Schema     string      `json:"schema"`
	Tool       Tool        `json:"tool"`
	Env        Env         `json:"env"`
	Config     Config      `json:"config"`
	Timing     Timing      `json:"timing"`
	Harness    Harness     `json:"harness"`
	GC         *GC         `json:"gc"` // null with -gcstats off
	Process    Process     `json:"process"`
	Tail       *Tail       `json:"tail"` // null unless -gcstats run
	Operations []Operation `json:"operations"`
	Mix        Mix         `json:"mix"`
	GCPerfP99  P99         `json:"gcperfp99"`
	Runs       []Run       `json:"runs"`
	// Timeline summarises the runs past those in Runs (-keep-runs), in at
	// most 1000 spans; absent when every run is in Runs.
	Timeline    []Span     `json:"timeline,omitempty"`
	Profiling   *Profiling `json:"profiling"` // null when no profile was asked for
	Hiccup      *Hiccup    `json:"hiccup"`    // null without -hiccup
	OpenLoop    *OpenLoop  `json:"open_loop"` // null without -rate
	Interrupted bool       `json:"interrupted"`
	Halted      string     `json:"halted,omitempty"`
	// Failed is why the run failed, when the process knew it (Failure).
	Failed *Failure `json:"failed,omitempty"`
	// Exec is the run of a user's command (gcperf exec, gcperf sweep --
	// CMD), absent from a benchmark's document; with it, the document
	// holds no benchmark (see Exec).
	Exec *Exec `json:"exec,omitempty"`
	// Server is the program under test that the operations loaded
	// (gcperf run OP... -- SERVER): its run from its start before the
	// warmups to its stop after the timed runs, its memory and its
	// collector. Absent without one. The document's GC and Process are the
	// load generator's (gcperf's own).
	Server *Exec `json:"server,omitempty"`
}

// DocumentKind says what a Document is the result of, and so which of
// its sections hold the figures.
type DocumentKind uint8

const (
	// BenchmarkDocument is a benchmark of gcperf's operations (gcperf,
	// gcperf run): Operations, Mix, Runs, GCPerfP99, GC and Tail hold
	// its figures.
	BenchmarkDocument DocumentKind = iota
	// ServerDocument is a benchmark of operations against a server under
	// test (gcperf run OP... -- SERVER): a benchmark whose Server section
	// holds the server's run.
	ServerDocument
	// CommandDocument is the run of a user's command (gcperf exec, a
	// point of gcperf sweep -- CMD): its Exec section holds the figures,
	// and the benchmark's sections are empty.
	CommandDocument
)

var documentKinds = [...]string{BenchmarkDocument: "benchmark", ServerDocument: "server", CommandDocument: "command"}

func (k DocumentKind) String() string {
	if int(k) < len(documentKinds) {
		return documentKinds[k]
	}
	return "DocumentKind(" + strconv.Itoa(int(k)) + ")"
}

// Kind says what the document is the result of, from the sections it
// holds: Exec makes it a CommandDocument, Server a ServerDocument.
func (d *Document) Kind() DocumentKind {
	switch {
	case d.Exec != nil:
		return CommandDocument
	case d.Server != nil:
		return ServerDocument
	}
	return BenchmarkDocument
}

// Hiccup is what the hiccup meter saw, as the engine measured it: how
// late a goroutine sleeping Interval at a time woke, each time, during the
// timed runs, the percentiles of the lateness, and how many times the
// meter woke. Its Recorder is nil in a document read back: Histogram holds
// the values.
type Hiccup struct {
	workload.Hiccup
	Count     int64            `json:"count" csv:"Count"`
	Histogram []latency.Bucket `json:"histogram" csv:"-"`
}

// hiccupLayout keeps the meter's count after its interval in the XML and
// the CSV, as before the document embedded workload.Hiccup.
var hiccupLayout = layout{{"Interval", "", ""}, {"Count", "", ""}}

// OpenLoop is how an open-loop benchmark (-rate) kept its schedule, as
// the engine measured it: the rate asked and achieved, the largest
// lateness of an actual start behind its intended one, and how many
// started more than one interval late. KeptUp, the converse of Behind, is
// what the document says: false when the achieved rate is below 95% of the
// rate asked.
type OpenLoop struct {
	workload.OpenLoop
	KeptUp bool `json:"kept_up"`
}

// UnmarshalJSON reads an OpenLoop, its Behind from KeptUp.
func (o *OpenLoop) UnmarshalJSON(data []byte) error {
	type plain OpenLoop // without this method
	if err := json.Unmarshal(data, (*plain)(o)); err != nil {
		return err
	}
	o.Behind = !o.KeptUp
	return nil
}

// Percentiles are the standard percentiles of a distribution kept as an
// HdrHistogram only, with the number of values it holds.
type Percentiles struct {
	Count int64 `json:"count" csv:"Count"`
	latency.Percentiles
}

// Profiling lists the profiles attached to the result and how they were
// taken. When Inline is true, every figure of the document was measured
// while the profilers ran.
type Profiling struct {
	Inline   bool      `json:"inline"`
	Runs     int       `json:"runs"` // timed runs of the profiled pass (the measured ones when inline)
	Profiles []Profile `json:"profiles"`
}

// Profile is one profile file with its top functions (none for a trace).
type Profile struct {
	Kind       string        `json:"kind"`
	File       string        `json:"file"`
	Duration   time.Duration `json:"duration_ns"`
	SampleType string        `json:"sample_type,omitempty"`
	Unit       string        `json:"unit,omitempty"`
	Total      int64         `json:"total"`
	Top        []ProfileFunc `json:"top"`
}

// ProfileFunc is one function's share of a profile.
type ProfileFunc struct {
	Name    string  `json:"name"`
	Flat    int64   `json:"flat"`
	FlatPct float64 `json:"flat_pct"`
	Cum     int64   `json:"cum"`
	CumPct  float64 `json:"cum_pct"`
}

// Tool names the program that wrote the document.
type Tool struct {
	Name    string   `json:"name"`
	Version string   `json:"version"`
	Command []string `json:"command,omitempty"`
}

// Env is the environment of the measurement.
type Env = env.Env

// GC is what the collector did during the timed runs, as the engine
// summarised it (runstats.GCDelta over the whole timed phase, with the
// pause percentiles and rates), and the -gcstats mode that measured it.
// The XML and the CSV keep the order and names of before (gcLayout).
type GC struct {
	Mode string `json:"mode" csv:"GC Stats"` // -gcstats: run or total
	workload.GCSummary
}

// Process holds the process's counters around the timed runs.
type Process struct {
	Before       runstats.Process `json:"before"`
	After        runstats.Process `json:"after"`
	PeakRSSBytes uint64           `json:"peak_rss_bytes"`
	// Machine is the machine's CPU time during the timed runs, all CPUs
	// summed, with the time stolen by a hypervisor (/proc/stat); absent
	// where the OS does not offer it.
	Machine *runstats.SystemCPU `json:"machine,omitempty"`
}

// Tail relates the worst runs to what can make a run slow, as the engine
// judged it (workload.Tail): GCPerfP99's dropped runs and the runs that
// had the collector beside them, whose page faults and context switches
// were counted (Scope: process, or thread with -pin), and the evidence and
// the verdict on each cause over the slowest 1% of the successful runs (at
// least 10). Alpha is the significance level of the verdicts (Fisher's
// exact test, one-sided).
type Tail struct {
	workload.Tail
	Alpha float64 `json:"alpha,omitzero" csv:"-"` // in the causes' block
}

// Cause is the evidence on one cause of slow runs, and the verdict, as the
// engine judged it. The XML and the CSV name the cause and its verdict
// first (causeLayout).
type Cause = workload.CauseTail

// causeLayout keeps a cause's name and verdict, then its counts and its
// threshold, first in the XML and the CSV, as before the document
// embedded workload.CauseTail.
var causeLayout = layout{
	{"Cause", "", ""}, {"Verdict", "", ""}, {"Worst", "", ""}, {"WorstWith", "", ""},
	{"Runs", "", ""}, {"RunsWith", "", ""}, {"Threshold", "", ""},
}

// Config is the benchmark's configuration as run (workload.Config), with its -gcstats mode and halt policy by name: a command's
// document has neither (its GCStats is empty, where workload's zero is
// "run"). The XML keeps the order of before (configLayout).
type Config struct {
	workload.Config
	GCStats string   `json:"gcstats" csv:"GC Stats"`
	Halt    []string `json:"halt,omitempty" csv:"Halt On,zero=none"`
}

// configLayout is the order of the configuration's properties in the XML,
// as before the document embedded workload.Config.
var configLayout = layout{
	{"Runs", "", ""}, {"Warmups", "", ""}, {"Outliers", "", ""}, {"Threads", "", ""}, {"Seed", "", ""},
	{"Random", "", ""}, {"Sample", "", ""}, {"Repeats", "", ""}, {"MaxDelay", "", ""}, {"Timeout", "", ""},
	{"Halt", "", ""}, {"GCStats", "", ""}, {"Rate", "", ""}, {"Duration", "", ""}, {"WarmupDuration", "", ""},
}

// optionsLayout is the order of the settings in the CSV's Options
// Summary, as before the document embedded workload.Config.
var optionsLayout = layout{
	{"Warmups", "", ""}, {"Runs", "", ""}, {"Random", "", ""}, {"Outliers", "", ""}, {"Timeout", "", ""},
	{"MaxDelay", "", ""}, {"Threads", "", ""}, {"Seed", "", ""}, {"Sample", "", ""}, {"Repeats", "", ""},
	{"Halt", "", ""}, {"GCStats", "", ""},
}

// Timing says when the timed runs happened, as the engine measured it
// (in UTC), and how many completed.
type Timing struct {
	workload.Timing
	Done int `json:"runs_done" csv:"Runs Done"` // timed runs completed
}

// Harness is what the harness adds to the heap it measures, as the engine
// measured it: the heap allocations during the timed runs
// (runtime/metrics), which include the operations' own, and what the
// harness kept on the Go heap while it measured (HarnessHeap: histograms,
// accumulators, counters), independent of the number of runs; its per-run
// records are outside the Go heap.
type Harness struct {
	workload.Harness
	// RunsKept, when set, is how many runs kept their per-run records
	// (runs below): the first RunsKept of Timing.Done. Every statistic
	// covers all of them regardless.
	RunsKept int `json:"runs_kept,omitzero" csv:"Runs Kept,omitzero"`
}

// Distribution is the Summary of runtimes or response times, as latency
// computed it: its Percentiles.Max (pmax_ns) is the maximum of all values,
// outliers included.
type Distribution = latency.Summary

// Errors counts failures.
type Errors struct {
	Total      int64             `json:"total"`
	ByCategory map[string]int64  `json:"by_category"`
	First      map[string]string `json:"first,omitempty"` // first message per category
}

// Actual holds the multi-threaded figures over wall time, as latency
// measured them.
type Actual = latency.Actual

// Operation holds one operation's statistics.
type Operation struct {
	Name         string       `json:"name"`
	Params       string       `json:"params,omitempty"`
	Unit         string       `json:"unit"`
	Runs         int64        `json:"runs"`
	Errors       Errors       `json:"errors"`
	Results      int64        `json:"results"`
	AvgResults   float64      `json:"avg_results"`
	Runtime      Distribution `json:"runtime"`
	Response     Distribution `json:"response"`
	Corrected    *Percentiles `json:"corrected,omitempty"` // with -rate: latency from each intended start (the wait behind a late schedule plus the runtime), corrected for coordinated omission
	OpsPerSecond float64      `json:"ops_per_sec"`         // at the mean runtime without the -outliers: -bench's <unit>/s is AvgResults × this
	OpsPerHour   float64      `json:"ops_per_hour"`
	Actual       *Actual      `json:"actual,omitempty"`

	// Every successful runtime, as HdrHistogram buckets (value_ns, count),
	// so that a saved result still has its whole distribution (.hgrm).
	Histogram []latency.Bucket `json:"runtime_histogram"`
}

// Mix holds the statistics of the whole mix, one value per run.
type Mix struct {
	Operation
	OpsPerRun    int     `json:"ops_per_run"`
	MixesPerHour float64 `json:"mixes_per_hour"`
}

// P99 holds the GCPerfP99 figures as latency computed them, in units of
// Unit (processed: runs × per_run, every run, as GCPerfP99 counts it;
// total_ns: of the kept runs only; the throughputs: GCPerfP99's, over its
// best kept runs, not -bench's <unit>/s at the trimmed mean), and the
// worst runs with what the collector did during each. Estimated is
// set when the runs were too many to keep: Worst holds the slowest of the
// Runs-Kept dropped runs, and Total with what derives from it comes partly
// from the mix's histogram (within 0.1%).
type P99 struct {
	Unit string `json:"unit" csv:"Unit"`
	latency.P99Figures
	Worst []Worst `json:"worst" csv:"-"` // a block of its own
}

// Span summarises consecutive runs past the kept ones: from run
// first_run on (or, with -duration, from start_ns on), as the engine
// summarised them.
type Span = workload.Span

// Worst is one of the runs GCPerfP99 drops, with what the collector did
// during it (-gcstats run).
type Worst struct {
	latency.Worst // its run number, time and throughput
	// With -gcstats run only (absent, like zero, otherwise).
	GCCycles  uint64        `json:"gc_cycles,omitempty" csv:"GC Cycles"`
	STW       time.Duration `json:"stw_ns,omitempty" csv:"STW"`
	AssistCPU time.Duration `json:"assist_cpu_ns,omitempty" csv:"GC Assist CPU"`
	// Causes names the causes of Tail.Causes the run had, as the verdicts
	// count them: at least each cause's threshold (5 or more involuntary
	// context switches, where most runs had some).
	Causes []string `json:"causes,omitzero" csv:"Causes"`
}

// Run is one timed run of the mix.
type Run struct {
	Run      int           `json:"run" csv:"Run"`
	Thread   int           `json:"thread" csv:"Thread"`
	Start    time.Duration `json:"start_ns" csv:"Start"` // since the timed runs began
	Runtime  time.Duration `json:"runtime_ns" csv:"Total Runtime"`
	Response time.Duration `json:"response_ns" csv:"Total Response Time"`
	Results  int64         `json:"results" csv:"Results"`
	Errors   int           `json:"errors" csv:"Errors"`
	// What the collector did during the run (gc_cycles, stw_ns,
	// alloc_bytes...): with -gcstats run only, absent otherwise, as nothing
	// was measured per run.
	*runstats.GCDelta
	// What else happened during the run (minor_faults, major_faults,
	// voluntary_switches, involuntary_switches, sched_waits, sched_max_ns,
	// mark_at_start): with -gcstats run only.
	*runstats.RunDelta
	// Error is the failure's category when the run is one operation of a
	// one-operation mix (otherwise each of Ops says its own).
	Error string `json:"error,omitempty" csv:"-"`
	// Ops are the run's operations in the order they ran, when the mix holds
	// more than one (with one, the run's own figures are the operation's).
	Ops []RunOp `json:"ops,omitempty" csv:"-"`
}

// RunOp is one operation of a run, in run order.
type RunOp struct {
	Op       int           `json:"op"` // index into operations[]
	Start    time.Duration `json:"start_ns"`
	Runtime  time.Duration `json:"runtime_ns"`
	Response time.Duration `json:"response_ns"`
	Results  int64         `json:"results"`
	Error    string        `json:"error,omitempty"` // the failure's category
}

// CorrectedLatency is the mix's latency from each intended start
// (corrected for coordinated omission), open loop: the mix's own, or for a
// one-operation mix its operation's; nil in closed loop.
func (d *Document) CorrectedLatency() *Percentiles {
	if c := d.Mix.Corrected; c != nil && c.Count > 0 {
		return c
	}
	if len(d.Operations) == 1 {
		if c := d.Operations[0].Corrected; c != nil && c.Count > 0 {
			return c
		}
	}
	return nil
}

// New builds the Document of a result.
func New(res *workload.Result, meta Meta) *Document {
	c := res.Config
	d := &Document{
		Schema:  Schema,
		Tool:    Tool{Name: "gcperf", Version: meta.Version, Command: redact.Args(meta.Command)},
		Env:     meta.Env,
		Config:  Config{Config: c, GCStats: c.GCStats.String(), Halt: haltNames(c.Halt)},
		Timing:  Timing{Timing: res.Timing, Done: res.Done},
		Harness: Harness{Harness: res.Harness},
		Process: Process{Before: res.ProcessBefore, After: res.ProcessAfter,
			PeakRSSBytes: max(res.ProcessBefore.PeakRSSBytes, res.ProcessAfter.PeakRSSBytes),
			Machine:      res.Machine},
		Timeline:    res.Timeline,
		Hiccup:      hiccupOf(res.Hiccup),
		OpenLoop:    openLoopOf(res.OpenLoop),
		Profiling:   profilingOf(meta),
		Interrupted: res.Interrupted,
		Halted:      res.Halted,
	}
	if c.GCStats != workload.GCStatsOff {
		d.GC = gcOf(c.GCStats, &res.GC)
	}
	if c.GCStats == workload.GCStatsRun {
		d.Tail = tailOf(&res.Tail)
	}
	d.Timing.Started, d.Timing.Ended = res.Started.UTC(), res.Ended.UTC()
	if res.Summarised() {
		d.Harness.RunsKept = len(res.Runs)
	}
	d.Operations = operationsOf(res.Operations)
	ms := res.Mix.Stats
	d.Mix = Mix{Operation: operation(ms), OpsPerRun: ms.OpsPerRun, MixesPerHour: ms.MixesPerHour}
	d.Mix.Name, d.Mix.Unit = "mix", res.Unit
	d.Mix.Histogram = res.Mix.Runtime.Buckets()
	d.GCPerfP99 = gcperfP99Of(res)
	d.Runs = runsOf(res)
	return d
}

func hiccupOf(h *workload.Hiccup) *Hiccup {
	if h == nil {
		return nil
	}
	return &Hiccup{Hiccup: *h, Count: h.Recorder.Count(), Histogram: h.Recorder.Buckets()}
}

func openLoopOf(ol *workload.OpenLoop) *OpenLoop {
	if ol == nil {
		return nil
	}
	return &OpenLoop{OpenLoop: *ol, KeptUp: !ol.Behind}
}

// profilingOf is the profiles of meta, nil without one.
func profilingOf(meta Meta) *Profiling {
	if len(meta.Profiles) == 0 {
		return nil
	}
	pr := &Profiling{Inline: meta.Inline, Runs: meta.ProfileRuns}
	for _, p := range meta.Profiles {
		x := Profile{Kind: string(p.Kind), File: p.File, Duration: p.Duration,
			SampleType: p.Top.SampleType, Unit: p.Top.Unit, Total: p.Top.Total, Top: []ProfileFunc{}}
		for _, f := range p.Top.Funcs {
			x.Top = append(x.Top, ProfileFunc{Name: f.Name, Flat: f.Flat, FlatPct: f.FlatPct, Cum: f.Cum, CumPct: f.CumPct})
		}
		pr.Profiles = append(pr.Profiles, x)
	}
	return pr
}

func gcOf(mode workload.GCStats, g *workload.GCSummary) *GC {
	return &GC{Mode: mode.String(), GCSummary: *g}
}

func tailOf(t *workload.Tail) *Tail {
	return &Tail{Tail: *t, Alpha: workload.TailAlpha}
}

func operationsOf(ops []workload.OpResult) []Operation {
	var out []Operation
	for _, op := range ops {
		o := operation(op.Stats)
		o.Name, o.Params, o.Unit = op.Name, op.Params, op.Unit
		o.Errors.First = op.FirstError
		o.Histogram = op.Runtime.Buckets()
		if r := op.Corrected; r != nil {
			o.Corrected = &Percentiles{Count: r.Count(), Percentiles: op.CorrectedPercentiles}
		}
		out = append(out, o)
	}
	return out
}

// gcperfP99Of is GCPerfP99's figures, each of the worst runs with what the
// collector did during it (-gcstats run).
func gcperfP99Of(res *workload.Result) P99 {
	f := res.P99
	p := P99{Unit: res.Unit, P99Figures: f, Worst: []Worst{}}
	p.P99Figures.Worst = nil // the document's own Worst, below
	for _, w := range f.Worst {
		x := Worst{Worst: w}
		if r := res.Run(w.Run); r != nil && res.Config.GCStats == workload.GCStatsRun {
			x.GCCycles, x.STW, x.AssistCPU = r.GC.Cycles, r.GC.STW, r.GC.AssistCPU
			x.Causes = causesOf(&res.Tail, r)
		}
		p.Worst = append(p.Worst, x)
	}
	return p
}

// runsOf is every kept run, with its operations in run order when the mix
// holds more than one.
func runsOf(res *workload.Result) []Run {
	c := res.Config
	runs := make([]Run, len(res.Runs))
	k := c.OpsPerRun(len(res.Operations))
	for i, r := range res.Runs {
		runs[i] = Run{Run: r.Run, Thread: r.Thread, Start: r.Start, Runtime: r.Runtime,
			Response: r.Response, Results: r.Results, Errors: r.Errors}
		if c.GCStats == workload.GCStatsRun {
			runs[i].GCDelta = &res.Runs[i].GC
			runs[i].RunDelta = &res.Runs[i].Causes
		}
		if k == 1 && len(res.Operations) == 1 && res.Executions[i].Failed() {
			runs[i].Error = res.Categories[res.Executions[i].Category]
		}
		if k > 1 || len(res.Operations) > 1 {
			runs[i].Ops = runOps(res, res.Executions[i*k:(i+1)*k])
		}
	}
	return runs
}

func runOps(res *workload.Result, xs []workload.Execution) []RunOp {
	ops := make([]RunOp, len(xs))
	for j, x := range xs {
		ops[j] = RunOp{Op: int(x.Op), Start: x.Start, Runtime: x.Runtime, Response: x.Response, Results: x.Results}
		if x.Failed() {
			ops[j].Error = res.Categories[x.Category]
		}
	}
	return ops
}

func operation(s latency.Stats) Operation {
	o := Operation{
		Runs:         s.Runs,
		Errors:       Errors{Total: s.Errors, ByCategory: s.ErrorsByCategory},
		Results:      s.Results,
		AvgResults:   s.AvgResults,
		Runtime:      s.Runtime,
		Response:     s.Response,
		OpsPerSecond: s.OpsPerSecond,
		OpsPerHour:   s.OpsPerHour,
	}
	if o.Errors.ByCategory == nil {
		o.Errors.ByCategory = map[string]int64{}
	}
	if a := s.ActualRuntime; a != nil {
		o.Actual = a
	}
	return o
}

func haltNames(h workload.HaltPolicy) []string {
	switch {
	case h == workload.HaltAny:
		return []string{"any"}
	case h == 0:
		return nil
	}
	var out []string
	if h&workload.HaltOnError != 0 {
		out = append(out, "error")
	}
	if h&workload.HaltOnTimeout != 0 {
		out = append(out, "timeout")
	}
	return out
}

// causesOf names the causes run r had as the verdicts of t count them
// (from each cause's threshold), in Cause order.
func causesOf(t *workload.Tail, r *workload.RunRecord) []string {
	var names []string
	for c := range workload.NumCauses {
		if t.Had(r, c) {
			names = append(names, c.String())
		}
	}
	return names
}
