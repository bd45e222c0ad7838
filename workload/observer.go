package workload

import (
	"io"
	"strconv"
	"sync"
	"time"

	"github.com/gcperf/gcperf/latency"
)

// Phase tells warmup runs from timed runs.
type Phase uint8

const (
	Warmup Phase = iota
	Timed
)

func (p Phase) String() string {
	if p == Warmup {
		return "warmup"
	}
	return "timed"
}

// Begin describes a benchmark about to start.
type Begin struct {
	Config     Config
	Operations []string
}

// An Observer follows a benchmark as it runs. RunStart and RunEnd are called
// between operations, outside every timed region, from the goroutine that
// runs the run: with Config.Threads > 1 they are called concurrently.
// Whatever they do delays the next run, so they should be cheap; the heap
// allocations they make count in Result.HeapAllocBytes. The RunRecord
// RunEnd receives is valid during the call only: past Config.Kept() runs
// it is the goroutine's scratch record, reused by its next run.
type Observer interface {
	Begin(b Begin)
	RunStart(phase Phase, run int)             // run is 1-based
	RunEnd(phase Phase, run int, r *RunRecord) // r is nil for warmups
	End(r *Result)
}

// Verbose returns an Observer printing a line as each timed run starts and
// ends, the way GCPerfP99 does, with the time since start, and what the
// collector did during the run when it did anything (Config.GCStats "run"):
//
//	[1.234s] Run start 17
//	[1.245s] Run end 17: 10.8ms
//	[1.270s] Run end 18: 24.1ms [GC cycles 1, STW 312µs, assist 3.20ms]
//
// It formats into a reused buffer, so it adds no garbage to the heap being
// measured.
func Verbose(w io.Writer, start time.Time) Observer {
	return &verbose{w: w, start: start, buf: make([]byte, 0, 128)}
}

type verbose struct {
	mu    sync.Mutex
	w     io.Writer
	start time.Time
	buf   []byte
}

func (v *verbose) Begin(Begin) {}
func (v *verbose) End(*Result) {}

func (v *verbose) RunStart(phase Phase, run int) {
	if phase != Timed {
		return
	}
	v.line(run, "start", nil)
}

func (v *verbose) RunEnd(phase Phase, run int, r *RunRecord) {
	if phase != Timed {
		return
	}
	v.line(run, "end", r)
}

func (v *verbose) line(run int, what string, r *RunRecord) {
	v.mu.Lock()
	defer v.mu.Unlock()
	b := append(v.buf[:0], '[')
	b = strconv.AppendFloat(b, time.Since(v.start).Seconds(), 'f', 3, 64)
	b = append(b, "s] Run "...)
	b = append(b, what...)
	b = append(b, ' ')
	b = strconv.AppendInt(b, int64(run), 10)
	if r != nil {
		b = append(b, ": "...)
		b = latency.AppendDuration(b, r.Runtime)
		if r.Errors > 0 {
			b = append(b, " ("...)
			b = strconv.AppendInt(b, int64(r.Errors), 10)
			b = append(b, " failed)"...)
		}
		if g := r.GC; g.Overlapped() {
			b = append(b, " [GC cycles "...)
			b = strconv.AppendUint(b, g.Cycles, 10)
			b = append(b, ", STW "...)
			b = latency.AppendDuration(b, g.STW)
			b = append(b, ", assist "...)
			b = latency.AppendDuration(b, g.AssistCPU)
			b = append(b, ']')
		}
		if c := r.Causes; c.MinorFaults+c.MajorFaults+c.VoluntarySwitches+c.InvoluntarySwitches+c.SchedWaits > 0 {
			b = append(b, " [faults "...)
			b = strconv.AppendUint(b, c.MinorFaults, 10)
			b = append(b, " minor, "...)
			b = strconv.AppendUint(b, c.MajorFaults, 10)
			b = append(b, " major; switches "...)
			b = strconv.AppendUint(b, c.VoluntarySwitches, 10)
			b = append(b, " voluntary, "...)
			b = strconv.AppendUint(b, c.InvoluntarySwitches, 10)
			b = append(b, " involuntary; sched waits "...)
			b = strconv.AppendUint(b, c.SchedWaits, 10)
			b = append(b, ']')
		}
	}
	b = append(b, '\n')
	v.buf = b
	_, _ = v.w.Write(b)
}
