package workload

import (
	"time"

	"github.com/gcperf/gcperf/latency"
)

// result turns what the workers recorded into a Result. It runs after the
// timed runs, so it may allocate and sort freely.
func (e *engine) result(names []string) *Result {
	res := &Result{
		Config:           e.cfg,
		Started:          e.started,
		Ended:            e.ended,
		Elapsed:          e.elapsed,
		WarmupElapsed:    e.warmElapsed,
		HeapAllocBytes:   e.allocBytes,
		HeapAllocObjects: e.allocObjs,
		Interrupted:      e.interrupted.Load() && !e.allDone(),
		Halted:           e.halted,
		Categories:       e.cats,
	}
	// Completed runs and their executions, in run order, compacted in place
	// (with threads, an interrupted benchmark may leave gaps).
	kept := 0
	for i := range e.runs {
		if !e.runs[i].done {
			continue
		}
		if kept != i {
			e.runs[kept] = e.runs[i]
			copy(e.execs[kept*e.k:(kept+1)*e.k], e.execs[i*e.k:(i+1)*e.k])
		}
		kept++
	}
	res.Runs = e.runs[:kept:kept]
	res.Executions = e.execs[: kept*e.k : kept*e.k]
	multi := e.cfg.Threads > 1

	n := len(e.mix)
	res.Operations = make([]OpResult, n)
	runtimes := make([][]time.Duration, n)
	responses := make([][]time.Duration, n)
	intervals := make([][]latency.Interval, n)
	var all []latency.Interval
	for i := range res.Operations {
		op := &res.Operations[i]
		op.Name = names[i]
		op.Unit = "results"
		if u, ok := e.mix[i].(Uniter); ok {
			op.Unit = u.Unit()
		}
		if d, ok := e.mix[i].(Describer); ok {
			op.Params = d.Describe()
		}
		op.Runtime, op.Response = latency.NewRecorder(), latency.NewRecorder()
		for _, w := range e.workers {
			op.Runtime.Merge(w.rt[i])
			op.Response.Merge(w.resp[i])
		}
		op.Stats.ErrorsByCategory = map[string]int64{}
	}
	counts := make([]int, n)
	for _, x := range res.Executions {
		if !x.Failed() {
			counts[x.Op]++
		}
	}
	for i, c := range counts {
		runtimes[i] = make([]time.Duration, 0, c)
		responses[i] = make([]time.Duration, 0, c)
		if multi {
			intervals[i] = make([]latency.Interval, 0, c)
		}
	}
	if multi {
		all = make([]latency.Interval, 0, len(res.Executions))
	}
	// The mix counts runs: a run counts once under each category it failed
	// with, however many of its operations failed with it.
	mixBy := map[string]int64{}
	lastRun := make([]int, len(e.cats))
	for c := range lastRun {
		lastRun[c] = -1
	}
	for xi, x := range res.Executions {
		s := &res.Operations[x.Op].Stats
		s.Runs++
		if x.Failed() {
			s.Errors++
			s.ErrorsByCategory[e.cats[x.Category]]++
			if run := xi / e.k; lastRun[x.Category] != run {
				lastRun[x.Category] = run
				mixBy[e.cats[x.Category]]++
			}
			continue
		}
		s.Results += x.Results
		runtimes[x.Op] = append(runtimes[x.Op], x.Runtime)
		responses[x.Op] = append(responses[x.Op], x.Response)
		if multi {
			iv := latency.Interval{Start: int64(x.Start), End: int64(x.Start + x.Runtime)}
			intervals[x.Op] = append(intervals[x.Op], iv)
			// The mix's actual figures cover the runs without failures,
			// the runs its statistics count.
			if res.Runs[xi/e.k].Errors == 0 {
				all = append(all, iv)
			}
		}
	}
	for i := range res.Operations {
		op := &res.Operations[i]
		for _, w := range e.workers {
			for k, msg := range w.first {
				if k.op != i {
					continue
				}
				if op.FirstError == nil {
					op.FirstError = map[string]string{}
				}
				if _, ok := op.FirstError[e.cats[k.cat]]; !ok {
					op.FirstError[e.cats[k.cat]] = msg
				}
			}
		}
		s := &op.Stats
		s.OpsPerRun = 1
		s.Runtime = latency.Summarize(runtimes[i], e.cfg.Outliers, op.Runtime)
		s.Response = latency.Summarize(responses[i], e.cfg.Outliers, op.Response)
		actual := time.Duration(-1)
		if multi {
			actual = latency.Union(intervals[i])
		}
		s.Finish(false, actual, s.Runtime.Count)
	}

	// The mix: one value per run; runs with a failed operation are counted
	// as errors and left out of the timing statistics.
	mix := &res.Mix
	mix.Runtime, mix.Response = latency.NewRecorder(), latency.NewRecorder()
	for _, w := range e.workers {
		mix.Runtime.Merge(w.mixRT)
		mix.Response.Merge(w.mixRsp)
	}
	ms := &mix.Stats
	ms.ErrorsByCategory = mixBy
	ms.OpsPerRun = e.k
	mixRT := make([]time.Duration, 0, len(res.Runs))
	mixResp := make([]time.Duration, 0, len(res.Runs))
	p99 := make([]latency.RunTime, 0, len(res.Runs))
	for _, r := range res.Runs {
		ms.Runs++
		if r.Errors > 0 {
			ms.Errors++ // a failed run, however many of its operations failed
			continue
		}
		ms.Results += r.Results
		mixRT = append(mixRT, r.Runtime)
		mixResp = append(mixResp, r.Response)
		p99 = append(p99, latency.RunTime{Run: r.Run, Time: r.Runtime})
	}
	ms.Runtime = latency.Summarize(mixRT, e.cfg.Outliers, mix.Runtime)
	ms.Response = latency.Summarize(mixResp, e.cfg.Outliers, mix.Response)
	actual := time.Duration(-1)
	if multi {
		actual = latency.Union(all)
	}
	ms.Finish(true, actual, ms.Runtime.Count)

	// GCPerfP99 counts objects per run; a mix whose operations count no
	// results is measured in runs.
	perRun := 1.0
	res.Unit = "runs"
	if ok := len(p99); ok > 0 && ms.Results > 0 {
		perRun = float64(ms.Results) / float64(ok)
		res.Unit = res.Operations[0].Unit
		for _, op := range res.Operations[1:] {
			if op.Unit != res.Unit {
				res.Unit = "results"
			}
		}
	}
	res.P99 = latency.GCPerfP99(p99, perRun)
	if e.interval > 0 {
		e.openLoop(res)
	}
	if e.hiccup != nil {
		res.Hiccup = &Hiccup{Interval: e.cfg.Hiccup, Recorder: e.hiccup, Percentiles: latency.PercentilesOf(e.hiccup)}
	}
	e.summarizeGC(res)
	return res
}

