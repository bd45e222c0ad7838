package sweep

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/gcperf/gcperf/target"
	"github.com/gcperf/gcperf/target/gctrace"
)

// traceOf reads trace lines as gcperf exec does.
func traceOf(t *testing.T, lines ...string) gctrace.Summary {
	t.Helper()
	sc := gctrace.NewScanner(strings.NewReader(strings.Join(lines, "\n") + "\n"))
	var z gctrace.Summarizer
	for sc.Scan() {
		z.Add(sc.Cycle())
	}
	return z.Summary()
}

// line is a Go 1.18+ trace line.
func line(n int, at string, pause string, heap string, goal int) string {
	return fmt.Sprintf("gc %d @%s 1%%: %s+1.2+0.003 ms clock, 0.030+0.5/1.0/0.2+0.006 ms cpu, %s MB, %d MB goal, 0 MB stacks, 0 MB globals, 2 P", n, at, pause, heap, goal)
}

// TestUntrustedTrace: trace figures that cannot be true of the run are
// refused with a word; those that can pass (issue 24, item 12).
func TestUntrustedTrace(t *testing.T) {
	exe, err := os.Executable() // a Go program
	if err != nil {
		t.Fatal(err)
	}
	run := &target.Result{Wall: 205 * time.Millisecond, PeakRSS: 6 << 20, MaxRSS: 6 << 20}
	var spoof []string
	for i := 1; i <= 100; i++ {
		spoof = append(spoof, line(i, fmt.Sprintf("0.%03ds", i), "100", "4->4->1", 4))
	}
	for _, tc := range []struct {
		name  string
		argv  []string
		lines []string
		want  string // in the refusal; "" to trust
	}{
		{"plausible", []string{exe}, []string{line(1, "0.010s", "0.015", "4->4->1", 4), line(2, "0.100s", "0.020", "5->6->2", 5)}, ""},
		{"pauses", []string{exe}, spoof, "200 stop-the-world pauses totalling 10.0s in a run of 205ms"},
		{"one long pause", []string{exe}, []string{line(1, "0.010s", "300", "4->4->1", 4)}, "a stop-the-world pause of 300ms in a run of 205ms"},
		{"heap", []string{exe}, []string{line(1, "0.010s", "0.015", "9000->9000->9000", 9000)}, "a heap of 9000MiB with at most 6MiB resident"},
		{"after the run", []string{exe}, []string{line(1, "3.000s", "0.015", "4->4->1", 4)}, "a cycle at 3.00s since its program started, in a run of 205ms"},
		{"backwards", []string{exe}, []string{line(1, "0.100s", "0.015", "4->4->1", 4), line(2, "0.050s", "0.015", "4->4->1", 4)}, "1 cycle began before the cycle before it"},
		{"not go", []string{"printf"}, []string{line(1, "0.010s", "0.015", "4->4->1", 4)}, "printf is not a Go program, and it ran no other"},
		{"not go, through env", []string{"env", "A=1", "printf"}, []string{line(1, "0.010s", "0.015", "4->4->1", 4)}, "printf is not a Go program"},
		{"a shell may run Go", []string{"sh", "-c", "x"}, []string{line(1, "0.010s", "0.015", "4->4->1", 4)}, ""},
		{"a script may run Go", []string{"./no-such-script"}, []string{line(1, "0.010s", "0.015", "4->4->1", 4)}, ""},
	} {
		s := traceOf(t, tc.lines...)
		got := untrustedTrace(tc.argv, run, s)
		if tc.want == "" && got != "" || !strings.Contains(got, tc.want) {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
	// Not Go, but its tree held more than one process: it may have run one.
	forked := *run
	forked.RSS = []target.Sample{{RSS: 1 << 20, Processes: 2}}
	if got := untrustedTrace([]string{"printf"}, &forked, traceOf(t, line(1, "0.010s", "0.015", "4->4->1", 4))); got != "" {
		t.Errorf("a tree of two processes: %q", got)
	}
}
