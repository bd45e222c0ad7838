package report

import (
	"bytes"
	"context"
	"runtime"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gcperf/gcperf/runstats"
	"github.com/gcperf/gcperf/workload"
)

// TestCauseSentence: each verdict reads as a sentence with the figures
// behind it.
func TestCauseSentence(t *testing.T) {
	ms := time.Millisecond
	tests := []struct {
		c    Cause
		want string
	}{
		{Cause{Cause: workload.CauseGC, Verdict: workload.VerdictExplains, Worst: 10, WorstWith: 10, Runs: 1000, RunsWith: 120, Threshold: 1,
			P: 4.4e-10, Floor: 4.4e-10, P99With: 41 * ms, P99Without: 9 * ms, KeptWith: 120, KeptWithout: 880},
			"GC explains the tail: 10 of the 10 slowest runs had a GC cycle against 12% of all runs (p = 4.4e-10); runs with it: P99 41.0ms, without: P99 9.00ms."},
		{Cause{Cause: workload.CauseMinorFaults, Verdict: workload.VerdictPart, Worst: 10, WorstWith: 3, Runs: 1000, RunsWith: 20, Threshold: 1,
			P: 0.0008, Floor: 1e-17, P99With: 5 * ms, P99Without: 2 * ms, KeptWith: 20, KeptWithout: 980},
			"Minor page faults explain part of the tail: 3 of the 10 slowest runs had minor page faults against 2% of all runs (p = 0.0008), fewer than half of them; runs with them: P99 5.00ms, without: P99 2.00ms."},
		{Cause{Cause: workload.CauseInvoluntarySwitches, Verdict: workload.VerdictNot, Worst: 10, WorstWith: 4, Runs: 1000, RunsWith: 470, Threshold: 5,
			P: 0.6, Floor: 5e-4, P99With: 5 * ms, P99Without: 4 * ms, KeptWith: 470, KeptWithout: 530},
			"Involuntary context switches do not explain the tail: 4 of the 10 slowest runs had 5 or more involuntary context switches, no more often than all runs (47%; p = 0.6); runs with them: P99 5.00ms, without: P99 4.00ms."},
		{Cause{Cause: workload.CauseSTW, Verdict: workload.VerdictNot, Worst: 10, WorstWith: 6, Runs: 1000, RunsWith: 400, Threshold: 123000,
			P: 0.17, Floor: 1e-4, P99With: 5 * ms, P99Without: 4 * ms, KeptWith: 400, KeptWithout: 600},
			"Stop-the-world pauses do not explain the tail: 6 of the 10 slowest runs had stop-the-world pauses of 123µs or more in all, more often than all runs (40%), but chance could explain that (p = 0.17); runs with them: P99 5.00ms, without: P99 4.00ms."},
		{Cause{Cause: workload.CauseGC, Verdict: workload.VerdictTooFew, Worst: 10, WorstWith: 8, Runs: 1000, RunsWith: 800, Threshold: 1,
			P: 0.68, Floor: 0.11, P99With: 5 * ms, P99Without: 4 * ms, KeptWith: 800, KeptWithout: 200},
			"GC: too few runs to tell: 8 of the 10 slowest runs had a GC cycle against 80% of all runs (p = 0.68; even all 10 would give p = 0.11); runs with it: P99 5.00ms, without: P99 4.00ms."},
		{Cause{Cause: workload.CauseMajorFaults, Verdict: workload.VerdictTooFew, Worst: 10, WorstWith: 1, Runs: 2000, RunsWith: 1, Threshold: 1,
			P: 0.005, Floor: 0.005, P99With: 5 * ms, P99Without: 4 * ms, KeptWith: 1, KeptWithout: 1999},
			"Major page faults: too few runs to tell: only 1 of the 10 slowest runs had major page faults against 0.05% of all runs (p = 0.005), and one run is an anecdote; runs with them: P99 5.00ms, without: P99 4.00ms."},
		{Cause{Cause: workload.CauseSched, Verdict: workload.VerdictNever, Worst: 10, Runs: 1000},
			"Scheduling waits: no run had a goroutine waiting 100µs or more to run."},
		{Cause{Cause: workload.CauseVoluntarySwitches, Verdict: workload.VerdictAlways, Worst: 10, WorstWith: 10, Runs: 1000, RunsWith: 1000},
			"Voluntary context switches: every run had voluntary context switches, so they cannot set the slowest apart."},
		{Cause{Cause: workload.CauseGC, Verdict: workload.VerdictTooFew, Runs: 5},
			"GC: too few runs to tell."},
	}
	for _, tt := range tests {
		if got := CauseSentence(tt.c, 0.01); got != tt.want {
			t.Errorf("%s %s:\n got %s\nwant %s", tt.c.Cause, tt.c.Verdict, got, tt.want)
		}
	}
}

