package gctrace

import (
	"math"
	"slices"
	"time"

	"github.com/gcperf/gcperf/internal/peaks"
)

// Summary is what a trace says of the collector over a run: counts, the
// stop-the-world pauses as a distribution, the CPU it took, the heap's
// peaks and the heap goal over time. A Summarizer makes one.
type Summary struct {
	// Cycles is the number of cycles, Truncated ones included; Forced of
	// them ended in "(forced)" and Truncated were cut short.
	Cycles, Forced, Truncated int
	// Sequences is the number of runs of cycle numbers (Cycle.Seq): more
	// than one when more than one process wrote the trace.
	Sequences int
	// First and Last are the start times (Cycle.At) of the first and the
	// last cycle.
	First, Last time.Duration
	// Backwards counts the cycles that began before the cycle before them
	// in the same sequence: a runtime's clock does not go back, so the
	// lines are not (all) a runtime's.
	Backwards int

	// Pauses are the stop-the-world pauses: two per cycle, sweep
	// termination and mark termination.
	Pauses Pauses
	// MarkWall is the wall time the collector spent in the concurrent mark
	// phase, over every cycle.
	MarkWall time.Duration
	// CPU is the CPU time of the cycles, by phase and kind of worker (of
	// the cycles whose line has its CPU times).
	CPU CPUTimes
	// CPUPercent is the last cycle's share of the CPU the collector had used
	// since the program started (whole percent, rounded down): the share
	// over the whole run.
	CPUPercent int

	// PeakHeapMiB is the largest heap a line gives, at the start or the
	// end of a cycle; PeakLiveMiB is the largest heap marked live. In MiB,
	// rounded down, as the lines give them.
	PeakHeapMiB, PeakLiveMiB uint64
	// Goal is the heap goal of the cycles whose line gives one, in the
	// order read, at most Summarizer.MaxGoal points: each point is the
	// largest goal of GoalStride consecutive cycles (the last point, of
	// at most GoalStride), GoalStride doubling each time the series fills
	// up, as target's RSS series does. GoalCycles is the number of cycles
	// whose line gives a goal.
	Goal       []GoalPoint
	GoalStride int
	GoalCycles int

	// ImpliedGOGC is the GOGC the heap goals imply: the median over the
	// cycles that tell it (ImpliedCycles) of 100 × (goal − the previous
	// cycle's live heap) / (that live heap + stacks + globals), which is
	// the runtime's GOGC when GOMEMLIMIT does not lower the goal. Only a
	// cycle after one of the same process with at least 4MiB live tells
	// it. The trace's MiB being rounded down, each cycle gives the GOGC
	// within bounds (the figures' least and most); ImpliedLow and
	// ImpliedHigh are the medians of those bounds, between which the
	// runtime's GOGC lies. All 0 when ImpliedCycles is 0.
	ImpliedGOGC, ImpliedLow, ImpliedHigh int
	ImpliedCycles                        int
}

// impliedMinLiveMiB is the least live heap of the cycle before whose goal
// tells the GOGC in force: at 4MiB, the rounding of the trace's MiB moves
// the figure by at most a factor of about 1.6.
const impliedMinLiveMiB = 4

// DefaultMaxGoal is the most points of a Summary's Goal when
// Summarizer.MaxGoal is 0: as many as target's RSS series.
const DefaultMaxGoal = 1000

// Pauses is a distribution of pause times. The quantiles are the
// nearest-rank ones (the smallest pause that at least that share of the
// pauses do not exceed) and are exact: every pause is kept.
type Pauses struct {
	Count              int
	Total              time.Duration
	P50, P90, P99, Max time.Duration
}

// CPUTimes is the collector's CPU time by phase: the two stop-the-world
// phases, the mark's assists, background and idle workers, and Go 1.5 and
// 1.6's scan (see Cycle).
type CPUTimes struct {
	SweepTerm, Assist, Background, Idle, MarkTerm, Scan time.Duration
}

// Total returns the sum of the times.
func (t CPUTimes) Total() time.Duration {
	return t.SweepTerm + t.Assist + t.Background + t.Idle + t.MarkTerm + t.Scan
}

// GoalPoint is one cycle's heap goal and when the cycle began.
type GoalPoint struct {
	At      time.Duration
	GoalMiB uint64
}

// Summarizer makes a Summary of the cycles given to Add. It keeps each
// cycle's pauses (16 bytes a cycle) and a bounded series of the goal. The
// zero value is ready to use.
type Summarizer struct {
	// MaxGoal bounds the Summary's Goal (0: DefaultMaxGoal, at least 2).
	MaxGoal int

	sum    Summary
	pauses []time.Duration
	goal   *peaks.Series[GoalPoint]
	// lastSeq is the sequence of the last cycle added, lastLive its live
	// heap (MiB, 0 when its line gave none).
	lastSeq  int
	lastLive uint64
	implied  [][3]float32 // the GOGC each cycle's goal implies: its figure, least and most
}

