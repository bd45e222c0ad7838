package report

import (
	"encoding/xml"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gcperf/gcperf/env"
)

// XML writes the document as XML, in the spirit of the SPARQL Query
// Benchmarker's XML results: the settings as <property name value/>
// elements of <configuration>, the environment, every run with its
// operations in run order, and the statistics of every operation and of
// the mix. Times are integer nanoseconds in attributes ending in _ns; the
// attribute names are the JSON document's keys.
//
//	<gcperf schema="gcperf/v1">
//	  <tool name="gcperf" version="0.1.0"><arg>gcperf</arg>...</tool>
//	  <configuration><property name="runs" value="200"/>...</configuration>
//	  <environment><host .../><cgroup .../><go .../><build .../></environment>
//	  <timing .../><harness .../><gc .../><process ...>...</process><tail .../>
//	  <runs>
//	    <run number="1" thread="0" runtime_ns="..." ...>
//	      <gc gc_cycles="1" .../>
//	      <operation order="1" name="alloc.list" runtime_ns="..." .../>
//	    </run>
//	  </runs>
//	  <statistics>
//	    <operation name="alloc.list" ...><errors/><runtime .../><response .../></operation>
//	    <mix name="mix" ...>...</mix>
//	  </statistics>
//	  <gcperfp99 ...><worst .../></gcperfp99>
//	</gcperf>
//
// A run's <gc> child is there with -gcstats run only, the only mode that
// reads the collector around each run.
func XML(w io.Writer, d *Document) error {
	return writeXML(w, newXMLDoc(d))
}

