package benchout_test

// The fuzz target: the Collector on any stream, written in any pieces.
// go test runs the seeds; go test -run '^$' -fuzz FuzzCollector
// ./target/benchout/ explores.

import (
	"bytes"
	"testing"

	"github.com/gcperf/gcperf/target/benchout"
)

func FuzzCollector(f *testing.F) {
	for _, b := range fixtures(f) {
		f.Add(b, uint8(0))
		f.Add(b, uint8(7))
		for _, line := range bytes.SplitAfter(b, []byte("\n")) {
			f.Add(line, uint8(1))
		}
	}
	for _, s := range []string{
		"BenchmarkA 1 0 ns/op -0 MB/s NaN ns/op -Inf x 1e400 y 0x1p-2 z\n",
		"BenchmarkA\t1\t2 ns/op\r\rBenchmarkB 1 2 ns/op\r\n",
		"pkg: \xff\nBenchmark\xff 1 2 \xff\n",
		"Unit ns/op assume=exact\nUnit ns/op assume=nope\nUnit\n",
		"Benchmark 9999999999999999999999 1 ns/op\n",
		"BenchmarkA 1 2 ns/op\u00a03 B/op\u2028\n",
	} {
		f.Add([]byte(s), uint8(3))
	}
	f.Fuzz(func(t *testing.T, in []byte, chunk uint8) {
		whole := collect(t, in, nil)
		// Written in pieces of chunk bytes (a few of them empty), it
		// reads the same.
		pieces := func(b []byte) [][]byte {
			var out [][]byte
			for i := 0; len(b) > 0; i++ {
				n := min(len(b), int(chunk)+i%3)
				out = append(out, b[:n])
				b = b[n:]
			}
			return out
		}
		if got := collect(t, in, pieces); got != whole {
			t.Fatalf("written in pieces of %d, %q reads otherwise:\n%s", chunk, in, lineDiff(whole, got))
		}

		c := benchout.NewCollector()
		c.Write(in)
		c.Close()
		results := bytes.Count(in, []byte("Benchmark"))
		seen := make(map[[2]string]bool)
		for _, b := range c.Benchmarks() {
			key := [2]string{b.Pkg, b.Name}
			if seen[key] {
				t.Errorf("benchmark %q of %q twice", b.Name, b.Pkg)
			}
			seen[key] = true
			if len(b.Metrics) == 0 {
				t.Errorf("benchmark %q of %q has no metric", b.Name, b.Pkg)
			}
			units := make(map[string]bool)
			for _, m := range b.Metrics {
				if units[m.Unit] {
					t.Errorf("benchmark %q: unit %q twice", b.Name, m.Unit)
				}
				units[m.Unit] = true
				if _, tidied := benchout.TidyUnit(m.Unit); tidied != m.Unit {
					t.Errorf("benchmark %q: unit %q is not tidy (%q)", b.Name, m.Unit, tidied)
				}
				if len(m.Values) == 0 || len(m.Values) > len(in) {
					t.Errorf("benchmark %q: %d values of %q from %d bytes", b.Name, len(m.Values), m.Unit, len(in))
				}
				if got, ok := b.Metric(m.Unit); !ok || len(got.Values) != len(m.Values) {
					t.Errorf("benchmark %q: Metric(%q) does not find it", b.Name, m.Unit)
				}
			}
		}
		if len(seen) > results {
			t.Errorf("%d benchmarks from %d \"Benchmark\"s", len(seen), results)
		}
		if c.Skipped() > bytes.Count(in, []byte("\n"))+1 {
			t.Errorf("%d lines skipped, of %d", c.Skipped(), bytes.Count(in, []byte("\n"))+1)
		}
	})
}
