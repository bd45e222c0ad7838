package benchout_test

import (
	"bytes"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/gcperf/gcperf/target/benchout"
)

// TestLongLines: a line longer than MaxLine is dropped whole and counted,
// however it comes, and the lines after it are read; one of MaxLine bytes
// is read.
func TestLongLines(t *testing.T) {
	// result returns a result line of exactly n bytes, without its
	// newline, for a benchmark whose name is mostly x.
	result := func(n int) string {
		const rest = "-2\t1\t5 ns/op"
		return "Benchmark" + strings.Repeat("x", n-len("Benchmark")-len(rest)) + rest
	}
	after := "BenchmarkAfter-2\t1\t7 ns/op\n"
	tests := []struct {
		name       string
		in         string
		benchmarks int // read, besides After
		dropped    int
	}{
		{"MaxLine", result(benchout.MaxLine) + "\n", 1, 0},
		{"MaxLine with CR", result(benchout.MaxLine-1) + "\r\n", 1, 0},
		{"MaxLine+1", result(benchout.MaxLine+1) + "\n", 0, 1},
		{"MaxLine+1 log line", strings.Repeat("x", benchout.MaxLine+1) + "\n", 0, 1},
		{"1MiB", result(1<<20) + "\n", 0, 1},
		{"two", result(benchout.MaxLine+1) + "\n" + result(2*benchout.MaxLine) + "\n", 0, 2},
	}
	for _, tt := range tests {
		for _, chunk := range []int{1 << 30, 4096, 1000, 1} {
			t.Run(fmt.Sprintf("%s/%d", tt.name, chunk), func(t *testing.T) {
				c := benchout.NewCollector()
				in := []byte(tt.in + after)
				for len(in) > 0 {
					n := min(chunk, len(in))
					c.Write(in[:n])
					in = in[n:]
				}
				if err := c.Close(); err != nil {
					t.Fatal(err)
				}
				bs := c.Benchmarks()
				if len(bs) != tt.benchmarks+1 || bs[len(bs)-1].Name != "After-2" {
					t.Errorf("read %d benchmarks, want %d and After-2 last", len(bs), tt.benchmarks+1)
				}
				if d := c.Dropped(); d.Lines != tt.dropped {
					t.Errorf("dropped %d lines, want %d", d.Lines, tt.dropped)
				}
			})
		}
	}

	// A last line too long, without its newline, is dropped at Close.
	c := benchout.NewCollector()
	c.Write([]byte(after + result(benchout.MaxLine+1)))
	c.Close()
	if d, n := c.Dropped(), len(c.Benchmarks()); d.Lines != 1 || n != 1 {
		t.Errorf("a last line too long: %d lines dropped, %d benchmarks; want 1, 1", d.Lines, n)
	}
}

// TestLimits: past the limits, benchmarks and values are dropped and
// counted, and what came before them stays.
func TestLimits(t *testing.T) {
	tests := []struct {
		name    string
		in      func(w *bytes.Buffer)
		check   func(t *testing.T, bs []benchout.Benchmark)
		dropped benchout.Dropped
	}{{
		name: "MaxBenchmarks",
		in: func(w *bytes.Buffer) {
			for i := range benchout.MaxBenchmarks + 5 {
				fmt.Fprintf(w, "BenchmarkN%d-2\t1\t%d ns/op\t1 B/op\n", i, i)
			}
			w.WriteString("BenchmarkN0-2\t1\t3 ns/op\t1 B/op\n") // kept: N0 is
		},
		check: func(t *testing.T, bs []benchout.Benchmark) {
			if len(bs) != benchout.MaxBenchmarks {
				t.Fatalf("%d benchmarks, want %d", len(bs), benchout.MaxBenchmarks)
			}
			if last := bs[len(bs)-1].Name; last != fmt.Sprintf("N%d-2", benchout.MaxBenchmarks-1) {
				t.Errorf("the last benchmark is %s", last)
			}
			if v := bs[0].Metrics[0].Values; len(v) != 2 {
				t.Errorf("N0's sec/op: %v, want 2 values", v)
			}
		},
		dropped: benchout.Dropped{Results: 5, Values: 10},
	}, {
		name: "MaxValues",
		in: func(w *bytes.Buffer) {
			for i := range benchout.MaxValues + 3 {
				fmt.Fprintf(w, "BenchmarkV-2\t1\t%d ns/op\n", i)
			}
		},
		check: func(t *testing.T, bs []benchout.Benchmark) {
			m := bs[0].Metrics[0]
			if len(m.Values) != benchout.MaxValues || m.Dropped != 3 || m.Values[len(m.Values)-1] != float64(benchout.MaxValues-1)*1e-9 {
				t.Errorf("%d values, the last %g, %d dropped; want %d, %g, 3",
					len(m.Values), m.Values[len(m.Values)-1], m.Dropped, benchout.MaxValues, float64(benchout.MaxValues-1)*1e-9)
			}
		},
		dropped: benchout.Dropped{Values: 3},
	}, {
		name: "MaxMetrics",
		in: func(w *bytes.Buffer) {
			w.WriteString("BenchmarkM-2\t1")
			for i := range benchout.MaxMetrics + 2 {
				fmt.Fprintf(w, "\t%d u%d", i, i)
			}
			w.WriteString("\n")
		},
		check: func(t *testing.T, bs []benchout.Benchmark) {
			if n := len(bs[0].Metrics); n != benchout.MaxMetrics {
				t.Errorf("%d metrics, want %d", n, benchout.MaxMetrics)
			}
		},
		dropped: benchout.Dropped{Values: 2},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var in bytes.Buffer
			tt.in(&in)
			c := benchout.NewCollector()
			c.Write(in.Bytes())
			if err := c.Close(); err != nil {
				t.Fatal(err)
			}
			tt.check(t, c.Benchmarks())
			if d := c.Dropped(); d != tt.dropped {
				t.Errorf("dropped %+v, want %+v", d, tt.dropped)
			}
		})
	}
}

