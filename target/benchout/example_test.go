package benchout_test

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/gcperf/gcperf/target/benchout"
)

// ExampleCollector copies a command's output to stdout and into a
// Collector, as gcperf exec does, then checks an SLO given in ns/op.
func ExampleCollector() {
	output := `goos: linux
pkg: example.com/queue
BenchmarkPush/small-2   	 1000000	      1500 ns/op	      64 B/op	       1 allocs/op
BenchmarkPush/small-2   	 1000000	      2500 ns/op	      64 B/op	       1 allocs/op
BenchmarkPush/small-2   	 1000000	      1700 ns/op	      64 B/op	       1 allocs/op
PASS
`
	c := benchout.NewCollector()
	io.Copy(io.MultiWriter(io.Discard, c), strings.NewReader(output)) // os.Stdout instead of io.Discard, in gcperf
	if err := c.Close(); err != nil {
		fmt.Fprintln(os.Stderr, err)
	}

	// -slo ns/op=2000, in the unit the Collector keeps.
	factor, unit := benchout.TidyUnit("ns/op")
	limit := 2000 * factor
	for _, b := range c.Benchmarks() {
		fmt.Println(b.Pkg, b.Name)
		for _, m := range b.Metrics {
			fmt.Printf("  %s %.3g median %.3g\n", m.Unit, m.Values, m.Median())
		}
		if m, ok := b.Metric(unit); ok {
			fmt.Printf("  SLO %s <= %.3g: %v\n", unit, limit, m.Median() <= limit)
		}
	}
	// Output:
	// example.com/queue Push/small-2
	//   sec/op [1.5e-06 2.5e-06 1.7e-06] median 1.7e-06
	//   B/op [64 64 64] median 64
	//   allocs/op [1 1 1] median 1
	//   SLO sec/op <= 2e-06: true
}
