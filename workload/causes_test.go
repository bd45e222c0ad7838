package workload_test

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/gcperf/gcperf/runstats"
	"github.com/gcperf/gcperf/workload"
)

// touchFresh maps n fresh pages, writes one byte in each (a minor fault
// each) and unmaps them: slow, and outside the Go heap, so the collector
// does not run.
func touchFresh(n int) error {
	page := syscall.Getpagesize()
	mem, err := syscall.Mmap(-1, 0, n*page, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		return err
	}
	for i := 0; i < len(mem); i += page {
		mem[i] = 1
	}
	return syscall.Munmap(mem)
}

// TestTailVerdicts runs workloads whose slow runs have a known cause and
// checks the verdicts name it, and only it among the causes the workload
// controls: Fisher's test says it explains the tail, and the estimate
// that it adds to the P99.
func TestTailVerdicts(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("page faults are read on Linux only")
	}
	const every = 25 // one run in 25 is made slow: 4% of the runs
	faults := func(call int64) error {
		if call%every == 0 {
			return touchFresh(2048)
		}
		spinFor(20 * time.Microsecond)
		return nil
	}
	tests := []struct {
		name string
		pin  bool
		run  func(call int64) error
		// The verdicts the test controls: causes that must explain the
		// tail by Fisher's test, causes whose estimate must add to the
		// P99, and causes that must do neither.
		explains, adds, not []workload.Cause
	}{
		{"slow runs are the GC runs", false, func(call int64) error {
			if call%every == 0 {
				runtime.GC()
			} else {
				spinFor(20 * time.Microsecond)
			}
			return nil
			// The run waits for a whole cycle, mostly not stopped: the
			// pauses are a small part of it.
		}, []workload.Cause{workload.CauseGC, workload.CauseSTW}, []workload.Cause{workload.CauseGC}, []workload.Cause{workload.CauseMajorFaults}},
		{"slow runs fault on fresh memory", false, faults, []workload.Cause{workload.CauseMinorFaults}, []workload.Cause{workload.CauseMinorFaults}, []workload.Cause{workload.CauseGC, workload.CauseSTW, workload.CauseMajorFaults}},
		{"the same, pinned: the thread's faults", true, faults, []workload.Cause{workload.CauseMinorFaults}, []workload.Cause{workload.CauseMinorFaults}, []workload.Cause{workload.CauseGC, workload.CauseSTW, workload.CauseMajorFaults}},
		// Pinned: the faults of the worker's own thread, not those of
		// whatever else the test process runs beside it.
		{"slow runs have neither", true, func(call int64) error {
			// Runtimes of 20..420µs by a fixed pseudo-random sequence.
			spinFor(time.Duration(20+(call*7919)%400) * time.Microsecond)
			return nil
		}, nil, nil, []workload.Cause{workload.CauseGC, workload.CauseSTW, workload.CauseMinorFaults, workload.CauseMajorFaults}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			op := &fnOp{name: "op", fn: func(_ context.Context, _ *workload.Probe, call int64) error { return tt.run(call) }}
			cfg := testConfig(1000)
			cfg.Pin = tt.pin
			// Warm up past the first touch of the stacks and the code.
			cfg.Warmups = 20
			wantScope := runstats.ScopeProcess
			if tt.pin {
				wantScope = runstats.ScopeThread
			}
			// The machine can make a slow run of its own (a preempted
			// thread whose pages the kernel reclaimed faults them back):
			// the verdicts must come out as built in one attempt of three.
			var problems []string
			for range 3 {
				problems = problems[:0]
				res := mustRun(t, cfg, workload.Mix{op})
				tail := res.Tail
				if tail.Scope != wantScope || len(tail.Causes) != int(workload.NumCauses) {
					t.Fatalf("scope %v, %d causes; want %v, %d", tail.Scope, len(tail.Causes), wantScope, workload.NumCauses)
				}
				for _, c := range tail.Causes {
					if c.Worst != 10 || c.Runs != 1000 {
						t.Fatalf("%v: %d worst of %d runs, want 10 of 1000", c.Cause, c.Worst, c.Runs)
					}
				}
				for _, c := range tt.explains {
					if ct := tail.Causes[c]; ct.Verdict != workload.VerdictExplains {
						problems = append(problems, fmt.Sprintf("%v: %v, want explains: %+v", c, ct.Verdict, ct))
					}
				}
				for _, c := range tt.adds {
					if ct := tail.Causes[c]; ct.Cost != workload.CostAdds {
						problems = append(problems, fmt.Sprintf("%v: %v, want adds: %+v", c, ct.Cost, ct))
					}
				}
				for _, c := range tt.not {
					if ct := tail.Causes[c]; ct.Verdict == workload.VerdictExplains || ct.Verdict == workload.VerdictPart || ct.Cost == workload.CostAdds {
						problems = append(problems, fmt.Sprintf("%v: %v, %v; want neither explains nor adds: %+v", c, ct.Verdict, ct.Cost, ct))
					}
				}
				if len(problems) == 0 {
					return
				}
			}
			t.Errorf("in each of 3 attempts; the last:\n%s", strings.Join(problems, "\n"))
		})
	}
}

