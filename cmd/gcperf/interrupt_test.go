package main

import (
	"bytes"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"testing/synctest"
)

// What one, two and three interrupts do in each phase: the table README's
// Guarantees section states.
func TestWatcher(t *testing.T) {
	tests := []struct {
		name      string
		phase     phase
		n         int
		canCancel bool
		stops     int32
		cancels   int32
		abort     bool
		abandon   bool
		says      string // the last line
		pass      bool   // a profiled pass started (bench.ProfilingPass)
		server    bool   // a server under test was started
	}{
		{"one", phaseRunning, 1, true, 1, 0, false, false, "stopping after the runs in progress", false, false},
		{"two", phaseRunning, 2, true, 1, 1, false, false, "cancelling the operations in progress", false, false},
		{"three", phaseRunning, 3, true, 1, 1, true, false, "exiting without a report", false, false},
		{"four", phaseRunning, 4, true, 1, 1, true, false, "exiting without a report", false, false},
		{"sweep one", phaseRunning, 1, false, 1, 0, false, false, "", false, false},
		{"sweep two", phaseRunning, 2, false, 1, 0, false, false, "still stopping", false, false},
		{"sweep three", phaseRunning, 3, false, 1, 0, true, false, "exiting without a report", false, false},
		{"profiling", phaseProfiling, 1, true, 0, 0, false, true, "abandoning the profiled pass", true, false},
		{"profiling twice", phaseProfiling, 2, true, 0, 0, false, true, "it is not given up", true, false},
		// Issue 24, item 23: after the runs, with no profiled pass asked
		// for, none is said to be abandoned.
		{"runs over", phaseProfiling, 1, true, 0, 0, false, true, "interrupted: the measured runs are over: writing what was measured first; it is not given up", false, false},
		{"runs over, server", phaseProfiling, 1, true, 0, 0, false, true, "interrupted: the measured runs are over: stopping the server under test, then writing what was measured; it is not given up", false, true},
		{"writing", phaseWriting, 3, true, 0, 0, false, false, "it is not given up", false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				var stops, cancels atomic.Int32
				var cancel func()
				if tt.canCancel {
					cancel = func() { cancels.Add(1) }
				}
				var out bytes.Buffer
				sig := make(chan os.Signal)
				w := watchInterrupts(sig, &out, func() { stops.Add(1) }, cancel, !tt.canCancel)
				defer w.Close()
				if tt.server {
					w.Server()
				}
				if tt.pass {
					w.Pass()
				}
				if !w.Enter(tt.phase) || w.Interrupted() {
					t.Fatal("Enter refused, or Interrupted, before any interrupt")
				}
				for range tt.n {
					sig <- os.Interrupt
				}
				synctest.Wait()
				if !w.Interrupted() {
					t.Error("Interrupted() false after an interrupt: the command would exit 0")
				}
				if stops.Load() != tt.stops || cancels.Load() != tt.cancels {
					t.Errorf("stop called %d times, cancel %d; want %d, %d", stops.Load(), cancels.Load(), tt.stops, tt.cancels)
				}
				if closed(w.Abort()) != tt.abort || closed(w.Abandon()) != tt.abandon {
					t.Errorf("abort %t, abandon %t; want %t, %t", closed(w.Abort()), closed(w.Abandon()), tt.abort, tt.abandon)
				}
				lines := strings.Split(strings.TrimSpace(out.String()), "\n")
				if last := lines[len(lines)-1]; !strings.Contains(last, tt.says) {
					t.Errorf("last line %q, want it to say %q", last, tt.says)
				}
				if tt.abort && w.Enter(phaseWriting) {
					t.Error("Enter(phaseWriting) after the third interrupt, want false: nothing is written")
				}
			})
		})
	}
}

func closed(c <-chan struct{}) bool {
	select {
	case <-c:
		return true
	default:
		return false
	}
}
