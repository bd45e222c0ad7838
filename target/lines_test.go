package target

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"
)

// recorder keeps what a lineSplitter gave each side, and the writes to out.
type recorder struct {
	out    bytes.Buffer
	writes int
	trace  []string
}

func (r *recorder) Write(p []byte) (int, error) {
	r.writes++
	return r.out.Write(p)
}

func isGC(line []byte) bool { return bytes.HasPrefix(line, []byte("gc ")) }

func TestLineSplitter(t *testing.T) {
	long := strings.Repeat("x", MaxLine+10)
	tests := []struct {
		name      string
		chunks    []string
		wantOut   string
		wantTrace []string
	}{
		{name: "whole lines in one write",
			chunks:  []string{"a\ngc 1 @0.1s\nb\nc\ngc 2 @0.2s\n"},
			wantOut: "a\nb\nc\n", wantTrace: []string{"gc 1 @0.1s", "gc 2 @0.2s"}},
		{name: "lines split across writes",
			chunks:  []string{"a", "\ngc", " 1 @0.1s", "\nb\n"},
			wantOut: "a\nb\n", wantTrace: []string{"gc 1 @0.1s"}},
		{name: "a last line without newline",
			chunks:  []string{"a\ngc 1 @0.1s"},
			wantOut: "a\n", wantTrace: []string{"gc 1 @0.1s"}},
		{name: "a last other line without newline",
			chunks:  []string{"gc 1\nend"},
			wantOut: "end", wantTrace: []string{"gc 1"}},
		{name: "no trace",
			chunks:  []string{"x\ny\n", "z"},
			wantOut: "x\ny\nz"},
		{name: "empty lines",
			chunks:  []string{"\n\ngc 1\n\n"},
			wantOut: "\n\n\n", wantTrace: []string{"gc 1"}},
		{name: "a long line passes through, the next is asked about",
			chunks:  []string{"gc " + long[:MaxLine/2], long[MaxLine/2:], "\ngc 3\n"},
			wantOut: "gc " + long + "\n", wantTrace: []string{"gc 3"}},
		{name: "a long line in one write is not asked about",
			chunks:  []string{"gc " + long + "\ngc 3\n"},
			wantOut: "gc " + long + "\n", wantTrace: []string{"gc 3"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var r recorder
			s := &lineSplitter{isTrace: isGC, out: &r,
				trace: func(l []byte) { r.trace = append(r.trace, string(l)) }}
			for _, c := range tt.chunks {
				if n, err := s.Write([]byte(c)); n != len(c) || err != nil {
					t.Fatalf("Write = %d, %v; want %d, nil", n, err, len(c))
				}
			}
			s.Flush()
			if got := r.out.String(); got != tt.wantOut {
				t.Errorf("out = %.80q, want %.80q", got, tt.wantOut)
			}
			if strings.Join(r.trace, "|") != strings.Join(tt.wantTrace, "|") {
				t.Errorf("trace = %q, want %q", r.trace, tt.wantTrace)
			}
			if s.lines != len(tt.wantTrace) {
				t.Errorf("lines = %d, want %d", s.lines, len(tt.wantTrace))
			}
		})
	}
}

// Consecutive lines that are not trace lines go out in one Write, and the
// order of the two sides is kept: the lines before a trace line are
// written before it is taken.
func TestLineSplitterBatchesAndOrders(t *testing.T) {
	var events []string
	out := writerFunc(func(p []byte) (int, error) {
		events = append(events, "out:"+string(p))
		return len(p), nil
	})
	s := &lineSplitter{isTrace: isGC, out: out,
		trace: func(l []byte) { events = append(events, "trace:"+string(l)) }}
	s.Write([]byte("a\nb\nc\ngc 1\nd\ne\n"))
	want := []string{"out:a\nb\nc\n", "trace:gc 1", "out:d\ne\n"}
	if strings.Join(events, "|") != strings.Join(want, "|") {
		t.Errorf("events = %q, want %q", events, want)
	}
}

// A writer that fails does not stop the splitter: the child's stderr is
// drained, trace lines are still taken, and the first error is kept.
func TestLineSplitterWriterFails(t *testing.T) {
	fail := errors.New("disk full")
	calls := 0
	out := writerFunc(func(p []byte) (int, error) { calls++; return 0, fail })
	var trace int
	s := &lineSplitter{isTrace: isGC, out: out, trace: func([]byte) { trace++ }}
	for range 3 {
		if n, err := s.Write([]byte("a\ngc 1\n")); n != 7 || err != nil {
			t.Fatalf("Write = %d, %v", n, err)
		}
	}
	if !errors.Is(s.err, fail) || calls != 1 || trace != 3 {
		t.Errorf("err %v, %d writes, %d trace lines; want %v, 1, 3", s.err, calls, trace, fail)
	}
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }

// However the stream is cut into writes, the two sides get the same lines.
func TestLineSplitterAnyChunks(t *testing.T) {
	const stream = "hello\ngc 1 @0.1s 2%: a\nwarning\n\ngc 2 @0.2s\nbye\nlast"
	for seed := range uint64(2000) {
		r := rand.New(rand.NewPCG(seed, 1))
		var out strings.Builder
		var trace []string
		s := &lineSplitter{isTrace: isGC, out: &out, trace: func(l []byte) { trace = append(trace, string(l)) }}
		for rest := stream; len(rest) > 0; {
			n := 1 + r.IntN(len(rest))
			s.Write([]byte(rest[:n]))
			rest = rest[n:]
		}
		s.Flush()
		if out.String() != "hello\nwarning\n\nbye\nlast" || strings.Join(trace, "|") != "gc 1 @0.1s 2%: a|gc 2 @0.2s" {
			t.Fatalf("seed %d: out %q, trace %q", seed, out.String(), trace)
		}
	}
}
