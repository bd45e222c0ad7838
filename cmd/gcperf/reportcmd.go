package main

import (
	_ "embed"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/gcperf/gcperf/bench"
	"github.com/gcperf/gcperf/internal/safefile"
	"github.com/gcperf/gcperf/report"
)

// reportCmd renders a saved result in any format.
func reportCmd(args []string, stdout, stderr io.Writer, sig <-chan os.Signal) int {
	flags := newFlags("report", reportUsage)
	name := flags.String("format", "text", "the `format`: "+formatNames())
	out := flags.String("o", "-", "write to `file` instead of stdout")
	overwrite := flags.Bool("overwrite", false, "replace an existing -o file")
	verbose := flags.Bool("v", false, "the full text report (-format text): the settings in full, the statistics table, the collector's paragraph, GCPerfP99's worst runs and the explanations")
	if code := parseFlags(flags, args, stdout, stderr); code >= 0 {
		return code
	}
	if flags.NArg() != 1 {
		return fail(stderr, usagef("report takes one saved result, FILE.json; got %d arguments", flags.NArg()))
	}
	f, ok := bench.LookupFormat(*name)
	if !ok {
		return fail(stderr, usagef("report: -format %s: unknown format (%s)", *name, formatNames()))
	}
	path := flags.Arg(0)
	ctx, release := offlineContext(sig)
	defer release()
	var write func(io.Writer) error
	d, err := untilDone(ctx, func() (*report.Document, error) { return report.ReadFile(path) })
	if errors.Is(err, report.ErrSet) {
		// The processes of -count: in the formats that hold them all.
		var s *report.Set
		if s, err = untilDone(ctx, func() (*report.Set, error) { return report.ReadSetFile(path) }); err == nil && f.WriteSet == nil {
			return fail(stderr, usagef("report: -format %s: one process's format, and %s holds %d processes (gcperf -count): render one of their results, process-N.json in its -out directory",
				f.Name, path, len(s.Processes)))
		}
		write = func(w io.Writer) error { return f.WriteSet(ctxWriter{ctx, w}, s) }
	} else {
		write = func(w io.Writer) error { return f.Write(ctxWriter{ctx, w}, d) }
		if f.Name == "text" {
			write = func(w io.Writer) error {
				return report.WriteText(ctxWriter{ctx, w}, d, report.TextOptions{Verbose: *verbose})
			}
		}
	}
	switch {
	case ctx.Err() != nil:
		return offlineInterrupted(stderr, "report")
	case err != nil:
		return fail(stderr, usagef("report: %s: %s", path, safefile.Cause(err).Error()))
	}
	err = report.WriteFile(*out, stdout, *overwrite, write)
	switch {
	case err != nil && ctx.Err() != nil:
		return offlineInterrupted(stderr, "report")
	case errors.Is(err, report.ErrNoDistribution):
		// A format the document cannot be written in (hgrm of a command's
		// result): the choice of format is the usage at fault.
		return fail(stderr, usagef("report: -format %s: %s: %v", f.Name, path, report.ErrNoDistribution))
	case err != nil && *out != "-":
		return fail(stderr, usagef("report: -o %s", safefile.WithOverwrite(err)))
	case err != nil:
		return fail(stderr, fmt.Errorf("report: %v", err))
	}
	return exitOK
}

//go:embed help/report.txt
var reportUsage string

// formatNames lists the formats' names: "json, csv, ... or text".
func formatNames() string {
	names := make([]string, len(bench.Formats))
	for i, f := range bench.Formats {
		names[i] = f.Name
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}
