// Package report turns a measured workload.Result into the documents users
// read, reads saved results back, and compares results. It formats what
// package latency computed and never computes statistics of its own.
//
//	res, err := workload.Run(ctx, cfg, mix)
//	// ...
//	e, _ := env.Capture(ctx, "/") // a failed part is a warning: the rest is filled in
//	doc := report.New(res, report.Meta{Version: "0.1.0", Command: os.Args, Env: e})
//	err = report.Text(os.Stdout, doc)
//	err = report.WriteFile("result.json", os.Stdout, false, func(w io.Writer) error {
//		return report.JSON(w, doc)
//	})
//
// # Documents
//
// Every format renders one [Document], built from a Result by [New] with the
// [Meta] the Result does not know (version, command line, environment,
// profiles), so that a saved JSON document ([ReadJSON]) renders exactly as
// the live result did. A Document holds the settings ([Config]), the
// environment, the timing and the harness's own allocations, the collector's
// activity ([GC], [Tail]), the process's counters, the statistics of each
// operation ([Operation]) and of the mix ([Mix]) with their runtime
// histograms, GCPerfP99's figures ([P99]), every timed run ([Run], [RunOp]),
// the hiccup meter's figures ([Hiccup]) and the profiles taken
// ([Profiling]). Where the engine's values have the document's shape they
// are embedded, not copied, and their own tags name their figures in the
// JSON and the CSV: an operation's [Distribution] is a latency.Summary,
// [Percentiles] hold latency.Percentiles, [P99] holds latency.P99Figures,
// and [GC], [Timing], [Harness], [Hiccup], [OpenLoop] and [Tail] embed
// workload's GCSummary, Timing, Harness, Hiccup, OpenLoop and Tail (a
// [Cause] is a workload.CauseTail), adding only what the document derives.
// The XML and the CSV keep the order and the names they had before the
// document embedded them (a layout per type); a figure added to one of
// those types reaches every format after the others. [Document.Kind] says what the document is the result
// of: a benchmark, a benchmark against a server under test ([Document].Server),
// or a user's command ([Exec], gcperf exec), which has no operations.
//
// # Formats
//
//   - [Text]: the console report;
//   - [JSON]: the Document itself, schema [Schema] ("gcperf/v2"), durations in
//     integer nanoseconds under keys ending in _ns; [ReadJSON] reads it back,
//     and a gcperf/v1 result converted to it, and refuses anything else
//     ([ErrNotResult]) and other schemas ([ErrSchema]);
//   - [CSV] and [XML]: in the shape of the SPARQL Query Benchmarker's results;
//   - [HGRM]: the runtime distributions in HdrHistogram's .hgrm format;
//   - [Bench]: the Go benchmark format, one line per operation, so that
//     benchstat compares gcperf runs with each other and with go test
//     benchmarks that use workload/gotest.Benchmark (same units); a comment line
//     says what each figure is computed from.
//
// # Several processes
//
// A [Set] is one benchmark run in several fresh processes (gcperf -count
// N): every process's Document whole, with what each process did
// ([ProcessResult]). [SetJSON] writes it under its own schema, [SetSchema]
// ("gcperf-count/v1"), so that a reader of one result refuses it
// ([ErrSet]) rather than take one process for all; [ReadSet] reads it
// back. [SetBench] writes every process's lines, one after another, N samples
// per benchmark, and [SetText] the processes, their figures with median
// and spread, and what varied between them.
//
// [WriteFile] writes any of them through a temporary file renamed into
// place, so that a crash or an error never leaves half a report, and
// refuses to replace a file unless asked ([ErrExists]). [ReadFile] reads a
// saved result back from a file, refusing devices, named pipes
// ([ErrNotRegular]) and files larger than any result ([ErrTooLarge]).
//
// # Streams
//
// Two workload.Observers write as the runs end rather than from the
// Document, so that a run of any length has every run on file whatever
// workload.Config.KeepRuns keeps: [RunLog], one CSV line per timed run
// (without allocating), and [HistogramLog], an HdrHistogram interval log
// (.hlog, as jHiccup writes it) of the mix runtimes. Each keeps its first
// write error (Err) and never stops the benchmark.
//
// # Comparisons
//
// [ReadSamples] reads one side of a comparison, a gcperf JSON result
// ([SamplesOf]) or a Go benchmark file ([ReadBench]), and [ReadSamplesFile]
// from a file, as ReadFile does. A sample is one process, and a result
// gives the figures its [Bench] lines hold, so that a result and its bench
// file compare alike. [Compare] compares two sides metric by metric with
// latency.Compare (medians, confidence intervals, the Mann-Whitney U
// test), [Comparison.Regressions] picks the regressions beyond a
// threshold, [Comparison.Undecided] the metrics with too few samples to
// judge, and [CompareText] and [CompareJSON] print the comparison.
//
// # Charts and pages
//
// The charts (gonum/plot) and the self-contained HTML page are in packages
// of their own, report/chart and report/html, so that a reader of results
// links no plotting library. They draw what this package prints: the
// text report's header, statistics table and sections as data (through
// gcperf's internal/reportparts), and [Operation.Recorder] rebuilds an
// operation's runtime histogram for its percentile spectrum.
package report
