package gctrace_test

import (
	"testing"
	"time"

	"github.com/gcperf/gcperf/target/gctrace"
)

const (
	us = time.Microsecond
	ms = time.Millisecond

	// The parts of a whole line before Go 1.18 and from Go 1.18 on.
	has17  = gctrace.HasClock | gctrace.HasCPU | gctrace.HasHeap | gctrace.HasGoal | gctrace.HasProcs
	has118 = has17 | gctrace.HasStacks | gctrace.HasGlobals
)

// TestParse reads one line of each layout, field by field.
func TestParse(t *testing.T) {
	for _, tc := range []struct {
		name, line string
		want       gctrace.Cycle
	}{{
		name: "go1.26",
		line: "gc 1 @0.012s 2%: 0.017+0.45+0.003 ms clock, 0.034+0.10/0.38/0.12+0.007 ms cpu, 4->4->0 MB, 4 MB goal, 0 MB stacks, 0 MB globals, 2 P\n",
		want: gctrace.Cycle{
			N: 1, At: 12 * ms, CPUPercent: 2,
			SweepTermWall: 17 * us, MarkWall: 450 * us, MarkTermWall: 3 * us,
			SweepTermCPU: 34 * us, AssistCPU: 100 * us, BackgroundCPU: 380 * us, IdleCPU: 120 * us, MarkTermCPU: 7 * us,
			HeapStartMiB: 4, HeapEndMiB: 4, HeapLiveMiB: 0, HeapGoalMiB: 4, Procs: 2,
			Has:    has118,
			Layout: gctrace.Layout118,
		},
	}, {
		name: "go1.26 leak check, forced, CRLF",
		line: "gc 9 @120.004s 10% (checking for goroutine leaks): 12+3.1+0.004 ms clock, 24+0/0.65/2.9+0.009 ms cpu, 1200->1300->900 MB, 1800 MB goal, 3 MB stacks, 16 MB globals, 64 P (forced)\r\n",
		want: gctrace.Cycle{
			N: 9, At: 120*time.Second + 4*ms, CPUPercent: 10,
			SweepTermWall: 12 * ms, MarkWall: 3100 * us, MarkTermWall: 4 * us,
			SweepTermCPU: 24 * ms, AssistCPU: 0, BackgroundCPU: 650 * us, IdleCPU: 2900 * us, MarkTermCPU: 9 * us,
			HeapStartMiB: 1200, HeapEndMiB: 1300, HeapLiveMiB: 900, HeapGoalMiB: 1800, StacksMiB: 3, GlobalsMiB: 16, Procs: 64,
			Forced: true, LeakCheck: true,
			Has:    has118,
			Layout: gctrace.Layout118,
		},
	}, {
		name: "go1.17",
		line: "gc 290 @256.195s 3%: 0.25+100+0.10 ms clock, 2.0+208/199/0+0.84 ms cpu, 400->410->210 MB, 420 MB goal, 8 P",
		want: gctrace.Cycle{
			N: 290, At: 256*time.Second + 195*ms, CPUPercent: 3,
			SweepTermWall: 250 * us, MarkWall: 100 * ms, MarkTermWall: 100 * us,
			SweepTermCPU: 2 * ms, AssistCPU: 208 * ms, BackgroundCPU: 199 * ms, IdleCPU: 0, MarkTermCPU: 840 * us,
			HeapStartMiB: 400, HeapEndMiB: 410, HeapLiveMiB: 210, HeapGoalMiB: 420, Procs: 8,
			Has:    has17,
			Layout: gctrace.Layout17,
		},
	}, {
		name: "go1.5",
		line: "gc 13 @0.376s 3%: 0.31+0.52+0.011+6.4+0.24 ms clock, 1.2+0.52+0+0.10/0.88/0.41+0.96 ms cpu, 12->12->4 MB, 13 MB goal, 4 P (forced)",
		want: gctrace.Cycle{
			N: 13, At: 376 * ms, CPUPercent: 3,
			SweepTermWall: 310 * us, MarkWall: 520*us + 11*us + 6400*us, MarkTermWall: 240 * us,
			SweepTermCPU: 1200 * us, ScanCPU: 520 * us, AssistCPU: 100 * us, BackgroundCPU: 880 * us, IdleCPU: 410 * us, MarkTermCPU: 960 * us,
			HeapStartMiB: 12, HeapEndMiB: 12, HeapLiveMiB: 4, HeapGoalMiB: 13, Procs: 4, Forced: true,
			Has:    has17,
			Layout: gctrace.Layout15,
		},
	}, {
		name: "a part to come is passed over, digits past nanoseconds dropped",
		line: "gc 3 @1.5s 0%: 0.0000019+1+2 ms clock, 0+0/0/0+0 ms cpu, 1->2->3 MB, 4 MB goal, 7 MB arenas, 1 P",
		want: gctrace.Cycle{
			N: 3, At: 1500 * ms, SweepTermWall: 1, MarkWall: ms, MarkTermWall: 2 * ms,
			HeapStartMiB: 1, HeapEndMiB: 2, HeapLiveMiB: 3, HeapGoalMiB: 4, Procs: 1,
			Has:    has17,
			Layout: gctrace.Layout17,
		},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := gctrace.Parse([]byte(tc.line))
			if !ok {
				t.Fatalf("Parse(%q) failed", tc.line)
			}
			if got != tc.want {
				t.Errorf("Parse(%q) =\n%+v\nwant\n%+v", tc.line, got, tc.want)
			}
			if !gctrace.IsTrace([]byte(tc.line)) {
				t.Errorf("IsTrace(%q) = false", tc.line)
			}
			st, mt := got.Pauses()
			if st != tc.want.SweepTermWall || mt != tc.want.MarkTermWall {
				t.Errorf("Pauses() = %v, %v", st, mt)
			}
		})
	}
}

