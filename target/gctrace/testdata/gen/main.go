// Command gen is the program whose GODEBUG=gctrace=1 output the go1.26-*
// fixtures are: each mode makes the collector do one kind of thing, and
// writes lines of its own to stderr between the runtime's, as a program
// under test does. It lives under testdata so that go build ./... and
// go vet ./... leave it alone. Build it first (go run would add the go
// command's own trace lines):
//
//	go build -o /tmp/gctrace-gen ./target/gctrace/testdata/gen
//	GODEBUG=gctrace=1 /tmp/gctrace-gen -mode alloc 2> target/gctrace/testdata/go1.26-alloc.txt
//
// testdata/README.md lists the command line of every fixture.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"time"
)

// sink keeps allocations from being optimised away.
var sink any

// globals is 16 MiB of pointer-holding globals: the "MB globals" the
// collector scans every cycle.
var globals [2 << 20]*int

func main() {
	mode := flag.String("mode", "alloc", "alloc, forced, memlimit, stacks, leak or idle")
	flag.Parse()
	say := func(format string, args ...any) { fmt.Fprintf(os.Stderr, "gen: "+format+"\n", args...) }
	switch *mode {
	case "alloc":
		// A live set that grows to 32 MiB and shrinks again, with garbage
		// between: the goal follows the live heap up and down.
		say("allocating")
		var live [][]byte
		for round := range 6 {
			for range 2000 * (round + 1) {
				live = append(live, make([]byte, 4<<10))
				sink = make([]byte, 16<<10)
			}
			say("round %d: %d MiB live", round, len(live)*4/1024)
			if round == 3 {
				live = live[:len(live)/8]
			}
		}
		runtime.KeepAlive(live)
		runtime.GC()
		say("done")
	case "forced":
		// runtime.GC, again and again: every line ends in "(forced)".
		for i := range 12 {
			sink = make([]byte, (i+1)<<20)
			runtime.GC()
		}
		say("forced 12 cycles")
	case "memlimit":
		// Run with GOGC=off GOMEMLIMIT=...: the collector runs only as the
		// heap nears the limit, and the goal is the limit's share of the heap.
		say("GOGC %d, limit %d MiB", debug.SetGCPercent(-1), debug.SetMemoryLimit(-1)>>20)
		live := make([][]byte, 0, 8192)
		for range 8192 {
			live = append(live, make([]byte, 4<<10))
		}
		for i := range 60000 {
			sink = make([]byte, 8<<10)
			if i%20000 == 0 {
				say("%d allocations", i)
			}
		}
		runtime.KeepAlive(live)
	case "stacks":
		// Goroutines with deep stacks and pointer-holding globals: the
		// "MB stacks" and "MB globals" fields are not 0.
		for i := range globals {
			if i%4096 == 0 {
				globals[i] = new(int)
			}
		}
		done := make(chan struct{})
		ready := make(chan struct{})
		for range 64 {
			go func() { deep(2000, ready); <-done }()
		}
		for range 64 {
			<-ready
		}
		say("64 goroutines deep in their stacks")
		for range 30000 {
			sink = make([]byte, 8<<10)
		}
		runtime.GC()
		close(done)
	case "leak":
		// Built with GOEXPERIMENT=goroutineleakprofile: the goroutineleak
		// profile runs a cycle that looks for leaked goroutines, and its
		// line says "(checking for goroutine leaks)" (Go 1.26).
		p := pprof.Lookup("goroutineleak")
		if p == nil {
			say("no goroutineleak profile: build with GOEXPERIMENT=goroutineleakprofile")
			os.Exit(2)
		}
		for range 4 {
			go func() { <-make(chan int) }() // blocked for ever: leaked
		}
		for range 20000 {
			sink = make([]byte, 8<<10)
		}
		if err := p.WriteTo(io.Discard, 0); err != nil {
			say("%v", err)
		}
		say("%d leaked goroutines", p.Count())
		time.Sleep(10 * time.Millisecond) // let the runtime finish its line
	case "idle":
		// No allocation for over two minutes: sysmon forces a cycle, and
		// the runtime prints "GC forced" before its line.
		sink = make([]byte, 8<<20)
		runtime.GC()
		say("sleeping 125s")
		time.Sleep(125 * time.Second)
		say("awake")
	default:
		say("unknown mode %q", *mode)
		os.Exit(2)
	}
}

// deep recurses n frames, each with a pointer, then signals ready and blocks
// so that its stack stays deep while the collector scans it.
func deep(n int, ready chan<- struct{}) *int {
	var x [8]*int
	x[n%8] = new(int)
	if n == 0 {
		ready <- struct{}{}
		select {}
	}
	return deep(n-1, ready)
}