// TestCollector: what the Collector makes of small streams.
func TestCollector(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		want    string // describe's lines, without the counts
		skipped int
	}{
		{"empty", "", "", 0},
		{"no newline", "BenchmarkA 1 2 ns/op", `|A sec/op [2e-09]`, 0},
		{"no GOMAXPROCS", "BenchmarkA 1 2 ns/op\n", `|A sec/op [2e-09]`, 0},
		{"sub-benchmarks", "BenchmarkA/k=v/x-8 1 2 ns/op\n", `|A/k=v/x-8 sec/op [2e-09]`, 0},
		{"name alone (go test -v)", "BenchmarkA\nBenchmarkA/x\n", "", 0},
		{"empty name", "Benchmark 1 2 ns/op\n", `| sec/op [2e-09]`, 0},
		{"zero", "BenchmarkA 1 0 ns/op 0 MB/s\nBenchmarkA 1 2 ns/op 1 MB/s\n", "|A sec/op [0 2e-09]\n|A B/s [0 1e+06]", 0},
		{"infinity", "BenchmarkA 1 +Inf ns/op\n", "|A sec/op [+Inf]", 0},
		{"no values", "BenchmarkA 1\n", "", 1},
		{"no iterations", "BenchmarkA x\n", "", 1},
		{"log line", "Benchmarking is hard\n", "", 1},
		{"not at the start", " BenchmarkA 1 2 ns/op\n", "", 0},
		{"same name, two packages", "pkg: a\nBenchmarkA 1 2 ns/op\npkg: b\nBenchmarkA 1 3 ns/op\npkg: a\nBenchmarkA 1 4 ns/op\n",
			"a|A sec/op [2e-09 4e-09]\nb|A sec/op [3.0000000000000004e-09]", 0},
		{"pkg cleared", "pkg: a\npkg:\nBenchmarkA 1 2 ns/op\n", `|A sec/op [2e-09]`, 0},
		{"a unit twice", "BenchmarkA 1 2 ns/op 4 ns/op\n", `|A sec/op [2e-09 4e-09]`, 0},
		{"ns/op and sec/op", "BenchmarkA 1 2 ns/op\nBenchmarkA 1 3 sec/op\n", `|A sec/op [2e-09 3]`, 0},
		{"units in a later line", "BenchmarkA 1 1 x\nBenchmarkA 1 2 y 3 x\n", "|A x [1 3]\n|A y [2]", 0},
		{"unit metadata", "Unit ns/op assume=exact\nUnit x\nBenchmarkA 1 2 ns/op\n", `|A sec/op [2e-09]`, 0},
		{"bad unit metadata", "Unit ns/op a b c\nUnit x=y\nBenchmarkA 1 2 ns/op\n", `|A sec/op [2e-09]`, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := benchout.NewCollector()
			c.Write([]byte(tt.in))
			c.Close()
			var lines []string
			for _, b := range c.Benchmarks() {
				for _, m := range b.Metrics {
					lines = append(lines, fmt.Sprintf("%s|%s %s %v", b.Pkg, b.Name, m.Unit, m.Values))
				}
			}
			if got := strings.Join(lines, "\n"); got != tt.want {
				t.Errorf("read\n%s\nwant\n%s", got, tt.want)
			}
			if n := c.Skipped(); n != tt.skipped {
				t.Errorf("skipped %d, want %d", n, tt.skipped)
			}
		})
	}
}

