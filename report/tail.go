package report

import (
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/gcperf/gcperf/internal/figure"
	"github.com/gcperf/gcperf/runstats"
	"github.com/gcperf/gcperf/workload"
)

// causeWords are how the text report speaks of each cause: as the subject
// of a verdict, whether that subject is plural, and as what a run had.
// With a threshold above 1, "had" becomes "had N or more" of what many
// names (for stw, "stop-the-world pauses of T or more in all").
var causeWords = map[string]causeWording{
	"gc":                   {"GC", false, "a GC cycle", ""},
	"stw":                  {"Stop-the-world pauses", true, "a stop-the-world pause", "stop-the-world pauses"},
	"minor_faults":         {"Minor page faults", true, "minor page faults", "minor page faults"},
	"major_faults":         {"Major page faults", true, "major page faults", "major page faults"},
	"involuntary_switches": {"Involuntary context switches", true, "involuntary context switches", "involuntary context switches"},
	"voluntary_switches":   {"Voluntary context switches", true, "voluntary context switches", "voluntary context switches"},
	"sched_waits":          {"Scheduling waits", true, "a goroutine waiting 100µs or more to run", "goroutines waiting 100µs or more to run"},
}

// causeWording is how the text speaks of one cause (causeWords).
type causeWording = struct {
	subject string
	plural  bool
	had     string
	many    string
}

// wordsOf is how the text speaks of cause c, and verb, which picks the
// singular or the plural form to agree with it.
func wordsOf(c workload.Cause) (w causeWording, verb func(sing, plur string) string) {
	w, ok := causeWords[c.String()]
	if !ok {
		w.subject, w.plural, w.had = c.String(), true, c.String()
	}
	return w, func(sing, plur string) string {
		if w.plural {
			return plur
		}
		return sing
	}
}

// causeLabel is how reports name a cause (a Cause.Cause value): "GC",
// "Minor page faults"...; the name itself when it is not known
// (reportparts.CauseLabel, for report/chart).
func causeLabel(name string) string {
	if w, ok := causeWords[name]; ok {
		return w.subject
	}
	return name
}

// tail writes the verdict on each cause of the slow runs.
func (p *printer) tail(d *Document) {
	t := d.Tail
	if t == nil || len(t.Causes) == 0 {
		return
	}
	scope := "the whole process's (every thread's; -pin counts each run's own thread)"
	if t.Scope == runstats.ScopeThread {
		scope = "each run's own thread's (-pin)"
	}
	if t.P99 > 0 {
		p.estimates(t)
	} else {
		p.fisher(t)
	}
	if !p.verbose {
		return // the explanations below are the verbose report's
	}
	p.f("   Page faults and context switches are %s.\n", scope)
	if t.P99 == 0 {
		p.f("   A slow run lasts longer and so meets more of anything: \"explains\" says the slowest runs had it more often than the others; the P99s with and without it say what it costs.\n")
	}
	if k := d.Harness.RunsKept; k > 0 {
		p.f("   (Over the first %d runs, those -keep-runs kept.)\n", k)
	}
	if d.Config.Threads > 1 {
		what := "the collector, the scheduler, the page faults and the context switches are the process's"
		if t.Scope == runstats.ScopeThread {
			what = "the collector and the scheduler are the process's"
		}
		p.f("   With %d threads, %s: what they do counts in every run in progress on any thread.\n", d.Config.Threads, what)
	}
	if m := d.Process.Machine; m != nil {
		p.f("Steal time (a hypervisor running others on this machine's CPUs) during the timed runs: ")
		// /proc/stat counts each CPU's time in whole ticks: each figure
		// is within a tick per CPU of the truth.
		if m.Total > 0 {
			p.f("%s of %s CPU time on %d CPUs (%s), each give or take %s (the kernel counts each CPU's time in ticks of %s).\n",
				dur(m.Steal), dur(m.Total), m.CPUs, figure.Percent(float64(m.Steal)/float64(m.Total)),
				dur(time.Duration(max(m.CPUs, 1))*statTick), dur(statTick))
		} else {
			p.f("none counted (the kernel counts CPU time in ticks of %s, and the timed runs took less).\n", dur(statTick))
		}
	}
}

