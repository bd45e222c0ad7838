package workload

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"runtime"
	"runtime/metrics"
	"slices"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/gcperf/gcperf/internal/offheap"
	"github.com/gcperf/gcperf/internal/sat"
	"github.com/gcperf/gcperf/latency"
	"github.com/gcperf/gcperf/runstats"
)

// Failure categories every benchmark knows. An operation's error may name a
// category of its own with a method Category() string.
const (
	CategoryError     = "error"     // the operation returned an error
	CategoryTimeout   = "timeout"   // it ran past Config.Timeout
	CategoryPanic     = "panic"     // it panicked; the panic was recovered
	CategoryInterrupt = "interrupt" // it was cancelled by the caller's context
)

// ErrPanic is wrapped by the error recorded for an operation that panicked.
var ErrPanic = errors.New("operation panicked")

type panicError struct{ v any }

func (p *panicError) Error() string { return fmt.Sprintf("%v: %v", ErrPanic, p.v) }
func (p *panicError) Unwrap() error { return ErrPanic }

// call runs one execution, turning a panic into an error. It is inside the
// timed region; its deferred recover costs about a nanosecond.
func call(op Operation, ctx context.Context, p *Probe) (err error) {
	defer func() {
		if v := recover(); v != nil {
			err = &panicError{v}
		}
	}()
	return op.Run(ctx, p)
}

// Run runs the benchmark: cfg.Warmups runs of the mix that are not recorded,
// then cfg.Runs timed runs, shared among cfg.Threads goroutines, and returns
// what was measured. Failed operations are counted by category and the
// benchmark goes on, unless cfg.Halt says otherwise.
//
// Run returns an error only when the benchmark cannot start (an invalid
// configuration, a failed Setup) or a Teardown fails; an interrupted or
// halted benchmark returns its partial Result without error.
//
// Inside the timed runs, the harness reads the monotonic clock just before
// and just after each operation and does nothing else between the two reads.
// Everything it records goes into memory allocated before the first timed run.
func Run(ctx context.Context, cfg Config, mix Mix, obs ...Observer) (*Result, error) {
	if err := cfg.Validate(len(mix)); err != nil {
		return nil, fmt.Errorf("workload: %w", err)
	}
	e := &engine{
		cfg:     cfg,
		ctx:     ctx,
		mix:     mix,
		k:       cfg.OpsPerRun(len(mix)),
		obs:     obs,
		timedGo: make(chan struct{}),
		stop:    cfg.Stop,
		cats:    []string{"", CategoryError, CategoryTimeout, CategoryPanic, CategoryInterrupt},
	}
	e.cfg.Stop = nil
	if err := e.prepare(); err != nil {
		return nil, err
	}
	names := make([]string, len(mix))
	for i := range mix {
		names[i] = label(mix, i)
	}
	for _, o := range obs {
		o.Begin(Begin{Config: e.cfg, Operations: names})
	}
	e.run()
	res := e.result(names)
	errs := e.teardown()
	for _, o := range obs {
		o.End(res)
	}
	return res, errors.Join(errs...)
}

// teardown tears down every operation instance that was set up (or needs
// no setup) and releases the goroutines' timeout contexts.
func (e *engine) teardown() []error {
	var errs []error
	for _, w := range e.workers {
		if w.tctx != nil {
			w.tctx.release()
		}
		for i, s := range w.ops {
			if t, ok := s.op.(Teardowner); ok && s.live {
				if err := t.Teardown(); err != nil {
					errs = append(errs, fmt.Errorf("workload: teardown %s: %w", label(e.mix, i), err))
				}
			}
		}
	}
	return errs
}

