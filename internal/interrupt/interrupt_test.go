package interrupt

import (
	"bytes"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"testing/synctest"
)

func closed(c <-chan struct{}) bool {
	select {
	case <-c:
		return true
	default:
		return false
	}
}

// What one, two and three interrupts do in each phase: the table README's
// Guarantees section states.
func TestWatcher(t *testing.T) {
	tests := []struct {
		name      string
		phase     Phase
		n         int
		canCancel bool
		stops     int32
		cancels   int32
		abort     bool
		abandon   bool
		says      string // the last line
	}{
		{"one", Running, 1, true, 1, 0, false, false, "stopping after the runs in progress"},
		{"two", Running, 2, true, 1, 1, false, false, "cancelling the operations in progress"},
		{"three", Running, 3, true, 1, 1, true, false, "exiting without a report"},
		{"four", Running, 4, true, 1, 1, true, false, "exiting without a report"},
		{"sweep one", Running, 1, false, 1, 0, false, false, ""},
		{"sweep two", Running, 2, false, 1, 0, false, false, "still stopping"},
		{"sweep three", Running, 3, false, 1, 0, true, false, "exiting without a report"},
		{"profiling", Profiling, 1, true, 0, 0, false, true, "abandoning the profiled pass"},
		{"profiling twice", Profiling, 2, true, 0, 0, false, true, "it is not given up"},
		{"writing", Writing, 3, true, 0, 0, false, false, "it is not given up"},
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
				w := Watch(sig, &out, func() { stops.Add(1) }, cancel, !tt.canCancel)
				defer w.Close()
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
				if tt.abort && w.Enter(Writing) {
					t.Error("Enter(Writing) after the third interrupt, want false: nothing is written")
				}
			})
		})
	}
}

// Unless returns f's result, or gives up on it as soon as quit is closed.
func TestUnless(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		quit := make(chan struct{})
		got, err, ok := Unless(quit, func() (int, error) { return 7, nil })
		if got != 7 || err != nil || !ok {
			t.Errorf("Unless = %d, %v, %t; want 7, nil, true", got, err, ok)
		}
		block := make(chan struct{})
		defer close(block)
		close(quit)
		if _, _, ok := Unless(quit, func() (int, error) { <-block; return 0, nil }); ok {
			t.Error("Unless after quit: ok, want given up")
		}
	})
}
