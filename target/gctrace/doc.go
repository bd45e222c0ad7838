// Package gctrace reads the lines the Go runtime prints on stderr when
// GODEBUG=gctrace=1: one line per garbage collection cycle, such as (Go 1.26)
//
//	gc 1 @0.012s 2%: 0.017+0.45+0.003 ms clock, 0.034+0.10/0.38/0.12+0.007 ms cpu, 4->4->0 MB, 4 MB goal, 0 MB stacks, 0 MB globals, 2 P
//
// and sums them up: cycles, the stop-the-world pauses as a distribution, the
// collector's CPU, the heap's peaks and the heap goal over time. It is a
// pure parser: it reads bytes, runs nothing, and imports no other gcperf
// package.
//
//	s := gctrace.NewScanner(childStderr)
//	s.Other = os.Stderr // the child's own lines pass through
//	var z gctrace.Summarizer
//	for s.Scan() {
//		z.Add(s.Cycle())
//	}
//	if err := s.Err(); err != nil { ... }
//	sum := z.Summary() // sum.Pauses.P99, sum.CPUPercent, sum.Goal, ...
//	n := s.Counts()    // n.Skipped lines could not be read
//
// The main functions:
//
//   - [Parse] reads one line into a [Cycle]; [IsTrace] tells whether a line
//     is the runtime's, so that a caller can split a child's stderr into the
//     trace and the rest;
//   - a [Scanner] reads a whole stderr, passes the program's lines on, puts
//     back together the trace lines the program's output broke, and counts
//     the lines by kind ([Counts]);
//   - a [Summarizer] (or [Summarize]) makes a [Summary] of the cycles.
//
// # The line
//
// The runtime prints the line at the end of each cycle (runtime/mgc.go,
// gcMarkTermination; the format is documented under GODEBUG in package
// runtime and "subject to change"):
//
//	gc # @#s #%: #+#+# ms clock, #+#/#/#+# ms cpu, #->#-># MB, # MB goal, # MB stacks, # MB globals, # P
//
// where
//
//   - gc #: the cycle's number, from 1 in each process ([Cycle.N]);
//   - @#s: when the cycle began, in seconds since the program started,
//     printed to the millisecond ([Cycle.At]);
//   - #%: the share of the CPU the collector has used since the program
//     started, in whole percent, rounded down ([Cycle.CPUPercent]);
//   - # ms clock: the wall time of the stop-the-world sweep termination,
//     the concurrent mark and scan, and the stop-the-world mark termination
//     ([Cycle.SweepTermWall], [Cycle.MarkWall], [Cycle.MarkTermWall]);
//   - # ms cpu: the CPU time of sweep termination, of the mark's assists,
//     background workers and idle workers (separated by '/'), and of mark
//     termination ([Cycle.SweepTermCPU] ... [Cycle.MarkTermCPU]);
//   - #->#-># MB: the heap at the cycle's start, at its end, and the heap
//     marked live; # MB goal: the heap goal; # MB stacks and # MB globals:
//     the scannable stacks and globals; # P: GOMAXPROCS.
//
// Times are printed in milliseconds with two significant digits and at most
// three decimals ("0.017", "0.45", "5.6"), and in whole milliseconds from
// 10ms on ("12"); a time under a microsecond prints as "0". A Cycle holds
// them as time.Duration, exactly as printed. Sizes are bytes shifted right
// by 20 (heap0>>20 in runtime/mgc.go): the runtime's "MB" is a mebibyte
// (2^20 bytes, [MiB]) and the value is rounded down, so "4 MB" is between
// 4 MiB and 5 MiB less one byte, and "0 MB" is under 1 MiB. A Cycle keeps
// the values as printed, in fields named ...MiB; multiply by [MiB] for a
// lower bound in bytes.
//
// A line may end in " (forced)": runtime.GC or debug.FreeOSMemory asked for
// the cycle ([Cycle.Forced]). Go 1.26 adds " (checking for goroutine
// leaks)" after the percentage for the cycle the goroutineleak profile runs
// ([Cycle.LeakCheck]). The runtime also prints "GC forced" before the
// cycle it starts when no cycle has run for two minutes ([Counts.Periodic]),
// and up to Go 1.14 the scavenger printed its own lines, "scvg#: ..." and
// "scvg: ..." ([Counts.Scavenger]).
//
// # Versions
//
// The line has had three layouts ([Layout]); Parse reads them all:
//
//   - Go 1.5 and 1.6: five wall times (sweep termination, scan, synchronize
//     Ps, mark, mark termination) and seven CPU times
//     ("#+#+#+#/#/#+# ms cpu"), no stacks or globals ([Layout15]). The scan
//     and synchronize-Ps phases are concurrent: Parse adds their wall
//     times to MarkWall and their CPU to ScanCPU. A forced cycle of those
//     versions stopped the world for all its phases (so their
//     documentation said), and its marking shows in mark termination.
//   - Go 1.7 to 1.17: three wall times and five CPU times ([Layout17]).
//   - Go 1.18 on: "# MB stacks, # MB globals" before the Ps ([Layout118]).
//
// Go 1.4's and earlier lines ("gc1(1): ...") are not read. A part of the form
// "# word..." that a later Go may add before the Ps is passed over.
//
// # Reading a child's stderr
//
// The runtime writes a line in pieces, one write per number, so what the
// program writes to the same stderr meanwhile can land inside a line, and a
// process that exits while the runtime prints (after runtime.GC, say) leaves
// its last line cut short. The Scanner repairs the first when one line of
// the program's landed inside the runtime's, and returns the second with
// [Cycle.Truncated] and the parts it has in [Cycle.Has]. Where several
// processes share one stderr (go run, go test and go vet trace the go
// command's own cycles too), each numbers its cycles from 1: the Scanner
// tells them apart by their numbers ([Cycle.Seq]), and [Summary.Sequences]
// says how many there were.
//
// # The summary
//
// Every cycle stops the world twice, for sweep termination and for mark
// termination: [Summary.Pauses] is the distribution of those pauses (count,
// total, nearest-rank P50, P90 and P99, max), as the runtime timed them
// from its decision to stop the world to the world's restart (the time the
// goroutines took to stop included). CPUPercent is the last line's, the
// collector's share over the whole run. The heap peaks are the largest
// start, end and live heaps the lines give; the goal timeline has one point
// per cycle.
package gctrace
