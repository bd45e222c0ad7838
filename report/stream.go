package report

import (
	"bufio"
	"io"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/gcperf/gcperf/internal/quote"
	"github.com/gcperf/gcperf/latency"
	"github.com/gcperf/gcperf/runstats"
	"github.com/gcperf/gcperf/workload"
)

// The streams are observers: they write as the runs end.
var (
	_ workload.Observer = (*RunLog)(nil)
	_ workload.Observer = (*HistogramLog)(nil)
)

// A RunLog is a workload.Observer that streams every timed run's record to
// a writer as the run ends, one CSV line each, so that a run of any length
// has every run on file whatever Config.KeepRuns keeps in memory. Its
// first line is the header:
//
//	run,thread,start_ns,runtime_ns,response_ns,results,errors
//
// followed, with per-run GC figures (Config.GCStats "run"), by the columns
// of runstats.GCDelta under their JSON names (gc_cycles, stw_pauses,
// stw_ns, ... heap_goal_bytes). The values are integers: durations in
// nanoseconds, start_ns since the timed runs began, as in the JSON
// result's runs. The lines come in the order the runs end, which with
// several threads is not quite run order. Warmups are not logged.
//
// A line is formatted into a reused buffer and written to a bufio.Writer
// (64 KiB: one write to w per several hundred runs), so logging a run
// allocates nothing; with several threads a mutex takes the lines one at a
// time. The buffer is flushed by End, and at least once a second of the
// timed runs (by their starts, without reading the clock), so that a
// process killed mid-soak leaves all but its last second in w. The first write error is kept (Err)
// and ends the logging, never the benchmark. A RunLog follows one
// benchmark.
type RunLog struct {
	mu  sync.Mutex
	w   *bufio.Writer
	buf []byte
	gc  bool
	err error
	// flushed is when, since the timed runs began, the buffer was last
	// flushed: a run that ends a second later flushes it.
	flushed time.Duration
}

// runLogFlushEvery is how often the lines a RunLog buffers reach its
// writer, in the time of the timed runs.
const runLogFlushEvery = time.Second

// NewRunLog returns a RunLog writing to w.
func NewRunLog(w io.Writer) *RunLog {
	return &RunLog{w: bufio.NewWriterSize(w, 64<<10), buf: make([]byte, 0, 512)}
}

// runLogColumns are the RunLog's columns before the GC ones.
var runLogColumns = []string{"run", "thread", "start_ns", "runtime_ns", "response_ns", "results", "errors"}

// runLogGC are the RunLog's GC columns, named by runstats.GCDelta's JSON
// keys.
var runLogGC = []struct {
	name string
	get  func(*runstats.GCDelta) uint64
}{
	{"gc_cycles", func(g *runstats.GCDelta) uint64 { return g.Cycles }},
	{"stw_pauses", func(g *runstats.GCDelta) uint64 { return g.Pauses }},
	{"stw_ns", func(g *runstats.GCDelta) uint64 { return uint64(g.STW) }},
	{"stw_max_ns", func(g *runstats.GCDelta) uint64 { return uint64(g.STWMax) }},
	{"assist_cpu_ns", func(g *runstats.GCDelta) uint64 { return uint64(g.AssistCPU) }},
	{"dedicated_cpu_ns", func(g *runstats.GCDelta) uint64 { return uint64(g.DedicatedCPU) }},
	{"idle_cpu_ns", func(g *runstats.GCDelta) uint64 { return uint64(g.IdleCPU) }},
	{"pause_cpu_ns", func(g *runstats.GCDelta) uint64 { return uint64(g.PauseCPU) }},
	{"gc_cpu_ns", func(g *runstats.GCDelta) uint64 { return uint64(g.GCCPU) }},
	{"total_cpu_ns", func(g *runstats.GCDelta) uint64 { return uint64(g.TotalCPU) }},
	{"alloc_bytes", func(g *runstats.GCDelta) uint64 { return g.AllocBytes }},
	{"alloc_objects", func(g *runstats.GCDelta) uint64 { return g.AllocObjects }},
	{"heap_live_bytes", func(g *runstats.GCDelta) uint64 { return g.HeapLive }},
	{"heap_goal_bytes", func(g *runstats.GCDelta) uint64 { return g.HeapGoal }},
}

// runLogCauses are the RunLog's columns after the GC ones: the run's other
// causes of slowness, named by runstats.RunDelta's JSON keys.
var runLogCauses = []struct {
	name string
	get  func(*runstats.RunDelta) uint64
}{
	{"mark_at_start", func(c *runstats.RunDelta) uint64 {
		if c.MarkAtStart {
			return 1
		}
		return 0
	}},
	{"minor_faults", func(c *runstats.RunDelta) uint64 { return c.MinorFaults }},
	{"major_faults", func(c *runstats.RunDelta) uint64 { return c.MajorFaults }},
	{"voluntary_switches", func(c *runstats.RunDelta) uint64 { return c.VoluntarySwitches }},
	{"involuntary_switches", func(c *runstats.RunDelta) uint64 { return c.InvoluntarySwitches }},
	{"sched_waits", func(c *runstats.RunDelta) uint64 { return c.SchedWaits }},
	{"sched_max_ns", func(c *runstats.RunDelta) uint64 { return uint64(c.SchedMax) }},
}

