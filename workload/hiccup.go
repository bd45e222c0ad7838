package workload

import (
	"time"

	"github.com/gcperf/gcperf/latency"
)

// The shortest hiccup interval: below it the meter's own wake-ups would
// take a processor away from what it measures.
const minHiccup = 100 * time.Microsecond

// hiccupMeter is a goroutine that sleeps for an interval, again and again,
// and records how much later than asked it woke: a stall of the process
// (a stop-the-world pause, a goroutine hogging the only processor, the
// machine taking the CPU away) shows as lateness, whatever the operations
// were doing. As jHiccup does, a stall of several intervals is recorded
// with the wake-ups it hid (latency.Recorder.RecordCorrected), so its
// percentiles are per unit of time, not per wake-up.
//
// Everything it needs is allocated by newHiccupMeter, before the timed runs
// (whose heap allocations are measured); start and stop allocate nothing.
type hiccupMeter struct {
	interval time.Duration
	rec      *latency.Recorder
	timer    *time.Timer
	begin    chan struct{}
	quit     chan struct{}
	done     chan struct{}
}

func newHiccupMeter(interval time.Duration) *hiccupMeter {
	h := &hiccupMeter{
		interval: interval,
		rec:      latency.NewRecorder(),
		timer:    time.NewTimer(time.Hour),
		begin:    make(chan struct{}),
		quit:     make(chan struct{}),
		done:     make(chan struct{}),
	}
	h.timer.Stop()
	go h.run()
	return h
}

func (h *hiccupMeter) run() {
	defer close(h.done)
	select {
	case <-h.begin:
	case <-h.quit:
		return
	}
	for {
		start := time.Now()
		h.timer.Reset(h.interval)
		select {
		case <-h.timer.C:
			h.rec.RecordCorrected(max(time.Since(start)-h.interval, 0), h.interval)
		case <-h.quit:
			// The interval in progress is cut short: not a wake-up.
			h.timer.Stop()
			return
		}
	}
}

// start begins measuring.
func (h *hiccupMeter) start() { close(h.begin) }

// stop ends the meter at once and returns what it recorded.
func (h *hiccupMeter) stop() *latency.Recorder {
	close(h.quit)
	<-h.done
	return h.rec
}
