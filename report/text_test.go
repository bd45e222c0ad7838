package report

import (
	"strings"
	"testing"
	"time"

	"github.com/gcperf/gcperf/env"
	"github.com/gcperf/gcperf/runstats"
	"github.com/gcperf/gcperf/workload"
)

// The GC paragraph says what is known: the pauses' stopping time beside
// the time stopped, why the pause CPU is not GOMAXPROCS × the pauses, and
// the live heap only when a GC cycle has marked it. Each line ends a
// sentence or a clause: none breaks mid-sentence.
func TestGCText(t *testing.T) {
	paused := GC{Mode: "run", GCSummary: workload.GCSummary{GCDelta: runstats.GCDelta{Cycles: 2, Pauses: 4,
		STW: 10 * time.Millisecond, STWMax: 4 * time.Millisecond, GCCPU: 30 * time.Millisecond,
		PauseCPU: 16 * time.Millisecond, HeapLive: 64 << 20, HeapGoal: 128 << 20},
		Stopping: 4 * time.Millisecond, HeapObjects: 80 << 20}}
	tests := []struct {
		name      string
		gc        GC
		gogc      int
		want, not []string
	}{
		{"pauses", paused, 100,
			[]string{"4 stop-the-world pauses totalling 10.0ms", "Of those 10.0ms, 4.00ms went to stopping the world",
				"and 6.00ms to the world stopped and restarting.", "pause 16.0ms.",
				"The pause CPU is not GOMAXPROCS × the pauses: it is GOMAXPROCS (2) × the time the world was stopped",
				"At the end: heap live 64MiB; goal 128MiB"},
			[]string{"heap objects", "unknown"}},
		{"older result: no stopping time", func() GC { g := paused; g.Stopping = 0; return g }(), 100,
			[]string{"4 stop-the-world pauses totalling 10.0ms", "The pause CPU is not GOMAXPROCS × the pauses"},
			[]string{"stopping the world (", "restarting."}},
		{"GOGC=off: no cycle has marked the heap", GC{Mode: "run", GCSummary: workload.GCSummary{
			GCDelta: runstats.GCDelta{AllocBytes: 50 << 20, HeapGoal: 1 << 63}, HeapObjects: 84 << 20}}, -1,
			[]string{"0 cycles, 0 stop-the-world pauses.", "GC CPU 0ns.",
				"Heap live unknown: no GC cycle has marked the heap since the process started (GOGC=off).",
				"At the end: heap objects 84MiB, live and dead (none freed yet); goal none"},
			[]string{"heap live 0B", "totalling", "The pause CPU"}},
		{"no cycle yet, an older result without heap objects", GC{Mode: "total", GCSummary: workload.GCSummary{GCDelta: runstats.GCDelta{HeapGoal: 4 << 20}}}, 100,
			[]string{"Heap live unknown: no GC cycle has marked the heap since the process started.", "At the end: goal 4MiB;"},
			[]string{"heap live 0B", "GOGC=off", "heap objects"}},
		{"no cycle in the timed runs, one before", GC{Mode: "run", GCSummary: workload.GCSummary{
			GCDelta: runstats.GCDelta{HeapLive: 3 << 20, HeapGoal: 6 << 20}, HeapObjects: 5 << 20}}, 100,
			[]string{"heap live 3MiB (marked before the timed runs: no cycle ended in them); goal 6MiB"},
			[]string{"unknown"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := &Document{GC: &tt.gc, Env: Env{Go: env.Go{GOMAXPROCS: 2, GOGC: tt.gogc}}}
			got := textSection(d, (*printer).gc)
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					t.Errorf("lacks %q:\n%s", w, got)
				}
			}
			for _, n := range tt.not {
				if strings.Contains(got, n) {
					t.Errorf("has %q:\n%s", n, got)
				}
			}
			for _, line := range strings.Split(strings.TrimSpace(got), "\n") {
				if !strings.ContainsAny(line[len(line)-1:], ".,:") {
					t.Errorf("line breaks mid-sentence: %q", line)
				}
			}
		})
	}
}

// GCPerfP99's total time covers the runs it keeps, its objects processed
// every run: each says which.
func TestGCPerfP99Labels(t *testing.T) {
	d, _ := readFixture(t, "list.json")
	got := textSection(d, (*printer).gcperf)
	for _, w := range []string{"Total execution time (the best 198 runs) = ",
		"Total objects processed (all 200 runs, as GCPerfP99 counts them) = 6400"} {
		if !strings.Contains(got, w) {
			t.Errorf("lacks %q:\n%s", w, got)
		}
	}
}