// Begin writes the header.
func (l *RunLog) Begin(b workload.Begin) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.gc = b.Config.GCStats == workload.GCStatsRun
	cols := runLogColumns
	if l.gc {
		cols = cols[:len(cols):len(cols)]
		for _, c := range runLogGC {
			cols = append(cols, c.name)
		}
		for _, c := range runLogCauses {
			cols = append(cols, c.name)
		}
	}
	l.write(append([]byte(strings.Join(cols, ",")), '\n'))
}

// RunStart does nothing: a run is logged when it ends.
func (l *RunLog) RunStart(workload.Phase, int) {}

// RunEnd logs a timed run.
func (l *RunLog) RunEnd(phase workload.Phase, _ int, r *workload.RunRecord) {
	if phase != workload.Timed || r == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.err != nil {
		return
	}
	b := strconv.AppendInt(l.buf[:0], int64(r.Run), 10)
	b = append(b, ',')
	b = strconv.AppendInt(b, int64(r.Thread), 10)
	b = append(b, ',')
	b = strconv.AppendInt(b, int64(r.Start), 10)
	b = append(b, ',')
	b = strconv.AppendInt(b, int64(r.Runtime), 10)
	b = append(b, ',')
	b = strconv.AppendInt(b, int64(r.Response), 10)
	b = append(b, ',')
	b = strconv.AppendInt(b, r.Results, 10)
	b = append(b, ',')
	b = strconv.AppendInt(b, int64(r.Errors), 10)
	if l.gc {
		for _, c := range runLogGC {
			b = append(b, ',')
			b = strconv.AppendUint(b, c.get(&r.GC), 10)
		}
		for _, c := range runLogCauses {
			b = append(b, ',')
			b = strconv.AppendUint(b, c.get(&r.Causes), 10)
		}
	}
	b = append(b, '\n')
	l.buf = b
	l.write(b)
	if end := r.Start + r.Runtime; end-l.flushed >= runLogFlushEvery && l.err == nil {
		l.flushed, l.err = end, l.w.Flush()
	}
}

// End flushes the lines still buffered.
func (l *RunLog) End(*workload.Result) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.err == nil {
		l.err = l.w.Flush()
	}
}

// write writes b unless an earlier write failed, keeping the first error.
func (l *RunLog) write(b []byte) {
	if l.err == nil {
		_, l.err = l.w.Write(b)
	}
}

// Err is the first error writing the log, nil when every line was written
// (after End, flushed).
func (l *RunLog) Err() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.err
}

// MinHistogramLogInterval is the shortest interval of a HistogramLog: the
// log's timestamps are in milliseconds.
const MinHistogramLogInterval = time.Millisecond

// A HistogramLog is a workload.Observer that writes an HdrHistogram
// interval log (.hlog, the format of jHiccup and of HdrHistogram's
// HistogramLogWriter, read by HistogramLogAnalyzer, HistogramLogProcessor
// and hdrhistogram-go's HistogramLogReader): every interval, the histogram
// of the mix runtimes of the successful timed runs (RunRecord.Runtime when
// Errors is 0) that ended in it, then a fresh one. The histograms track 1ns
// to 1h with 3 significant digits, as latency.Recorder does, and hold
// nanoseconds; the Interval_Max column is in milliseconds, the writer's
// and jHiccup's convention (a ratio of 10^6), and the log's comment says
// so:
//
//	#[Logged with gcperf: mix runtimes of the successful timed runs, in nanoseconds (Interval_Max in milliseconds)]
//	#[Mix: spin d=100us, sleep d=1ms]
//	#[Histogram log format version 1.3]
//	#[StartTime: 1767225600.000 (seconds since epoch), 2026-01-01T00:00:00.000Z]
//	#[BaseTime: 1767225600.000 (seconds since epoch)]
//	"StartTimestamp","Interval_Length","Interval_Max","Interval_Compressed_Histogram"
//	0.000000,1.000000,1.043,HISTFAAAA...
//
// The log starts when the first timed run starts (StartTime and BaseTime,
// to the millisecond), and its timestamps are seconds since then, so that
// they line up with the runs' start_ns. The intervals are fixed: [start,
// start+interval), [start+interval, start+2·interval)... A run belongs to
// the interval in which it ended, read from the clock when RunEnd is
// called; the interval is written at the end of the first run past it.
// A stretch of whole intervals in which no run ended is one empty line, not
// one line per interval; End writes the last, partial interval, up to the
// end of the timed runs. Warmups are not logged.
//
// Recording a run takes a mutex and allocates nothing; writing an interval
// encodes and compresses its histogram, which allocates, once per interval
// (and at the first timed run, the header's start time): the allocations
// count in Result.HeapAllocBytes, and the run that ends an interval is
// followed by the write. The first write error is kept (Err) and ends the
// logging, never the benchmark. A HistogramLog follows one benchmark.
type HistogramLog struct {
	interval time.Duration
	started  atomic.Bool

	mu     sync.Mutex
	w      *bufio.Writer
	lw     *hdrhistogram.HistogramLogWriter
	h      *hdrhistogram.Histogram
	start  time.Time // of the log, the first timed run's, to the millisecond
	open   time.Time // start of the interval being recorded
	closes time.Time // its end, open+interval
	err    error
}

