package workload

import (
	"fmt"
	"slices"
	"time"

	"github.com/gcperf/gcperf/internal/fisher"
	"github.com/gcperf/gcperf/latency"
)

// A Cause is something that happened during a run and can make it slow.
// The engine reads each between runs (Config.GCStats "run") and
// Result.Tail says, for each, how much of the P99 and of the slowest 1% it
// accounts for, with a confidence interval (CauseTail.Cost), and whether
// the slowest runs had it more often than all runs (Fisher's test,
// CauseTail.Verdict).
type Cause uint8

const (
	// CauseGC: the collector ran beside the run: a cycle ended in it, a
	// stop-the-world pause fell in it, or a mark phase was in progress when
	// it began.
	CauseGC Cause = iota
	// CauseSTW: a stop-the-world pause of the collector fell in the run.
	CauseSTW
	// CauseMinorFaults: the run's thread (or process) took a page fault
	// served without I/O: first touch of fresh memory, typically the heap
	// growing or memory the scavenger returned to the OS used again.
	CauseMinorFaults
	// CauseMajorFaults: a page fault that waited for I/O.
	CauseMajorFaults
	// CauseInvoluntarySwitches: the OS took the CPU away (preemption by
	// another thread or process).
	CauseInvoluntarySwitches
	// CauseVoluntarySwitches: a thread blocked and gave up its CPU (a
	// sleep, a lock, I/O, a goroutine parked with no other to run).
	CauseVoluntarySwitches
	// CauseSched: a goroutine waited at least runstats.SchedSlow, runnable,
	// before it ran (the runtime samples one in eight waits).
	CauseSched

	NumCauses Cause = iota // how many causes there are
)

var causeNames = [NumCauses]string{
	"gc", "stw", "minor_faults", "major_faults", "involuntary_switches", "voluntary_switches", "sched_waits",
}

// String is the cause's name in reports and JSON: gc, stw, minor_faults,
// major_faults, involuntary_switches, voluntary_switches, sched_waits.
func (c Cause) String() string {
	if c < NumCauses {
		return causeNames[c]
	}
	return "cause?"
}

// MarshalText is the cause's name (String), as reports write it.
func (c Cause) MarshalText() ([]byte, error) { return []byte(c.String()), nil }

// UnmarshalText reads a cause's name, as MarshalText writes it.
func (c *Cause) UnmarshalText(b []byte) error {
	for i, n := range causeNames {
		if n == string(b) {
			*c = Cause(i)
			return nil
		}
	}
	return fmt.Errorf("workload: unknown cause %q", b)
}

// Has reports whether the run had cause c: any of it (its Amount is not
// 0). It does not allocate.
func (r *RunRecord) Has(c Cause) bool { return r.Amount(c) > 0 }

// TailAlpha is the significance level of the verdicts: a cause explains the
// tail when the chance that the slowest runs had it that often by luck
// alone (Fisher's exact test) is below it, and at least half of them had
// it (part of the tail, when at least two but fewer than half did). With seven causes tested at
// once, about one report in fifteen names a cause by chance at 0.01.
const TailAlpha = 0.01

// MinTailRuns is how many of the slowest runs a verdict looks at, at the
// least: the worst 1% of the runs, and never fewer than this.
const MinTailRuns = 10

// Verdict is what the tail says of a cause.
type Verdict uint8

const (
	VerdictNone     Verdict = iota // not judged
	VerdictExplains                // the slowest runs had it more often than chance allows, at least half of them
	VerdictPart                    // more often than chance allows, but fewer than half of them
	VerdictNot                     // not more often than chance allows, and enough runs were seen to tell
	VerdictTooFew                  // no outcome with these runs could have been significant, or one slow run had it
	VerdictNever                   // no run had it
	VerdictAlways                  // every run had it: it cannot set the slowest apart
)

var verdictNames = [...]string{"", "explains", "explains part", "does not explain", "too few runs to tell", "never seen", "in every run"}

// String is the verdict's name: "explains", "explains part", "does not
// explain", "too few runs to tell", "never seen", "in every run".
func (v Verdict) String() string {
	if int(v) < len(verdictNames) {
		return verdictNames[v]
	}
	return "verdict?"
}

// MarshalText is the verdict's name (String), as reports write it.
func (v Verdict) MarshalText() ([]byte, error) { return []byte(v.String()), nil }

// UnmarshalText reads a verdict's name, as MarshalText writes it.
func (v *Verdict) UnmarshalText(b []byte) error {
	i := slices.Index(verdictNames[:], string(b))
	if i < 0 {
		return fmt.Errorf("workload: unknown verdict %q", b)
	}
	*v = Verdict(i)
	return nil
}