type engine struct {
	cfg  Config
	ctx  context.Context
	mix  Mix
	k    int // operations per run
	obs  []Observer
	cats []string
	cmu  sync.Mutex // guards cats

	workers []*worker
	// The records of the first keep runs, outside the Go heap (package
	// offheap) until result copies them; free releases them.
	keep  int
	runs  []RunRecord
	execs []Execution
	free  []func()
	worst worstRuns // the slowest successful runs, whole
	spans timeline  // the runs past the kept ones, summarised

	executions  int64  // timed executions, kept or not: set by result
	single      bool   // one operation per run of a mix of one: the mix's figures are the operation's
	harnessHeap uint64 // bytes the harness allocated on the Go heap for its state

	nextWarmup, nextTimed atomic.Int64
	warmDone              sync.WaitGroup
	timedGo               chan struct{}
	t0                    time.Time // start of the timed runs; read after timedGo closes

	stop        <-chan struct{} // Config.Stop
	timeUp      atomic.Bool     // the timed runs ended at Config.Duration
	stopped     atomic.Bool
	interrupted atomic.Bool
	haltMu      sync.Mutex
	halted      string
	elapsed     time.Duration
	warmElapsed time.Duration
	allocBytes  uint64
	allocObjs   uint64
	gcTotal     runstats.GCDelta
	gcStopping  time.Duration    // of gcTotal.STW
	heapObjects uint64           // at the end of the timed runs
	pauses      [4]time.Duration // P50, P90, P99, P99.9 of the pauses
	procBefore  runstats.Process
	procAfter   runstats.Process
	// The machine's CPU times around the timed runs, when /proc/stat is.
	machineBefore, machineAfter runstats.SystemCPU
	machineOK                   bool
	hiccup                      *latency.Recorder
	started                     time.Time
	interval                    float64 // open loop (Config.Rate > 0): nanoseconds between scheduled starts
	ended                       time.Time
}

type worker struct {
	e     *engine
	id    int
	ops   []opState // per operation of the mix, in its order
	ord   *orderer
	tctx  *timeoutCtx
	probe Probe
	first map[firstKey]string

	// Bounded state of every run, kept or not: the mix's timings, failures
	// and results, and the runs that had the collector beside them
	// (CauseGC). A run past the kept ones is recorded in scratch and
	// scratchX.
	mix        timings
	responded  bool // an operation responded apart from its runtime: so does the mix
	opBy       map[firstKey]int64
	done       int64
	mixErrs    int64
	mixResults int64
	mixBy      map[uint8]int64 // failed runs by category: a run once per category
	runFails   []uint8         // the categories of the run in progress's failures
	gcRuns     int64
	scratch    RunRecord
	scratchX   []Execution
	mayWait    bool      // a run may wait before an operation, or read the counters there
	intended   time.Time // open loop: the operation in progress's scheduled start

	// Open loop (Config.Rate > 0): how late the starts were.
	maxLate time.Duration
	// The first and last start of a timed operation, since the timed runs
	// began (open loop): the span the achieved rate is measured over.
	firstStart, lastStart time.Duration
	started               bool
	lateStarts            int64
	slack                 time.Duration // how long before an intended start to stop sleeping
	begun                 bool

	// Readings around runs (Config.GCStats "run"): gcPrev is valid when
	// gcValid, and is the end of this goroutine's previous timed run, or
	// of the wait before this run's first operation (a -delay or the open
	// loop's schedule): what happened while the goroutine waited is not
	// the run's. readAhead is how long the last such reading took, how
	// long before an intended start the open loop takes it.
	gc        *runstats.RunSampler
	gcPrev    *runstats.RunReading
	gcCur     *runstats.RunReading
	gcValid   bool
	readAhead time.Duration
}

// opState is one goroutine's state of one operation of the mix: its
// instance, and what its timed executions recorded, bounded.
type opState struct {
	op     Operation
	cloned bool // a Clone of the mix's operation (Cloner), set up by this goroutine
	live   bool // set up by this goroutine, or needing no setup: torn down at the end
	timings
	cor     *latency.Recorder // open loop: latency from the intended start
	runs    int64
	errs    int64
	results int64
}

// timings is what a goroutine records of the executions of one operation,
// or of the runs of the mix: histograms and the accumulators of the
// mean-based statistics, of runtimes and of response times. Response times
// are recorded apart from runtimes only from the first execution that
// responds (Probe.Respond): until then they are the runtimes, copied over
// then (respOn).
type timings struct {
	rt, resp       *latency.Recorder
	rtAcc, respAcc *latency.Accumulator
	respOn         bool
}