// NewHistogramLog returns a HistogramLog writing to w every interval,
// rounded to the millisecond and at least MinHistogramLogInterval.
func NewHistogramLog(w io.Writer, interval time.Duration) *HistogramLog {
	bw := bufio.NewWriter(w)
	return &HistogramLog{
		interval: max(interval.Round(time.Millisecond), MinHistogramLogInterval),
		w:        bw,
		lw:       hdrhistogram.NewHistogramLogWriter(bw),
		h:        hdrhistogram.New(int64(latency.LowestTrackable), int64(latency.HighestTrackable), latency.SignificantDigits),
	}
}

// Begin writes the log's comments and format version.
func (l *HistogramLog) Begin(b workload.Begin) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.do(func() error {
		return l.lw.OutputComment("[Logged with gcperf: mix runtimes of the successful timed runs, in nanoseconds (Interval_Max in milliseconds)]")
	})
	if len(b.Operations) > 0 {
		l.do(func() error { return l.lw.OutputComment("[Mix: " + quote.Line(strings.Join(b.Operations, ", ")) + "]") })
	}
	l.do(l.lw.OutputLogFormatVersion)
	l.do(l.w.Flush)
}

// RunStart starts the log at the first timed run: its start and base
// times, and the legend.
func (l *HistogramLog) RunStart(phase workload.Phase, _ int) {
	if phase != workload.Timed || l.started.Load() {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.started.Load() {
		return
	}
	l.start = time.Now().Truncate(time.Millisecond)
	l.open, l.closes = l.start, l.start.Add(l.interval)
	l.lw.SetBaseTime(l.start.UnixMilli())
	// The writer's OutputStartTime and OutputBaseTime write whole seconds:
	// these lines are Java HdrHistogram's, to the millisecond, which
	// every reader parses.
	secs := strconv.FormatFloat(float64(l.start.UnixMilli())/1000, 'f', 3, 64)
	l.do(func() error {
		return l.lw.OutputComment("[StartTime: " + secs + " (seconds since epoch), " + l.start.UTC().Format("2006-01-02T15:04:05.000Z07:00") + "]")
	})
	l.do(func() error { return l.lw.OutputComment("[BaseTime: " + secs + " (seconds since epoch)]") })
	l.do(l.lw.OutputLegend)
	l.do(l.w.Flush)
	l.started.Store(true)
}

// RunEnd records a successful timed run's runtime in the interval in
// which it ended, after writing the intervals that ended before it.
func (l *HistogramLog) RunEnd(phase workload.Phase, _ int, r *workload.RunRecord) {
	if phase != workload.Timed || r == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	// The clock is read under the lock, so that the runs of several
	// threads are taken in the order of their ends.
	if now := time.Now(); !now.Before(l.closes) {
		l.emit(l.closes)
		if last := l.start.Add(now.Sub(l.start).Truncate(l.interval)); last.After(l.open) {
			l.emit(last) // the whole intervals no run ended in, as one
		}
		l.closes = l.open.Add(l.interval)
	}
	if r.Errors == 0 {
		// Clamped to the range, as latency.Recorder clamps: it cannot fail.
		_ = l.h.RecordValue(int64(min(max(r.Runtime, 0), latency.HighestTrackable)))
	}
}

// End writes the last interval, up to the end of the timed runs, and
// flushes the log.
func (l *HistogramLog) End(r *workload.Result) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.started.Load() {
		end := time.Now()
		if r != nil && !r.Ended.IsZero() {
			end = r.Ended
		}
		// To the next millisecond, so that the last run is inside the
		// interval the log says.
		if t := end.Truncate(time.Millisecond); t.Before(end) {
			end = t.Add(time.Millisecond)
		}
		if end.After(l.open) || l.h.TotalCount() > 0 {
			l.emit(end)
		}
	}
	l.do(l.w.Flush)
}

// emit writes the interval from l.open to end, and opens the next one at
// end.
func (l *HistogramLog) emit(end time.Time) {
	l.h.SetStartTimeMs(l.open.UnixMilli())
	l.h.SetEndTimeMs(max(end.UnixMilli(), l.open.UnixMilli()))
	l.do(func() error { return l.lw.OutputIntervalHistogram(l.h) })
	l.do(l.w.Flush)
	l.h.Reset()
	l.open = end
}

// do runs a write unless an earlier one failed, keeping the first error.
func (l *HistogramLog) do(write func() error) {
	if l.err == nil {
		l.err = write()
	}
}

// Err is the first error writing the log, nil when everything was written
// (after End, flushed).
func (l *HistogramLog) Err() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.err
}
