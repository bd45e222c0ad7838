package gctrace_test

import (
	"bytes"
	"io"
	"strings"
	"testing"

	"github.com/gcperf/gcperf/target/gctrace"
)

// benchTrace is a stderr of n cycles in Go 1.26's layout, numbered on, with
// a line of the program's after every fourth and, every hundredth cycle, one
// inside the runtime's line (for the Scanner to repair). It returns the
// input and its number of lines.
func benchTrace(n int) ([]byte, int) {
	var b strings.Builder
	lines := 0
	for i := 1; i <= n; i++ {
		line := cycleLine(i)
		if i%100 == 0 {
			cut := strings.Index(line, " ms cpu, ") + len(" ms cpu, ")
			line = line[:cut] + "worker 7: request done\n" + line[cut:]
			lines++
		}
		b.WriteString(line + "\n")
		lines++
		if i%4 == 0 {
			b.WriteString("2026/12/03 14:29:11 handled 1000 requests\n")
			lines++
		}
	}
	return []byte(b.String()), lines
}

// BenchmarkScan scans a trace of 10,000 cycles with the program's lines
// between them, the Scanner and its buffers reused (Reset): lines/s counts
// every line read, the program's included.
func BenchmarkScan(b *testing.B) {
	in, lines := benchTrace(10000)
	r := bytes.NewReader(in)
	s := gctrace.NewScanner(r)
	s.Other = io.Discard
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	for b.Loop() {
		r.Reset(in)
		s.Reset(r)
		for s.Scan() {
		}
	}
	if n := s.Counts(); n.Cycles != 10000 || n.Repaired != 100 || n.Skipped != 0 {
		b.Fatalf("counts %+v", n)
	}
	b.ReportMetric(float64(lines)*float64(b.N)/b.Elapsed().Seconds(), "lines/s")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(lines)/float64(b.N), "ns/line")
}

// BenchmarkParse parses one Go 1.26 line.
func BenchmarkParse(b *testing.B) {
	line := []byte(cycleLine(123))
	b.ReportAllocs()
	for b.Loop() {
		if _, ok := gctrace.Parse(line); !ok {
			b.Fatal("no cycle")
		}
	}
}

// BenchmarkSummarize sums up 10,000 cycles.
func BenchmarkSummarize(b *testing.B) {
	in, _ := benchTrace(10000)
	var cycles []gctrace.Cycle
	s := gctrace.NewScanner(bytes.NewReader(in))
	for s.Scan() {
		cycles = append(cycles, *s.Cycle())
	}
	b.ReportAllocs()
	for b.Loop() {
		gctrace.Summarize(cycles)
	}
}

// TestScanDoesNotAllocate scans, after a warm-up, without allocating:
// cycles, the program's lines, repairs, sequences.
func TestScanDoesNotAllocate(t *testing.T) {
	in, _ := benchTrace(1000)
	r := bytes.NewReader(in)
	s := gctrace.NewScanner(r)
	s.Other = io.Discard
	scanAll := func() {
		r.Reset(in)
		s.Reset(r)
		for s.Scan() {
		}
	}
	if n := testing.AllocsPerRun(5, scanAll); n != 0 {
		t.Errorf("a scan of %d bytes allocated %v times", len(in), n)
	}
	if _, ok := gctrace.Parse([]byte(cycleLine(1))); !ok {
		t.Fatal("no cycle")
	}
	line := []byte(cycleLine(1))
	if n := testing.AllocsPerRun(100, func() { gctrace.Parse(line) }); n != 0 {
		t.Errorf("Parse allocated %v times", n)
	}
}