func newTimings(outliers int) timings {
	return timings{
		rt: latency.NewRecorder(), resp: latency.NewRecorder(),
		rtAcc: latency.NewAccumulator(outliers), respAcc: latency.NewAccumulator(outliers),
	}
}

// record records an execution's runtime and response time; responded says
// whether it (or, for the mix, any operation so far) responded apart from
// its runtime.
func (t *timings) record(rt, resp time.Duration, responded bool) {
	if responded && !t.respOn {
		t.resp.Merge(t.rt) // until now, the runtimes
		t.respAcc.CopyFrom(t.rtAcc)
		t.respOn = true
	}
	if t.respOn {
		t.resp.Record(resp)
		t.respAcc.Add(resp)
	}
	t.rt.Record(rt)
	t.rtAcc.Add(rt)
}

// response is where the response times are: the runtimes' recorder and
// accumulator when none was recorded apart.
func (t *timings) response() (*latency.Recorder, *latency.Accumulator) {
	if t.respOn {
		return t.resp, t.respAcc
	}
	return t.rt, t.rtAcc
}

type firstKey struct {
	op  int
	cat uint8
}

// prepare allocates everything the timed runs write to, touches it so that no
// page fault lands in them, and sets the operations up.
func (e *engine) prepare() error {
	if e.cfg.Rate > 0 {
		e.interval = 1e9 / e.cfg.Rate
	}
	heap0 := heapAllocated()
	e.keep = e.cfg.Kept()
	e.single = e.k == 1 && len(e.mix) == 1
	e.spans.init(e.cfg, e.keep, e.k)
	var free func()
	e.runs, free = offheap.Slice[RunRecord](e.keep)
	e.free = append(e.free, free)
	e.execs, free = offheap.Slice[Execution](e.keep * e.k)
	e.free = append(e.free, free)
	e.worst.init(min(e.cfg.timedRuns(e.k), MaxWorst+1))
	for i := range e.runs {
		e.runs[i].Run = -1
	}
	for i := range e.execs {
		e.execs[i].Run = -1
	}
	for id := range e.cfg.Threads {
		e.workers = append(e.workers, e.newWorker(id))
	}
	// What the harness keeps on the Go heap while it measures: its
	// histograms, accumulators, counters, the slowest runs and the
	// timeline, allocated above and nothing after (the records are
	// outside the heap).
	e.harnessHeap = heapAllocated() - heap0
	return e.setup()
}

// newWorker allocates goroutine id's state.
func (e *engine) newWorker(id int) *worker {
	w := &worker{
		e: e, id: id,
		ops:      make([]opState, len(e.mix)),
		ord:      newOrderer(e.cfg, len(e.mix)),
		first:    map[firstKey]string{},
		mix:      newTimings(e.cfg.Outliers),
		opBy:     map[firstKey]int64{},
		mixBy:    map[uint8]int64{},
		runFails: make([]uint8, 0, e.k),
		scratchX: make([]Execution, e.k),
	}
	for i := range w.ops {
		w.ops[i].timings = newTimings(e.cfg.Outliers)
		if e.cfg.Rate > 0 {
			w.ops[i].cor = latency.NewRecorder()
		}
	}
	if e.cfg.Timeout > 0 {
		w.tctx = newTimeoutCtx(e.ctx)
	}
	if e.cfg.GCStats == GCStatsRun {
		w.gc = runstats.NewRunSampler(e.cfg.Pin)
		w.gcPrev, w.gcCur = w.gc.NewReading(), w.gc.NewReading()
	}
	w.mayWait = e.cfg.MaxDelay > 0 || e.interval > 0 || w.gc != nil
	return w
}

