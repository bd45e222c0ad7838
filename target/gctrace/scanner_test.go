package gctrace_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/gcperf/gcperf/target/gctrace"
)

// cycleLine is a Go 1.26 line for cycle n.
func cycleLine(n int) string {
	return fmt.Sprintf("gc %d @%d.%03ds 3%%: 0.017+0.45+0.003 ms clock, 0.034+0.10/0.38/0.12+0.007 ms cpu, "+
		"%d->%d->%d MB, %d MB goal, 0 MB stacks, 0 MB globals, 2 P", n, n/1000, n%1000, 4+n%7, 5+n%7, 2+n%3, 8+n%5)
}

// scan reads in and returns the cycles' numbers and sequences ("n/seq"),
// what went to Other, and the counts.
func scan(t *testing.T, in io.Reader) (cycles []string, other string, n gctrace.Counts) {
	t.Helper()
	var out bytes.Buffer
	s := gctrace.NewScanner(in)
	s.Other = &out
	for s.Scan() {
		cycles = append(cycles, fmt.Sprintf("%d/%d", s.Cycle().N, s.Cycle().Seq))
	}
	if err := s.Err(); err != nil {
		t.Errorf("Err() = %v", err)
	}
	return cycles, out.String(), s.Counts()
}

// TestScanLongLine passes a line longer than the buffer on whole, as one
// line, and reads the cycle after it.
func TestScanLongLine(t *testing.T) {
	long := "x" + strings.Repeat("gc 1 @", 30000) + "\n" // 180 KB
	in := "before\n" + long + cycleLine(1) + "\nafter"
	cycles, other, n := scan(t, iotest.HalfReader(strings.NewReader(in)))
	if want := "before\n" + long + "after"; other != want {
		t.Errorf("Other got %d bytes, want %d", len(other), len(want))
	}
	if len(cycles) != 1 || n.Other != 3 || n.Skipped != 0 {
		t.Errorf("cycles %v, counts %+v; want one cycle and 3 other lines", cycles, n)
	}
}

// TestScanLineBreaks reads CRLF line breaks and a last line with no line
// break (Truncated: the runtime always ends its line with one), and passes
// the program's bytes on unchanged.
func TestScanLineBreaks(t *testing.T) {
	in := "a\r\n" + cycleLine(1) + "\r\n\r\n" + "GC forced\r\n" + cycleLine(2)
	cycles, other, n := scan(t, strings.NewReader(in))
	if got, want := strings.Join(cycles, " "), "1/0 2/0"; got != want {
		t.Errorf("cycles %s, want %s", got, want)
	}
	if other != "a\r\n\r\n" || n.Periodic != 1 || n.Truncated != 1 {
		t.Errorf("Other %q, counts %+v", other, n)
	}
}

// TestScanSequences tells the processes sharing a stderr apart by their
// cycle numbers, as in go vet's trace, and follows a sequence across a lost
// line.
func TestScanSequences(t *testing.T) {
	var in strings.Builder
	for _, n := range []int{1, 2, 3, 1, 2, 4, 3, 1, 6, 7, 2} {
		in.WriteString(cycleLine(n) + "\n")
	}
	cycles, _, _ := scan(t, strings.NewReader(in.String()))
	// 4 follows the first 3 (the only 3 so far), 3 the second 2, 6 the
	// highest below it (4: line 5 was lost), 2 the latest 1.
	want := "1/0 2/0 3/0 1/1 2/1 4/0 3/1 1/2 6/0 7/0 2/2"
	if got := strings.Join(cycles, " "); got != want {
		t.Errorf("cycles\n%s\nwant\n%s", got, want)
	}
}

// TestScanManySequences keeps following at most a bounded number of
// sequences, and numbers new ones on past it.
func TestScanManySequences(t *testing.T) {
	var in strings.Builder
	for range 100 {
		in.WriteString(cycleLine(1) + "\n")
	}
	in.WriteString(cycleLine(2) + "\n") // the latest 1's
	cycles, _, _ := scan(t, strings.NewReader(in.String()))
	if len(cycles) != 101 || cycles[99] != "1/99" || cycles[100] != "2/99" {
		t.Errorf("cycles ... %v", cycles[95:])
	}
}

// TestScanHeld passes a line of the program's that begins "gc " on when the
// next line comes, and at the end of the input.
func TestScanHeld(t *testing.T) {
	for _, in := range []string{
		"gc stats: 3\n" + "next\n",
		"gc stats: 3\n",
		"gc 5 @1s 2%: cut\n" + cycleLine(6) + "\n",
	} {
		_, other, n := scan(t, strings.NewReader(in))
		want := strings.TrimSuffix(in, cycleLine(6)+"\n")
		if other != want || n.Repaired != 0 {
			t.Errorf("%q: Other %q, counts %+v", in, other, n)
		}
	}
}

