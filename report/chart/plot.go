package chart

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"github.com/gcperf/gcperf/internal/safefile"
	"github.com/gcperf/gcperf/report"
	"github.com/gcperf/gcperf/sweep"
)

// A Plot is a chart of files, read and ready to draw, as gcperf plot draws
// it: ReadPlot reads the files, so that a file that cannot be plotted is
// found before any output is created, and Draw draws the chart.
type Plot struct {
	// SLO, when not nil, is the SLO (of gcperf sweep -slo) whose P99 bound
	// the sweep-p99 and pareto charts draw instead of the advice's, as
	// SweepSLO does: none when its P99 is 0. The other charts ignore it.
	SLO *sweep.SLO

	kind  Kind
	docs  []*report.Document // of a chart of results
	names []string           // of the docs, in the spectrum's legend
	sweep *sweep.Summary     // of a chart of a sweep
}

// ReadPlot reads the files a chart of the kind is drawn from: one or more
// gcperf results (saved with gcperf -json) for a spectrum, one result for a
// histogram, a timeline or causes (one with causes: -gcstats run), a
// sweep's sweep.json for a chart of a sweep. A command's result (gcperf
// exec) is refused with ErrExecResult, one without a successful run with
// ErrNoRuntime, a sweep without the chart's figure
// (the throughput of a sweep over a command) with a *NoFigureError.
// Each file is read as report.ReadFile reads a result; a spectrum names
// each result in its legend by its file's base name without extension.
// An error about one file is a *FileError.
func ReadPlot(kind Kind, files []string) (*Plot, error) {
	switch {
	case !slices.Contains(Kinds(), kind):
		return nil, fmt.Errorf("chart: %v is not a chart (%s)", kind, joinKinds(Kinds()))
	case len(files) == 0:
		return nil, errors.New("chart: no file to plot")
	case kind != KindSpectrum && len(files) > 1:
		return nil, fmt.Errorf("chart: a %v chart is of one file; got %d", kind, len(files))
	}
	p := &Plot{kind: kind}
	if kind.OfSweep() {
		s, err := readSweepFile(files[0])
		if err != nil {
			return nil, &FileError{File: files[0], Kind: kind, Err: safefile.Cause(err)}
		}
		if err := checkFigures(s, kind); err != nil {
			return nil, &FileError{File: files[0], Kind: kind, Err: err}
		}
		p.sweep = s
		return p, nil
	}
	for _, f := range files {
		d, err := report.ReadFile(f)
		if err != nil {
			return nil, &FileError{File: f, Kind: kind, Err: safefile.Cause(err)}
		}
		if d.Kind() == report.CommandDocument {
			return nil, &FileError{File: f, Kind: kind, Err: ErrExecResult}
		}
		if !hasRuntime(d) {
			return nil, &FileError{File: f, Kind: kind, Err: ErrNoRuntime}
		}
		if kind == KindCauses && (d.Tail == nil || len(d.Tail.Causes) == 0) {
			return nil, &FileError{File: f, Kind: kind, Err: errNoCauses}
		}
		if kind == KindCauses && !hasTail(d) {
			return nil, &FileError{File: f, Kind: kind, Err: errTooFewRuns}
		}
		p.docs = append(p.docs, d)
		p.names = append(p.names, strings.TrimSuffix(filepath.Base(f), filepath.Ext(f)))
	}
	return p, nil
}

// ErrExecResult is ReadPlot's error (in a FileError) for a command's
// result (gcperf exec), which has none of the runs the charts of results
// draw.
var ErrExecResult = errors.New("a command's result (gcperf exec) has no runs to chart: gcperf report -format html draws its RSS and heap goal over time")

// readSweepFile reads a sweep's sweep.json, as report.ReadFile reads a result.
func readSweepFile(path string) (*sweep.Summary, error) {
	f, err := safefile.Open(path, safefile.ResultLimit)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return sweep.ReadSummary(f)
}

// Draw draws the chart in the format: Spectrum, Histogram, Timeline or
// Causes of the results, or Sweep (SweepSLO with p.SLO) of the sweep.
func (p *Plot) Draw(w io.Writer, format Format) error {
	switch {
	case p.kind.OfSweep() && p.SLO != nil:
		return SweepSLO(w, p.sweep, p.kind, format, p.SLO.P99)
	case p.kind.OfSweep():
		return Sweep(w, p.sweep, p.kind, format)
	case p.kind == KindSpectrum:
		return Spectrum(w, p.docs, p.names, format)
	case p.kind == KindHistogram:
		return Histogram(w, p.docs[0], format)
	case p.kind == KindCauses:
		return Causes(w, p.docs[0], format)
	}
	return Timeline(w, p.docs[0], format)
}

// A FileError is ReadPlot's error for a file that it could not read, or
// whose content is not what the chart is drawn from.
type FileError struct {
	File string // as given to ReadPlot
	Kind Kind   // the chart
	// Err says why, without the file's name. It wraps fs.ErrNotExist,
	// report.ErrNotRegular or report.ErrTooLarge for a file that could not
	// be read; report.ErrNotResult, sweep.ErrNotSweep or report.ErrSchema
	// for one whose content is not what the chart reads.
	Err error
}

// Error is "chart: FILE: WHY", followed, for a file that is not of the
// sort the chart reads, by what it reads: "chart: list.json: not a gcperf
// sweep summary: schema \"gcperf/v2\" (a pareto chart reads a sweep's
// sweep.json)".
func (e *FileError) Error() string {
	msg := "chart: " + e.File + ": " + e.Err.Error()
	if wants := e.Wants(); wants != "" {
		msg += fmt.Sprintf(" (a %v chart reads %s)", e.Kind, wants)
	}
	return msg
}

// Unwrap returns Err.
func (e *FileError) Unwrap() error { return e.Err }

// Wants says what the chart reads when the file is not of that sort (a
// result given for a chart of a sweep, a sweep.json for one of results, or
// anything else): "a sweep's sweep.json" or "gcperf results, FILE.json".
// It is empty for a file that could not be read or is of another schema.
func (e *FileError) Wants() string {
	switch {
	case errors.Is(e.Err, sweep.ErrNotSweep):
		return "a sweep's sweep.json"
	case errors.Is(e.Err, report.ErrNotResult):
		return "gcperf results, FILE.json"
	}
	return ""
}