// setup gives each goroutine its instance of each operation (a Clone, or
// goroutine 0's) and sets up those it owns; on error it tears down what
// was set up.
func (e *engine) setup() error {
	for id, w := range e.workers {
		for i, op := range e.mix {
			s := &w.ops[i]
			if c, ok := op.(Cloner); ok && id > 0 {
				op = c.Clone()
				s.cloned = true
			}
			s.op = op
			if id > 0 && !s.cloned {
				continue // shared with goroutine 0, which sets it up
			}
			if su, ok := op.(Setupper); ok {
				if err := su.Setup(e.ctx); err != nil {
					// Undo what was set up, so a failed start leaks nothing.
					err = fmt.Errorf("workload: setup %s: %w", label(e.mix, i), err)
					return errors.Join(append([]error{err}, e.teardown()...)...)
				}
			}
			s.live = true
		}
	}
	return nil
}

// heapAllocated is the bytes allocated on the heap since the program
// started (runtime/metrics).
func heapAllocated() uint64 {
	s := []metrics.Sample{{Name: "/gc/heap/allocs:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s[0].Value.Uint64()
}

// run drives the warmups and the timed runs.
func (e *engine) run() {
	var done sync.WaitGroup
	e.warmDone.Add(len(e.workers))
	done.Add(len(e.workers))
	warmStart := time.Now()
	for _, w := range e.workers {
		go func() {
			defer done.Done()
			w.phases(warmStart)
		}()
	}
	e.warmDone.Wait()
	e.warmElapsed = time.Since(warmStart)
	e.timed(&done)
	e.started = e.t0
	e.ended = e.t0.Add(e.elapsed)
	if e.ctx.Err() != nil {
		e.interrupted.Store(true)
	}
}

// phases runs a goroutine's share of the warmups, then, once the engine
// lets them start (timedGo), of the timed runs.
func (w *worker) phases(warmStart time.Time) {
	e := w.e
	if e.cfg.Pin {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
	}
	if e.cfg.Rate > 0 {
		// A goroutine's first sleep allocates its timer: let that happen
		// here, not in the timed runs.
		time.Sleep(time.Nanosecond)
	}
	warmups := e.cfg.Warmups
	if warmups == 0 && e.cfg.WarmupDuration > 0 {
		warmups = math.MaxInt
	}
	w.loop(Warmup, warmups, &e.nextWarmup, warmStart, e.cfg.WarmupDuration)
	e.warmDone.Done()
	<-e.timedGo
	// Open loop, the schedule holds the runs due within Duration
	// (timedRuns), and Duration ends them too when they fall behind it:
	// the starts due and not made are counted (OpenLoop.SkippedStarts).
	w.loop(Timed, e.cfg.timedRuns(e.k), &e.nextTimed, e.t0, e.cfg.Duration)
}

// timed lets the timed runs start and waits for the goroutines to finish
// them (done), reading the counters around them. The collector's counters
// (and the heap allocations within them) are read around the timed runs
// only; the process's, just outside that. Both readers allocate here, and
// never when they read. Without /proc (not Linux) the process's counters
// stay zero.
func (e *engine) timed(done *sync.WaitGroup) {
	sampler := runstats.NewGCSampler()
	g0, g1 := sampler.NewReading(), sampler.NewReading()
	procs, procErr := runstats.NewProcessReader("/", os.Getpid())
	var hiccups *hiccupMeter
	if e.cfg.Hiccup > 0 {
		hiccups = newHiccupMeter(e.cfg.Hiccup) // allocates: before the counters are read
	}
	// /proc/stat is parsed by procfs, which allocates: before the
	// counters are read, and after.
	mb, machErr := runstats.ReadSystemCPU("/")
	if procErr == nil {
		_ = procs.Read(&e.procBefore)
	}
	sampler.ReadFull(g0)
	if hiccups != nil {
		hiccups.start()
	}
	e.t0 = time.Now()
	close(e.timedGo)
	done.Wait()
	e.elapsed = time.Since(e.t0)
	sampler.ReadFull(g1)
	if procErr == nil {
		_ = procs.Read(&e.procAfter)
		procs.Close()
	}
	if machErr == nil {
		if ma, err := runstats.ReadSystemCPU("/"); err == nil {
			e.machineBefore, e.machineAfter, e.machineOK = mb, ma, true
		}
	}
	if hiccups != nil {
		e.hiccup = hiccups.stop()
	}
	e.gcTotal = sampler.Delta(g0, g1)
	e.gcStopping, e.heapObjects = sampler.Stopping(g0, g1), g1.HeapObjects
	e.allocBytes = e.gcTotal.AllocBytes
	e.allocObjs = e.gcTotal.AllocObjects
	if e.cfg.GCStats != GCStatsOff {
		e.pauses = [4]time.Duration{
			sampler.PauseQuantile(g0, g1, 0.5), sampler.PauseQuantile(g0, g1, 0.9),
			sampler.PauseQuantile(g0, g1, 0.99), sampler.PauseQuantile(g0, g1, 0.999),
		}
	}
}

// pollStop reports whether Config.Stop is closed, and when it is marks the
// benchmark interrupted and stopped. It does not block or allocate, and it
// is small enough to inline where the workers poll it between runs.
func (e *engine) pollStop() bool {
	select {
	case <-e.stop:
		e.interrupted.Store(true)
		e.stopped.Store(true)
		return true
	default:
		return false
	}
}

// loop claims runs from the shared pool until there are none left, the
// phase's time d since start is up (d > 0), or the benchmark stops.
func (w *worker) loop(phase Phase, n int, next *atomic.Int64, start time.Time, d time.Duration) {
	e := w.e
	for !e.stopped.Load() && e.ctx.Err() == nil {
		// Config.Stop is polled here, by the goroutine about to start a
		// run, so that no run starts after it is seen closed.
		if e.pollStop() {
			return
		}
		// At least one timed run, however short d: a benchmark of none
		// measured nothing.
		if d > 0 && time.Since(start) >= d && (phase != Timed || next.Load() > 0) {
			if phase == Timed {
				e.timeUp.Store(true)
			}
			return
		}
		i := int(next.Add(1) - 1)
		if i >= n {
			return
		}
		for _, o := range e.obs {
			o.RunStart(phase, i+1)
		}
		rec := w.runMix(phase, i)
		for _, o := range e.obs {
			o.RunEnd(phase, i+1, rec)
		}
	}
}

// runMix runs run i of a phase and, for a timed run, records it. Only the
// operation's call is timed: what comes before (the wait, the context) and
// after it (the records) is outside its clock readings.
func (w *worker) runMix(phase Phase, i int) *RunRecord {
	e := w.e
	timed := phase == Timed
	stream := uint64(streamWarmup)
	if timed {
		stream = streamTimed
	}
	order := w.ord.order(stream, i)
	var rec *RunRecord
	var execs []Execution
	if timed {
		rec, execs = w.records(i)
	}
	timeout := e.cfg.Timeout
	open := timed && e.interval > 0
	p := &w.probe
	for j, opi := range order {
		if w.mayWait {
			w.intended = w.wait(timed, open, i, j)
		}
		ctx := e.ctx
		if timeout > 0 {
			ctx = w.armTimeout(timeout)
		}
		op := w.ops[opi].op
		p.reset()

		p.start = time.Now()
		err := call(op, ctx, p)
		rt := time.Since(p.start)

		if timeout > 0 {
			w.tctx.disarm()
		}
		if timed {
			w.record(rec, &execs[j], i, j, opi, rt, err)
		}
	}
	if !timed {
		return nil
	}
	w.endRun(rec, i)
	return rec
}

// records returns where timed run i is recorded: its place among the kept
// runs, or the scratch records of a run past them. It takes the reading
// the goroutine's first run starts from.
func (w *worker) records(i int) (*RunRecord, []Execution) {
	e := w.e
	if w.gc != nil && !w.gcValid {
		w.gc.Read(w.gcPrev)
		w.gcValid = true
	}
	if i < e.keep {
		return &e.runs[i], e.execs[i*e.k : (i+1)*e.k]
	}
	w.scratch = RunRecord{}
	return &w.scratch, w.scratchX
}

// wait waits before operation j of run i as Config.MaxDelay and the open
// loop's schedule ask, and returns the operation's intended start (open
// loop). The reading a timed run starts from is taken after the wait
// before its first operation.
func (w *worker) wait(timed, open bool, i, j int) (intended time.Time) {
	e := w.e
	readStart := timed && j == 0 && w.gc != nil
	read := false
	if maxDelay := int64(e.cfg.MaxDelay); maxDelay > 0 {
		if d := w.ord.delay(maxDelay); w.begun && d > 0 {
			time.Sleep(time.Duration(d))
			if readStart && !open {
				w.gc.Read(w.gcPrev)
				read = true
			}
		}
	}
	if open {
		intended = e.t0.Add(time.Duration(float64(i*e.k+j) * e.interval))
		read = w.waitUntil(intended, readStart)
	}
	if readStart && !read && len(e.obs) > 0 {
		// What the observers did since the previous run ended (a line
		// written, an interval's histogram encoded, the garbage of
		// either) is not this run's.
		w.gc.Read(w.gcPrev)
	}
	w.begun = true
	return intended
}

// armTimeout returns the goroutine's timeout context, armed for d.
func (w *worker) armTimeout(d time.Duration) context.Context {
	if w.tctx.expired() {
		// An operation may still hold the closed context: it must stay
		// closed, so this goroutine takes a new one (the only allocation
		// here, after a timeout or a cancellation).
		w.tctx.release()
		w.tctx = newTimeoutCtx(w.e.ctx)
	}
	w.tctx.arm(d)
	return w.tctx
}

// record records the timed call of operation opi at place pos of run
// run, which took rt and returned err (the probe holds the rest), in the
// run's record and the operation's state.
func (w *worker) record(rec *RunRecord, out *Execution, run, pos, opi int, rt time.Duration, err error) {
	e := w.e
	p := &w.probe
	resp := rt
	if p.responded {
		resp = p.response
	}
	var cat uint8
	if err != nil || (e.cfg.Timeout > 0 && rt >= e.cfg.Timeout) {
		cat = w.fail(run, opi, err)
	}
	*out = Execution{
		Start:    p.start.Sub(e.t0),
		Runtime:  rt,
		Response: resp,
		Results:  p.results,
		Run:      int32(run),
		Op:       uint16(opi),
		Thread:   uint16(w.id),
		Category: cat,
	}
	if pos == 0 {
		rec.Start = out.Start
	}
	open := e.interval > 0 // a timed run: the open loop's schedule
	var late time.Duration
	if open {
		late = w.late(p.start, w.intended)
	}
	s := &w.ops[opi]
	s.runs++
	if cat != 0 {
		rec.Errors++
		s.errs++
		w.runFails = append(w.runFails, cat)
		return
	}
	if open {
		// From the intended start: the time the operation waited behind
		// a stalled schedule counts. (A start ahead of the schedule
		// happens only after a stop or a cancellation.)
		s.cor.Record(max(late, 0) + rt)
	}
	w.responded = w.responded || p.responded
	s.timings.record(rt, resp, p.responded)
	s.results += p.results
	rec.Runtime += rt
	rec.Response += resp
	rec.Results += p.results
}

// late notes an open-loop start at start, intended at intended, and
// returns how late it was.
func (w *worker) late(start, intended time.Time) time.Duration {
	e := w.e
	late := start.Sub(intended)
	w.maxLate = max(w.maxLate, late)
	at := start.Sub(e.t0)
	if !w.started {
		w.firstStart, w.started = at, true
	}
	w.lastStart = at
	if float64(late) > e.interval {
		w.lateStarts++
	}
	return late
}

// endRun completes the record of timed run i and adds the run to the
// mix's figures.
func (w *worker) endRun(rec *RunRecord, i int) {
	e := w.e
	if w.gc != nil {
		// One reading per run: its end is the next run's start.
		w.gc.Read(w.gcCur)
		rec.GC, rec.Causes = w.gc.Delta(w.gcPrev, w.gcCur)
		w.gcPrev, w.gcCur = w.gcCur, w.gcPrev
	}
	rec.Run, rec.Thread, rec.done = i+1, w.id, true
	w.done++
	if i >= e.keep {
		e.spans.add(i, rec)
	}
	if rec.Has(CauseGC) {
		w.gcRuns++
	}
	if rec.Errors > 0 {
		w.mixErrs++
		// A run counts once under each category it failed with.
		for j, c := range w.runFails {
			if !slices.Contains(w.runFails[:j], c) {
				w.mixBy[c]++
			}
		}
		w.runFails = w.runFails[:0]
		return
	}
	w.mixResults += rec.Results
	e.worst.offer(rec)
	if e.single {
		return // the mix's figures are its one operation's: result takes them
	}
	w.mix.record(rec.Runtime, rec.Response, w.responded)
}

// How long before an operation's intended start the open loop stops
// sleeping and spins on the clock. time.Sleep wakes late: by tens of
// microseconds on an idle machine, by a millisecond or more on a loaded one.
// Each goroutine learns how late its sleeps wake (worker.slack) and spins
// for that long, at least minSpin and at most maxSpin: spinning costs CPU,
// waking late would be counted against the system measured.
const maxSpin = 2 * time.Millisecond

// minSpin is a variable only so that tests can set it to zero (see
// export_test.go): in a testing/synctest bubble the clock stands still
// while a goroutine spins, so the spin would never end, and sleeps wake
// exactly on time, leaving the spin nothing to make up.
var minSpin = 100 * time.Microsecond

// waitUntil returns at t, or at once when t has passed (the schedule is
// behind), sleeping until worker.slack before t and spinning on the
// monotonic clock after. It sleeps at most 10ms at a time, to see the
// benchmark stop or its context end; then it returns early. When it
// waited and read is set, it reads the run's counters into gcPrev just
// before t (worker.readAhead before), so that what happened during the
// wait is not counted in the run, and reports whether it read. It is
// never timed, and does not allocate (the goroutine's timer was allocated
// before the timed runs).
func (w *worker) waitUntil(t time.Time, read bool) (didRead bool) {
	e := w.e
	w.slack = max(w.slack, minSpin)
	waited := false
	for {
		d := time.Until(t)
		if d <= 0 && !waited {
			return false
		}
		if d <= w.slack {
			break
		}
		waited = true
		if e.stopped.Load() || e.ctx.Err() != nil || e.pollStop() {
			return false
		}
		asked := min(d-w.slack, 10*time.Millisecond)
		before := time.Now()
		time.Sleep(asked)
		// Learn quickly that sleeps wake late, and forget it slowly.
		if over := time.Since(before) - asked; over > w.slack {
			w.slack = min(over+over/4, maxSpin)
		} else {
			w.slack = max(w.slack-w.slack/64, minSpin)
		}
	}
	if read {
		for time.Until(t) > w.readAhead {
		}
		start := time.Now()
		w.gc.Read(w.gcPrev)
		w.readAhead = time.Since(start)
	}
	for time.Now().Before(t) {
	}
	return read
}

// fail categorises a failed execution, keeps its first message and applies
// the halt policy. It runs only on failure, so it may allocate.
func (w *worker) fail(run, opi int, err error) uint8 {
	e := w.e
	var cat string
	var c interface{ Category() string }
	switch {
	case errors.Is(err, ErrPanic):
		cat = CategoryPanic
	case e.ctx.Err() != nil && (errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)):
		// The caller's context ended (cancelled, or its own deadline):
		// the operation was interrupted, whatever its own timeout.
		cat = CategoryInterrupt
	case e.cfg.Timeout > 0 && (err == nil || errors.Is(err, context.DeadlineExceeded)):
		cat = CategoryTimeout
		if err == nil {
			err = fmt.Errorf("ran past the %v timeout without noticing its context", e.cfg.Timeout)
		}
	case errors.As(err, &c) && c.Category() != "":
		cat = c.Category()
	default:
		cat = CategoryError
	}
	idx := e.category(cat)
	w.opBy[firstKey{opi, idx}]++
	if _, seen := w.first[firstKey{opi, idx}]; !seen {
		w.first[firstKey{opi, idx}] = err.Error()
	}
	var halt bool
	switch cat {
	case CategoryTimeout:
		halt = e.cfg.Halt&HaltOnTimeout != 0
	case CategoryInterrupt:
		halt = e.cfg.Halt&haltOther != 0
	default: // error, panic, and the operations' own categories of error
		halt = e.cfg.Halt&HaltOnError != 0
	}
	if halt {
		e.haltMu.Lock()
		if e.halted == "" {
			e.halted = fmt.Sprintf("%s in run %d, %s: %v", cat, run+1, label(e.mix, opi), err)
		}
		e.haltMu.Unlock()
		e.stopped.Store(true)
	}
	return idx
}

func (e *engine) category(name string) uint8 {
	e.cmu.Lock()
	defer e.cmu.Unlock()
	for i, c := range e.cats {
		if c == name {
			return uint8(i)
		}
	}
	if len(e.cats) == 255 {
		return 1 // out of room: count it as a plain error
	}
	e.cats = append(e.cats, name)
	return uint8(len(e.cats) - 1)
}

// label names position i of the mix: its name, with "#2", "#3"... when an
// earlier position has the same name.
func label(mix Mix, i int) string {
	name := mix[i].Name()
	n := 1
	for _, op := range mix[:i] {
		if op.Name() == name {
			n++
		}
	}
	if n > 1 {
		return fmt.Sprintf("%s#%d", name, n)
	}
	return name
}

// Footprint is the memory, in bytes, that Run is expected to keep resident
// for its records for a mix of n operations, whatever the number of runs:
// one Execution per operation and one RunRecord per run of the first
// Kept() runs (outside the Go heap), up to MaxWorst+1 RunRecords of the
// slowest runs; per goroutine, its stack and two HdrHistograms per
// operation and two for the mix (three and two with a Rate). A histogram's
// counts (about 264KiB at 3 significant digits) are allocated zeroed and
// untouched: only the pages where recorded values fall become resident,
// so each counts as 32KiB (histResident). The Go heap holds the whole counts,
// resident or not.
func (c Config) Footprint(n int) int64 {
	perOp := 2
	if c.Rate > 0 {
		perOp = 3
	}
	kept := int64(c.Kept())
	return kept*int64(c.OpsPerRun(n))*int64(unsafe.Sizeof(Execution{})) +
		(kept+int64(min(c.Runs, MaxWorst+1)))*int64(unsafe.Sizeof(RunRecord{})) +
		int64(max(c.Threads, 1))*(int64(perOp*n+2)*histResident+stackResident)
}

// histResident is what one latency histogram is expected to keep resident:
// its counts are 8KiB per octave of values, touched a page at a time where
// values fall; 32KiB holds four octaves densely filled and a sparse tail.
// (Measured: 20,000 goroutines of noop, one run each, peak at 426MB RSS.)
const histResident = 32 << 10

// stackResident is a worker goroutine's stack, as it starts.
const stackResident = 8 << 10

// A Need is the memory a benchmark needs once it starts, before it
// allocates any of it: the mix's live set and the engine's records.
type Need struct {
	// Live is what the mix's operations keep alive (Footprinter), an
	// operation that clones itself per goroutine (Cloner) counted once per
	// thread; it saturates at math.MaxInt64.
	Live int64
	// Engine is the engine's records (Config.Footprint).
	Engine int64
	// Biggest is the operation whose live set is the largest, with its
	// share of Live; nil when no operation says (none is a Footprinter).
	Biggest Operation
	Most    int64
}

// Need is what running mix with c needs.
func (c Config) Need(mix Mix) Need {
	n := Need{Engine: c.Footprint(len(mix))}
	for _, op := range mix {
		f, ok := op.(Footprinter)
		if !ok {
			continue
		}
		b := f.LiveBytes()
		if _, ok := op.(Cloner); ok {
			b = sat.Mul(b, int64(max(c.Threads, 1)))
		}
		n.Live = sat.Add(n.Live, b)
		if n.Biggest == nil || b > n.Most {
			n.Biggest, n.Most = op, b
		}
	}
	return n
}

// Total is Live and Engine together, saturating at math.MaxInt64.
func (n Need) Total() int64 { return sat.Add(n.Live, n.Engine) }