// TestParseRejects lists lines that are not a whole cycle line.
func TestParseRejects(t *testing.T) {
	const ok = "gc 1 @0.012s 2%: 0.017+0.45+0.003 ms clock, 0.034+0.10/0.38/0.12+0.007 ms cpu, 4->4->0 MB, 4 MB goal, 0 MB stacks, 0 MB globals, 2 P"
	if _, good := gctrace.Parse([]byte(ok)); !good {
		t.Fatalf("Parse(%q) failed", ok)
	}
	for _, line := range []string{
		"",
		"gc",
		ok[:len(ok)-1],  // cut short: "# " with no P
		ok[:len(ok)-20], // cut short in "MB globals"
		ok + " extra",   // text after the P
		ok + " (forced", // a note with no end
		ok + "\n\n",     // two line breaks
		"x" + ok,        // text before
		"gc 1 @0.012s 2%: 0.017+0.45 ms clock, 0.034+0.10/0.38/0.12+0.007 ms cpu, 4->4->0 MB, 4 MB goal, 2 P",                          // two wall times
		"gc 1 @0.012s 2%: 0.017+0.45+0.003 ms clock, 0.034+0.10+0.38/0.12+0.007 ms cpu, 4->4->0 MB, 4 MB goal, 2 P",                    // wrong separators
		"gc 1 @0.012s 2%: 0.017+0.45+0.003+1+1 ms clock, 0.034+0.10/0.38/0.12+0.007 ms cpu, 4->4->0 MB, 4 MB goal, 2 P",                // five wall times, five CPU times
		"gc 1 @0.012s 2%: 0.017+0.45+0.003+1+1 ms clock, 1+0+0+0/0/0+1 ms cpu, 4->4->0 MB, 4 MB goal, 1 MB stacks, 2 P",                // Go 1.5's with Go 1.18's parts
		"gc 1 @0.012s 2%: 0.017+0.45+0.003 ms clock, 0.034+0.10/0.38/0.12+0.007 ms cpu, 4->4->0 MB, 4 MB goal, 0 P",                    // no Ps
		"gc 1 @0.012s 2%: 0.017+0.45+0.003 ms clock, 0.034+0.10/0.38/0.12+0.007 ms cpu, 4->4->0 MB, 4 MB goal, 1 MB 9x, 2 P",           // a part that is not words
		"gc 1 @0.012s 2%: 0.017+0.45+0.003 ms clock, 0.034+0.10/0.38/0.12+0.007 ms cpu, 4->4->0 MB, 4 MB goal, , 2 P",                  // an empty part
		"gc 1 @0.012s 2%: .5+0.45+0.003 ms clock, 0.034+0.10/0.38/0.12+0.007 ms cpu, 4->4->0 MB, 4 MB goal, 2 P",                       // no whole part
		"gc 1 @0.012s 2%: 5.+0.45+0.003 ms clock, 0.034+0.10/0.38/0.12+0.007 ms cpu, 4->4->0 MB, 4 MB goal, 2 P",                       // no decimals after the point
		"gc 1 @0.012s -2%: 0.017+0.45+0.003 ms clock, 0.034+0.10/0.38/0.12+0.007 ms cpu, 4->4->0 MB, 4 MB goal, 2 P",                   // a sign
		"gc 12345678901234567890 @0.012s 2%: 0.017+0.45+0.003 ms clock, 0.034+0.10/0.38/0.12+0.007 ms cpu, 4->4->0 MB, 4 MB goal, 2 P", // 20 digits
		"gc 1 @0.012s 2%: 99999999999999+0.45+0.003 ms clock, 0.034+0.10/0.38/0.12+0.007 ms cpu, 4->4->0 MB, 4 MB goal, 2 P",           // more ms than a Duration holds
		"gc1(1): 0+0+0+0 us, 0 -> 0 MB, 21 (21-0) objects, 2 goroutines, 15/0/0 sweeps, 0(0) handoff, 0(0) steal, 0/0/0 yields",        // Go 1.4
		"GC forced",
		"scvg0: inuse: 6, idle: 7, sys: 14, released: 0, consumed: 14 (MB)",
	} {
		if c, good := gctrace.Parse([]byte(line)); good {
			t.Errorf("Parse(%q) = %+v, want failure", line, c)
		}
	}
}

