package target

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"sync"
	"syscall"
	"testing"
	"testing/synctest"
	"time"
)

const grace = 2 * time.Second

// fakeTree is a child and its tree as the monitor sees them, in a synctest
// bubble: signals are recorded with the (fake) time they were sent at.
type fakeTree struct {
	start  time.Time
	events []string
	exited chan struct{}
	mu     sync.Mutex

	ends         func(syscall.Signal) bool
	leftovers    int
	leftoversEnd func(syscall.Signal) bool
	ended        bool
}

func (f *fakeTree) at() time.Duration { return time.Since(f.start) }

func (f *fakeTree) exit() {
	f.mu.Lock()
	defer f.mu.Unlock()
	if !f.ended {
		f.ended = true
		close(f.exited)
	}
}

func (f *fakeTree) hasEnded() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.ended
}

func (f *fakeTree) sample() (int64, int64, int, bool) {
	if f.hasEnded() {
		return 0, 0, 0, false
	}
	// 1 MiB per 100ms, up to 500ms, then 5 MiB; the child's own peak 1MiB
	// above.
	rss := min(int64(f.at()/(100*time.Millisecond)), 5) << 20
	return rss, rss + 1<<20, 2, true
}

func (f *fakeTree) forward(s syscall.Signal) {
	f.events = append(f.events, fmt.Sprintf("forward %s@%v", SignalName(s), f.at()))
	f.deliver(s)
}

func (f *fakeTree) signal(s syscall.Signal, running bool) {
	f.events = append(f.events, fmt.Sprintf("%s@%v", SignalName(s), f.at()))
	f.deliver(s)
}

func (f *fakeTree) deliver(s syscall.Signal) {
	if f.hasEnded() {
		if f.leftoversEnd != nil && f.leftoversEnd(s) {
			f.leftovers = 0
		}
		return
	}
	if f.ends != nil && f.ends(s) {
		f.exit()
	}
}

func (f *fakeTree) left() int {
	if !f.hasEnded() {
		panic("left() called while the child runs")
	}
	return f.leftovers
}

func is(sigs ...syscall.Signal) func(syscall.Signal) bool {
	return func(s syscall.Signal) bool { return slices.Contains(sigs, s) }
}

var errOverMemory = errors.New("over memory")