// fisher writes the verdicts of Fisher's exact test alone, as a result
// without estimates has them (fewer than workload.MinEstimateRuns runs, or
// an older gcperf).
func (p *printer) fisher(t *Tail) {
	c0 := t.Causes[0]
	if c0.Worst == 0 {
		p.f("\nWhy the tail: too few runs to tell (%d successful; the slowest 1%%, at least %d, are compared with all runs, at least twice as many):\n", c0.Runs, workload.MinTailRuns)
	} else {
		p.f("\nWhy the tail: the slowest %d of %d successful runs against all of them:\n", c0.Worst, c0.Runs)
	}
	for _, c := range t.Causes {
		p.f("   %s\n", CauseSentence(c, t.Alpha))
	}
	p.f("   Judged by Fisher's exact test, one-sided, at p < %s. Where most runs had some of a cause, a run counts as having it when it had more than the median run.\n", fmt.Sprint(t.Alpha))
}

// estimates writes what each cause adds to the P99 and to the slowest 1%,
// with its interval, and how it was estimated.
func (p *printer) estimates(t *Tail) {
	c0 := t.Causes[0]
	p.f("\nWhy the tail: what each cause adds to the P99 of %s and to the slowest 1%% (%d of %d runs, %s on average):\n",
		dur(t.P99), t.TopRuns, c0.Runs, dur(t.Top))
	for _, c := range t.Causes {
		p.f("   %s\n", estimateSentence(c, t))
	}
	p.f("   %s intervals from %d resamples of the runs; a cause counts from %s of the P99 (%s).\n",
		figure.Percent(workload.TailLevel), t.Resamples, figure.Percent(workload.TailShare), dur(t.Least))
	if !p.verbose {
		return
	}
	p.f("   A cause's part of the P99 is its mean cost in the runs within 2%% of the P99 by rank, less a fifth at each end.\n")
	p.f("   Pauses as each run recorded them; the rest as a cost per unit fitted over all runs (a median fit of the runtime\n")
	p.f("   less its pauses on the collector's presence, then of what is left on every count) times each run's amount;\n")
	p.f("   What GC adds includes its pauses and whatever comes with it (a goroutine waiting for a cycle, its threads waking).\n")
}

// estimateSentence is what the estimate says of one cause, with its
// interval: "Minor page faults add 6.29ms (4.80ms to 7.46ms) to the P99,
// 36%; slowest 1%: 6.41ms; 1.39µs each."; Fisher's test on a second line
// for a cause fewer than a fifth of the runs had (a rare cause, where
// the slowest runs' counts say most).
func estimateSentence(c Cause, t *Tail) string {
	w, verb := wordsOf(c.Cause)
	switch {
	case c.Method == workload.MethodNone && c.RunsWith == 0:
		return fmt.Sprintf("%s: no run had %s.", w.subject, w.had)
	case c.Method == workload.MethodNone:
		return fmt.Sprintf("%s: every run had %s: no run without %s to compare with.", w.subject, w.had, verb("it", "them"))
	}
	span := dur(c.P99Low) + " to " + dur(c.P99High)
	var b strings.Builder
	switch cost := c.Cost; {
	case cost == workload.CostAdds:
		fmt.Fprintf(&b, "%s %s %s (%s) to the P99, %s", w.subject, verb("adds", "add"), dur(c.P99Adds), span,
			figure.Percent(float64(c.P99Adds)/float64(max(t.P99, 1))))
	case cost == workload.CostUncertain:
		fmt.Fprintf(&b, "%s: about %s, uncertain (%s)", w.subject, dur(c.P99Adds), span)
	case c.P99High < 0:
		// The fit gives what comes with the cause a negative cost: the runs
		// with more of it were faster (a thread that blocks, yielding the
		// CPU to the one that runs): it adds nothing to the P99.
		fmt.Fprintf(&b, "%s: nothing; the runs with more of %s were faster (%s, %s)", w.subject, verb("it", "them"), dur(c.P99Adds), span)
	default:
		fmt.Fprintf(&b, "%s: under %s of the P99, %s (%s)", w.subject, figure.Percent(workload.TailShare), dur(c.P99Adds), span)
	}
	fmt.Fprintf(&b, "; slowest 1%%: %s", dur(c.TopAdds))
	if c.Method == workload.MethodPerUnit && c.Cause != workload.CauseGC {
		fmt.Fprintf(&b, "; %s each", dur(time.Duration(math.Round(c.PerUnit))))
	}
	if c.Worst > 0 && c.RunsWith > 0 && 5*c.RunsWith < c.Runs {
		fmt.Fprintf(&b, ".\n      %d of the %d slowest runs had %s against %s of all runs (Fisher's exact test: p = %s)",
			c.WorstWith, c.Worst, verb("it", "them"), figure.Percent(float64(c.RunsWith)/float64(c.Runs)), pval(c.P))
	}
	return b.String() + "."
}

