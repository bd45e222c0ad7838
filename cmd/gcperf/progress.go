package main

import (
	"bytes"
	"io"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"

	"github.com/gcperf/gcperf/workload"
)

// The progress bar of gcperf and gcperf run: on a terminal, a bar for the
// warmups, then one for the timed runs (runs done / total, rate, elapsed
// time and ETA), drawn with github.com/schollz/progressbar/v3 on stderr.
// There is none when stderr is not a terminal, with -q, or with -v (whose
// per-run lines take its place).
//
// The bar must not disturb what it follows. Its Observer's RunEnd only adds
// one to an atomic counter, and its RunStart is an atomic load (a sync.Once
// that tells the redraw goroutine the timed runs have begun, so that their
// bar's rate and ETA start with them): the goroutines running the benchmark never
// format, allocate or write anything for it, and never wait on a lock it
// holds. A separate goroutine redraws the bar from the counters every
// progressInterval (200ms). Redrawing allocates (progressbar formats with
// fmt), and those allocations, made while the timed runs go on, count in the
// timed phase's heap figure (Result.HeapAllocBytes): a small amount per
// redraw (not measured), five redraws a second. The redraw
// goroutine also takes a little processor time; on a machine with one
// processor that can show as a short delay in one run every 200ms.
// Throttling progressbar's own Add in RunEnd was the alternative: it would
// have put the allocations and the writes on the runs' goroutines, between
// runs but in the path of the next one. Nothing is drawn before the first
// interval has passed, so benchmarks shorter than that show no bar at all.
//
// End stops the redraw goroutine and clears the bar before the report is
// written. The separate profiled pass (-profile without -profile-inline)
// has no bar.

// progressInterval is how often the bar is redrawn.
var progressInterval = 200 * time.Millisecond

// stderrIsTerminal tells whether w, gcperf's stderr, is a terminal. Tests
// replace it.
var stderrIsTerminal = isTerminal

// isTerminal reports whether w is an *os.File, or the lockedWriter around
// one, open on a terminal.
func isTerminal(w io.Writer) bool {
	if l, ok := w.(*lockedWriter); ok {
		w = l.w
	}
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// progressObserver returns the bar's Observer writing to w, or nil when
// isTerm says w is not a terminal.
func progressObserver(w io.Writer, isTerm func(io.Writer) bool) workload.Observer {
	if !isTerm(w) {
		return nil
	}
	return newProgress(w, progressInterval)
}

// progress is the bar's Observer.
type progress struct {
	w        io.Writer
	interval time.Duration

	warmups, runs int64
	warm, timed   atomic.Int64 // runs ended, per phase

	timedOnce  sync.Once
	timedGo    chan struct{} // closed as the first timed run starts
	markTimed  func()        // closes timedGo; made once, so RunStart allocates nothing
	stop, done chan struct{}
}

func newProgress(w io.Writer, interval time.Duration) *progress {
	p := &progress{w: w, interval: interval, timedGo: make(chan struct{})}
	p.markTimed = func() { close(p.timedGo) }
	return p
}

func (p *progress) Begin(b workload.Begin) {
	p.warmups, p.runs = int64(b.Config.Warmups), int64(b.Config.Runs)
	p.stop, p.done = make(chan struct{}), make(chan struct{})
	go p.redraw()
}

// RunStart tells the redraw goroutine when the timed runs begin, so that
// their bar's clock (its rate and ETA) starts with them: an atomic load
// after the first time.
func (p *progress) RunStart(phase workload.Phase, _ int) {
	if phase == workload.Timed {
		p.timedOnce.Do(p.markTimed)
	}
}

// RunEnd counts the run: one atomic add, nothing else.
func (p *progress) RunEnd(phase workload.Phase, _ int, _ *workload.RunRecord) {
	if phase == workload.Warmup {
		p.warm.Add(1)
	} else {
		p.timed.Add(1)
	}
}

// End stops the redrawing and clears the bar.
func (p *progress) End(*workload.Result) {
	if p.stop == nil {
		return
	}
	close(p.stop)
	<-p.done
	p.stop = nil
}

// redraw draws the bar every interval until End, then clears it: the
// warmups' bar, then, from the first timed run, the timed runs' bar. A bar
// is made (its clock started) as its phase begins, and first drawn at the
// next tick.
func (p *progress) redraw() {
	defer close(p.done)
	t := time.NewTicker(p.interval)
	defer t.Stop()
	var bar *progressbar.ProgressBar
	drawn := false
	count, timedGo := &p.warm, p.timedGo
	if p.warmups > 0 {
		bar = newBar(p.w, p.warmups, "warmup")
	}
	for {
		select {
		case <-p.stop:
			if drawn {
				clearLine(p.w)
			}
			return
		case <-timedGo:
			timedGo = nil
			if drawn {
				clearLine(p.w)
				drawn = false
			}
			count, bar = &p.timed, newBar(p.w, p.runs, "runs  ")
			continue
		case <-t.C:
		}
		if bar != nil {
			_ = bar.Set64(count.Load())
			drawn = true
		}
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

// sweepProgress is the sweep's bar.
type sweepProgress struct {
	mu    sync.Mutex
	w     io.Writer
	bar   *progressbar.ProgressBar
	drawn bool
	part  []byte // the line being written, held until it is whole
}

// newSweepProgress returns the bar of a sweep of total points and repeats
// writing to w, or nil when isTerm says w is not a terminal.
func newSweepProgress(w io.Writer, total int, isTerm func(io.Writer) bool) *sweepProgress {
	if !isTerm(w) || total <= 0 {
		return nil
	}
	s := &sweepProgress{w: w}
	s.bar = progressbar.NewOptions(total,
		progressbar.OptionSetWriter(w),
		progressbar.OptionSetDescription("gcperf: sweep: points"),
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
func (s *sweepProgress) Start() {
	s.mu.Lock()
	defer s.mu.Unlock()
	_ = s.bar.RenderBlank()
	s.drawn = true
}

// Progress is the Runner's Progress: it redraws the bar.
func (s *sweepProgress) Progress(done, _ int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	_ = s.bar.Set(done)
	s.drawn = true
}

// Write takes the Runner's lines: each whole line is written above the
// bar, whose line is cleared first.
func (s *sweepProgress) Write(p []byte) (int, error) {
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
func (s *sweepProgress) End() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.clear()
	if len(s.part) > 0 {
		_, _ = s.w.Write(append(s.part, '\n'))
		s.part = nil
	}
}

func (s *sweepProgress) clear() {
	if s.drawn {
		clearLine(s.w)
		s.drawn = false
	}
}
