package main

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"

	"github.com/gcperf/gcperf/internal/quote"
	"github.com/gcperf/gcperf/internal/safefile"
	"github.com/gcperf/gcperf/report"
	"github.com/gcperf/gcperf/sweep"
	"github.com/gcperf/gcperf/target"
	"github.com/gcperf/gcperf/target/gctrace"
)

// execCmd runs a user's command once and reports what it and the collector
// did: gcperf exec [flags] -- CMD [ARGS...].
func execCmd(args []string, stdout, stderr io.Writer, sig <-chan os.Signal) int {
	fs := newFlags("exec", execUsage)
	gogc := fs.String("gogc", "", "run the command with GOGC=`value` (a percentage or off; default: the environment's)")
	memlimit := fs.String("memlimit", "", "run the command with GOMEMLIMIT=`limit` (256MiB, 1GiB, off; default: the environment's)")
	jsonOut := fs.String("json", "", "also write the result as JSON (schema gcperf-exec/v1) to `file` (not -: stdout is the command's)")
	logOut := fs.String("log", "", "write the command's own stderr (not its trace lines) to `file` instead of gcperf's stderr")
	quiet := fs.Bool("q", false, "drop the command's own stderr (not its trace lines)")
	overwrite := fs.Bool("overwrite", false, "replace existing -json and -log files")
	i := slices.Index(args, "--")
	if i < 0 {
		// -h without a command still prints the usage.
		if code := parseFlags(fs, args, stdout, stderr); code >= 0 {
			return code
		}
		return fail(stderr, usagef("exec: no command: gcperf exec [flags] -- CMD [ARGS...]"))
	}
	if code := parseFlags(fs, args[:i], stdout, stderr); code >= 0 {
		return code
	}
	if fs.NArg() > 0 {
		return fail(stderr, usagef("exec: %q before --: the command follows -- (gcperf exec [flags] -- CMD [ARGS...])", fs.Arg(0)))
	}
	argv := args[i+1:]
	if len(argv) == 0 || argv[0] == "" {
		return fail(stderr, usagef("exec: no command after --"))
	}
	c := &target.Command{Path: argv[0], Args: argv[1:], Stdin: os.Stdin, Stdout: stdout, Stderr: stderr}
	var err error
	if c.GOGC, err = oneSetting("gogc", *gogc, sweep.ParseGOGC); err != nil {
		return fail(stderr, err)
	}
	if c.GOMEMLIMIT, err = oneSetting("memlimit", *memlimit, sweep.ParseMemLimit); err != nil {
		return fail(stderr, err)
	}
	if *quiet && *logOut != "" {
		return fail(stderr, usagef("exec: -q and -log both say where the command's stderr goes: give one"))
	}
	if *jsonOut == "-" {
		return fail(stderr, usagef("exec: -json - : gcperf's stdout is the command's own; give a file"))
	}
	if *logOut == "-" {
		return fail(stderr, usagef("exec: -log - : the command's stderr goes to gcperf's stderr without -log"))
	}
	outs := []safefile.Output{{Label: "-json " + *jsonOut, Path: *jsonOut}, {Label: "-log " + *logOut, Path: *logOut}}
	if err := safefile.Check(outs, *overwrite); err != nil {
		return fail(stderr, usagef("exec: %s", safefile.WithOverwrite(err)))
	}
	var log *safefile.Temp
	other := c.Stderr // the program's own stderr lines go there
	switch {
	case *quiet:
		other = io.Discard
	case *logOut != "":
		t, err := safefile.CreateTemp(*logOut, *overwrite)
		if err != nil {
			return fail(stderr, usagef("exec: -log %s", safefile.WithOverwrite(err)))
		}
		log, other = t, t.File
		defer t.Abort() // after Commit, a no-op
	}

	// The child's whole stderr goes through gctrace's Scanner, which tells
	// the trace from the program's lines, mends a trace line the program
	// wrote into, keeps one cut short at exit and tells processes apart.
	c.GCTrace = true
	pr, pw := io.Pipe()
	c.Stderr = pw
	var z gctrace.Summarizer
	sc := gctrace.NewScanner(pr)
	sc.Other = other
	scanned := make(chan error, 1)
	go func() {
		for sc.Scan() {
			z.Add(sc.Cycle())
		}
		pr.CloseWithError(sc.Err()) // a failing Other must not block the child
		scanned <- sc.Err()
	}()

	res, err := c.Run(context.Background(), sig)
	pw.Close()
	if serr := <-scanned; serr != nil && err == nil {
		err = serr
	}
	if se := (*target.StartError)(nil); errors.As(err, &se) {
		return fail(stderr, usagef("exec: cannot start %q: %v", se.Path, se.Err))
	}
	if res == nil {
		return fail(stderr, fmt.Errorf("exec: %w", err))
	}
	code := exitOK
	if err != nil {
		// A writer that failed (a closed stdout): the command ran, and
		// its result is still worth the report.
		fmt.Fprintf(stderr, "gcperf: exec: %s\n", quote.OneLine(err))
		code = exitFail
	}
	if log != nil {
		if err := log.Commit(); err != nil {
			fmt.Fprintf(stderr, "gcperf: exec: -log %s\n", quote.OneLine(err))
			code = exitFail
		}
	}
	n := sc.Counts()
	unread := n.Periodic + n.Scavenger + n.Skipped
	doc := execDocument(argv, res, z.Summary(), n.Cycles+unread, unread)
	if !doc.Success {
		code = exitFail
	}
	// The report goes to stderr, as time(1)'s does: the command's stdout
	// stays its own, to pipe or redirect.
	if err := report.WriteExecText(stderr, doc); err != nil {
		return fail(stderr, err)
	}
	if *jsonOut != "" {
		if err := report.WriteFile(*jsonOut, stdout, *overwrite, func(w io.Writer) error { return report.WriteExecJSON(w, doc) }); err != nil {
			fmt.Fprintf(stderr, "gcperf: exec: -json %s\n", quote.Line(safefile.WithOverwrite(err)))
			code = exitFail
		}
	}
	return code
}

