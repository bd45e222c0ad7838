package env_test

import (
	"context"
	"fmt"
	"runtime"
	"runtime/debug"

	"github.com/gcperf/gcperf/env"
)

// ReadGo reports the settings the runtime applies, read back from
// runtime/metrics: set by the environment (GOGC=50) or, as here, by
// runtime/debug, it sees them the same way.
func ExampleReadGo() {
	defer debug.SetGCPercent(debug.SetGCPercent(50))
	fmt.Println("GOGC:", env.ReadGo().GOGCString())

	debug.SetGCPercent(-1)
	fmt.Println("GOGC:", env.ReadGo().GOGCString())

	defer debug.SetMemoryLimit(debug.SetMemoryLimit(1 << 30))
	g := env.ReadGo()
	fmt.Println("GOMEMLIMIT:", g.GOMEMLIMITString(), "=", g.GOMEMLIMIT, "bytes")
	fmt.Println("this runtime:", g.Version == runtime.Version(), g.GOMAXPROCS == runtime.GOMAXPROCS(0))
	// Output:
	// GOGC: 50
	// GOGC: off
	// GOMEMLIMIT: 1GiB = 1073741824 bytes
	// this runtime: true true
}

// Bytes formats sizes as GOMEMLIMIT spells them: exact when the unit divides
// the size, else with one decimal.
func ExampleBytes() {
	for _, n := range []int64{512, 1536, 512 << 20, 1 << 30, 25275953152} {
		fmt.Println(env.Bytes(n))
	}
	// With GOGC=off and no memory limit, the runtime has no heap goal.
	fmt.Println(env.HeapGoal(4<<20), env.HeapGoal(1<<63-1))
	// Output:
	// 512B
	// 1.5KiB
	// 512MiB
	// 1GiB
	// 23.5GiB
	// 4MiB none
}

// Capture describes the live machine ("/"); a test passes the root of a
// fixture tree instead. What it prints depends on the machine, so this
// example has no checked output.
func ExampleCapture() {
	e, err := env.Capture(context.Background(), "/")
	if err != nil {
		fmt.Println("warning:", err) // the parts that could be read are filled in
	}
	h := e.Host
	fmt.Printf("%s %s, %d logical CPUs, %s of memory\n", h.CPUModel, h.Arch, h.LogicalCPUs, env.Bytes(int64(h.MemoryTotalBytes)))
	fmt.Printf("GOGC=%s GOMEMLIMIT=%s GOMAXPROCS=%d\n", e.Go.GOGCString(), e.Go.GOMEMLIMITString(), e.Go.GOMAXPROCS)
	if e.Cgroup.MemoryMaxBytes != nil {
		fmt.Println("container memory limit:", env.Bytes(*e.Cgroup.MemoryMaxBytes))
	}
}
