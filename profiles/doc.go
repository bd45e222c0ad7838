// Package profiles attaches profiles to a benchmark: CPU, heap (with
// allocations), block, mutex, execution trace and fgprof's wall-clock
// profile; it reads pprof files back into top-N summaries and diffs with
// github.com/google/pprof/profile. Live inspection over HTTP (gcperf -http)
// is package [github.com/gcperf/gcperf/profiles/pprofhttp]; the types a
// result records are package [github.com/gcperf/gcperf/profiles/profinfo].
//
//	reqs := []profiles.Request{
//		{Kind: profiles.CPU, Path: "out/" + profiles.FileName(profiles.CPU)},
//		{Kind: profiles.Heap, Path: "out/" + profiles.FileName(profiles.Heap)},
//	}
//	if err := profiles.Check(reqs, false); err != nil { // before anything runs
//		return err
//	}
//	s, err := profiles.Start(reqs)
//	// ... the work to profile ...
//	got, err := s.Stop() // each Profile with its file and top functions
//
// # Taking profiles
//
// A [Request] asks for one [Kind] of profile in one file ([FileName] gives
// gcperf's fixed names under -profile DIR). [Check] verifies the requests
// before a benchmark runs, so that it never runs only to find that it cannot
// write its profiles. [Start] starts a [Session] and [Session.Stop] writes
// the files, each through a temporary file renamed into place, and returns
// each [Profile] with its top functions ([Summary]). Only one Session runs
// at a time ([ErrRunning]): the CPU profiler, the tracer and the profiling
// rates belong to the whole process. Every profile covers the session only:
// the heap, block and mutex profiles, which the runtime counts from the
// start of the process, are written as the difference from a snapshot taken
// at Start.
//
// A [Profiler] is a workload.Observer that runs a Session around a
// benchmark's timed runs: it starts as the first timed run starts, after the
// warmups, and stops as the benchmark ends.
//
// Profilers distort what gcperf measures (fgprof stops the world about 99
// times a second, CPU profiling interrupts with signals, tracing costs
// several percent), so gcperf profiles a separate pass of the workload after
// the measured runs unless asked to profile the measured runs themselves.
//
// # Reading profiles
//
// [Summarize] reads a pprof file into its n top functions by flat or
// cumulative value of its default sample type; [Diff] compares the flat
// shares of two profiles ([Change]), and [Compare] keeps their summaries
// too ([Comparison]). Their errors name the file, and say so for an
// execution trace, which pprof cannot read. [WriteTop] and [WriteDiff]
// print a summary and a comparison as the tables of gcperf profile.
package profiles
