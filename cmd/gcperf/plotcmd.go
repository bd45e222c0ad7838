package main

import (
	_ "embed"
	"errors"
	"github.com/gcperf/gcperf/internal/safefile"
	"io"
	"os"
	"strings"

	"github.com/gcperf/gcperf/report"
	"github.com/gcperf/gcperf/report/chart"
	"github.com/gcperf/gcperf/sweep"
)

// plotKinds lists the charts of gcperf plot: "spectrum, hist, ...". The
// sweep ones read a sweep.json, the others gcperf results.
func plotKinds() string {
	names := make([]string, 0, len(chart.Kinds()))
	for _, k := range chart.Kinds() {
		names = append(names, k.String())
	}
	return strings.Join(names, ", ")
}

// plotCmd writes one chart of saved results or of a sweep.
func plotCmd(args []string, stdout, stderr io.Writer, sig <-chan os.Signal) int {
	flags := newFlags("plot", plotUsage)
	kindName := flags.String("kind", "spectrum", "the `chart`: "+plotKinds())
	out := flags.String("o", "", "write the chart to `file`, FILE.svg or FILE.png (required)")
	overwrite := flags.Bool("overwrite", false, "replace an existing -o file")
	sloFlag := flags.String("slo", "", "draw the P99 `bound` of this SLO (p99=5ms) on the sweep-p99 and pareto charts instead of the sweep's own (-slo of gcperf sweep)")
	if code := parseFlags(flags, args, stdout, stderr); code >= 0 {
		return code
	}
	kind, err := chart.ParseKind(*kindName)
	if err != nil {
		return fail(stderr, usagef("plot: -kind %s: unknown chart (%s)", *kindName, plotKinds()))
	}
	if *out == "" {
		return fail(stderr, usagef("plot: -o FILE.svg or FILE.png is required"))
	}
	format, err := chart.FormatOf(*out)
	if err != nil {
		return fail(stderr, usagef("plot: -o %s: the file must end in .svg or .png", *out))
	}
	var slo *sweep.SLO
	if *sloFlag != "" {
		s, err := sweep.ParseSLO(*sloFlag)
		if err != nil {
			return fail(stderr, usagef("plot: %v", inFlags(err)))
		}
		slo = &s
	}
	files := flags.Args()
	switch {
	case len(files) == 0:
		return fail(stderr, usagef("plot: no file to plot"))
	case kind != chart.KindSpectrum && len(files) > 1:
		return fail(stderr, usagef("plot: -kind %s plots one file; got %d", *kindName, len(files)))
	}
	ctx, release := offlineContext(sig)
	defer release()
	p, err := untilDone(ctx, func() (*chart.Plot, error) { return chart.ReadPlot(kind, files) })
	var fe *chart.FileError
	switch {
	case ctx.Err() != nil:
		return offlineInterrupted(stderr, "plot")
	case errors.As(err, &fe) && fe.Wants() != "":
		return fail(stderr, usagef("plot: %s: %v (-kind %s reads %s)", fe.File, fe.Err, *kindName, fe.Wants()))
	case errors.As(err, &fe):
		return fail(stderr, usagef("plot: %s: %v", fe.File, fe.Err))
	case err != nil:
		return fail(stderr, err)
	}
	p.SLO = slo
	err = report.WriteFile(*out, stdout, *overwrite, func(w io.Writer) error { return p.Draw(ctxWriter{ctx, w}, format) })
	switch {
	case err != nil && ctx.Err() != nil:
		return offlineInterrupted(stderr, "plot")
	case err != nil:
		return fail(stderr, usagef("plot: -o %s", safefile.WithOverwrite(err)))
	}
	return exitOK
}

//go:embed help/plot.txt
var plotUsage string
