package report

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gcperf/gcperf/target/gctrace"
)

// impliedBy returns the Exec of a command whose runtime ran at GOGC=gogc
// (live heaps of 20 to 60MiB), its environment saying GOGC=asked and
// GOMEMLIMIT=limit.
func impliedBy(t *testing.T, gogc int, asked, limit string) *Exec {
	t.Helper()
	return impliedFrom(t, gogc, asked, limit, func(i int) float64 { return float64(20 + (i*7)%40) })
}

// impliedFrom is impliedBy with the live heap of cycle i live(i) MiB, not
// rounded: the trace rounds it, and the goal, down.
func impliedFrom(t *testing.T, gogc int, asked, limit string, live func(int) float64) *Exec {
	t.Helper()
	var lines []string
	prev := live(0)
	for i := 1; i <= 20; i++ {
		next := live(i)
		lines = append(lines, fmt.Sprintf("gc %d @%d.000s 1%%: 0.015+1.2+0.003 ms clock, 0.030+0.5/1.0/0.2+0.006 ms cpu, %d->%d->%d MB, %d MB goal, 0 MB stacks, 0 MB globals, 2 P",
			i, i, int(prev), int(prev), int(next), int(prev*(1+float64(gogc)/100))))
		prev = next
	}
	sc := gctrace.NewScanner(strings.NewReader(strings.Join(lines, "\n") + "\n"))
	var z gctrace.Summarizer
	for sc.Scan() {
		z.Add(sc.Cycle())
	}
	s := z.Summary()
	return &Exec{Settings: ExecSettings{GOGC: asked, GOMEMLIMIT: limit}, GC: &ExecGC{ImpliedGOGC: s.ImpliedGOGC, ImpliedGOGCLow: s.ImpliedLow, ImpliedGOGCHigh: s.ImpliedHigh, ImpliedGOGCCycles: s.ImpliedCycles}}
}

// TestGOGCNotApplied: the GOGC a command's heap goals imply is compared
// with its environment's, tolerant of the trace's rounding and of a
// GOMEMLIMIT lowering the goal (issue 24, item 14).
func TestGOGCNotApplied(t *testing.T) {
	for _, tc := range []struct {
		asked, limit string
		applied      int
		want         bool
	}{
		{"100", "", 100, false},
		{"10", "", 10, false},
		{"1000", "off", 1000, false},
		{"50", "", 60, false}, // rounding
		{"10", "", 100, true}, // the program's own GOGC
		{"1000", "", 100, true},
		{"1000", "64MiB", 100, false}, // the limit lowered the goal
		{"10", "64MiB", 100, true},    // a limit does not raise it
		{"off", "64MiB", 100, false},
		{"", "", 10, false}, // no GOGC asked
	} {
		x := impliedBy(t, tc.applied, tc.asked, tc.limit)
		got := x.GOGCNotApplied()
		if (got != "") != tc.want {
			t.Errorf("GOGC=%q GOMEMLIMIT=%q, applied %d (implied %d of %d cycles): %q, want a mismatch: %v",
				tc.asked, tc.limit, tc.applied, x.GC.ImpliedGOGC, x.GC.ImpliedGOGCCycles, got, tc.want)
		}
	}
	// Small heaps and a small GOGC: the rounding leaves wide bounds.
	for _, gogc := range []int{5, 10, 20, 30, 50} {
		x := impliedFrom(t, gogc, fmt.Sprint(gogc), "", func(i int) float64 { return 4 + float64(i%10)/10 })
		if got := x.GOGCNotApplied(); got != "" {
			t.Errorf("GOGC=%d, live heaps of 4 to 5MiB: %q", gogc, got)
		}
	}
	x := impliedBy(t, 100, "10", "")
	if got := x.GOGCNotApplied(); !strings.HasPrefix(got, "asked GOGC=10 but the command's heap goals say its runtime applied GOGC≈100 (90 to 103, the goal over the live heap of 19 cycles)") {
		t.Errorf("the mismatch reads %q", got)
	}
	var b strings.Builder
	if err := writeExec(&b, x, "Command"); err != nil || !strings.Contains(b.String(), "\n   Not applied: asked GOGC=10 but") {
		t.Errorf("the text report:\n%s", b.String())
	}
	if (&Exec{Settings: ExecSettings{GOGC: "10"}}).GOGCNotApplied() != "" {
		t.Error("no trace: a mismatch")
	}
}