// TestTailWithoutRunReadings: without per-run readings there are no
// verdicts, and with fewer runs than a tail needs each says so.
func TestTailWithoutRunReadings(t *testing.T) {
	op := named("op")
	cfg := testConfig(100)
	cfg.GCStats = workload.GCStatsTotal
	if res := mustRun(t, cfg, workload.Mix{op}); res.Tail.Causes != nil {
		t.Errorf("-gcstats total: causes %+v", res.Tail.Causes)
	}
	// Fewer than twice the tail: no tail at all, rather than 10 of 15
	// runs, and no p-value claimed (it said "even all 10 would give p =
	// 1", which they would not).
	for _, runs := range []int{5, 15, 19} {
		cfg = testConfig(runs)
		res := mustRun(t, cfg, workload.Mix{op})
		for _, c := range res.Tail.Causes {
			if c.Verdict != workload.VerdictTooFew || c.Worst != 0 || c.Runs != runs {
				t.Errorf("%d runs: %v: %v, the slowest %d of %d; want too few runs to tell, none of %d", runs, c.Cause, c.Verdict, c.Worst, c.Runs, runs)
			}
		}
	}
}

var gcSink []byte

// TestTailGCCountsAgree: the runs "with GC" are the same runs wherever a
// result counts them (Tail.RunsWithGC and WorstWithGC, the gc cause, the
// timeline's spans), among them the runs that began while a mark phase
// was in progress and saw no cycle end nor pause. They were counted as
// without GC in RunsWithGC and with it in the gc cause: 5 against 16 of
// 40 runs in one result.
func TestTailGCCountsAgree(t *testing.T) {
	op := &fnOp{name: "alloc", fn: func(context.Context, *workload.Probe, int64) error {
		gcSink = make([]byte, 64<<10) // a cycle every few runs, each marking across several
		return nil
	}}
	cfg := testConfig(2000)
	cfg.KeepRuns = 1000 // and the spans past them
	for range 3 {
		res := mustRun(t, cfg, workload.Mix{op})
		kept, markOnly := 0, 0
		for i := range res.Runs {
			r := &res.Runs[i]
			if r.Has(workload.CauseGC) {
				kept++
				if !r.GC.Overlapped() {
					markOnly++
				}
			}
		}
		var spans int64
		for _, s := range res.Timeline {
			spans += s.GCRuns
		}
		worst := 0
		for _, w := range res.P99.Worst {
			if r := res.Run(w.Run); r != nil && r.Has(workload.CauseGC) {
				worst++
			}
		}
		tail := res.Tail
		if got := tail.Causes[workload.CauseGC].RunsWith; got != kept {
			t.Fatalf("gc cause: %d runs with it, %d kept runs had it", got, kept)
		}
		if tail.RunsWithGC != kept+int(spans) || tail.WorstWithGC != worst {
			t.Fatalf("RunsWithGC %d, WorstWithGC %d; want %d kept + %d in spans, %d of the worst",
				tail.RunsWithGC, tail.WorstWithGC, kept, spans, worst)
		}
		if markOnly > 0 {
			return
		}
	}
	t.Skip("no run began in a mark phase without a cycle end or a pause in it: nothing told the counts apart")
}

// TestCausesNotOfTheWait: what happens between two runs is not charged to
// either: not the wait before a run (-delay, the open loop's schedule),
// nor what the observers do after one (here a whole GC cycle, run by an
// observer as each timed run ends, before the next begins). Charged to
// the next run, it gave every run a GC cycle; the operation allocates
// nothing, so no run had one of its own.
func TestCausesNotOfTheWait(t *testing.T) {
	tests := []struct {
		name     string
		rate     float64
		maxDelay time.Duration
	}{
		{"closed loop", 0, 0},
		{"delay", 0, 100 * time.Microsecond},
		// 10ms apart: room for the cycle before the next start.
		{"open loop", 100, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			op := &fnOp{name: "op", fn: func(context.Context, *workload.Probe, int64) error {
				spinFor(20 * time.Microsecond)
				return nil
			}}
			cfg := testConfig(50)
			cfg.Rate, cfg.MaxDelay = tt.rate, tt.maxDelay
			var last string
			for range 3 {
				obs := &gcAfterRuns{}
				res := mustRun(t, cfg, workload.Mix{op}, obs)
				gc := res.Tail.Causes[workload.CauseGC]
				if res.GC.Cycles < uint64(obs.cycles.Load()) || obs.cycles.Load() < 49 {
					t.Fatalf("%d GC cycles, %d forced between runs", res.GC.Cycles, obs.cycles.Load())
				}
				// The defect charged the forced cycle to every next run (49
				// of 50); a cycle of the test process's own, on a loaded
				// machine, lands in one run now and then, and is no part of
				// the wait.
				if gc.RunsWith <= 2 {
					return
				}
				last = fmt.Sprintf("%d of %d runs had GC, with a cycle forced after each run", gc.RunsWith, gc.Runs)
			}
			t.Errorf("in each of 3 attempts; the last: %s", last)
		})
	}
}

// gcAfterRuns is an observer that runs a GC cycle as each timed run but
// the last ends.
type gcAfterRuns struct {
	cycles atomic.Int64
	runs   int
}

func (o *gcAfterRuns) Begin(b workload.Begin)       { o.runs = b.Config.Runs }
func (o *gcAfterRuns) RunStart(workload.Phase, int) {}
func (o *gcAfterRuns) RunEnd(phase workload.Phase, run int, _ *workload.RunRecord) {
	if phase == workload.Timed && run < o.runs {
		runtime.GC()
		o.cycles.Add(1)
	}
}
func (o *gcAfterRuns) End(*workload.Result) {}