func writeXML(w io.Writer, x *xmlDoc) error {
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(x); err != nil {
		return err
	}
	if err := enc.Close(); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

type xmlDoc struct {
	XMLName       xml.Name          `xml:"gcperf"`
	Schema        string            `xml:"schema,attr"`
	Interrupted   bool              `xml:"interrupted,attr"`
	Halted        string            `xml:"halted,attr,omitempty"`
	Tool          xmlTool           `xml:"tool"`
	Configuration []xmlProperty     `xml:"configuration>property"`
	Environment   xmlEnv            `xml:"environment"`
	Timing        xmlTiming         `xml:"timing"`
	Harness       xmlHarness        `xml:"harness"`
	GC            *xmlGC            `xml:"gc"`
	Process       xmlProcessSummary `xml:"process"`
	Tail          *xmlTail          `xml:"tail"`
	Runs          []xmlRun          `xml:"runs>run"`
	Statistics    xmlStatistics     `xml:"statistics"`
	GCPerfP99     xmlP99            `xml:"gcperfp99"`
	Hiccup        *xmlHiccup        `xml:"hiccup"`
}

// xmlHiccup is the hiccup meter's figures, in nanoseconds.
type xmlHiccup struct {
	Interval time.Duration `xml:"interval_ns,attr"`
	Count    int64         `xml:"count,attr"`
	P50      time.Duration `xml:"p50_ns,attr"`
	P90      time.Duration `xml:"p90_ns,attr"`
	P99      time.Duration `xml:"p99_ns,attr"`
	P999     time.Duration `xml:"p999_ns,attr"`
	P9999    time.Duration `xml:"p9999_ns,attr"`
	Max      time.Duration `xml:"max_ns,attr"`
}

type xmlTool struct {
	Name    string   `xml:"name,attr"`
	Version string   `xml:"version,attr"`
	Args    []string `xml:"arg"`
}

type xmlProperty struct {
	Name  string `xml:"name,attr"`
	Value string `xml:"value,attr"`
}

type xmlEnv struct {
	Host   xmlHost   `xml:"host"`
	Cgroup xmlCgroup `xml:"cgroup"`
	Go     xmlGo     `xml:"go"`
	Build  xmlBuild  `xml:"build"`
}

type xmlHost struct {
	Hostname             string   `xml:"hostname,attr"`
	OS                   string   `xml:"os,attr"`
	Platform             string   `xml:"platform,attr"`
	PlatformVersion      string   `xml:"platform_version,attr"`
	Kernel               string   `xml:"kernel,attr"`
	Arch                 string   `xml:"arch,attr"`
	Virtualization       string   `xml:"virtualization,attr"`
	UptimeSeconds        uint64   `xml:"uptime_seconds,attr"`
	CPUModel             string   `xml:"cpu_model,attr"`
	PhysicalCPUs         int      `xml:"physical_cpus,attr"`
	LogicalCPUs          int      `xml:"logical_cpus,attr"`
	CPUMHz               xmlFloat `xml:"cpu_mhz,attr"`
	MemoryTotalBytes     uint64   `xml:"memory_total_bytes,attr"`
	MemoryAvailableBytes uint64   `xml:"memory_available_bytes,attr"`
	Load1                xmlFloat `xml:"load1,attr"`
	Load5                xmlFloat `xml:"load5,attr"`
	Load15               xmlFloat `xml:"load15,attr"`
}

// xmlCgroup leaves out the limits that are not set ("max").
type xmlCgroup struct {
	Path           string    `xml:"path,attr,omitempty"`
	CPUMax         *xmlFloat `xml:"cpu_max,attr,omitempty"`
	MemoryMaxBytes *int64    `xml:"memory_max_bytes,attr,omitempty"`
	MemoryCurrent  int64     `xml:"memory_current_bytes,attr"`
}

type xmlGo struct {
	Version    string `xml:"version,attr"`
	GOOS       string `xml:"goos,attr"`
	GOARCH     string `xml:"goarch,attr"`
	GOMAXPROCS int    `xml:"gomaxprocs,attr"`
	NumCPU     int    `xml:"num_cpu,attr"`
	GOGC       string `xml:"gogc,attr"`       // "100", "off"
	GOMEMLIMIT string `xml:"gomemlimit,attr"` // bytes, "off"
	GODEBUG    string `xml:"godebug,attr"`
}

type xmlBuild struct {
	Path        string `xml:"path,attr"`
	Module      string `xml:"module,attr"`
	Version     string `xml:"version,attr"`
	VCSRevision string `xml:"vcs_revision,attr"`
	VCSTime     string `xml:"vcs_time,attr"`
	VCSModified bool   `xml:"vcs_modified,attr"`
}

type xmlTiming struct {
	Started time.Time     `xml:"started,attr"`
	Ended   time.Time     `xml:"ended,attr"`
	Elapsed time.Duration `xml:"elapsed_ns,attr"`
	Warmup  time.Duration `xml:"warmup_elapsed_ns,attr"`
	Done    int           `xml:"runs_done,attr"`
}

type xmlHarness struct {
	HeapAllocBytes   uint64 `xml:"timed_heap_alloc_bytes,attr"`
	HeapAllocObjects uint64 `xml:"timed_heap_alloc_objects,attr"`
}

type xmlGC struct {
	Mode            string        `xml:"mode,attr"`
	Cycles          uint64        `xml:"cycles,attr"`
	Pauses          uint64        `xml:"stw_pauses,attr"`
	STW             time.Duration `xml:"stw_ns,attr"`
	STWMax          time.Duration `xml:"stw_max_ns,attr"`
	PauseP50        time.Duration `xml:"stw_p50_ns,attr"`
	PauseP90        time.Duration `xml:"stw_p90_ns,attr"`
	PauseP99        time.Duration `xml:"stw_p99_ns,attr"`
	PauseP999       time.Duration `xml:"stw_p999_ns,attr"`
	AssistCPU       time.Duration `xml:"assist_cpu_ns,attr"`
	DedicatedCPU    time.Duration `xml:"dedicated_cpu_ns,attr"`
	IdleCPU         time.Duration `xml:"idle_cpu_ns,attr"`
	PauseCPU        time.Duration `xml:"pause_cpu_ns,attr"`
	GCCPU           time.Duration `xml:"gc_cpu_ns,attr"`
	TotalCPU        time.Duration `xml:"total_cpu_ns,attr"`
	CPUFraction     xmlFloat      `xml:"cpu_fraction,attr"`
	AllocBytes      uint64        `xml:"alloc_bytes,attr"`
	AllocObjects    uint64        `xml:"alloc_objects,attr"`
	AllocRate       xmlFloat      `xml:"alloc_bytes_per_sec,attr"`
	AllocBytesPerOp xmlFloat      `xml:"alloc_bytes_per_op,attr"`
	HeapLive        uint64        `xml:"heap_live_bytes,attr"`
	HeapGoal        uint64        `xml:"heap_goal_bytes,attr"`
}

type xmlProcessSummary struct {
	PeakRSSBytes uint64     `xml:"peak_rss_bytes,attr"`
	Before       xmlProcess `xml:"before"`
	After        xmlProcess `xml:"after"`
}

type xmlProcess struct {
	RSSBytes               uint64        `xml:"rss_bytes,attr"`
	PeakRSSBytes           uint64        `xml:"peak_rss_bytes,attr"`
	MinorFaults            uint64        `xml:"minor_faults,attr"`
	MajorFaults            uint64        `xml:"major_faults,attr"`
	VoluntaryCtxSwitches   uint64        `xml:"voluntary_ctx_switches,attr"`
	InvoluntaryCtxSwitches uint64        `xml:"involuntary_ctx_switches,attr"`
	UserCPU                time.Duration `xml:"user_cpu_ns,attr"`
	SystemCPU              time.Duration `xml:"system_cpu_ns,attr"`
}

type xmlTail struct {
	Worst       int `xml:"worst,attr"`
	WorstWithGC int `xml:"worst_with_gc,attr"`
	Runs        int `xml:"runs,attr"`
	RunsWithGC  int `xml:"runs_with_gc,attr"`
}

type xmlRun struct {
	Number   int           `xml:"number,attr"`
	Thread   int           `xml:"thread,attr"`
	Start    time.Duration `xml:"start_ns,attr"`
	Runtime  time.Duration `xml:"runtime_ns,attr"`
	Response time.Duration `xml:"response_ns,attr"`
	Results  int64         `xml:"results,attr"`
	Errors   int           `xml:"errors,attr"`
	GC       *xmlRunGC     `xml:"gc"`
	Ops      []xmlRunOp    `xml:"operation"`
}

// xmlRunGC is runstats.GCDelta with the JSON document's keys.
type xmlRunGC struct {
	Cycles       uint64        `xml:"gc_cycles,attr"`
	Pauses       uint64        `xml:"stw_pauses,attr"`
	STW          time.Duration `xml:"stw_ns,attr"`
	STWMax       time.Duration `xml:"stw_max_ns,attr"`
	AssistCPU    time.Duration `xml:"assist_cpu_ns,attr"`
	DedicatedCPU time.Duration `xml:"dedicated_cpu_ns,attr"`
	IdleCPU      time.Duration `xml:"idle_cpu_ns,attr"`
	PauseCPU     time.Duration `xml:"pause_cpu_ns,attr"`
	GCCPU        time.Duration `xml:"gc_cpu_ns,attr"`
	TotalCPU     time.Duration `xml:"total_cpu_ns,attr"`
	AllocBytes   uint64        `xml:"alloc_bytes,attr"`
	AllocObjects uint64        `xml:"alloc_objects,attr"`
	HeapLive     uint64        `xml:"heap_live_bytes,attr"`
	HeapGoal     uint64        `xml:"heap_goal_bytes,attr"`
}

type xmlRunOp struct {
	Order    int           `xml:"order,attr"` // 1-based position in the run
	Name     string        `xml:"name,attr,omitempty"`
	Start    time.Duration `xml:"start_ns,attr"`
	Response time.Duration `xml:"response_ns,attr"`
	Runtime  time.Duration `xml:"runtime_ns,attr"`
	Results  int64         `xml:"results,attr"`
	Error    string        `xml:"error,attr,omitempty"` // the failure's category
}

type xmlStatistics struct {
	Operations []xmlOpStats `xml:"operation"`
	Mix        xmlOpStats   `xml:"mix"`
}

// xmlOpStats is the statistics of one operation or of the mix.
type xmlOpStats struct {
	Name         string     `xml:"name,attr"`
	Params       string     `xml:"params,attr,omitempty"`
	Unit         string     `xml:"unit,attr"`
	Runs         int64      `xml:"runs,attr"`
	Results      int64      `xml:"results,attr"`
	AvgResults   xmlFloat   `xml:"avg_results,attr"`
	OpsPerSecond xmlFloat   `xml:"ops_per_sec,attr"`
	OpsPerHour   xmlFloat   `xml:"ops_per_hour,attr"`
	OpsPerRun    *int       `xml:"ops_per_run,attr,omitempty"`    // the mix only
	MixesPerHour *xmlFloat  `xml:"mixes_per_hour,attr,omitempty"` // the mix only
	Errors       xmlErrors  `xml:"errors"`
	Runtime      xmlDist    `xml:"runtime"`
	Response     xmlDist    `xml:"response"`
	Actual       *xmlActual `xml:"actual"`
}

type xmlErrors struct {
	Total      int64         `xml:"total,attr"`
	Categories []xmlCategory `xml:"category"`
}

type xmlCategory struct {
	Name  string `xml:"name,attr"`
	Count int64  `xml:"count,attr"`
	First string `xml:"first,attr,omitempty"` // the first message
}

type xmlDist struct {
	Count     int64         `xml:"count,attr"`
	Discarded int           `xml:"outliers_discarded,attr"`
	Kept      int64         `xml:"kept,attr"`
	Total     time.Duration `xml:"total_ns,attr"`
	Mean      time.Duration `xml:"mean_ns,attr"`
	GeoMean   time.Duration `xml:"geomean_ns,attr"`
	Min       time.Duration `xml:"min_ns,attr"`
	Max       time.Duration `xml:"max_ns,attr"`
	Variance  xmlFloat      `xml:"variance_ns2,attr"`
	StdDev    time.Duration `xml:"stddev_ns,attr"`
	P50       time.Duration `xml:"p50_ns,attr"`
	P90       time.Duration `xml:"p90_ns,attr"`
	P99       time.Duration `xml:"p99_ns,attr"`
	P999      time.Duration `xml:"p999_ns,attr"`
	P9999     time.Duration `xml:"p9999_ns,attr"`
	PMax      time.Duration `xml:"pmax_ns,attr"`
}

type xmlActual struct {
	Runtime      time.Duration `xml:"runtime_ns,attr"`
	Mean         time.Duration `xml:"mean_ns,attr"`
	OpsPerSecond xmlFloat      `xml:"ops_per_sec,attr"`
	OpsPerHour   xmlFloat      `xml:"ops_per_hour,attr"`
	MixesPerHour *xmlFloat     `xml:"mixes_per_hour,attr,omitempty"`
}

type xmlP99 struct {
	Unit          string        `xml:"unit,attr"`
	Runs          int           `xml:"runs,attr"`
	Kept          int           `xml:"kept,attr"`
	PerRun        xmlFloat      `xml:"per_run,attr"`
	Processed     xmlFloat      `xml:"processed,attr"`
	Total         time.Duration `xml:"total_ns,attr"`
	MeanPerRun    time.Duration `xml:"mean_per_run_ns,attr"`
	Throughput    xmlFloat      `xml:"throughput_per_sec,attr"`
	ThroughputMax xmlFloat      `xml:"throughput_max_per_sec,attr"`
	ThroughputMin xmlFloat      `xml:"throughput_min_per_sec,attr"`
	Latency       time.Duration `xml:"latency_per_1000_ns,attr"`
	LatencyMin    time.Duration `xml:"latency_min_per_1000_ns,attr"`
	LatencyAve    time.Duration `xml:"latency_ave_per_1000_ns,attr"`
	LatencyMax    time.Duration `xml:"latency_max_per_1000_ns,attr"`
	Worst         []xmlWorst    `xml:"worst"`
}

type xmlWorst struct {
	Run        int           `xml:"run,attr"`
	Time       time.Duration `xml:"time_ns,attr"`
	Throughput xmlFloat      `xml:"throughput_per_sec,attr"`
	GCCycles   uint64        `xml:"gc_cycles,attr"`
	STW        time.Duration `xml:"stw_ns,attr"`
	AssistCPU  time.Duration `xml:"assist_cpu_ns,attr"`
}

func newXMLDoc(d *Document) *xmlDoc {
	c := d.Config
	e := d.Env
	x := &xmlDoc{
		Schema:      d.Schema,
		Interrupted: d.Interrupted,
		Halted:      d.Halted,
		Tool:        xmlTool{Name: d.Tool.Name, Version: d.Tool.Version, Args: d.Tool.Command},
		Configuration: []xmlProperty{
			{"runs", csvInt(c.Runs)},
			{"warmups", csvInt(c.Warmups)},
			{"outliers", csvInt(c.Outliers)},
			{"threads", csvInt(c.Threads)},
			{"seed", csvInt(c.Seed)},
			{"random", csvBool(c.Random)},
			{"sample", csvInt(c.Sample)},
			{"repeats", csvBool(c.Repeats)},
			{"delay_ns", csvInt(c.MaxDelay)},
			{"timeout_ns", csvInt(c.Timeout)},
			{"halt", strings.Join(c.Halt, " ")},
			{"gcstats", c.GCStats},
		},
		Environment: xmlEnv{
			Host: newXMLHost(e.Host),
			Cgroup: xmlCgroup{Path: e.Cgroup.Path, CPUMax: (*xmlFloat)(e.Cgroup.CPUMax),
				MemoryMaxBytes: e.Cgroup.MemoryMaxBytes, MemoryCurrent: e.Cgroup.MemoryCurrent},
			Go: xmlGo{Version: e.Go.Version, GOOS: e.Go.GOOS, GOARCH: e.Go.GOARCH, GOMAXPROCS: e.Go.GOMAXPROCS,
				NumCPU: e.Go.NumCPU, GOGC: e.Go.GOGCString(), GOMEMLIMIT: gomemlimit(e.Go), GODEBUG: e.Go.GODEBUG},
			Build: xmlBuild(e.Build),
		},
		Timing: xmlTiming{Started: d.Timing.Started, Ended: d.Timing.Ended, Elapsed: d.Timing.Elapsed,
			Warmup: d.Timing.Warmup, Done: d.Timing.Done},
		Harness: xmlHarness(d.Harness),
		Process: xmlProcessSummary{PeakRSSBytes: d.Process.PeakRSSBytes,
			Before: xmlProcess(d.Process.Before), After: xmlProcess(d.Process.After)},
		Runs: []xmlRun{},
	}
	if g := d.GC; g != nil {
		x.GC = &xmlGC{Mode: g.Mode, Cycles: g.Cycles, Pauses: g.Pauses, STW: g.STW, STWMax: g.STWMax,
			PauseP50: g.PauseP50, PauseP90: g.PauseP90, PauseP99: g.PauseP99, PauseP999: g.PauseP999,
			AssistCPU: g.AssistCPU, DedicatedCPU: g.DedicatedCPU, IdleCPU: g.IdleCPU, PauseCPU: g.PauseCPU,
			GCCPU: g.GCCPU, TotalCPU: g.TotalCPU, CPUFraction: xmlFloat(g.CPUFraction),
			AllocBytes: g.AllocBytes, AllocObjects: g.AllocObjects, AllocRate: xmlFloat(g.AllocRate),
			AllocBytesPerOp: xmlFloat(g.AllocBytesPerOp), HeapLive: g.HeapLive, HeapGoal: g.HeapGoal}
	}
	if t := d.Tail; t != nil {
		x.Tail = &xmlTail{Worst: t.Worst, WorstWithGC: t.WorstWithGC, Runs: t.Runs, RunsWithGC: t.RunsWithGC}
	}
	for _, r := range d.Runs {
		xr := xmlRun{Number: r.Run, Thread: r.Thread, Start: r.Start, Runtime: r.Runtime,
			Response: r.Response, Results: r.Results, Errors: r.Errors}
		if hasRunGC(d) {
			g := xmlRunGC(*r.GCDelta)
			xr.GC = &g
		}
		xr.Ops = runOps(d, &r)
		x.Runs = append(x.Runs, xr)
	}
	for i := range d.Operations {
		x.Statistics.Operations = append(x.Statistics.Operations, opStats(&d.Operations[i]))
	}
	x.Statistics.Mix = opStats(&d.Mix.Operation)
	k, mph := d.Mix.OpsPerRun, xmlFloat(d.Mix.MixesPerHour)
	x.Statistics.Mix.OpsPerRun, x.Statistics.Mix.MixesPerHour = &k, &mph
	if a := x.Statistics.Mix.Actual; a != nil {
		v := xmlFloat(d.Mix.Actual.MixesPerHour)
		a.MixesPerHour = &v
	}
	f := d.GCPerfP99
	x.GCPerfP99 = xmlP99{Unit: f.Unit, Runs: f.Runs, Kept: f.Kept, PerRun: xmlFloat(f.PerRun), Processed: xmlFloat(f.Processed),
		Total: f.Total, MeanPerRun: f.MeanPerRun, Throughput: xmlFloat(f.Throughput), ThroughputMax: xmlFloat(f.ThroughputMax),
		ThroughputMin: xmlFloat(f.ThroughputMin), Latency: f.Latency, LatencyMin: f.LatencyMin, LatencyAve: f.LatencyAve,
		LatencyMax: f.LatencyMax}
	for _, w := range f.Worst {
		x.GCPerfP99.Worst = append(x.GCPerfP99.Worst, xmlWorst{Run: w.Run, Time: w.Time, Throughput: xmlFloat(w.Throughput),
			GCCycles: w.GCCycles, STW: w.STW, AssistCPU: w.AssistCPU})
	}
	if h := d.Hiccup; h != nil {
		x.Hiccup = &xmlHiccup{Interval: h.Interval, Count: h.Count, P50: h.P50, P90: h.P90, P99: h.P99,
			P999: h.P999, P9999: h.P9999, Max: h.Max}
	}
	return x
}

// runOps lists a run's operations in run order: runs[].ops when the
// document has them, else, for a one-operation mix, the run itself.
func runOps(d *Document, r *Run) []xmlRunOp {
	if len(r.Ops) > 0 {
		ops := make([]xmlRunOp, len(r.Ops))
		for j, o := range r.Ops {
			ops[j] = xmlRunOp{Order: j + 1, Start: o.Start, Response: o.Response, Runtime: o.Runtime,
				Results: o.Results, Error: o.Error}
			if o.Op >= 0 && o.Op < len(d.Operations) {
				ops[j].Name = d.Operations[o.Op].Name
			}
		}
		return ops
	}
	if len(d.Operations) != 1 {
		// One operation per run drawn from several (-sample 1): the
		// document does not say which ran.
		return nil
	}
	op := xmlRunOp{Order: 1, Name: d.Operations[0].Name, Start: r.Start, Response: r.Response,
		Runtime: r.Runtime, Results: r.Results}
	if r.Errors > 0 {
		op.Error = soleCategory(&d.Operations[0])
	}
	return []xmlRunOp{op}
}

// soleCategory names the failure of a one-operation run, which the document
// keeps only as a count: the operation's only failure category when it has
// one, else "unknown".
func soleCategory(o *Operation) string {
	if len(o.Errors.ByCategory) == 1 {
		for c := range o.Errors.ByCategory {
			return c
		}
	}
	return "unknown"
}

func opStats(o *Operation) xmlOpStats {
	s := xmlOpStats{Name: o.Name, Params: o.Params, Unit: o.Unit, Runs: o.Runs, Results: o.Results,
		AvgResults: xmlFloat(o.AvgResults), OpsPerSecond: xmlFloat(o.OpsPerSecond), OpsPerHour: xmlFloat(o.OpsPerHour),
		Errors:  xmlErrors{Total: o.Errors.Total},
		Runtime: newXMLDist(o.Runtime), Response: newXMLDist(o.Response)}
	cats := make([]string, 0, len(o.Errors.ByCategory))
	for c := range o.Errors.ByCategory {
		cats = append(cats, c)
	}
	slices.Sort(cats)
	for _, c := range cats {
		s.Errors.Categories = append(s.Errors.Categories,
			xmlCategory{Name: c, Count: o.Errors.ByCategory[c], First: o.Errors.First[c]})
	}
	if a := o.Actual; a != nil {
		s.Actual = &xmlActual{Runtime: a.Runtime, Mean: a.Mean, OpsPerSecond: xmlFloat(a.OpsPerSecond),
			OpsPerHour: xmlFloat(a.OpsPerHour)}
	}
	return s
}

func newXMLHost(h env.Host) xmlHost {
	return xmlHost{Hostname: h.Hostname, OS: h.OS, Platform: h.Platform, PlatformVersion: h.PlatformVersion,
		Kernel: h.Kernel, Arch: h.Arch, Virtualization: h.Virtualization, UptimeSeconds: h.UptimeSeconds,
		CPUModel: h.CPUModel, PhysicalCPUs: h.PhysicalCPUs, LogicalCPUs: h.LogicalCPUs, CPUMHz: xmlFloat(h.CPUMHz),
		MemoryTotalBytes: h.MemoryTotalBytes, MemoryAvailableBytes: h.MemoryAvailableBytes,
		Load1: xmlFloat(h.Load1), Load5: xmlFloat(h.Load5), Load15: xmlFloat(h.Load15)}
}

func newXMLDist(x Distribution) xmlDist {
	return xmlDist{Count: x.Count, Discarded: x.Discarded, Kept: x.Kept, Total: x.Total, Mean: x.Mean,
		GeoMean: x.GeoMean, Min: x.Min, Max: x.Max, Variance: xmlFloat(x.Variance), StdDev: x.StdDev,
		P50: x.P50, P90: x.P90, P99: x.P99, P999: x.P999, P9999: x.P9999, PMax: x.PMax}
}

// gomemlimit is GOMEMLIMIT in bytes, "off" without a limit.
func gomemlimit(g env.Go) string {
	if g.GOMEMLIMIT == math.MaxInt64 {
		return "off"
	}
	return csvInt(g.GOMEMLIMIT)
}

// xmlFloat is a float64 attribute written as a decimal number, never with
// an exponent, and read back exactly.
type xmlFloat float64

func (f xmlFloat) MarshalText() ([]byte, error) {
	return strconv.AppendFloat(nil, float64(f), 'f', -1, 64), nil
}

func (f *xmlFloat) UnmarshalText(b []byte) error {
	v, err := strconv.ParseFloat(string(b), 64)
	*f = xmlFloat(v)
	return err
}
