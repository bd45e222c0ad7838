// Package progress draws gcperf's progress bars on a terminal, with
// github.com/schollz/progressbar/v3: one for a benchmark's warmups and timed
// runs (a workload.Observer) and one for a sweep's points. The command
// decides whether stderr is a terminal; this package only draws.
package progress

import (
	"bytes"
	"io"
	"sync"
	"sync/atomic"
	"time"

	"github.com/schollz/progressbar/v3"

	"github.com/gcperf/gcperf/workload"
)

// The progress bar of gcperf and gcperf run: on a terminal, a bar for the
// warmups, then one for the timed runs (runs done / total, rate, elapsed
// time and ETA), drawn with github.com/schollz/progressbar/v3 on stderr.
// There is none when stderr is not a terminal, with -q, or with -v (whose
// per-run lines take its place).
//
// The bar must not disturb what it follows: it is redrawn between runs
// only, never while one runs. A ticker goroutine does nothing but raise an
// atomic flag every interval (200ms in gcperf); RunEnd, which the engine calls
// between runs, counts the run and, when the flag is up, redraws the bar on
// the goroutine that just finished its run, before it starts the next one.
// Redrawing allocates (progressbar formats with fmt): those allocations, a
// few per redraw and five redraws a second at most, count in the timed
// phase's heap figure (Result.HeapAllocBytes), and the redraw delays the
// next run on that goroutine, never a run in progress. Nothing is drawn
// before the first interval has passed, so benchmarks shorter than that
// show no bar at all.
//
// End stops the ticker and clears the bar before the report is written. The
// separate profiled pass (-profile without -profile-inline) has no bar.

// Runs is the bar of a benchmark's warmups and timed runs, a
// workload.Observer.
type Runs struct {
	w        io.Writer
	interval time.Duration

	warmups, runs int64
	warm, timed   atomic.Int64 // runs ended, per phase
	// A time-bounded benchmark (Config.Duration) shows the time passed
	// against the time it runs for, in milliseconds, from its first timed
	// run's start (t0, nanoseconds since the Unix epoch).
	duration time.Duration
	t0       atomic.Int64
	due      atomic.Bool // raised by the ticker: redraw at the next run's end

	mu    sync.Mutex // held while drawing (threads end runs concurrently)
	phase workload.Phase
	bar   *progressbar.ProgressBar
	drawn bool

	stop, done chan struct{}
}

// NewRuns returns the bar of a benchmark writing to w, redrawn at most
// every interval, between runs.
func NewRuns(w io.Writer, interval time.Duration) *Runs {
	return &Runs{w: w, interval: interval}
}

func (p *Runs) Begin(b workload.Begin) {
	p.warmups, p.runs = int64(b.Config.Warmups), int64(b.Config.Runs)
	if d := b.Config.Duration; d > 0 && b.Config.Rate == 0 {
		p.duration = d
	}
	if p.warmups > 0 {
		p.bar = newBar(p.w, p.warmups, "warmup")
	}
	p.stop, p.done = make(chan struct{}), make(chan struct{})
	go func() {
		defer close(p.done)
		t := time.NewTicker(p.interval)
		defer t.Stop()
		for {
			select {
			case <-p.stop:
				return
			case <-t.C:
				p.due.Store(true)
			}
		}
	}()
}

func (p *Runs) RunStart(phase workload.Phase, _ int) {
	if phase == workload.Timed && p.duration > 0 && p.t0.Load() == 0 {
		p.t0.CompareAndSwap(0, time.Now().UnixNano())
	}
}

// RunEnd counts the run and, when a redraw is due, redraws: between runs.
func (p *Runs) RunEnd(phase workload.Phase, _ int, _ *workload.RunRecord) {
	if phase == workload.Warmup {
		p.warm.Add(1)
	} else {
		p.timed.Add(1)
	}
	if p.due.CompareAndSwap(true, false) {
		p.draw(phase)
	}
}

// draw redraws the bar of phase, starting the timed runs' bar (and its
// clock, for the rate and ETA) the first time a timed run ends.
func (p *Runs) draw(phase workload.Phase) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if phase == workload.Timed && (p.phase != workload.Timed || p.bar == nil) {
		if p.drawn {
			clearLine(p.w)
			p.drawn = false
		}
		if p.duration > 0 {
			p.phase, p.bar = workload.Timed, newBar(p.w, p.duration.Milliseconds(), "ms    ")
		} else {
			p.phase, p.bar = workload.Timed, newBar(p.w, p.runs, "runs  ")
		}
	}
	n := p.warm.Load()
	if p.phase == workload.Timed {
		n = p.timed.Load()
		if p.duration > 0 {
			n = min(time.Since(time.Unix(0, p.t0.Load())), p.duration).Milliseconds()
		}
	}
	if p.bar != nil {
		_ = p.bar.Set64(n)
		p.drawn = true
	}
}