// summarizeGC fills the GC summary of the timed runs and relates the worst
// runs to the collector.
func (e *engine) summarizeGC(res *Result) {
	res.ProcessBefore, res.ProcessAfter = e.procBefore, e.procAfter
	if e.cfg.GCStats == GCStatsOff {
		return
	}
	g := &res.GC
	g.GCDelta = e.gcTotal
	g.PauseP50, g.PauseP90, g.PauseP99, g.PauseP999 = e.pauses[0], e.pauses[1], e.pauses[2], e.pauses[3]
	if g.TotalCPU > 0 {
		g.CPUFraction = float64(g.GCCPU) / float64(g.TotalCPU)
	}
	if secs := res.Elapsed.Seconds(); secs > 0 {
		g.AllocRate = float64(g.AllocBytes) / secs
	}
	if n := len(res.Executions); n > 0 {
		g.AllocBytesPerOp = float64(g.AllocBytes) / float64(n)
	}
	if e.cfg.GCStats != GCStatsRun {
		return
	}
	t := &res.Tail
	for _, r := range res.Runs {
		t.Runs++
		if r.GC.Overlapped() {
			t.RunsWithGC++
		}
	}
	for _, w := range res.P99.Worst {
		t.Worst++
		if r := res.Run(w.Run); r != nil && r.GC.Overlapped() {
			t.WorstWithGC++
		}
	}
}

// allDone reports whether every timed run completed: a stop that came after
// the last run interrupted nothing.
func (e *engine) allDone() bool {
	for i := range e.runs {
		if !e.runs[i].done {
			return false
		}
	}
	return true
}

// openLoop merges the corrected latencies and summarises the schedule.
func (e *engine) openLoop(res *Result) {
	ol := &OpenLoop{Rate: e.cfg.Rate, Interval: time.Duration(e.interval)}
	for i := range res.Operations {
		op := &res.Operations[i]
		op.Corrected = latency.NewRecorder()
		for _, w := range e.workers {
			op.Corrected.Merge(w.cor[i])
		}
		op.CorrectedPercentiles = latency.PercentilesOf(op.Corrected)
	}
	for _, w := range e.workers {
		ol.MaxLateness = max(ol.MaxLateness, w.maxLate)
		ol.LateStarts += w.lateStarts
	}
	if secs := res.Elapsed.Seconds(); secs > 0 {
		ol.Achieved = float64(len(res.Executions)) / secs
	}
	ol.Behind = ol.Achieved < 0.95*ol.Rate
	res.OpenLoop = ol
}