// Add counts one cycle.
func (z *Summarizer) Add(c *Cycle) {
	s := &z.sum
	if s.Cycles == 0 {
		s.First = c.At
	}
	if s.Cycles > 0 && c.Seq == z.lastSeq && c.At < s.Last {
		s.Backwards++
	}
	z.imply(c)
	s.Cycles++
	s.Last = c.At
	s.CPUPercent = c.CPUPercent
	s.Sequences = max(s.Sequences, c.Seq+1)
	if c.Forced {
		s.Forced++
	}
	if c.Truncated {
		s.Truncated++
	}
	if c.Has&HasClock != 0 {
		z.pauses = append(z.pauses, c.SweepTermWall, c.MarkTermWall)
		s.MarkWall += c.MarkWall
	}
	if c.Has&HasCPU != 0 {
		s.CPU.SweepTerm += c.SweepTermCPU
		s.CPU.Assist += c.AssistCPU
		s.CPU.Background += c.BackgroundCPU
		s.CPU.Idle += c.IdleCPU
		s.CPU.MarkTerm += c.MarkTermCPU
		s.CPU.Scan += c.ScanCPU
	}
	if c.Has&HasHeap != 0 {
		s.PeakHeapMiB = max(s.PeakHeapMiB, c.HeapStartMiB, c.HeapEndMiB)
		s.PeakLiveMiB = max(s.PeakLiveMiB, c.HeapLiveMiB)
	}
	if c.Has&HasGoal != 0 {
		if z.goal == nil {
			limit := z.MaxGoal
			if limit <= 0 {
				limit = DefaultMaxGoal
			}
			z.goal = peaks.New(limit, func(a, b GoalPoint) bool { return a.GoalMiB < b.GoalMiB })
		}
		z.goal.Add(GoalPoint{At: c.At, GoalMiB: c.HeapGoalMiB})
		s.GoalCycles++
	}
}

// imply keeps the GOGC that c's goal implies, after a cycle of the same
// process with enough of a live heap, and remembers c's.
func (z *Summarizer) imply(c *Cycle) {
	const need = HasHeap | HasGoal
	if z.sum.Cycles > 0 && c.Seq == z.lastSeq && z.lastLive >= impliedMinLiveMiB && c.Has&need == need && c.HeapGoalMiB >= z.lastLive {
		// Each MiB figure is rounded down: the true one is below it + 1.
		live, goal, more := float64(z.lastLive), float64(c.HeapGoalMiB), float64(c.StacksMiB+c.GlobalsMiB)
		z.implied = append(z.implied, [3]float32{
			float32(100 * (goal - live) / (live + more)),
			float32(100 * max(0, goal-live-1) / (live + more + 3)),
			float32(100 * (goal + 1 - live) / (live + more)),
		})
	}
	z.lastSeq, z.lastLive = c.Seq, 0
	if c.Has&HasHeap != 0 {
		z.lastLive = c.HeapLiveMiB
	}
}

// Summary returns the summary of the cycles added so far.
func (z *Summarizer) Summary() Summary {
	s := z.sum
	if z.goal != nil {
		s.Goal, s.GoalStride = z.goal.Points(), z.goal.Stride() // appends by the caller or by Add do not meet
	}
	if n := len(z.implied); n > 0 {
		s.ImpliedCycles = n
		s.ImpliedGOGC, s.ImpliedLow, s.ImpliedHigh = medianOf(z.implied, 0), medianOf(z.implied, 1), medianOf(z.implied, 2)
	}
	p := slices.Clone(z.pauses)
	slices.Sort(p)
	s.Pauses = Pauses{Count: len(p)}
	for _, d := range p {
		s.Pauses.Total += d
	}
	if n := len(p); n > 0 {
		s.Pauses.P50, s.Pauses.P90, s.Pauses.P99 = rank(p, 50), rank(p, 90), rank(p, 99)
		s.Pauses.Max = p[n-1]
	}
	return s
}

// medianOf returns the median of the i-th figure of the implied GOGCs,
// rounded.
func medianOf(implied [][3]float32, i int) int {
	g := make([]float32, len(implied))
	for k, x := range implied {
		g[k] = x[i]
	}
	slices.Sort(g)
	return int(math.Round(float64(g[len(g)/2])))
}

// rank returns the nearest-rank q-th percentile of the sorted p: the
// element at rank ceil(q/100 × n).
func rank(p []time.Duration, q int) time.Duration {
	i := (q*len(p) + 99) / 100
	return p[max(i, 1)-1]
}

// Summarize returns the summary of cycles.
func Summarize(cycles []Cycle) Summary {
	var z Summarizer
	for i := range cycles {
		z.Add(&cycles[i])
	}
	return z.Summary()
}