func TestMonitor(t *testing.T) {
	ms := time.Millisecond
	tests := []struct {
		name string
		// ends says which signals end the child; leftovers are the
		// processes it leaves, and leftoversEnd which signals end them.
		ends         func(syscall.Signal) bool
		leftovers    int
		leftoversEnd func(syscall.Signal) bool
		// exitAt ends the child by itself (0: never); the others act at
		// their time (0: never).
		exitAt, stopAt, deadline, cancelAt, killAt time.Duration
		interrupts                                 []time.Duration

		wantEvents    []string
		wantWall      time.Duration
		wantStopped   error
		wantKilled    bool
		wantInterrupt bool
		wantLeft      int
		wantUnkilled  int
		wantSamples   int
		wantPeak      int64
	}{
		{name: "ends by itself", exitAt: 1050 * ms,
			wantWall: 1050 * ms, wantSamples: 10, wantPeak: 5 << 20},
		{name: "Stop, ends on SIGTERM", stopAt: 450 * ms, ends: is(syscall.SIGTERM),
			wantEvents: []string{"SIGTERM@450ms"}, wantWall: 450 * ms, wantStopped: ErrStopped, wantSamples: 4, wantPeak: 4 << 20},
		{name: "Stop, ignores SIGTERM", stopAt: 450 * ms, ends: is(syscall.SIGKILL),
			wantEvents: []string{"SIGTERM@450ms", "SIGKILL@2.45s"}, wantWall: 2450 * ms,
			wantStopped: ErrStopped, wantKilled: true, wantSamples: 24, wantPeak: 5 << 20},
		{name: "Stop after the end does nothing", exitAt: 50 * ms, stopAt: 200 * ms,
			wantWall: 50 * ms},
		{name: "deadline", deadline: 350 * ms, ends: is(syscall.SIGTERM),
			wantEvents: []string{"SIGTERM@350ms"}, wantWall: 350 * ms, wantStopped: context.DeadlineExceeded, wantSamples: 3, wantPeak: 3 << 20},
		{name: "cancelled with a cause", cancelAt: 250 * ms, ends: is(syscall.SIGKILL),
			wantEvents: []string{"SIGTERM@250ms", "SIGKILL@2.25s"}, wantWall: 2250 * ms,
			wantStopped: errOverMemory, wantKilled: true, wantSamples: 22, wantPeak: 5 << 20},
		{name: "an interrupt, the child ends", interrupts: []time.Duration{150 * ms}, ends: is(syscall.SIGINT),
			wantEvents: []string{"forward SIGINT@150ms"}, wantWall: 150 * ms, wantInterrupt: true, wantSamples: 1, wantPeak: 1 << 20},
		{name: "two interrupts the child ignores, then Kill", interrupts: []time.Duration{110 * ms, 210 * ms}, killAt: 310 * ms,
			ends:       is(syscall.SIGKILL),
			wantEvents: []string{"forward SIGINT@110ms", "forward SIGINT@210ms", "SIGKILL@310ms"}, wantWall: 310 * ms,
			wantStopped: ErrInterrupted, wantKilled: true, wantInterrupt: true, wantSamples: 3, wantPeak: 3 << 20},
		{name: "an interrupt, then a deadline", interrupts: []time.Duration{110 * ms}, deadline: 410 * ms,
			ends:       is(syscall.SIGTERM),
			wantEvents: []string{"forward SIGINT@110ms", "SIGTERM@410ms"}, wantWall: 410 * ms,
			wantStopped: context.DeadlineExceeded, wantInterrupt: true, wantSamples: 4, wantPeak: 4 << 20},
		{name: "leftovers end on SIGTERM", exitAt: 50 * ms, leftovers: 2, leftoversEnd: is(syscall.SIGTERM),
			wantEvents: []string{"SIGTERM@50ms"}, wantWall: 50 * ms, wantLeft: 2},
		{name: "leftovers ignore SIGTERM", exitAt: 50 * ms, leftovers: 1, leftoversEnd: is(syscall.SIGKILL),
			wantEvents: []string{"SIGTERM@50ms", "SIGKILL@2.05s"}, wantWall: 50 * ms, wantLeft: 1, wantKilled: true},
		{name: "a leftover that cannot be killed", exitAt: 50 * ms, leftovers: 1,
			wantEvents: []string{"SIGTERM@50ms", "SIGKILL@2.05s"}, wantWall: 50 * ms, wantLeft: 1, wantKilled: true, wantUnkilled: 1},
		{name: "Stop: the child ends on SIGTERM, its leftover does not", stopAt: 120 * ms,
			ends: is(syscall.SIGTERM), leftovers: 1, leftoversEnd: is(syscall.SIGKILL),
			// No second SIGTERM: the stop's SIGKILL comes when it was due.
			wantEvents: []string{"SIGTERM@120ms", "SIGKILL@2.12s"}, wantWall: 120 * ms,
			wantStopped: ErrStopped, wantLeft: 1, wantKilled: true, wantSamples: 1, wantPeak: 1 << 20},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				f := &fakeTree{start: time.Now(), exited: make(chan struct{}),
					ends: tt.ends, leftovers: tt.leftovers, leftoversEnd: tt.leftoversEnd}
				ctx := t.Context()
				if tt.deadline > 0 {
					var cancel context.CancelFunc
					ctx, cancel = context.WithTimeout(ctx, tt.deadline)
					defer cancel()
				}
				if tt.cancelAt > 0 {
					var cancel context.CancelCauseFunc
					ctx, cancel = context.WithCancelCause(ctx)
					time.AfterFunc(tt.cancelAt, func() { cancel(errOverMemory) })
				}
				stop := make(chan struct{})
				if tt.stopAt > 0 {
					time.AfterFunc(tt.stopAt, func() { close(stop) })
				}
				if tt.exitAt > 0 {
					go func() {
						time.Sleep(tt.exitAt)
						f.exit()
					}()
				}
				sig := make(chan os.Signal)
				go func() {
					var last time.Duration
					for _, at := range tt.interrupts {
						time.Sleep(at - last)
						last = at
						select {
						case sig <- os.Interrupt:
						case <-f.exited:
							return
						}
					}
				}()
				kill := make(chan error, 1)
				if tt.killAt > 0 {
					time.AfterFunc(tt.killAt, func() { kill <- ErrInterrupted })
				}
				res := &Result{}
				m := &monitor{tree: f, interval: 100 * time.Millisecond, grace: grace,
					start: f.start, series: newSeries(100), res: res, kill: kill}
				m.run(ctx, sig, stop, f.exited)

				if !slices.Equal(f.events, tt.wantEvents) {
					t.Errorf("signals %q, want %q", f.events, tt.wantEvents)
				}
				if res.Wall != tt.wantWall {
					t.Errorf("Wall = %v, want %v", res.Wall, tt.wantWall)
				}
				if !errors.Is(res.Stopped, tt.wantStopped) || (res.Stopped == nil) != (tt.wantStopped == nil) {
					t.Errorf("Stopped = %v, want %v", res.Stopped, tt.wantStopped)
				}
				if res.Killed != tt.wantKilled || res.Interrupted != tt.wantInterrupt {
					t.Errorf("Killed %v, Interrupted %v; want %v, %v", res.Killed, res.Interrupted, tt.wantKilled, tt.wantInterrupt)
				}
				if res.Leftovers != tt.wantLeft || res.Unkilled != tt.wantUnkilled {
					t.Errorf("Leftovers %d, Unkilled %d; want %d, %d", res.Leftovers, res.Unkilled, tt.wantLeft, tt.wantUnkilled)
				}
				if res.Samples != tt.wantSamples || res.PeakRSS != tt.wantPeak || len(res.RSS) != tt.wantSamples {
					t.Errorf("%d samples (%d in the series), peak %d; want %d, %d", res.Samples, len(res.RSS), res.PeakRSS, tt.wantSamples, tt.wantPeak)
				}
				if wantOwn := tt.wantPeak + 1<<20; tt.wantSamples == 0 && res.OwnPeakRSS != 0 || tt.wantSamples > 0 && res.OwnPeakRSS != wantOwn {
					t.Errorf("own peak %d; want %d", res.OwnPeakRSS, wantOwn)
				}
			})
		})
	}
}