// Amount is how much of cause c the run had: 1 or 0 for CauseGC (the
// collector ran beside it or not), the stop-the-world time in nanoseconds
// for CauseSTW, and the count of faults, switches or slow scheduling
// waits for the others. It does not allocate.
func (r *RunRecord) Amount(c Cause) uint64 {
	switch c {
	case CauseGC:
		if r.GC.Overlapped() || r.Causes.MarkAtStart {
			return 1
		}
	case CauseSTW:
		return uint64(r.GC.STW)
	case CauseMinorFaults:
		return r.Causes.MinorFaults
	case CauseMajorFaults:
		return r.Causes.MajorFaults
	case CauseInvoluntarySwitches:
		return r.Causes.InvoluntarySwitches
	case CauseVoluntarySwitches:
		return r.Causes.VoluntarySwitches
	case CauseSched:
		return r.Causes.SchedWaits
	}
	return 0
}

// CauseTail is the evidence on one cause: what it adds to the P99 and to
// the slowest 1%, estimated over every run (Method to Cost, below: the
// headline), how often the slowest runs had it against all runs (Fisher's
// test: the supporting figure where a cause is rare), and how slow the
// runs with it and without it were.
//
// A run "has" the cause when its Amount is at least Threshold. Threshold
// is 1 (any at all) unless more than half of the runs had some, as most
// runs of milliseconds see a context switch or a page fault: then it is
// the least amount that fewer than half of the runs reached, so that the
// comparison asks whether the slowest runs had more of it than most runs,
// and a tail of ten runs can answer.
type CauseTail struct {
	Cause     Cause  `json:"cause" csv:"Cause"`
	Threshold uint64 `json:"threshold" csv:"Threshold"`
	// Of the Worst slowest successful runs, WorstWith had the cause; of
	// all Runs that succeeded, RunsWith did. Both among the kept runs
	// (Result.Runs).
	Worst     int `json:"worst" csv:"Worst Runs"`
	WorstWith int `json:"worst_with" csv:"Worst Runs With"`
	Runs      int `json:"runs" csv:"Runs"`
	RunsWith  int `json:"runs_with" csv:"Runs With"`
	// P is the one-sided Fisher exact test's p-value (fisher.Enrichment):
	// the chance that Worst runs drawn at random from all of them hold
	// WorstWith or more with the cause. Floor is the least P these counts
	// allow; when it is not below TailAlpha, too few runs were seen.
	P     float64 `json:"p" csv:"P,g"`
	Floor float64 `json:"p_floor" csv:"P Floor,g"`
	// P99With and P99Without are the nearest-rank P99 runtimes of the runs
	// with the cause and without it, over KeptWith and KeptWithout runs; 0
	// for none.
	P99With     time.Duration `json:"p99_with_ns" csv:"P99 With"`
	P99Without  time.Duration `json:"p99_without_ns" csv:"P99 Without"`
	KeptWith    int           `json:"p99_with_runs" csv:"Runs in P99 With"`
	KeptWithout int           `json:"p99_without_runs" csv:"Runs in P99 Without"`
	Verdict     Verdict       `json:"verdict" csv:"Verdict"`

	// The estimate over every run (Tail.estimate): the time the cause
	// accounts for in the runs at the P99 (P99Adds: the mean cost of the
	// runs within 2% of the runs of the P99 by rank, less a fifth at each
	// end) and in the slowest 1% (TopAdds: their mean cost), of Tail.P99
	// and Tail.Top, each with a TailLevel bootstrap interval over the runs
	// (P99Low..P99High, TopLow..TopHigh). A run's cost is, by Method, its
	// stop-the-world time as recorded (direct), or its amount times
	// PerUnit, the cost of one unit in nanoseconds fitted over all runs by
	// least absolute deviations (per_unit; for gc a unit is the collector
	// beside the run, and its cost includes the run's pauses). Cost judges
	// the P99's interval against Tail.Least. All zero in older results,
	// with fewer than MinEstimateRuns runs, and for a cause no run had
	// (or, for gc, every run had).
	Method  Method        `json:"method,omitzero" csv:"Method,omitzero"`
	Cost    Cost          `json:"cost,omitzero" csv:"Cost,omitzero"`
	P99Adds time.Duration `json:"p99_adds_ns,omitzero" csv:"Adds to P99,omitzero"`
	P99Low  time.Duration `json:"p99_adds_low_ns,omitzero" csv:"Adds to P99 Low,omitzero"`
	P99High time.Duration `json:"p99_adds_high_ns,omitzero" csv:"Adds to P99 High,omitzero"`
	TopAdds time.Duration `json:"top_adds_ns,omitzero" csv:"Adds to Slowest 1%,omitzero"`
	TopLow  time.Duration `json:"top_adds_low_ns,omitzero" csv:"Adds to Slowest 1% Low,omitzero"`
	TopHigh time.Duration `json:"top_adds_high_ns,omitzero" csv:"Adds to Slowest 1% High,omitzero"`
	PerUnit float64       `json:"per_unit_ns,omitzero" csv:"Cost per Unit,omitzero,g"`
}

