package gctrace_test

import (
	"reflect"
	"testing"
	"time"

	"github.com/gcperf/gcperf/target/gctrace"
)

// TestSummaryQuantiles takes the nearest-rank quantiles of every pause, two
// per cycle.
func TestSummaryQuantiles(t *testing.T) {
	var cycles []gctrace.Cycle
	for i := 1; i <= 50; i++ {
		cycles = append(cycles, gctrace.Cycle{
			N: i, At: time.Duration(i) * time.Second, CPUPercent: i % 7,
			SweepTermWall: time.Duration(2*i-1) * us, MarkTermWall: time.Duration(2*i) * us, // 1..100µs
			Has: gctrace.HasClock,
		})
	}
	s := gctrace.Summarize(cycles)
	want := gctrace.Pauses{Count: 100, Total: 5050 * us, P50: 50 * us, P90: 90 * us, P99: 99 * us, Max: 100 * us}
	if s.Pauses != want {
		t.Errorf("Pauses = %+v, want %+v", s.Pauses, want)
	}
	if s.Cycles != 50 || s.First != time.Second || s.Last != 50*time.Second || s.CPUPercent != 50%7 || s.Sequences != 1 {
		t.Errorf("summary %+v", s)
	}
	// No heap, goal or CPU in the lines: none in the summary.
	if s.PeakHeapMiB != 0 || s.Goal != nil || s.CPU.Total() != 0 {
		t.Errorf("summary %+v", s)
	}

	one := gctrace.Summarize(cycles[:1])
	if p := one.Pauses; p.P50 != us || p.P90 != 2*us || p.P99 != 2*us || p.Max != 2*us {
		t.Errorf("one cycle: %+v", p)
	}
	if none := gctrace.Summarize(nil); !reflect.DeepEqual(none, gctrace.Summary{}) {
		t.Errorf("no cycles: %+v", none)
	}
}

// TestSummarizer sums what each cycle's line has, and gives a Summary that
// later Adds leave alone.
func TestSummarizer(t *testing.T) {
	whole := gctrace.Cycle{
		N: 1, At: ms, CPUPercent: 3, SweepTermWall: 10 * us, MarkWall: ms, MarkTermWall: 20 * us,
		SweepTermCPU: 1, AssistCPU: 2, BackgroundCPU: 3, IdleCPU: 4, MarkTermCPU: 5,
		HeapStartMiB: 40, HeapEndMiB: 50, HeapLiveMiB: 30, HeapGoalMiB: 45, Forced: true,
		Has: has118,
	}
	cut := gctrace.Cycle{N: 2, At: 2 * ms, CPUPercent: 4, SweepTermWall: 5 * us, MarkWall: ms, MarkTermWall: 6 * us,
		HeapStartMiB: 99, HeapGoalMiB: 99, Truncated: true, Has: gctrace.HasClock}
	other := gctrace.Cycle{N: 1, At: 3 * ms, SweepTermWall: us, MarkTermWall: us, HeapStartMiB: 60, HeapLiveMiB: 35,
		HeapGoalMiB: 70, Seq: 1, Has: has17}
	var z gctrace.Summarizer
	z.Add(&whole)
	z.Add(&cut)
	first := z.Summary()
	first.Goal = append(first.Goal, gctrace.GoalPoint{GoalMiB: 1}) // must not show in the next Summary
	z.Add(&other)
	s := z.Summary()
	if s.Cycles != 3 || s.Forced != 1 || s.Truncated != 1 || s.Sequences != 2 || s.CPUPercent != 0 {
		t.Errorf("counts %+v", s)
	}
	if s.PeakHeapMiB != 60 || s.PeakLiveMiB != 35 || s.MarkWall != 2*ms {
		t.Errorf("heap %d, live %d, mark %v", s.PeakHeapMiB, s.PeakLiveMiB, s.MarkWall)
	}
	if want := (gctrace.CPUTimes{SweepTerm: 1, Assist: 2, Background: 3, Idle: 4, MarkTerm: 5}); s.CPU != want || s.CPU.Total() != 15 {
		t.Errorf("CPU %+v", s.CPU)
	}
	if want := []gctrace.GoalPoint{{At: ms, GoalMiB: 45}, {At: 3 * ms, GoalMiB: 70}}; !reflect.DeepEqual(s.Goal, want) {
		t.Errorf("Goal %v, want %v", s.Goal, want)
	}
	if s.Pauses.Count != 6 || s.Pauses.Max != 20*us || s.Pauses.Total != 43*us {
		t.Errorf("Pauses %+v", s.Pauses)
	}
}

// TestSummaryGoalBounded: the heap goal series is bounded as target's RSS
// series is: each two consecutive points merged into the larger, the
// stride recorded, the peak kept (issue 24, item 28).
func TestSummaryGoalBounded(t *testing.T) {
	for _, tc := range []struct {
		max, cycles int
		points      int // want
		stride      int
	}{
		{max: 10, cycles: 9, points: 9, stride: 1},
		{max: 10, cycles: 10, points: 5, stride: 2},
		{max: 10, cycles: 11, points: 6, stride: 2},
		{max: 10, cycles: 1000, points: 8, stride: 128},
		{max: 7, cycles: 100, points: 7, stride: 16},
		{max: 0, cycles: 63308, points: 990, stride: 64},
	} {
		z := gctrace.Summarizer{MaxGoal: tc.max}
		peakAt := tc.cycles * 2 / 3
		for i := 1; i <= tc.cycles; i++ {
			goal := uint64(4 + i%5)
			if i == peakAt {
				goal = 1000
			}
			z.Add(&gctrace.Cycle{N: i, At: time.Duration(i) * time.Millisecond, HeapGoalMiB: goal, Has: gctrace.HasGoal})
		}
		s := z.Summary()
		limit := tc.max
		if limit == 0 {
			limit = gctrace.DefaultMaxGoal
		}
		if len(s.Goal) != tc.points || len(s.Goal) > limit || s.GoalStride != tc.stride || s.GoalCycles != tc.cycles {
			t.Errorf("max %d, %d cycles: %d points, stride %d, %d cycles; want %d points, stride %d",
				tc.max, tc.cycles, len(s.Goal), s.GoalStride, s.GoalCycles, tc.points, tc.stride)
		}
		var peak gctrace.GoalPoint
		for _, p := range s.Goal {
			if p.GoalMiB > peak.GoalMiB {
				peak = p
			}
		}
		if peak.GoalMiB != 1000 || peak.At != time.Duration(peakAt)*time.Millisecond {
			t.Errorf("max %d, %d cycles: peak %+v, want 1000MiB at %dms", tc.max, tc.cycles, peak, peakAt)
		}
	}
}