// The samples are taken every interval from the start, each with its time;
// OnSample sees each as it is taken.
func TestMonitorSamples(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := &fakeTree{start: time.Now(), exited: make(chan struct{})}
		go func() {
			time.Sleep(350 * time.Millisecond)
			f.exit()
		}()
		var seen []Sample
		res := &Result{}
		m := &monitor{tree: f, interval: 100 * time.Millisecond, grace: grace, start: f.start,
			series: newSeries(100), res: res, onSample: func(s Sample) { seen = append(seen, s) }}
		m.run(t.Context(), nil, nil, f.exited)
		want := []Sample{
			{At: 100 * time.Millisecond, RSS: 1 << 20, Processes: 2},
			{At: 200 * time.Millisecond, RSS: 2 << 20, Processes: 2},
			{At: 300 * time.Millisecond, RSS: 3 << 20, Processes: 2},
		}
		if !slices.Equal(res.RSS, want) || !slices.Equal(seen, want) {
			t.Errorf("RSS %v, seen %v; want %v", res.RSS, seen, want)
		}
		if res.Stride != 1 {
			t.Errorf("Stride %d, want 1", res.Stride)
		}
	})
}

// A closed signal channel is no interrupt.
func TestMonitorClosedSignals(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := &fakeTree{start: time.Now(), exited: make(chan struct{})}
		go func() {
			time.Sleep(time.Second)
			f.exit()
		}()
		sig := make(chan os.Signal)
		close(sig)
		res := &Result{}
		m := &monitor{tree: f, interval: 100 * time.Millisecond, grace: grace, start: f.start, series: newSeries(100), res: res}
		m.run(t.Context(), sig, nil, f.exited)
		if res.Interrupted || len(f.events) != 0 {
			t.Errorf("Interrupted %v, signals %q; want none", res.Interrupted, f.events)
		}
	})
}
