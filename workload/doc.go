// Package workload is gcperf's engine: it runs operations through warmups
// and timed runs and returns what it measured.
//
// An Operation is anything with a Name and a Run method. Run receives a
// Probe: it calls Probe.Respond when it starts responding (its response
// time; without it, the response time is the runtime) and Probe.Results to
// count what it produced. Operations can be registered by name with typed
// parameters (Register, New) so that the command line and mix files can
// build them; noop, spin and sleep are built in.
//
// Run executes a Mix according to a Config:
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
//   - closing Config.Stop ends the benchmark after the runs in progress;
//     cancelling the context also cancels the operations in progress.
//
// The timed region is the operation and two monotonic clock reads around
// it. Everything the engine records goes into memory allocated (and
// touched) before the first timed run, and the heap allocated during the
// timed runs is read from runtime/metrics into Result.HeapAllocBytes: with
// noop it is zero. The mix's runtime is the sum of its operations'
// runtimes, not the wall time of the loop.
//
// Observers (Verbose, or your own) see each run start and end, between
// operations.
package workload
