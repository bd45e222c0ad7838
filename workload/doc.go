// Package workload is gcperf's engine: it runs operations through warmups
// and timed runs, the way a latency benchmark must, and returns everything
// it measured. The gcperf command is a front end to it; a Go program can use
// it directly, and a Go benchmark through package workload/gotest.
//
//	ctx, cancel := context.WithTimeout(context.Background(), time.Minute) // cancelling stops the runs
//	defer cancel()
//	cfg := workload.DefaultConfig() // 5 warmups, 25 runs, 1 outlier at each end, random order
//	cfg.Seed = 1                    // the same seed repeats the same orders
//	mix := workload.Mix{workload.Spin{D: 50 * time.Microsecond}, workload.Noop{}}
//	res, err := workload.Run(ctx, cfg, mix)
//	if err != nil {
//		log.Fatal(err) // the benchmark could not start, or a Teardown failed
//	}
//	s := res.Operations[0].Stats
//	fmt.Println(s.Runs, s.Errors, s.Runtime.Mean, s.Runtime.Percentiles.P99)
//
// The package's Example runs it. Nothing in it is a flag or a signal: the
// caller stops a benchmark by cancelling ctx or closing Config.Stop, and
// reads what happened from the Result and, as it runs, through an
// [Observer].
//
// # Operations
//
// An [Operation] is anything with a Name and a Run method. Run receives a
// [Probe]: it calls [Probe.Respond] when it starts responding (its response
// time; without it, the response time is the runtime) and [Probe.Results] to
// count what it produced, in the unit its Unit method names ([Uniter]).
// Optional interfaces add what an operation needs: [Setupper] and
// [Teardowner] run once, outside every timed region; a [Cloner] gives each
// goroutine its own copy; a [Describer] shows its parameters in reports; a
// [Footprinter] says how much memory it keeps live.
//
// An operation's error counts as a failure of category "error", or of the
// category its Category() string method names; a timeout, a panic (which is
// recovered) and an interrupt have categories of their own
// ([CategoryTimeout], [CategoryPanic], [CategoryInterrupt]).
//
// Operations can be registered by name with typed parameters ([Register],
// [Spec], [Param]) so that text can build them ([New]): gcperf's command line
// and mix files do. noop, spin and sleep are built in; package alloc
// registers the allocation workloads when imported.
//
// # Running
//
// [Run] executes a [Mix] according to a [Config]:
//
//   - Config.Warmups runs of the mix first, not recorded; then Config.Runs
//     timed runs, each running the mix once;
//   - by default every operation once per run, in a random order drawn from
//     Config.Seed (the same seed repeats the same orders and delays, whatever
//     the number of threads); Random=false keeps the mix order; Sample=N runs
//     N operations per run, drawn with or without Repeats;
//   - a random delay of 0..Config.MaxDelay between operations, never timed;
//   - Config.Timeout per operation; a timeout, an error, a panic and an
//     interrupt are counted by category and the benchmark goes on, unless
//     Config.Halt says to stop;
//   - Config.Threads goroutines take runs from one shared pool; each records
//     into its own latency.Recorder, merged at the end, and the Stats gain
//     the "actual" figures over wall time;
//   - Config.GCStats follows the collector per run (the default), for the
//     timed runs as a whole, or not at all; Config.Hiccup adds a hiccup meter,
//     a goroutine that records how late it wakes from each sleep;
//   - closing Config.Stop ends the benchmark after the runs in progress;
//     cancelling the context also cancels the operations in progress. Either
//     way Run returns what was measured, marked Interrupted.
//
// [Config.Validate] names the first bad setting ([ConfigError], wrapping
// [ErrConfig]); Run validates before it starts anything.
//
// # Results
//
// A [Result] holds, for each position of the mix ([OpResult]) and for the
// mix as a whole ([MixResult]), the statistics of package latency
// (latency.Stats: counts, failures by category, mean-based figures without
// the Config.Outliers best and worst values, percentiles over every
// successful execution) and the Recorders behind them; every timed run
// ([RunRecord], with what the collector did during it) and every execution
// ([Execution]); GCPerfP99's figures; the collector's activity during the
// timed runs ([GCSummary]) and how the slowest runs relate to it ([Tail]).
// The mix's runtime is the sum of its operations' runtimes, not the wall
// time of the loop. Package report turns a Result into documents.
//
// # Guarantees
//
// The timed region is the operation and two monotonic clock reads around
// it. Everything the engine records goes into memory allocated (and
// touched) before the first timed run ([Config.Footprint] says how much), so
// the engine allocates nothing while the operations are timed: the heap
// allocated during the timed runs is read from runtime/metrics into
// Result.HeapAllocBytes, and with noop it is zero, with timeouts, threads,
// the GC readings between runs and Verbose too. What the operations allocate
// is theirs: an operation that allocates once per goroutine does it in Setup
// (or Clone), as Sleep does with its timer.
//
// Failures never stop a benchmark unless Config.Halt says so, and Run
// returns a Result for every benchmark that started, however it ended.
//
// # Observers and Go benchmarks
//
// Observers ([Verbose], package profiles' Profiler, or your own [Observer])
// see the benchmark begin and end and each run start and end, between
// operations.
//
// Package [github.com/gcperf/gcperf/workload/gotest] runs the engine inside
// a go test benchmark: one Run with b.N timed runs, the benchmark timer
// running during the timed runs only, and the engine's figures reported as
// benchmark metrics (p50-ns, p99-ns, max-ns, gc-cycles/op, stw-ns/op...).
// It is apart so that the engine does not link package testing.
package workload
