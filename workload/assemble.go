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
		Config:      e.cfg,
		Timing:      Timing{Started: e.started, Ended: e.ended, Elapsed: e.elapsed, WarmupElapsed: e.warmElapsed},
		Harness:     Harness{HeapAllocBytes: e.allocBytes, HeapAllocObjects: e.allocObjs, HarnessHeap: e.harnessHeap},
		Interrupted: e.interrupted.Load() && !e.allDone(),
		Halted:      e.halted,
		Categories:  e.cats,
	}
	e.takeRecords(res)
	res.Worst = e.worst.sorted()
	res.Timeline = e.spans.spans()
	res.Operations = make([]OpResult, len(e.mix))
	for i := range res.Operations {
		res.Operations[i] = e.opResult(i, names[i])
		e.executions += res.Operations[i].Stats.Runs
	}
	actual, mixActual := e.actual(res)
	for i := range res.Operations {
		s := &res.Operations[i].Stats
		s.Finish(false, actual[i], s.Runtime.Count)
	}
	mixRT := e.mixResult(res, mixActual)
	e.p99(res, mixRT)
	if e.interval > 0 {
		e.openLoop(res)
	}
	if e.hiccup != nil {
		res.Hiccup = &Hiccup{Interval: e.cfg.Hiccup, Recorder: e.hiccup, Percentiles: latency.PercentilesOf(e.hiccup)}
	}
	e.summarizeGC(res)
	return res
}

// takeRecords moves the completed kept runs and their executions into res,
// in run order, compacted (with threads, an interrupted benchmark may leave
// gaps), copied into the Go heap: the records outside it are released.
func (e *engine) takeRecords(res *Result) {
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
}

// opResult merges the goroutines' states of operation i, called name.
func (e *engine) opResult(i int, name string) OpResult {
	op := OpResult{Name: name, Unit: "results"}
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
		st := &w.ops[i]
		op.Runtime.Merge(st.rt)
		rt.Merge(st.rtAcc)
		r, a := st.response()
		op.Response.Merge(r)
		rsp.Merge(a)
		s.Runs += st.runs
		s.Errors += st.errs
		s.Results += st.results
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
	s.OpsPerRun = 1
	s.Runtime = rt.Summary(e.cfg.Outliers, op.Runtime)
	s.Response = rsp.Summary(e.cfg.Outliers, op.Response)
	return op
}

// actual is the operations' and the mix's actual time, with threads: the
// union of the executions' intervals, those of the kept runs (all of them
// unless there were more runs than Config.Kept()). Without threads, it is
// -1 for each: there is none apart from the sum of the runtimes.
func (e *engine) actual(res *Result) (ops []time.Duration, mix time.Duration) {
	ops = make([]time.Duration, len(e.mix))
	if e.cfg.Threads <= 1 {
		for i := range ops {
			ops[i] = -1
		}
		return ops, -1
	}
	intervals := make([][]latency.Interval, len(e.mix))
	var all []latency.Interval
	for xi, x := range res.Executions {
		if x.Failed() {
			continue
		}
		iv := latency.Interval{Start: int64(x.Start), End: int64(x.Start + x.Runtime)}
		intervals[x.Op] = append(intervals[x.Op], iv)
		// The mix's actual figures cover the runs without failures, the
		// runs its statistics count.
		if res.Runs[xi/e.k].Errors == 0 {
			all = append(all, iv)
		}
	}
	for i := range ops {
		ops[i] = latency.Union(intervals[i])
	}
	return ops, latency.Union(all)
}

// mixResult merges the goroutines' figures of the mix, one value per run:
// runs with a failed operation are counted as errors and left out of the
// timing statistics. It returns the runtimes' accumulator.
func (e *engine) mixResult(res *Result, actual time.Duration) *latency.Accumulator {
	mix, ms := &res.Mix, &res.Mix.Stats
	mix.Runtime, mix.Response = latency.NewRecorder(), latency.NewRecorder()
	rt, rsp := latency.NewAccumulator(e.cfg.Outliers), latency.NewAccumulator(e.cfg.Outliers)
	ms.ErrorsByCategory = map[string]int64{}
	for _, w := range e.workers {
		if e.single { // the mix's figures were recorded as its operation's
			w.mix = w.ops[0].timings
		}
		res.Done += int(w.done)
		ms.Runs += w.done
		ms.Errors += w.mixErrs // a failed run, however many of its operations failed
		ms.Results += w.mixResults
		for c, k := range w.mixBy {
			ms.ErrorsByCategory[e.cats[c]] += k
		}
		mix.Runtime.Merge(w.mix.rt)
		rt.Merge(w.mix.rtAcc)
		r, a := w.mix.response() // the runtimes, without a response apart
		mix.Response.Merge(r)
		rsp.Merge(a)
	}
	ms.OpsPerRun = e.k
	ms.Runtime = rt.Summary(e.cfg.Outliers, mix.Runtime)
	ms.Response = rsp.Summary(e.cfg.Outliers, mix.Response)
	ms.Finish(true, actual, ms.Runtime.Count)
	return rt
}

// p99 sets the result's unit and GCPerfP99's figures. GCPerfP99 counts
// objects per run; a mix whose operations count no results is measured in
// runs.
func (e *engine) p99(res *Result, mixRT *latency.Accumulator) {
	ms := &res.Mix.Stats
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
		res.P99 = p99Bounded(ok, mixRT.Sum(), res.Mix.Runtime.Min(), worst, res.Mix.Runtime, perRun)
		return
	}
	p99 := make([]latency.RunTime, 0, len(res.Runs))
	for _, r := range res.Runs {
		if r.Errors == 0 {
			p99 = append(p99, latency.RunTime{Run: r.Run, Time: r.Runtime})
		}
	}
	res.P99 = latency.GCPerfP99(p99, perRun)
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
			op.Corrected.Merge(w.ops[i].cor)
		}
		op.CorrectedPercentiles = latency.PercentilesOf(op.Corrected)
	}
	for _, w := range e.workers {
		ol.MaxLateness = max(ol.MaxLateness, w.maxLate)
		ol.LateStarts += w.lateStarts
	}
	if e.timeUp.Load() {
		// Duration ended the runs before the schedule's end: the runs
		// never claimed were due within it.
		n := int64(e.cfg.timedRuns(e.k))
		ol.SkippedStarts = (n - min(e.nextTimed.Load(), n)) * int64(e.k)
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