// attribute fills Result.Tail: for each cause, its rate among the slowest
// runs against all runs, and a verdict. It reads the kept runs
// (Result.Runs: every run, unless there were more than Config.KeepRuns).
func (e *engine) attribute(res *Result) {
	t := &res.Tail
	t.Runs = res.Done
	for _, w := range e.workers {
		t.RunsWithGC += int(w.gcRuns)
	}
	for _, w := range res.P99.Worst {
		t.Worst++
		if r := res.Run(w.Run); r != nil && r.Has(CauseGC) {
			t.WorstWithGC++
		}
	}
	if len(e.workers) > 0 && e.workers[0].gc != nil {
		t.Scope = e.workers[0].gc.Scope()
	}
	var runs []*RunRecord
	for i := range res.Runs {
		if res.Runs[i].Errors == 0 {
			runs = append(runs, &res.Runs[i])
		}
	}
	slices.SortFunc(runs, func(a, b *RunRecord) int {
		if slower(a, b) {
			return -1
		}
		return 1
	})
	// The slowest 1%, as GCPerfP99 drops them, and at least MinTailRuns;
	// none when they would be half the runs or more: nothing to compare.
	worst := max(len(runs)-len(runs)*99/100, MinTailRuns)
	if len(runs) < 2*MinTailRuns {
		worst = 0
	}
	amounts := make([]uint64, len(runs))
	var times []time.Duration
	for c := range NumCauses {
		ct := CauseTail{Cause: c, Worst: worst, Runs: len(runs), Threshold: 1}
		for i, r := range runs {
			amounts[i] = r.Amount(c)
		}
		ct.Threshold = threshold(amounts)
		for i, a := range amounts {
			if a >= ct.Threshold {
				ct.RunsWith++
				if i < worst {
					ct.WorstWith++
				}
			}
		}
		times = ct.p99s(runs, amounts, times)
		ct.judge()
		t.Causes = append(t.Causes, ct)
	}
	t.estimate(runs)
}

// Had reports whether run r had cause c as the verdicts count it: at least
// the cause's Threshold, or any of it for a cause not judged. It does not
// allocate.
func (t *Tail) Had(r *RunRecord, c Cause) bool {
	th := uint64(1)
	for _, ct := range t.Causes {
		if ct.Cause == c {
			th = max(ct.Threshold, 1)
		}
	}
	return r.Amount(c) >= th
}

// threshold is the amount from which a run counts as having a cause: 1,
// unless more than half of the amounts are positive; then one more than
// the median amount, when some run has more than that.
func threshold(amounts []uint64) uint64 {
	positive := 0
	for _, a := range amounts {
		if a > 0 {
			positive++
		}
	}
	if positive <= len(amounts)/2 {
		return 1
	}
	sorted := slices.Clone(amounts)
	slices.Sort(sorted)
	mid := sorted[len(sorted)/2]
	if mid == sorted[len(sorted)-1] {
		return 1 // most runs had the most there was: presence is all there is to compare
	}
	return mid + 1
}

// p99s sets the P99 of the runs with the cause and without, sorting into
// buf, which it returns for reuse.
func (ct *CauseTail) p99s(runs []*RunRecord, amounts []uint64, buf []time.Duration) []time.Duration {
	p99 := func(with bool) (time.Duration, int) {
		buf = buf[:0]
		for i, r := range runs {
			if (amounts[i] >= ct.Threshold) == with {
				buf = append(buf, r.Runtime)
			}
		}
		if len(buf) == 0 {
			return 0, 0
		}
		slices.Sort(buf)
		return buf[latency.Rank(0.99, len(buf))-1], len(buf)
	}
	ct.P99With, ct.KeptWith = p99(true)
	ct.P99Without, ct.KeptWithout = p99(false)
	return buf
}

// judge sets P, Floor and the verdict from the counts.
func (ct *CauseTail) judge() {
	ct.P, ct.Floor = 1, 1
	switch {
	case ct.Worst == 0 || ct.Runs < 2*MinTailRuns:
		ct.Verdict = VerdictTooFew
		return
	case ct.RunsWith == 0:
		ct.Verdict = VerdictNever
		return
	case ct.RunsWith == ct.Runs:
		ct.Verdict = VerdictAlways
		return
	}
	ct.P, ct.Floor = fisher.Enrichment(ct.Runs, ct.RunsWith, ct.Worst, ct.WorstWith)
	// The probabilities are sums of floating-point terms: a p-value of
	// exactly TailAlpha (one slow run of 100 with a cause one run had)
	// must not come out just below it.
	significant := func(p float64) bool { return p < TailAlpha*(1-1e-9) }
	switch {
	case !significant(ct.Floor):
		ct.Verdict = VerdictTooFew
	case !significant(ct.P):
		ct.Verdict = VerdictNot
	case ct.WorstWith < 2:
		// One slow run is an anecdote, whatever the odds of its cause.
		ct.Verdict = VerdictTooFew
	case 2*ct.WorstWith >= ct.Worst:
		ct.Verdict = VerdictExplains
	default:
		ct.Verdict = VerdictPart
	}
}
