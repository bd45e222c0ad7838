package gctrace_test

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gcperf/gcperf/target/gctrace"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// TestGolden scans every fixture (testdata/*.txt) and compares, with its
// .golden file, what came out in order (the cycles and the lines passed to
// Other), the counts and the summary.
func TestGolden(t *testing.T) {
	files, err := filepath.Glob("testdata/*.txt")
	if err != nil || len(files) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txt"), func(t *testing.T) {
			in, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			got := describeTrace(in)
			golden := strings.TrimSuffix(file, ".txt") + ".golden"
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (go test -update writes it)", err)
			}
			if got != string(want) {
				t.Errorf("%s differs from %s (go test -update rewrites it):\n%s", file, golden, lineDiff(string(want), got))
			}
		})
	}
}

// eventLog receives the Scanner's Other output between its cycles, so
// that the golden file shows both in the order they came.
type eventLog struct{ bytes.Buffer }

func (l *eventLog) Write(p []byte) (int, error) {
	fmt.Fprintf(&l.Buffer, "other %q\n", p)
	return len(p), nil
}

// describeTrace scans in and describes what came out.
func describeTrace(in []byte) string {
	var out eventLog
	s := gctrace.NewScanner(bytes.NewReader(in))
	s.Other = &out
	var z gctrace.Summarizer
	for s.Scan() {
		c := s.Cycle()
		fmt.Fprintf(&out.Buffer, "cycle %s\n", describeCycle(c))
		z.Add(c)
	}
	if err := s.Err(); err != nil {
		fmt.Fprintf(&out.Buffer, "error %v\n", err)
	}
	n := s.Counts()
	fmt.Fprintf(&out.Buffer, "counts: cycles %d, truncated %d, repaired %d, periodic %d, scavenger %d, skipped %d, other %d\n",
		n.Cycles, n.Truncated, n.Repaired, n.Periodic, n.Scavenger, n.Skipped, n.Other)
	out.WriteString(describeSummary(z.Summary()))
	return out.String()
}

func describeCycle(c *gctrace.Cycle) string {
	var b strings.Builder
	fmt.Fprintf(&b, "seq %d n %d @%v %d%% %v", c.Seq, c.N, c.At, c.CPUPercent, c.Layout)
	if c.Has&gctrace.HasClock != 0 {
		fmt.Fprintf(&b, " clock %v+%v+%v", c.SweepTermWall, c.MarkWall, c.MarkTermWall)
	}
	if c.Has&gctrace.HasCPU != 0 {
		fmt.Fprintf(&b, " cpu %v+%v/%v/%v+%v", c.SweepTermCPU, c.AssistCPU, c.BackgroundCPU, c.IdleCPU, c.MarkTermCPU)
		if c.Layout == gctrace.Layout15 {
			fmt.Fprintf(&b, " scan %v", c.ScanCPU)
		}
	}
	if c.Has&gctrace.HasHeap != 0 {
		fmt.Fprintf(&b, " heap %d->%d->%d", c.HeapStartMiB, c.HeapEndMiB, c.HeapLiveMiB)
	}
	if c.Has&gctrace.HasGoal != 0 {
		fmt.Fprintf(&b, " goal %d", c.HeapGoalMiB)
	}
	if c.Has&gctrace.HasStacks != 0 {
		fmt.Fprintf(&b, " stacks %d", c.StacksMiB)
	}
	if c.Has&gctrace.HasGlobals != 0 {
		fmt.Fprintf(&b, " globals %d", c.GlobalsMiB)
	}
	if c.Has&gctrace.HasProcs != 0 {
		fmt.Fprintf(&b, " P %d", c.Procs)
	}
	for _, f := range []struct {
		on   bool
		name string
	}{{c.Forced, "forced"}, {c.LeakCheck, "leakcheck"}, {c.Truncated, "truncated"}, {c.Repaired, "repaired"}} {
		if f.on {
			b.WriteString(" " + f.name)
		}
	}
	return b.String()
}

func describeSummary(s gctrace.Summary) string {
	var b strings.Builder
	fmt.Fprintf(&b, "summary: %d cycles (%d forced, %d truncated) in %d sequences, from @%v to @%v; GC CPU %d%%\n",
		s.Cycles, s.Forced, s.Truncated, s.Sequences, s.First, s.Last, s.CPUPercent)
	p := s.Pauses
	fmt.Fprintf(&b, "pauses: %d, total %v; P50 %v, P90 %v, P99 %v, max %v; mark %v\n",
		p.Count, p.Total, p.P50, p.P90, p.P99, p.Max, s.MarkWall)
	c := s.CPU
	fmt.Fprintf(&b, "cpu: sweep termination %v, assist %v, background %v, idle %v, mark termination %v, scan %v; total %v\n",
		c.SweepTerm, c.Assist, c.Background, c.Idle, c.MarkTerm, c.Scan, c.Total())
	fmt.Fprintf(&b, "heap: peak %d MiB, live %d MiB; goal", s.PeakHeapMiB, s.PeakLiveMiB)
	for _, g := range s.Goal {
		fmt.Fprintf(&b, " %v:%d", g.At.Round(time.Millisecond), g.GoalMiB)
	}
	b.WriteString("\n")
	return b.String()
}

// lineDiff shows the first lines where want and got differ.
func lineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < max(len(w), len(g)); i++ {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl {
			return fmt.Sprintf("line %d:\nwant %s\ngot  %s", i+1, wl, gl)
		}
	}
	return "(same lines)"
}