func TestIsTrace(t *testing.T) {
	for line, want := range map[string]bool{
		"gc 1 @0.012s 2%: 0.017+0.45+0.003 ms clock, ...": true, // cut short: still the runtime's
		"gc 1 @":                       true,
		"gc 12 @0.012s\n":              true,
		"GC forced\n":                  true,
		"GC forced":                    true,
		"scvg0: inuse: 6, idle: 7":     true,
		"scvg-1: 4 MB released":        true,
		"scvg: 1720 KB released\r\n":   true,
		"scvg12: 41 MB released":       true,
		"":                             false,
		"gc":                           false,
		"gc 1":                         false,
		"gc @0.1s":                     false,
		"gc x @0.1s":                   false,
		"gc1(1): 0+0+0+0 us":           false, // Go 1.4's
		"GC forced twice":              false,
		" GC forced":                   false,
		"scvg":                         false,
		"scvgx: 1":                     false,
		"scvg-: 1":                     false,
		"scvg1 1":                      false,
		"scan: total 100 objs":         false, // gctrace=2's
		"scav 0 KiB work (bg), 0 KiB":  false, // scavtrace's
		"prog: gc 1 @0.1s is not ours": false,
	} {
		if got := gctrace.IsTrace([]byte(line)); got != want {
			t.Errorf("IsTrace(%q) = %v, want %v", line, got, want)
		}
	}
}

// TestLayoutString names the versions of each layout.
func TestLayoutString(t *testing.T) {
	for l, want := range map[gctrace.Layout]string{
		0: "unknown", gctrace.Layout15: "go1.5-1.6", gctrace.Layout17: "go1.7-1.17", gctrace.Layout118: "go1.18+",
	} {
		if got := l.String(); got != want {
			t.Errorf("Layout(%d).String() = %q, want %q", l, got, want)
		}
	}
}
