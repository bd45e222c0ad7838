package workload

import (
	"slices"
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
		HarnessHeap:      e.harnessHeap,
		Interrupted:      e.interrupted.Load() && !e.allDone(),
		Halted:           e.halted,
		Categories:       e.cats,
	}
	// Completed kept runs and their executions, in run order, compacted
	// (with threads, an interrupted benchmark may leave gaps), copied into
	// the Go heap: the records outside it are released.
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
	res.Runs = slices.Clone(e.runs[:kept])
	res.Executions = slices.Clone(e.execs[:kept*e.k])
	for _, free := range e.free {
		free()
	}
	e.runs, e.execs, e.free = nil, nil, nil
	res.Worst = e.worst.sorted()
	res.Timeline = e.spans.spans()
	multi := e.cfg.Threads > 1

	n := len(e.mix)
	res.Operations = make([]OpResult, n)
	mixBy := map[string]int64{}
	var mixRT, mixRsp = latency.NewAccumulator(e.cfg.Outliers), latency.NewAccumulator(e.cfg.Outliers)
	ms := &res.Mix.Stats
	var executions int64
	for _, w := range e.workers {
		if e.single { // the mix's figures were recorded as its operation's
			w.mixRT, w.mixRsp, w.mixRespOn = w.rt[0], w.resp[0], w.respOn[0]
			w.mixRTAcc, w.mixRspAcc = w.rtAcc[0], w.respAcc[0]
		}
		res.Done += int(w.done)
		ms.Runs += w.done
		ms.Errors += w.mixErrs // a failed run, however many of its operations failed
		ms.Results += w.mixResults
		for c, k := range w.mixBy {
			mixBy[e.cats[c]] += k
		}
		mixRT.Merge(w.mixRTAcc)
		if w.mixRespOn {
			mixRsp.Merge(w.mixRspAcc)
		} else {
			mixRsp.Merge(w.mixRTAcc) // no response apart from the runtime
		}
	}
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
		rt, rsp := latency.NewAccumulator(e.cfg.Outliers), latency.NewAccumulator(e.cfg.Outliers)
		s := &op.Stats
		s.ErrorsByCategory = map[string]int64{}
		for _, w := range e.workers {
			op.Runtime.Merge(w.rt[i])
			rt.Merge(w.rtAcc[i])
			if w.respOn[i] {
				op.Response.Merge(w.resp[i])
				rsp.Merge(w.respAcc[i])
			} else { // no response apart from the runtime
				op.Response.Merge(w.rt[i])
				rsp.Merge(w.rtAcc[i])
			}
			s.Runs += w.opRuns[i]
			s.Errors += w.opErrs[i]
			s.Results += w.opResults[i]
			for k, c := range w.opBy {
				if k.op == i {
					s.ErrorsByCategory[e.cats[k.cat]] += c
				}
			}
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
		executions += s.Runs
		s.OpsPerRun = 1
		s.Runtime = rt.Summary(e.cfg.Outliers, op.Runtime)
		s.Response = rsp.Summary(e.cfg.Outliers, op.Response)
	}

	// With threads, the actual figures come from the union of the
	// executions' intervals: those of the kept runs (all of them unless
	// there were more runs than Config.Kept()).
	actual := make([]time.Duration, n)
	mixActual := time.Duration(-1)
	if multi {
		intervals := make([][]latency.Interval, n)
		var all []latency.Interval
		for xi, x := range res.Executions {
			if x.Failed() {
				continue
			}
			iv := latency.Interval{Start: int64(x.Start), End: int64(x.Start + x.Runtime)}
			intervals[x.Op] = append(intervals[x.Op], iv)
			// The mix's actual figures cover the runs without failures,
			// the runs its statistics count.
			if res.Runs[xi/e.k].Errors == 0 {
				all = append(all, iv)
			}
		}
		for i := range actual {
			actual[i] = latency.Union(intervals[i])
		}
		mixActual = latency.Union(all)
	}
	for i := range res.Operations {
		s := &res.Operations[i].Stats
		a := time.Duration(-1)
		if multi {
			a = actual[i]
		}
		s.Finish(false, a, s.Runtime.Count)
	}

	// The mix: one value per run; runs with a failed operation are counted
	// as errors and left out of the timing statistics.
	mix := &res.Mix
	mix.Runtime, mix.Response = latency.NewRecorder(), latency.NewRecorder()
	for _, w := range e.workers {
		mix.Runtime.Merge(w.mixRT)
		if w.mixRespOn {
			mix.Response.Merge(w.mixRsp)
		} else {
			mix.Response.Merge(w.mixRT)
		}
	}
	ms.ErrorsByCategory = mixBy
	ms.OpsPerRun = e.k
	ms.Runtime = mixRT.Summary(e.cfg.Outliers, mix.Runtime)
	ms.Response = mixRsp.Summary(e.cfg.Outliers, mix.Response)
	ms.Finish(true, mixActual, ms.Runtime.Count)
	e.executions = executions

	// GCPerfP99 counts objects per run; a mix whose operations count no
	// results is measured in runs.
	perRun := 1.0
	res.Unit = "runs"
	ok := int(ms.Runs - ms.Errors)
	if ok > 0 && ms.Results > 0 {
		perRun = float64(ms.Results) / float64(ok)
		res.Unit = res.Operations[0].Unit
		for _, op := range res.Operations[1:] {
			if op.Unit != res.Unit {
				res.Unit = "results"
			}
		}
	}
	if res.Summarised() {
		worst := make([]latency.RunTime, len(res.Worst))
		for i, r := range res.Worst {
			worst[i] = latency.RunTime{Run: r.Run, Time: r.Runtime}
		}
		res.P99 = latency.GCPerfP99Bounded(ok, mixRT.Sum(), mix.Runtime.Min(), worst, mix.Runtime, perRun)
	} else {
		p99 := make([]latency.RunTime, 0, len(res.Runs))
		for _, r := range res.Runs {
			if r.Errors == 0 {
				p99 = append(p99, latency.RunTime{Run: r.Run, Time: r.Runtime})
			}
		}
		res.P99 = latency.GCPerfP99(p99, perRun)
	}
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
	if e.machineOK {
		m := e.machineAfter.Sub(e.machineBefore)
		res.Machine = &m
	}
	if e.cfg.GCStats == GCStatsOff {
		return
	}
	g := &res.GC
	g.GCDelta = e.gcTotal
	g.Stopping, g.HeapObjects = e.gcStopping, e.heapObjects
	g.PauseP50, g.PauseP90, g.PauseP99, g.PauseP999 = e.pauses[0], e.pauses[1], e.pauses[2], e.pauses[3]
	if g.TotalCPU > 0 {
		g.CPUFraction = float64(g.GCCPU) / float64(g.TotalCPU)
	}
	if secs := res.Elapsed.Seconds(); secs > 0 {
		g.AllocRate = float64(g.AllocBytes) / secs
	}
	if e.executions > 0 {
		g.AllocBytesPerOp = float64(g.AllocBytes) / float64(e.executions)
	}
	if e.cfg.GCStats != GCStatsRun {
		return
	}
	e.attribute(res)
}

// allDone reports whether every timed run completed: a stop that came after
// the last run interrupted nothing.
func (e *engine) allDone() bool {
	var done int64
	for _, w := range e.workers {
		done += w.done
	}
	return e.timeUp.Load() || done == int64(e.cfg.timedRuns(e.k))
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
	// Operations started per second: n starts span n-1 intervals, from
	// the first start to the last (a kept schedule gives the rate asked).
	var first, last time.Duration
	started := false
	for _, w := range e.workers {
		if !w.started {
			continue
		}
		if !started || w.firstStart < first {
			first = w.firstStart
		}
		last, started = max(last, w.lastStart), true
	}
	if span := (last - first).Seconds(); e.executions > 1 && span > 0 {
		ol.Achieved = float64(e.executions-1) / span
	} else if secs := res.Elapsed.Seconds(); secs > 0 {
		ol.Achieved = float64(e.executions) / secs
	}
	ol.Behind = ol.Achieved < 0.95*ol.Rate
	res.OpenLoop = ol
}
