// Package chart draws gcperf's charts with gonum/plot: of results (a
// report.Document each) and of sweeps (a sweep.Summary), as SVG or PNG. It
// is what gcperf plot and the HTML pages of report/html draw. It draws the
// figures that report, latency and sweep computed; the one it derives is
// the histogram's share of runs per bin, from the runtime histogram a
// document keeps.
//
//	d, err := report.ReadJSON(f)                   // a result saved with gcperf -json
//	err = chart.Spectrum(w, []*report.Document{d}, nil, chart.SVG)
//	s, err := sweep.ReadSummary(g)                 // a sweep's sweep.json
//	err = chart.Sweep(w, s, chart.KindPareto, chart.PNG)
//
// # Charts of results
//
//   - [Spectrum]: latency against the percentile (x = 1/(1-p) on a log axis,
//     at [SpectrumQuantiles]) of every operation of one or more documents,
//     overlaid; each quantile is read from the runtime histogram the document
//     keeps ([report.Operation.Recorder]).
//   - [Histogram]: the share of each operation's runs in 10 bins per decade
//     of a logarithmic runtime axis.
//   - [Timeline]: the runtime of every run in order with its stop-the-world
//     time, and below it, when the runs carry them (-gcstats run), a strip
//     with a row per cause of slow runs (GC, page faults, preemption,
//     scheduling waits) marking each run that had it as the verdicts count
//     it, and the heap goal at the end of each run.
//   - [Causes]: for each cause of slow runs the result judged, the share of
//     the slowest runs that had it beside the share of all runs, with the
//     verdict under its name.
//
// # Charts of a sweep
//
// [Sweep] draws one chart of a sweep's rows, the medians of each point:
// P99 and P99.9, peak RSS or throughput against GOGC, one line per
// GOMEMLIMIT (and GOMAXPROCS, when it is an axis), GOGC in numerical order
// and "off" last; or P99 against peak RSS, every point labelled with its
// GOGC, the Pareto frontier connected and the setting the advice picked
// labelled. The P99 charts draw the P99 bound of the advice's SLO as a
// dashed line ([SLOLabel]); [SweepSLO] draws another bound, or none. A point
// without a successful repeat is not drawn.
//
// # Charts of files
//
// [ReadPlot] reads the files a chart of a [Kind] is drawn from, results
// or a sweep's sweep.json, as gcperf plot does, and [Plot.Draw] draws it:
// a file that cannot be plotted is found before anything is written. A
// [FileError] names the file and says why, and what the chart reads when
// the file is of the other sort ([FileError.Wants]).
//
// # Kinds and formats
//
// A [Kind] names a chart as gcperf plot -kind does ("spectrum", "hist",
// "timeline", "sweep-p99", "sweep-rss", "sweep-throughput", "pareto");
// [ParseKind] reads one, [Kinds] lists them and [Kind.OfSweep] tells the
// charts of a sweep from those of results. A [Format] is [SVG], fonts
// embedded so that the file looks the same anywhere, or [PNG];
// [ParseFormat] reads its name and [FormatOf] a file name's extension.
//
// Every chart is [Width] × [Height] (1152 × 576 pixels at 96 dpi, the
// width of the HTML page's column) and holds no timestamp: the same input
// gives the same bytes, which the golden files under testdata check. Its
// legend stands in a column right of the plotting area, never on the data,
// and its axes leave a margin beyond the data, wide enough for every point
// and label. Errors begin with "chart: ".
package chart
