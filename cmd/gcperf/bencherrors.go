package main

import (
	"errors"
	"fmt"
	"math"

	"github.com/gcperf/gcperf/bench"
	"github.com/gcperf/gcperf/env"
	"github.com/gcperf/gcperf/internal/quote"
	"github.com/gcperf/gcperf/profiles/pprofhttp"
	"github.com/gcperf/gcperf/workload"
)

// benchOptionFlags are the flags that set the fields of bench.Options
// (and bench.Count) that its errors name; the others' errors name a file
// by the label the flags gave it (-json r.json, -out dir: dir/result.csv).
var benchOptionFlags = map[string]string{
	"ProfileRuns":          "profile-runs",
	"HTTP":                 "http",
	"HTTPPublic":           "http-public",
	"HistogramLogInterval": "hlog-interval",
	"N":                    "count",
	"ProfileDir":           "profile",
}

// benchWith spells the option an error says a flag goes with.
var benchWith = map[string]string{"HTTP": "-http ADDR"}

// benchInput is bench's input error as gcperf says it, naming the flag:
// a usage error wrapping ie.
func benchInput(ie *bench.InputError) error {
	flag, ok := benchOptionFlags[ie.Field]
	msg := ie.Reason
	var le *bench.LoadedError
	switch {
	case !ok:
	case ie.With != "":
		msg = "-" + flag + " goes with " + benchWith[ie.With]
	case ie.Field == "HTTP" && errors.As(ie, &le):
		msg = fmt.Sprintf("-%s %s: the address -url %s loads: the operations would load gcperf's own pprof server, not the program under test",
			flag, quote.Clip(le.HTTP), quote.Clip(le.Load))
	case ie.Field == "HTTP":
		msg = fmt.Sprintf("-%s %s: %s", flag, quote.Clip(fmt.Sprint(ie.Value)), ie.Reason)
		if errors.Is(ie, pprofhttp.ErrNotLoopback) {
			msg += " (-http-public allows it)"
		}
	default:
		msg = "-" + flag + " " + ie.Reason
	}
	return &usageError{msg: msg, err: ie}
}

// benchMemory is bench's memory error as gcperf says it: hint names what
// sets the mix's memory ("-size 1024 with -base 512 and -chunk 32"); ""
// names the operation that needs the most, with its parameters.
func benchMemory(me *bench.MemoryError, hint string) error {
	if me.Report > 0 && me.Processes > 0 {
		of := ""
		if me.Format != "text" {
			of = " (for " + me.Format + ")"
		}
		return usagef("-keep-runs %d: the results of -count %d processes of %d kept runs each need %s once read back%s, but only %s is available (a smaller -keep-runs or -count fits)",
			me.Kept, me.Processes, me.Kept, env.Bytes(me.Report), of, env.Bytes(me.Memory.Available))
	}
	if me.Report > 0 {
		what := "the report"
		if me.Format == "text" {
			what = "the text report"
		}
		of := ""
		if me.Format != "text" {
			of = " (for " + me.Format + ")"
		}
		return usagef("-keep-runs %d: writing %s of %d kept runs needs %s at the end%s, but only %s is available (a smaller -keep-runs fits; the statistics cover every run whatever it is)",
			me.Kept, what, me.Kept, env.Bytes(me.Report), of, env.Bytes(me.Memory.Available-me.Need.Live))
	}
	if me.Pass > 0 {
		return usagef("-profile-runs %d: the profiled pass needs %s for its records beside the measured runs' %s, but only %s is available (a smaller -profile-runs or -keep-runs fits)",
			me.ProfileRuns, env.Bytes(me.Pass), env.Bytes(me.Need.Engine), env.Bytes(me.Memory.Available))
	}
	where := "on this machine"
	if me.Memory.Limit == "cgroup" {
		where = "under this cgroup's memory.max"
	}
	size := func(n int64) string {
		if n == math.MaxInt64 {
			return "more than 8EiB"
		}
		return env.Bytes(n)
	}
	need := me.Need
	live := need.Live
	if hint == "" && need.Biggest != nil {
		hint = need.Biggest.Name()
		if d, ok := need.Biggest.(workload.Describer); ok {
			hint += " " + quote.Clip(d.Describe())
		}
		if _, ok := need.Biggest.(workload.Cloner); ok && me.Threads > 1 {
			hint += fmt.Sprintf(" (one copy per thread, -threads %d)", me.Threads)
		}
		if me.Ops > 1 && need.Most != need.Live {
			hint += fmt.Sprintf(" (the mix: %s live in all)", size(need.Live))
		}
		live = need.Most
	}
	if hint == "" {
		hint = "the mix"
	}
	return usagef("%s needs %s live plus %s for the engine's records, but only %s is available %s",
		hint, size(live), env.Bytes(need.Engine), env.Bytes(me.Memory.Available), where)
}

// benchError is err as gcperf says it: bench's input and memory errors
// naming the flags (memHint: benchMemory's hint), others as they are.
func benchError(err error, memHint string) error {
	var ie *bench.InputError
	var me *bench.MemoryError
	var ae *bench.AddressInUseError
	var fe *bench.ForeignServerError
	switch {
	case errors.As(err, &me):
		return benchMemory(me, memHint)
	case errors.As(err, &ae):
		return &usageError{msg: fmt.Sprintf("the server's URL %s: another process already listens on %s and would answer in the server's place: stop it, or give the server another port",
			quote.Clip(ae.URL), ae.Addr), err: err}
	case errors.As(err, &fe):
		return fmt.Errorf("the server's URL %s: another process (pid %d) answers on %s, not the server gcperf started: its figures would be that process's; the server's output: %s",
			quote.Clip(fe.URL), fe.Pid, fe.Addr, fe.Log)
	case errors.As(err, &ie):
		return benchInput(ie)
	}
	return err
}
