package benchout_test

import (
	"bytes"
	"os"
	"testing"

	"github.com/gcperf/gcperf/target/benchout"
)

// BenchmarkCollector measures Write's throughput on a typical go test
// -bench output (the real fixture, repeated), written in the 4KiB pieces
// a pipe gives, with the Close that waits for the reading to end.
func BenchmarkCollector(b *testing.B) {
	one, err := os.ReadFile("testdata/gotest-count3.txt")
	if err != nil {
		b.Fatal(err)
	}
	in := bytes.Repeat(one, 100) // the same 9 benchmarks, 900 results
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	for b.Loop() {
		c := benchout.NewCollector()
		for p := in; len(p) > 0; {
			n := min(len(p), 4096)
			c.Write(p[:n])
			p = p[n:]
		}
		if err := c.Close(); err != nil {
			b.Fatal(err)
		}
	}
}