// statTick is the unit in which /proc/stat counts CPU time (USER_HZ, 100
// a second on every Linux gcperf reads it on).
const statTick = 10 * time.Millisecond

// CauseSentence is the verdict on one cause, with the figures behind it, as
// one sentence: "GC explains the tail: 10 of the 10 slowest runs had a GC
// cycle against 12% of all runs (p = 4.4e-10); runs with it: P99 41ms,
// without: 9ms."
//
// Alpha is the verdicts' significance level (Tail.Alpha).
func CauseSentence(c Cause, alpha float64) string {
	w, verb := wordsOf(c.Cause)
	if c.Threshold > 1 {
		if c.Cause == workload.CauseSTW {
			w.had = fmt.Sprintf("%s of %s or more in all", w.many, dur(time.Duration(c.Threshold)))
		} else {
			w.had = fmt.Sprintf("%d or more %s", c.Threshold, w.many)
		}
	}
	all := figure.Percent(float64(c.RunsWith) / float64(max(c.Runs, 1)))
	counts := fmt.Sprintf("%d of the %d slowest runs had %s", c.WorstWith, c.Worst, w.had)
	var b strings.Builder
	switch c.Verdict {
	case workload.VerdictExplains:
		fmt.Fprintf(&b, "%s %s the tail: %s against %s of all runs (p = %s)", w.subject, verb("explains", "explain"), counts, all, pval(c.P))
	case workload.VerdictPart:
		fmt.Fprintf(&b, "%s %s part of the tail: %s against %s of all runs (p = %s), fewer than half of them", w.subject, verb("explains", "explain"), counts, all, pval(c.P))
	case workload.VerdictNot:
		fmt.Fprintf(&b, "%s %s the tail: %s, ", w.subject, verb("does not explain", "do not explain"), counts)
		if float64(c.WorstWith)/float64(max(c.Worst, 1)) <= float64(c.RunsWith)/float64(max(c.Runs, 1)) {
			fmt.Fprintf(&b, "no more often than all runs (%s; p = %s)", all, pval(c.P))
		} else {
			fmt.Fprintf(&b, "more often than all runs (%s), but chance could explain that (p = %s)", all, pval(c.P))
		}
	case workload.VerdictTooFew:
		if c.Worst == 0 {
			return fmt.Sprintf("%s: too few runs to tell.", w.subject)
		}
		if c.WorstWith == 1 && c.Floor < alpha {
			fmt.Fprintf(&b, "%s: too few runs to tell: only %s against %s of all runs (p = %s), and one run is an anecdote",
				w.subject, counts, all, pval(c.P))
			break
		}
		fmt.Fprintf(&b, "%s: too few runs to tell: %s against %s of all runs (p = %s; even all %d would give p = %s)",
			w.subject, counts, all, pval(c.P), c.Worst, pval(c.Floor))
	case workload.VerdictNever:
		return fmt.Sprintf("%s: no run had %s.", w.subject, w.had)
	case workload.VerdictAlways:
		return fmt.Sprintf("%s: every run had %s, so %s cannot set the slowest apart.", w.subject, w.had, verb("it", "they"))
	default:
		fmt.Fprintf(&b, "%s: %s: %s against %s of all runs", w.subject, c.Verdict, counts, all)
	}
	b.WriteString("; runs with " + verb("it", "them") + ": " + p99Of(c.P99With, c.KeptWith) + ", without: " + p99Of(c.P99Without, c.KeptWithout) + ".")
	return b.String()
}

// p99Of is "P99 41ms", or "none" when no run was in the group.
func p99Of(d time.Duration, runs int) string {
	if runs == 0 {
		return "none"
	}
	return "P99 " + dur(d)
}

// pval prints a p-value with two significant digits.
func pval(p float64) string { return fmt.Sprintf("%.2g", p) }