// oneSetting checks the value of -name ("" when not given) with sweep's
// parser of the grid's list of values: exec runs one.
func oneSetting(name, value string, parse func(string) ([]string, error)) (string, error) {
	if value == "" {
		return "", nil
	}
	v, err := parse(value)
	if err != nil {
		return "", usagef("exec: %v", err)
	}
	if len(v) != 1 {
		return "", usagef("exec: -%s takes one value, got %q", name, value)
	}
	return v[0], nil
}

//go:embed help/exec.txt
var execUsage string

// execDocument is the report of one run of a command: the target's result
// and the summary of its trace.
func execDocument(argv []string, r *target.Result, s gctrace.Summary, traceLines, unread int) *report.ExecDocument {
	d := &report.ExecDocument{
		Version:     version,
		Command:     slices.Clone(argv),
		Status:      r.Status(),
		ExitCode:    r.ExitCode,
		Success:     r.Success() && !r.Interrupted,
		Interrupted: r.Interrupted,
		Killed:      r.Killed,
		Leftovers:   r.Leftovers,
		Unkilled:    r.Unkilled,
		WallNS:      int64(r.Wall),
		UserCPUNS:   int64(r.UserCPU),
		SystemCPUNS: int64(r.SystemCPU),
		MaxRSSBytes: r.MaxRSS,

		PeakRSSBytes: r.PeakRSS,
		RSS: report.ExecRSS{
			IntervalNS: int64(r.Interval), Samples: r.Samples, Stride: r.Stride,
			Points: make([]report.ExecRSSSample, 0, len(r.RSS)),
		},
		Settings:         report.ExecSettings{GOGC: r.Settings.GOGC, GOMEMLIMIT: r.Settings.GOMEMLIMIT, GODEBUG: r.Settings.GODEBUG},
		TraceLines:       traceLines,
		UnreadTraceLines: unread,
	}
	if r.Signal != 0 {
		d.Signal = target.SignalName(r.Signal)
	}
	if r.Stopped != nil {
		d.Stopped = r.Stopped.Error()
	}
	for _, p := range r.RSS {
		d.RSS.Points = append(d.RSS.Points, report.ExecRSSSample{AtNS: int64(p.At), RSSBytes: p.RSS, Processes: p.Processes})
	}
	switch {
	case s.Cycles > 0:
		g := &report.ExecGC{
			Cycles: s.Cycles, Forced: s.Forced, Truncated: s.Truncated, Sequences: s.Sequences,
			Pauses: report.ExecPauses{
				Count: s.Pauses.Count, TotalNS: int64(s.Pauses.Total),
				P50NS: int64(s.Pauses.P50), P90NS: int64(s.Pauses.P90), P99NS: int64(s.Pauses.P99), MaxNS: int64(s.Pauses.Max),
			},
			MarkWallNS: int64(s.MarkWall), CPUNS: int64(s.CPU.Total()), CPUPercent: s.CPUPercent,
			PeakHeapMiB: s.PeakHeapMiB, PeakLiveMiB: s.PeakLiveMiB,
			Goal: make([]report.ExecGoalPoint, 0, len(s.Goal)),
		}
		for _, p := range s.Goal {
			g.Goal = append(g.Goal, report.ExecGoalPoint{AtNS: int64(p.At), GoalMiB: p.GoalMiB})
		}
		d.GC = g
	case traceLines > 0:
		d.GCUnavailable = fmt.Sprintf("%d gctrace lines, none a cycle gcperf could read", traceLines)
	default:
		d.GCUnavailable = "no gctrace lines (not a Go program, one that ran no collection, or its GODEBUG sets gctrace)"
	}
	if d.GC == nil && r.TraceNote != "" {
		d.GCUnavailable += "; " + r.TraceNote
	}
	return d
}
