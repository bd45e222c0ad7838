package report_test

import (
	"strings"
	"testing"

	"github.com/gcperf/gcperf/report"
)

// TestReadBenchLongLine: a line longer than the Go benchmark format's
// reader takes is refused with its own line number and what it is, not
// bufio.Scanner's "token too long" at line 0.
func TestReadBenchLongLine(t *testing.T) {
	long := "BenchmarkX 1 " + strings.Repeat("7", 70<<10) + " ns/op\n"
	ok := "BenchmarkA 10 100 ns/op\n"
	for _, tc := range []struct {
		name, in, want string
	}{
		{"first", long + ok, "line 1: "},
		{"third", ok + "# note\n" + long + ok, "line 3: "},
		{"no newline at the end", ok + strings.Repeat("x", 70<<10), "line 2: "},
	} {
		_, err := report.ReadBench(strings.NewReader(tc.in), "long.txt")
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) || strings.Contains(err.Error(), "token too long") ||
			!strings.Contains(err.Error(), "longer than") {
			t.Errorf("%s: ReadBench = %v, want an error starting %q that says the line is too long", tc.name, err, tc.want)
		}
	}
	// A line just within the limit is read as any other.
	within := "BenchmarkB 1 " + strings.Repeat("7", 64<<10-1-len("BenchmarkB 1  ns/op")) + " ns/op\n"
	if _, err := report.ReadBench(strings.NewReader(ok+within), "ok.txt"); err != nil && strings.Contains(err.Error(), "longer than") {
		t.Errorf("a line of 64KiB-1 bytes: %v", err)
	}
}
