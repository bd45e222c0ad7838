package gctrace_test

import (
	"fmt"
	"os"
	"strings"

	"github.com/gcperf/gcperf/target/gctrace"
)

// A child's stderr with GODEBUG=gctrace=1: the program's lines pass through
// to Other, the cycles are summed up. The third cycle's line has the
// program's "saved" inside it (the runtime prints a line in pieces, one
// write per number) and the last one was cut short by the exit.
func Example() {
	stderr := strings.NewReader(`starting
gc 1 @0.004s 3%: 0.021+1.2+0.004 ms clock, 0.042+0.31/1.0/0.22+0.008 ms cpu, 4->4->1 MB, 4 MB goal, 0 MB stacks, 0 MB globals, 2 P
gc 2 @0.010s 4%: 0.030+2.5+0.11 ms clock, 0.061+0.50/2.1/0.35+0.22 ms cpu, 4->5->2 MB, 5 MB goal, 0 MB stacks, 0 MB globals, 2 P
gc 3 @0.019s 4%: 1.4+3.1+0.006 ms clock, 2.8+0.12/2.9/1.1+0.012 ms cpu, 5->7->3 MB, 6saved
 MB goal, 0 MB stacks, 0 MB globals, 2 P
gc 4 @0.025s 5%: 0.026+0.95+0.004 ms clock, 0.053+0/0.88/0.41+0.008 ms cpu, 3->3->3 MB, 6`)
	s := gctrace.NewScanner(stderr)
	s.Other = os.Stdout // the program's own lines
	var z gctrace.Summarizer
	for s.Scan() {
		c := s.Cycle()
		st, mt := c.Pauses()
		fmt.Printf("cycle %d at %v: pauses %v and %v, heap goal %d MiB, repaired %v, truncated %v\n",
			c.N, c.At, st, mt, c.HeapGoalMiB, c.Repaired, c.Truncated)
		z.Add(c)
	}
	if err := s.Err(); err != nil {
		fmt.Println(err)
	}
	sum := z.Summary()
	p := sum.Pauses
	fmt.Printf("%d cycles, %d pauses: total %v, P50 %v, P99 %v, max %v\n", sum.Cycles, p.Count, p.Total, p.P50, p.P99, p.Max)
	fmt.Printf("GC CPU %d%%, peak heap %d MiB, goals %v\n", sum.CPUPercent, sum.PeakHeapMiB, sum.Goal)
	fmt.Printf("%+v\n", s.Counts())
	// Output:
	// starting
	// cycle 1 at 4ms: pauses 21µs and 4µs, heap goal 4 MiB, repaired false, truncated false
	// cycle 2 at 10ms: pauses 30µs and 110µs, heap goal 5 MiB, repaired false, truncated false
	// saved
	// cycle 3 at 19ms: pauses 1.4ms and 6µs, heap goal 6 MiB, repaired true, truncated false
	// cycle 4 at 25ms: pauses 26µs and 4µs, heap goal 0 MiB, repaired false, truncated true
	// 4 cycles, 8 pauses: total 1.601ms, P50 21µs, P99 1.4ms, max 1.4ms
	// GC CPU 5%, peak heap 7 MiB, goals [{4ms 4} {10ms 5} {19ms 6}]
	// {Cycles:4 Truncated:1 Repaired:1 Periodic:0 Scavenger:0 Skipped:0 Other:2}
}

// Parse reads one line; the sizes are the runtime's "MB", which is MiB
// rounded down.
func ExampleParse() {
	line := []byte("gc 7 @1.250s 2%: 0.017+0.45+0.003 ms clock, 0.034+0.10/0.38/0.12+0.007 ms cpu, 40->44->21 MB, 42 MB goal, 1 MB stacks, 2 MB globals, 8 P (forced)\n")
	c, ok := gctrace.Parse(line)
	fmt.Println(ok, c.N, c.At, c.CPUPercent, c.Layout, c.Forced)
	fmt.Println("wall:", c.SweepTermWall, c.MarkWall, c.MarkTermWall)
	fmt.Println("cpu:", c.SweepTermCPU, c.AssistCPU, c.BackgroundCPU, c.IdleCPU, c.MarkTermCPU)
	fmt.Println("heap:", c.HeapStartMiB, c.HeapEndMiB, c.HeapLiveMiB, "goal:", c.HeapGoalMiB, "at least", c.HeapGoalMiB*gctrace.MiB, "bytes")
	// Output:
	// true 7 1.25s 2 go1.18+ true
	// wall: 17µs 450µs 3µs
	// cpu: 34µs 100µs 380µs 120µs 7µs
	// heap: 40 44 21 goal: 42 at least 44040192 bytes
}

// IsTrace splits a stderr into the runtime's lines and the program's.
func ExampleIsTrace() {
	for _, line := range []string{
		"gc 12 @3.104s 1%: 0.021+1.2+0.004 ms clock, ...",
		"GC forced",
		"scvg0: inuse: 6, idle: 7, sys: 14, released: 0, consumed: 14 (MB)",
		"gc stats: 12 objects",
		"listening on :8080",
	} {
		fmt.Println(gctrace.IsTrace([]byte(line)), line)
	}
	// Output:
	// true gc 12 @3.104s 1%: 0.021+1.2+0.004 ms clock, ...
	// true GC forced
	// true scvg0: inuse: 6, idle: 7, sys: 14, released: 0, consumed: 14 (MB)
	// false gc stats: 12 objects
	// false listening on :8080
}
