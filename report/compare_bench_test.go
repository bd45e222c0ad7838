package report

import (
	"fmt"
	"io"
	"strings"
	"testing"
)

// manyBenchmarks is a Go benchmark file of n benchmarks, one line each,
// in two units.
func manyBenchmarks(n int) string {
	var b strings.Builder
	b.WriteString("goos: linux\ngoarch: amd64\n")
	for i := range n {
		fmt.Fprintf(&b, "BenchmarkX%d-2 \t 1000\t %d ns/op\t %d B/op\n", i, 100+i%900, 1+i%100)
	}
	return b.String()
}

// BenchmarkCompareMany reads, compares and writes two files of 20,000
// benchmarks each: the work of gcperf compare on large files (issue 24,
// item 18: 300,000 took 270 s, quadratic in the benchmarks).
func BenchmarkCompareMany(b *testing.B) {
	text := manyBenchmarks(20000)
	for b.Loop() {
		old, err := ReadBench(strings.NewReader(text), "old.txt")
		if err != nil {
			b.Fatal(err)
		}
		new, err := ReadBench(strings.NewReader(text), "new.txt")
		if err != nil {
			b.Fatal(err)
		}
		c, err := Compare(old, new, 0.05)
		if err != nil {
			b.Fatal(err)
		}
		if err := CompareText(io.Discard, c); err != nil {
			b.Fatal(err)
		}
	}
}
