package report

import (
	"strings"
	"testing"
	"time"
)

// TestCauseSentence: each verdict reads as a sentence with the figures
// behind it.
func TestCauseSentence(t *testing.T) {
	ms := time.Millisecond
	tests := []struct {
		c    Cause
		want string
	}{
		{Cause{Cause: "gc", Verdict: "explains", Worst: 10, WorstWith: 10, Runs: 1000, RunsWith: 120, Threshold: 1,
			P: 4.4e-10, PFloor: 4.4e-10, P99With: 41 * ms, P99Without: 9 * ms, KeptWith: 120, KeptWithout: 880},
			"GC explains the tail: 10 of the 10 slowest runs had a GC cycle against 12% of all runs (p = 4.4e-10); runs with it: P99 41.0ms, without: P99 9.00ms."},
		{Cause{Cause: "minor_faults", Verdict: "explains part", Worst: 10, WorstWith: 3, Runs: 1000, RunsWith: 20, Threshold: 1,
			P: 0.0008, PFloor: 1e-17, P99With: 5 * ms, P99Without: 2 * ms, KeptWith: 20, KeptWithout: 980},
			"Minor page faults explain part of the tail: 3 of the 10 slowest runs had minor page faults against 2% of all runs (p = 0.0008), fewer than half of them; runs with them: P99 5.00ms, without: P99 2.00ms."},
		{Cause{Cause: "involuntary_switches", Verdict: "does not explain", Worst: 10, WorstWith: 4, Runs: 1000, RunsWith: 470, Threshold: 5,
			P: 0.6, PFloor: 5e-4, P99With: 5 * ms, P99Without: 4 * ms, KeptWith: 470, KeptWithout: 530},
			"Involuntary context switches do not explain the tail: 4 of the 10 slowest runs had 5 or more involuntary context switches, no more often than all runs (47%; p = 0.6); runs with them: P99 5.00ms, without: P99 4.00ms."},
		{Cause{Cause: "stw", Verdict: "does not explain", Worst: 10, WorstWith: 6, Runs: 1000, RunsWith: 400, Threshold: 123000,
			P: 0.17, PFloor: 1e-4, P99With: 5 * ms, P99Without: 4 * ms, KeptWith: 400, KeptWithout: 600},
			"Stop-the-world pauses do not explain the tail: 6 of the 10 slowest runs had stop-the-world pauses of 123µs or more in all, more often than all runs (40%), but chance could explain that (p = 0.17); runs with them: P99 5.00ms, without: P99 4.00ms."},
		{Cause{Cause: "gc", Verdict: "too few runs to tell", Worst: 10, WorstWith: 8, Runs: 1000, RunsWith: 800, Threshold: 1,
			P: 0.68, PFloor: 0.11, P99With: 5 * ms, P99Without: 4 * ms, KeptWith: 800, KeptWithout: 200},
			"GC: too few runs to tell: 8 of the 10 slowest runs had a GC cycle against 80% of all runs (p = 0.68; even all 10 would give p = 0.11); runs with it: P99 5.00ms, without: P99 4.00ms."},
		{Cause{Cause: "major_faults", Verdict: "too few runs to tell", Worst: 10, WorstWith: 1, Runs: 2000, RunsWith: 1, Threshold: 1,
			P: 0.005, PFloor: 0.005, P99With: 5 * ms, P99Without: 4 * ms, KeptWith: 1, KeptWithout: 1999},
			"Major page faults: too few runs to tell: only 1 of the 10 slowest runs had major page faults against 0.05% of all runs (p = 0.005), and one run is an anecdote; runs with them: P99 5.00ms, without: P99 4.00ms."},
		{Cause{Cause: "sched_waits", Verdict: "never seen", Worst: 10, Runs: 1000},
			"Scheduling waits: no run had a goroutine waiting 100µs or more to run."},
		{Cause{Cause: "voluntary_switches", Verdict: "in every run", Worst: 10, WorstWith: 10, Runs: 1000, RunsWith: 1000},
			"Voluntary context switches: every run had voluntary context switches, so they cannot set the slowest apart."},
		{Cause{Cause: "gc", Verdict: "too few runs to tell", Runs: 5},
			"GC: too few runs to tell."},
	}
	for _, tt := range tests {
		if got := CauseSentence(tt.c, 0.01); got != tt.want {
			t.Errorf("%s %s:\n got %s\nwant %s", tt.c.Cause, tt.c.Verdict, got, tt.want)
		}
	}
}

// TestTailThreads: with several threads the section says which counts are
// the process's, and so shared by the runs in progress, by scope.
func TestTailThreads(t *testing.T) {
	for _, tt := range []struct {
		scope, want string
	}{
		{"process", "With 2 threads, the collector, the scheduler, the page faults and the context switches are the process's"},
		{"thread", "With 2 threads, the collector and the scheduler are the process's"},
	} {
		d, _ := readFixture(t, "tail.json")
		d.Config.Threads, d.Tail.Scope = 2, tt.scope
		text := textSection(d, (*printer).tail)
		if !strings.Contains(text, tt.want) {
			t.Errorf("scope %s: the section lacks %q:\n%s", tt.scope, tt.want, text)
		}
	}
}
