package main

import (
	"flag"
	"fmt"
	"io"
	"strconv"
	"text/tabwriter"
	"time"

	"github.com/gcperf/gcperf/env"
	"github.com/gcperf/gcperf/latency"
	"github.com/gcperf/gcperf/profiles"
)

// profileCmd summarizes a pprof profile, or compares two:
// gcperf profile [-n N] [-cum] FILE, gcperf profile -diff [-n N] OLD NEW.
func profileCmd(args []string, stdout, stderr io.Writer) int {
	flags := flag.NewFlagSet("profile", flag.ContinueOnError)
	n := flags.Int("n", 10, "show the top `n` functions")
	cum := flags.Bool("cum", false, "sort by cumulative value (a function and what it calls) instead of flat")
	diff := flags.Bool("diff", false, "compare two profiles, OLD and NEW: the functions whose flat share changed most")
	flags.Usage = func() {
		fmt.Fprint(flags.Output(), profileUsage)
		flags.PrintDefaults()
	}
	if code := parseFlags(flags, args, stdout, stderr); code >= 0 {
		return code
	}
	if *n < 1 {
		return fail(stderr, usagef("profile: -n must be at least 1, got %d", *n))
	}
	if *diff && *cum {
		return fail(stderr, usagef("profile: -cum does not go with -diff, which compares flat shares"))
	}
	var err error
	switch {
	case *diff && flags.NArg() != 2:
		return fail(stderr, usagef("profile -diff takes two pprof files, OLD and NEW; got %d arguments", flags.NArg()))
	case *diff:
		err = profileDiff(stdout, flags.Arg(0), flags.Arg(1), *n)
	case flags.NArg() != 1:
		return fail(stderr, usagef("profile takes one pprof file, FILE; got %d arguments", flags.NArg()))
	default:
		err = profileTop(stdout, flags.Arg(0), *n, *cum)
	}
	if err != nil {
		return fail(stderr, err)
	}
	return exitOK
}

const profileUsage = `Usage: gcperf profile [-n 10] [-cum] FILE
       gcperf profile -diff [-n 10] OLD NEW

Summarizes a pprof profile (gcperf's -cpuprofile, -memprofile, -blockprofile,
-mutexprofile, -fgprof or -profile DIR, go test's, net/http/pprof's) as
go tool pprof -top does: the sum of its default sample type (cpu for a CPU
profile, alloc_space for gcperf's heap profile, delay for block and mutex
profiles, time for fgprof), and the functions with the largest flat values
(their own) or, with -cum, cumulative values (their own and their callees').

With -diff, compares two profiles of one sample type: the functions whose
share of the total (flat) changed most, in percentage points. Shares, not
values, compare profiles of different lengths.

Flags:
`

// profileTop prints the top of one profile.
func profileTop(w io.Writer, path string, n int, cum bool) error {
	s, err := profiles.Summarize(path, n, cum)
	if err != nil {
		return usagef("profile: %v", err)
	}
	by := "flat"
	if cum {
		by = "cumulative"
	}
	if len(s.Funcs) == 0 {
		_, err = fmt.Fprintf(w, "Sample type %s (%s), total %s: no samples\n", s.SampleType, s.Unit, profileValue(s.Total, s.Unit))
		return err
	}
	fmt.Fprintf(w, "Sample type %s (%s), total %s; top %d functions by %s value\n",
		s.SampleType, s.Unit, profileValue(s.Total, s.Unit), len(s.Funcs), by)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprint(tw, "flat\tflat%\tcum\tcum%\t  function\n")
	for _, f := range s.Funcs {
		fmt.Fprintf(tw, "%s\t%.2f%%\t%s\t%.2f%%\t  %s\n",
			profileValue(f.Flat, s.Unit), f.FlatPct, profileValue(f.Cum, s.Unit), f.CumPct, f.Name)
	}
	return tw.Flush()
}

// profileDiff prints the functions whose flat share changed most.
func profileDiff(w io.Writer, oldPath, newPath string, n int) error {
	var sums [2]profiles.Summary
	for i, path := range []string{oldPath, newPath} {
		s, err := profiles.Summarize(path, 1, false)
		if err != nil {
			return usagef("profile: %v", err)
		}
		sums[i] = s
	}
	changes, err := profiles.Diff(oldPath, newPath, n)
	if err != nil {
		return usagef("profile: %v", err)
	}
	o, nw := sums[0], sums[1]
	fmt.Fprintf(w, "Sample type %s (%s), total %s old, %s new; ", o.SampleType, o.Unit,
		profileValue(o.Total, o.Unit), profileValue(nw.Total, nw.Unit))
	if len(changes) == 0 {
		_, err = fmt.Fprintf(w, "no function's flat share changed\n")
		return err
	}
	fmt.Fprintf(w, "the %d largest changes in flat share\n", len(changes))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprint(tw, "old%\tnew%\tdelta\t  function\n")
	for _, c := range changes {
		fmt.Fprintf(tw, "%.2f%%\t%.2f%%\t%+.2fpp\t  %s\n", c.OldPct, c.NewPct, c.Delta, c.Name)
	}
	return tw.Flush()
}

// profileValue formats a profile's value in its unit: a duration for
// nanoseconds, binary units for bytes, else the plain number.
func profileValue(v int64, unit string) string {
	switch unit {
	case "nanoseconds":
		return latency.FormatDuration(time.Duration(v))
	case "bytes":
		return env.Bytes(v)
	}
	return strconv.FormatInt(v, 10)
}