// TestClosed: Write after Close drops what it is given, without an
// error, and Close again does nothing.
func TestClosed(t *testing.T) {
	c := benchout.NewCollector()
	c.Write([]byte("BenchmarkA 1 2 ns/op\n"))
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	if n, err := c.Write([]byte("BenchmarkB 1 2 ns/op\n")); n != 21 || err != nil {
		t.Errorf("Write after Close = %d, %v; want 21, nil", n, err)
	}
	if err := c.Close(); err != nil {
		t.Errorf("Close again: %v", err)
	}
	if bs := c.Benchmarks(); len(bs) != 1 || bs[0].Name != "A" {
		t.Errorf("after Close: %+v, want A only", bs)
	}
}

// TestWhileRunning: Benchmarks can be asked before Close (go test -race
// checks that it is safe), and returns copies.
func TestWhileRunning(t *testing.T) {
	c := benchout.NewCollector()
	for i := range 100 {
		fmt.Fprintf(c, "BenchmarkA 1 2 ns/op\nBenchmarkB%d 1 3 ns/op\n", i)
		if bs := c.Benchmarks(); len(bs) > i+2 {
			t.Fatalf("%d benchmarks read from %d written", len(bs), i+2)
		}
	}
	c.Close()
	bs := c.Benchmarks()
	if len(bs) != 101 {
		t.Fatalf("%d benchmarks, want 101", len(bs))
	}
	bs[0].Metrics[0].Values[0] = 99
	if v := c.Benchmarks()[0].Metrics[0].Values[0]; v != 2e-9 {
		t.Errorf("changing a copy changed the Collector's value: %g", v)
	}
}

func TestMetric(t *testing.T) {
	b := benchout.Benchmark{Name: "A", Metrics: []benchout.Metric{
		{Unit: "sec/op", Values: []float64{3, 1, 2}},
		{Unit: "B/s", Values: []float64{4, 1, 3, 2}},
		{Unit: "p99-sec/op", Values: []float64{5}},
		{Unit: "ms/op", Values: []float64{6}},
		{Unit: "x"},
	}}
	tests := []struct {
		unit   string
		ok     bool
		median float64
	}{
		{"sec/op", true, 2},
		{"ns/op", true, 2},
		{"MB/s", true, 2.5},
		{"B/s", true, 2.5},
		{"p99-ns/op", true, 5},
		{"ms/op", true, 6},
		{"x", true, math.NaN()},
		{"B/op", false, 0},
	}
	for _, tt := range tests {
		m, ok := b.Metric(tt.unit)
		if ok != tt.ok {
			t.Errorf("Metric(%q): ok %v, want %v", tt.unit, ok, tt.ok)
			continue
		}
		if !ok {
			continue
		}
		if got := m.Median(); got != tt.median && !(math.IsNaN(got) && math.IsNaN(tt.median)) {
			t.Errorf("Metric(%q).Median() = %g, want %g", tt.unit, got, tt.median)
		}
	}
	// Median sorts a copy: the values stay in the order read.
	if m := b.Metrics[0]; m.Median() != 2 || m.Values[0] != 3 {
		t.Errorf("Median changed the values: %v", m.Values)
	}
}

func TestTidyUnit(t *testing.T) {
	tests := []struct {
		unit   string
		factor float64
		tidied string
	}{
		{"ns/op", 1e-9, "sec/op"},
		{"sec/op", 1, "sec/op"},
		{"MB/s", 1e6, "B/s"},
		{"B/op", 1, "B/op"},
		{"allocs/op", 1, "allocs/op"},
		{"p99-ns/op", 1e-9, "p99-sec/op"},
		{"ns/GC", 1e-9, "sec/GC"},
		{"ms/op", 1, "ms/op"}, // benchunit scales ns and MB only
		{"op/ns", 1, "op/ns"}, // nor a denominator
		{"gc-cycles", 1, "gc-cycles"},
		{"", 1, ""},
	}
	for _, tt := range tests {
		factor, tidied := benchout.TidyUnit(tt.unit)
		if factor != tt.factor || tidied != tt.tidied {
			t.Errorf("TidyUnit(%q) = %g, %q; want %g, %q", tt.unit, factor, tidied, tt.factor, tt.tidied)
		}
	}
}
