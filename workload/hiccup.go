package workload

import (
	"time"

	"github.com/gcperf/gcperf/latency"
)

// hiccupMeter is a goroutine that sleeps for an interval, again and again,
// and records how much later than asked it woke: a stall of the process
// (a stop-the-world pause, a goroutine hogging the only processor, the
// machine taking the CPU away) shows as lateness, whatever the operations
// were doing. It records into its own Recorder, allocated before it starts.
type hiccupMeter struct {
	rec  *latency.Recorder
	quit chan struct{}
	done chan struct{}
}

func startHiccups(interval time.Duration) *hiccupMeter {
	h := &hiccupMeter{rec: latency.NewRecorder(), quit: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(h.done)
		for {
			start := time.Now()
			time.Sleep(interval)
			h.rec.Record(max(time.Since(start)-interval, 0))
			select {
			case <-h.quit:
				return
			default:
			}
		}
	}()
	return h
}

// stop ends the meter and returns what it recorded.
func (h *hiccupMeter) stop() *latency.Recorder {
	close(h.quit)
	<-h.done
	return h.rec
}