// TestScanRepairTail reads a cycle's line after the program's unfinished
// line, when a "gc " in the program's text is not it.
func TestScanRepairTail(t *testing.T) {
	in := "progress gc 5 items, 50%... " + cycleLine(1) + "\n"
	cycles, other, n := scan(t, strings.NewReader(in))
	if len(cycles) != 1 || other != "progress gc 5 items, 50%... " || n.Repaired != 1 || n.Other != 1 {
		t.Errorf("cycles %v, Other %q, counts %+v", cycles, other, n)
	}
}

// TestScanRepairAmbiguous takes, where the program's line began with digits,
// the split whose number follows the last cycle's, else the longest.
func TestScanRepairAmbiguous(t *testing.T) {
	rest := strings.TrimPrefix(cycleLine(13), "gc 13")
	for _, tc := range []struct{ in, cycles, other string }{
		{cycleLine(12) + "\n" + "gc 13 items\n" + rest + "\n", "12/0 13/0", " items\n"},
		{cycleLine(0) + "\n" + "gc 13 items\n" + rest + "\n", "0/0 1/0", "3 items\n"},
		{"gc 13 items\n" + rest + "\n", "13/0", " items\n"},
	} {
		cycles, other, _ := scan(t, strings.NewReader(tc.in))
		if got := strings.Join(cycles, " "); got != tc.cycles || other != tc.other {
			t.Errorf("%q: cycles %s, Other %q; want %s, %q", tc.in, got, other, tc.cycles, tc.other)
		}
	}
}

// TestScanTruncated returns a last line cut short once its wall times are
// read, with the parts it has; a line cut short before is passed on.
func TestScanTruncated(t *testing.T) {
	line := cycleLine(1)
	at := strings.Index(line, " ms clock, ") + len(" ms clock, ")
	for cut := 1; cut < len(line); cut++ {
		s := gctrace.NewScanner(strings.NewReader(line[:cut]))
		var other bytes.Buffer
		s.Other = &other
		got := s.Scan()
		if got != (cut >= at) {
			t.Errorf("cut at %d (%q): Scan() = %v", cut, line[:cut], got)
			continue
		}
		if !got {
			if other.String() != line[:cut] || s.Counts().Skipped+s.Counts().Other != 1 {
				t.Errorf("cut at %d: Other %q, counts %+v", cut, other.String(), s.Counts())
			}
			continue
		}
		c := s.Cycle()
		whole, _ := gctrace.Parse([]byte(line))
		if !c.Truncated || c.Has&gctrace.HasClock == 0 || c.SweepTermWall != whole.SweepTermWall || c.N != 1 {
			t.Errorf("cut at %d: %+v", cut, *c)
		}
		if c.Has&gctrace.HasGoal != 0 && c.HeapGoalMiB != whole.HeapGoalMiB {
			t.Errorf("cut at %d: goal %d, want %d", cut, c.HeapGoalMiB, whole.HeapGoalMiB)
		}
	}
}

// failWriter fails every write.
type failWriter struct{ n int }

func (w *failWriter) Write(p []byte) (int, error) {
	w.n++
	return 0, errors.New("disk full")
}

// TestScanErrors goes on reading after Other fails, and stops at a read
// error; Err says which.
func TestScanErrors(t *testing.T) {
	w := &failWriter{}
	s := gctrace.NewScanner(strings.NewReader("a\nb\n" + cycleLine(1) + "\nc\n"))
	s.Other = w
	n := 0
	for s.Scan() {
		n++
	}
	if err := s.Err(); n != 1 || w.n != 1 || err == nil || !strings.Contains(err.Error(), "disk full") ||
		!strings.HasPrefix(err.Error(), "gctrace: ") {
		t.Errorf("%d cycles, %d writes, Err() = %v", n, w.n, err)
	}

	broken := io.MultiReader(strings.NewReader(cycleLine(1)+"\n"), iotest.ErrReader(errors.New("pipe gone")))
	s = gctrace.NewScanner(broken)
	n = 0
	for s.Scan() {
		n++
	}
	if err := s.Err(); n != 1 || err == nil || !strings.Contains(err.Error(), "pipe gone") {
		t.Errorf("%d cycles, Err() = %v", n, err)
	}
}

// TestScanRepairOtherProcess reads a cycle's line that another process's
// whole line landed inside (the go command and the vet runs it starts share
// a stderr): both cycles come out, in their own sequences.
func TestScanRepairOtherProcess(t *testing.T) {
	line := cycleLine(5)
	cut := strings.Index(line, " ms cpu, ") + len(" ms cpu, ")
	in := cycleLine(4) + "\n" + line[:cut] + cycleLine(1) + "\n" + line[cut:] + "\n" + cycleLine(2) + "\n"
	cycles, other, n := scan(t, strings.NewReader(in))
	if got, want := strings.Join(cycles, " "), "4/0 5/0 1/1 2/1"; got != want || other != "" || n.Repaired != 1 {
		t.Errorf("cycles %s (want %s), Other %q, counts %+v", got, want, other, n)
	}
}
