// Package sweep runs a benchmark over a grid of GOGC × GOMEMLIMIT (×
// GOMAXPROCS) settings, one fresh child process per point and repeat, and
// turns the results into a table, the Pareto frontier between tail latency
// and memory, and advice against a latency SLO. It is what gcperf sweep
// runs; a program calls it with a context and typed values, no flag set and
// no signal channel (see Example):
//
//	gogc, err := sweep.ParseGOGC("50,100,off")
//	r := &sweep.Runner{Command: &target.Command{Path: "./server-bench"}, Dir: dir, Count: 3}
//	outs, err := r.Run(ctx, sweep.Grid{GOGC: gogc}.Points()) // cancel ctx to stop
//	rows := sweep.Summarize(outs)
//	sweep.MarkFrontier(rows)
//	adv := sweep.Advise(rows, outs, sweep.SLO{Wall: 2 * time.Second})
//	err = sweep.Table(os.Stdout, rows, &adv)
//
// A Runner without Command runs gcperf's own benchmark in each child (Exe
// and Args: gcperf's command line). A [Session] runs a whole sweep as
// gcperf sweep does: checks, a [Plan] for resuming, the table, the files,
// telling its caller what happens as [Event] values (ExampleSession_Run).
//
// # The grid
//
// A [Grid] lists the values of each axis, as [ParseGOGC], [ParseMemLimit]
// and [ParseGOMAXPROCS] read them from flags: normalised, with two spellings
// of one setting refused as a duplicate. [Grid.Points] crosses them into
// [Point] values, GOGC outermost, each holding its settings as numbers
// ([GOGC], [MemLimit]) with the spelling that names it; a point names its
// files ([Point.Name], [Point.FileName]) and gives its settings as
// environment variables ([Point.Env]). [ParseShard] and [Point.InShard] split a grid between
// machines; [ParseSLO] reads the service level to advise against ([SLO]).
// A value a parser refuses is a [ValueError] naming the field it would set,
// bad input to a [Session] a [UsageError] (its field, value and reason):
// both wrap [ErrUsage]; gcperf says them in its flags' words.
//
// # Running
//
// A [Runner] runs each repeat of each point in a child process: gcperf's
// own executable with the point's settings in its environment, writing a
// JSON result that the parent reads back into an [Outcome]. It guarantees:
//
//   - the heap of one point never leaks into the next: each runs in its own
//     process, and the parent checks that the child's runtime applied the
//     settings ([CheckApplied]);
//   - repeats are interleaved (repeat 1 of every point, then repeat 2, ...)
//     so that the machine's drift spreads across points;
//   - a point that crashes, runs past Runner.Timeout or grows above
//     Runner.MemCap is recorded as failed, with its reason and the last lines
//     of its stderr, and the sweep goes on;
//   - a child that is killed leaves no half result, and Runner.Resume skips
//     the points whose complete result is already there.
//
// Run over the one point [Inherited], which sets nothing, a Runner repeats
// one benchmark in fresh processes without a grid: gcperf -count N.
// A [Session] runs a whole sweep as gcperf sweep does, under a context:
// cancelling it stops the running point and reports the finished ones.
//
// # Results
//
// [Summarize] makes one [Row] per point, each figure the median over its
// successful repeats; [MarkFrontier] marks the rows on the Pareto frontier
// of P99 against peak RSS; [Advise] picks the setting with the lowest peak
// RSS that meets the SLO on every repeat, or names the closest ([Advice]).
// [Table] prints the rows, [CSV] writes sweep.csv, [Bench] every repeat in
// the Go benchmark format with the settings in the benchmark names (for
// benchstat -col /gogc), and [WriteJSON] the sweep's record ([Summary],
// sweep.json). [LoadDir] reads a sweep's directory back, and [Merge] joins
// the directories of the shards of one sweep.
package sweep