// End stops the ticker and clears the bar.
func (p *Runs) End(*workload.Result) {
	if p.stop == nil {
		return
	}
	close(p.stop)
	<-p.done
	p.stop = nil
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.drawn {
		clearLine(p.w)
		p.drawn = false
	}
}

// clearLine erases the bar's line (ANSI erase line, then carriage
// return): progressbar's Clear erases nothing when its first drawing was
// already the full bar.
func clearLine(w io.Writer) {
	_, _ = io.WriteString(w, "\033[2K\r")
}

// newBar returns a bar of max runs writing to w.
func newBar(w io.Writer, max int64, desc string) *progressbar.ProgressBar {
	bar := progressbar.NewOptions64(max,
		progressbar.OptionSetWriter(w),
		progressbar.OptionSetDescription("gcperf: "+desc),
		progressbar.OptionSetWidth(30),
		progressbar.OptionShowCount(),
		progressbar.OptionShowIts(),
		progressbar.OptionSetItsString("runs"),
		progressbar.OptionSetElapsedTime(true),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionThrottle(0), // redraw throttles: every interval
		progressbar.OptionUseANSICodes(true),
		progressbar.OptionSetRenderBlankState(false),
	)
	bar.StartWithoutRender()
	return bar
}

// The sweep's bar: on a terminal, and without -q, gcperf sweep draws a bar
// of the points done (each point and repeat counts one) out of the shard's
// total, with the elapsed time and the ETA. It is drawn in the parent only,
// when the sweep begins and after each point (the Runner's Progress), never
// while a child runs: timing is not at stake, the children run in other
// processes whose stderr goes to their logs.
//
// The per-point lines still go to stderr, through the bar: a line is held
// until it is whole (the Runner writes "point ... " before the child runs
// and "ok in ..." after), then the bar's line is cleared, the line written,
// and the bar drawn again below it at the next Progress. So the bar stays
// on screen while a child runs, and the lines scroll above it.

// Sweep is the sweep's bar.
type Sweep struct {
	mu    sync.Mutex
	w     io.Writer
	bar   *progressbar.ProgressBar
	drawn bool
	part  []byte // the line being written, held until it is whole
}

// NewSweep returns the bar of a sweep of total points and repeats writing
// to w, or nil when total is not positive. desc says what it counts:
// "gcperf: sweep: points", "gcperf: processes".
func NewSweep(w io.Writer, total int, desc string) *Sweep {
	if total <= 0 {
		return nil
	}
	s := &Sweep{w: w}
	s.bar = progressbar.NewOptions(total,
		progressbar.OptionSetWriter(w),
		progressbar.OptionSetDescription(desc),
		progressbar.OptionSetWidth(30),
		progressbar.OptionShowCount(),
		progressbar.OptionSetElapsedTime(true),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionThrottle(0),
		progressbar.OptionUseANSICodes(true),
		progressbar.OptionSetRenderBlankState(false),
	)
	s.bar.StartWithoutRender()
	return s
}

// Start draws the bar at zero.
func (s *Sweep) Start() {
	s.mu.Lock()
	defer s.mu.Unlock()
	_ = s.bar.RenderBlank()
	s.drawn = true
}

// Progress is the Runner's Progress: it redraws the bar.
func (s *Sweep) Progress(done, _ int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	_ = s.bar.Set(done)
	s.drawn = true
}

// Write takes the Runner's lines: each whole line is written above the
// bar, whose line is cleared first.
func (s *Sweep) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.part = append(s.part, p...)
	i := bytes.LastIndexByte(s.part, '\n')
	if i < 0 {
		return len(p), nil
	}
	s.clear()
	_, err := s.w.Write(s.part[:i+1])
	s.part = append(s.part[:0], s.part[i+1:]...)
	return len(p), err
}

// End clears the bar and writes what is left of a line.
func (s *Sweep) End() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.clear()
	if len(s.part) > 0 {
		_, _ = s.w.Write(append(s.part, '\n'))
		s.part = nil
	}
}

func (s *Sweep) clear() {
	if s.drawn {
		clearLine(s.w)
		s.drawn = false
	}
}
