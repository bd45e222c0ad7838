package main

import (
	_ "embed"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"

	"github.com/gcperf/gcperf/internal/safefile"
	"github.com/gcperf/gcperf/latency"
	"github.com/gcperf/gcperf/report"
)

// compareCmd compares two results: gcperf compare [flags] OLD NEW.
func compareCmd(args []string, stdout, stderr io.Writer, sig <-chan os.Signal) int {
	flags := newFlags("compare", compareUsage)
	var failPct *float64
	flags.Func("fail", "exit 1 when a metric got significantly worse by more than `pct` (such as 5%)", func(s string) error {
		v, err := parsePercent(s)
		if err != nil {
			return err
		}
		failPct = &v
		return nil
	})
	asJSON := flags.Bool("json", false, "print the comparisons as JSON")
	alpha := flags.Float64("alpha", 0.05, "significance level of the Mann-Whitney U test")
	if code := parseFlags(flags, args, stdout, stderr); code >= 0 {
		return code
	}
	if !(*alpha > 0 && *alpha < 1) {
		return fail(stderr, usagef("compare: -alpha must be between 0 and 1, got %s", strconv.FormatFloat(*alpha, 'g', -1, 64)))
	}
	if flags.NArg() != 2 {
		return fail(stderr, usagef("compare takes two files, OLD and NEW; got %d arguments", flags.NArg()))
	}
	ctx, release := offlineContext(sig)
	defer release()
	var sides [2]*report.Samples
	for i, path := range flags.Args() {
		s, err := untilDone(ctx, func() (*report.Samples, error) { return report.ReadSamplesFileContext(ctx, path) })
		switch {
		case ctx.Err() != nil:
			return offlineInterrupted(stderr, "compare")
		case err != nil:
			return fail(stderr, usagef("compare: %s: %s", path, safefile.Cause(err).Error()))
		}
		sides[i] = s
	}
	c, err := report.CompareContext(ctx, sides[0], sides[1], *alpha)
	switch {
	case ctx.Err() != nil:
		return offlineInterrupted(stderr, "compare")
	case err != nil:
		return fail(stderr, usagef("compare: %v", err))
	}
	c.FailPct = failPct
	out := ctxWriter{ctx, stdout}
	if *asJSON {
		err = report.CompareJSON(out, c)
	} else {
		err = report.CompareText(out, c)
	}
	switch {
	case err != nil && ctx.Err() != nil:
		return offlineInterrupted(stderr, "compare")
	case err != nil:
		return fail(stderr, fmt.Errorf("compare: %v", err))
	}
	if failPct == nil {
		return exitOK
	}
	pct := strconv.FormatFloat(*failPct, 'g', -1, 64)
	regs := c.Regressions(*failPct)
	for _, r := range regs {
		fmt.Fprintf(stderr, "gcperf: compare: regression beyond -fail %s%%: %s %s %+.2f%% (p=%.3f)\n",
			pct, r.Name, r.Unit, r.Delta*100, r.P)
	}
	if len(regs) > 0 {
		return exitFail
	}
	// Passing a metric the test could not judge would claim what was
	// never tested.
	if un := c.Undecided(); len(un) > 0 {
		return fail(stderr, usagef("compare: -fail %s%%: %s", pct, undecided(c, un)))
	}
	return exitOK
}

// undecided says why -fail cannot judge the rows un of c.
func undecided(c *report.Comparison, un []latency.Comparison) string {
	need := latency.SamplesNeeded(c.Alpha)
	if c.OneSampleEach() {
		return fmt.Sprintf("cannot judge a difference from one sample each (%s and %s hold one process each): "+
			"gcperf -count N (N >= %d) repeats the benchmark in N processes", c.Old.File, c.New.File, need)
	}
	r := un[0]
	more := ""
	if len(un) > 1 {
		more = fmt.Sprintf(" (and %d more)", len(un)-1)
	}
	return fmt.Sprintf("cannot judge a difference in %s %s%s from %d and %d samples at alpha %s: "+
		"it takes at least %d a side (gcperf -count N)", r.Name, r.Unit, more, r.Old.N, r.New.N,
		strconv.FormatFloat(c.Alpha, 'g', -1, 64), need)
}

//go:embed help/compare.txt
var compareUsage string

// parsePercent reads -fail's value: "5%", "5" or "2.5%".
func parsePercent(s string) (float64, error) {
	v, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(s), "%"), 64)
	switch {
	case err != nil || math.IsNaN(v) || math.IsInf(v, 0):
		return 0, errors.New("not a percentage such as 5%")
	case v < 0:
		return 0, errors.New("must not be negative")
	}
	return v + 0, nil // -0 is 0
}
