package sweep_test

import (
	"errors"
	"fmt"

	"github.com/gcperf/gcperf/sweep"
)

func ExampleParseGOGC() {
	gogc, err := sweep.ParseGOGC("50, 0100,OFF")
	fmt.Printf("%q %v\n", gogc, err) // normalised

	_, err = sweep.ParseGOGC("100,0100")
	fmt.Println(err)
	_, err = sweep.ParseGOGC("fast")
	fmt.Println(err)
	fmt.Println("usage error:", errors.Is(err, sweep.ErrUsage))
	// Output:
	// ["50" "100" "off"] <nil>
	// sweep: GOGC: "0100" is the same as "100"
	// sweep: GOGC: "fast" is not off or a percentage
	// usage error: true
}

func ExampleParseMemLimit() {
	limits, err := sweep.ParseMemLimit("off,512MiB,1GiB")
	fmt.Printf("%q %v\n", limits, err) // sizes keep their spelling
	n, ok := limits[1].Bytes()
	fmt.Println(n, ok)

	_, err = sweep.ParseMemLimit("1GiB,1024MiB")
	fmt.Println(err)
	_, err = sweep.ParseMemLimit("1.5GiB")
	fmt.Println(err)
	// Output:
	// ["off" "512MiB" "1GiB"] <nil>
	// 536870912 true
	// sweep: MemLimit: "1024MiB" is the same as "1GiB"
	// sweep: MemLimit: "1.5GiB" is not off or a size such as 512MiB
}

// The points of a grid, GOGC outermost: each runs in a child process with
// its settings in the environment, and names its result files.
func ExampleGrid_Points() {
	gogc, _ := sweep.ParseGOGC("50,100")
	mem, _ := sweep.ParseMemLimit("off,512MiB")
	g := sweep.Grid{GOGC: gogc, MemLimit: mem}
	for _, p := range g.Points() {
		fmt.Printf("%d %-26s %s\n", p.Index, p.Name(), p.Settings())
	}
	// An empty axis takes the runtime's default, given explicitly.
	fmt.Println(sweep.Grid{GOMAXPROCS: []int{1, 2}}.Points()[1].FileName(3))
	// Output:
	// 0 gogc=50,memlimit=off       GOGC=50 GOMEMLIMIT=off
	// 1 gogc=50,memlimit=512MiB    GOGC=50 GOMEMLIMIT=512MiB
	// 2 gogc=100,memlimit=off      GOGC=100 GOMEMLIMIT=off
	// 3 gogc=100,memlimit=512MiB   GOGC=100 GOMEMLIMIT=512MiB
	// gogc=100,memlimit=off,gomaxprocs=2,rep=3.json
}

func ExampleParseSLO() {
	slo, err := sweep.ParseSLO("p99=20ms, max=100ms, throughput=1000")
	fmt.Println(slo, err)
	fmt.Println(slo.P99, slo.Max, slo.Throughput)

	_, err = sweep.ParseSLO("p95=10ms")
	fmt.Println(err)
	_, err = sweep.ParseSLO("p99=-1ms")
	fmt.Println(err)
	empty, _ := sweep.ParseSLO("")
	fmt.Println("no bound:", empty.IsZero())
	// Output:
	// p99<=20ms, max<=100ms, throughput>=1000/s <nil>
	// 20ms 100ms 1000
	// sweep: SLO: unknown key "p95" in "p95=10ms" (want p99, p999, max or throughput; for a command wall, cpu, pause-max or a benchmark unit such as sec/op)
	// sweep: SLO: p99 "-1ms" is not a positive duration such as 20ms
	// no bound: true
}

// Shards split a grid between machines: shard i of n runs the points whose
// index is i modulo n.
func ExampleParseShard() {
	i, n, err := sweep.ParseShard("1/3")
	fmt.Println(i, n, err)
	gogc, _ := sweep.ParseGOGC("25,50,100,200,400")
	for _, p := range (sweep.Grid{GOGC: gogc}).Points() {
		if p.InShard(i, n) {
			fmt.Println(p.Name())
		}
	}
	_, _, err = sweep.ParseShard("3/3")
	fmt.Println(err)
	// Output:
	// 1 3 <nil>
	// gogc=50,memlimit=off
	// gogc=400,memlimit=off
	// sweep: Shard: "3/3" is not i/n with 0 <= i < n, such as 0/2
}