// TestWorstCausesAsVerdicts: a worst run is said to have a cause as the
// verdicts count it, from the cause's threshold: a run of one voluntary
// context switch, where most runs had some and the verdict counts 3 or
// more, did not "have" it. (It was listed with it, beside a verdict
// that counted it without.)
func TestWorstCausesAsVerdicts(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("context switches are read on Linux only")
	}
	// Slow runs every 7th, each with one sleep; the others with 2 to 5.
	// Pinned, each sleep is a voluntary context switch of the run's
	// thread: most runs have 3 or more, the slowest runs 1.
	var calls atomic.Int64
	op := opFunc(func() {
		n := calls.Add(1)
		sleeps, d := 2+n%4, 30*time.Microsecond
		if n%7 == 0 {
			sleeps, d = 1, 10*d
		}
		for range sleeps {
			time.Sleep(time.Microsecond)
		}
		for start := time.Now(); time.Since(start) < d; {
		}
	})
	cfg := workload.DefaultConfig()
	cfg.Warmups, cfg.Runs, cfg.Seed, cfg.Pin = 10, 2000, 1, true
	for range 3 {
		res, err := workload.Run(context.Background(), cfg, workload.Mix{op})
		if err != nil {
			t.Fatal(err)
		}
		d := New(res, Meta{})
		below := 0 // worst runs with some of a cause, but less than its threshold
		for _, w := range d.GCPerfP99.Worst {
			r := d.Runs[w.Run-1]
			for _, c := range d.Tail.Causes {
				var amount uint64
				switch c.Cause {
				case workload.CauseMinorFaults:
					amount = r.MinorFaults
				case workload.CauseMajorFaults:
					amount = r.MajorFaults
				case workload.CauseInvoluntarySwitches:
					amount = r.InvoluntarySwitches
				case workload.CauseVoluntarySwitches:
					amount = r.VoluntarySwitches
				case workload.CauseSched:
					amount = r.SchedWaits
				default:
					continue
				}
				if amount > 0 && amount < c.Threshold {
					below++
				}
				if had := slices.Contains(w.Causes, c.Cause.String()); had != (amount >= c.Threshold) {
					t.Fatalf("run %d: %d %s against a threshold of %d, listed with it: %v (%v)", w.Run, amount, c.Cause, c.Threshold, had, w.Causes)
				}
			}
		}
		if below > 0 {
			return
		}
	}
	t.Skip("no worst run had less of a cause than its threshold: nothing told the two apart")
}

type opFunc func()

func (opFunc) Name() string { return "op" }
func (f opFunc) Run(context.Context, *workload.Probe) error {
	f()
	return nil
}

// TestTailTooFewRuns: with fewer runs than twice the tail, the text says
// so instead of comparing "the slowest 0 of 15" runs, or 10 of 15.
func TestTailTooFewRuns(t *testing.T) {
	d := &Document{Tail: &Tail{Alpha: 0.01, Tail: workload.Tail{Scope: runstats.ScopeProcess, Causes: []Cause{
		{Cause: workload.CauseGC, Verdict: workload.VerdictTooFew, Runs: 15, P: 1, Floor: 1},
		{Cause: workload.CauseMinorFaults, Verdict: workload.VerdictTooFew, Runs: 15, RunsWith: 2, P: 1, Floor: 1},
	}}}}
	var b bytes.Buffer
	p := &printer{w: &b}
	p.tail(d)
	for _, want := range []string{
		"Why the tail: too few runs to tell (15 successful; the slowest 1%, at least 10, are compared with all runs, at least twice as many):\n",
		"   GC: too few runs to tell.\n   Minor page faults: too few runs to tell.\n",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("the text does not say %q:\n%s", want, b.String())
		}
	}
}

// TestTailThreads: with several threads the section says which counts are
// the process's, and so shared by the runs in progress, by scope.
func TestTailThreads(t *testing.T) {
	for _, tt := range []struct {
		scope runstats.Scope
		want  string
	}{
		{runstats.ScopeProcess, "With 2 threads, the collector, the scheduler, the page faults and the context switches are the process's"},
		{runstats.ScopeThread, "With 2 threads, the collector and the scheduler are the process's"},
	} {
		d, _ := readFixture(t, "tail.json")
		d.Config.Threads, d.Tail.Scope = 2, tt.scope
		text := textSection(d, (*printer).tail)
		if !strings.Contains(text, tt.want) {
			t.Errorf("scope %s: the section lacks %q:\n%s", tt.scope, tt.want, text)
		}
	}
}
