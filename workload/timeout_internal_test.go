package workload

import (
	"context"
	"errors"
	"testing"
	"time"
)

// closed reports whether ch is closed, without waiting.
func closed(ch <-chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}

// waitClosed waits for ch to close, failing the test after 10 seconds.
func waitClosed(t *testing.T, ch <-chan struct{}) {
	t.Helper()
	select {
	case <-ch:
	case <-time.After(10 * time.Second):
		t.Fatal("Done not closed after 10s")
	}
}

func TestTimeoutCtxArmDisarm(t *testing.T) {
	c := newTimeoutCtx(context.Background())
	defer c.release()
	done := c.Done()
	for range 1000 {
		c.arm(time.Hour)
		if closed(c.Done()) || c.Err() != nil {
			t.Fatalf("armed for an hour: Done closed %v, Err %v", closed(c.Done()), c.Err())
		}
		c.disarm()
	}
	if c.Done() != done || closed(done) || c.Err() != nil {
		t.Errorf("after 1000 arm/disarm: same channel %v, closed %v, Err %v; want the first channel, open, nil",
			c.Done() == done, closed(done), c.Err())
	}
	// Short deadlines disarmed before they pass leave it open too.
	for range 100 {
		c.arm(50 * time.Millisecond)
		c.disarm()
	}
	time.Sleep(60 * time.Millisecond)
	if closed(c.Done()) || c.Err() != nil {
		t.Errorf("a disarmed deadline expired: Err %v", c.Err())
	}
}

func TestTimeoutCtxExpiry(t *testing.T) {
	c := newTimeoutCtx(context.Background())
	defer c.release()
	first := c.Done()
	c.arm(time.Millisecond)
	waitClosed(t, first)
	if !errors.Is(c.Err(), context.DeadlineExceeded) {
		t.Errorf("Err after expiry = %v, want DeadlineExceeded", c.Err())
	}
	c.disarm()
	if !closed(c.Done()) || c.Err() == nil {
		t.Errorf("disarm reopened an expired context")
	}

	// An expired context stays expired, as a context must, and says so:
	// the engine gives the next operation a new one.
	if !c.expired() {
		t.Fatalf("expired() is false after a timeout")
	}
	c.release()
	c = newTimeoutCtx(context.Background())
	defer c.release()
	if c.expired() {
		t.Fatalf("a new context is expired")
	}
	c.arm(time.Hour)
	// A stale expiry (a timer's callback running late) finds the deadline
	// not passed and does nothing.
	c.expire()
	if closed(c.Done()) || c.Err() != nil {
		t.Errorf("a stale expiry closed the re-armed context: %v", c.Err())
	}
	c.disarm()
	// Expiry of a disarmed context does nothing, even past its deadline.
	c.arm(time.Hour)
	c.disarm()
	c.mu.Lock()
	c.deadline = time.Now().Add(-time.Second)
	c.mu.Unlock()
	c.expire()
	if closed(c.Done()) {
		t.Errorf("an expiry after disarm closed Done")
	}

	// A stale timer firing while the mutex is held (the operation ended and
	// the next was armed before the callback ran) finds the new deadline.
	c.arm(time.Millisecond)
	c.mu.Lock()
	time.Sleep(5 * time.Millisecond) // the timer fires and its callback waits for mu
	c.deadline = time.Now().Add(time.Hour)
	c.mu.Unlock()
	time.Sleep(5 * time.Millisecond)
	if closed(c.Done()) {
		t.Errorf("the old timer closed Done after the deadline moved an hour on")
	}
	c.disarm()
}

func TestTimeoutCtxParent(t *testing.T) {
	tests := []struct {
		name   string
		cancel func(context.CancelCauseFunc)
		want   error
	}{
		{"cancel", func(f context.CancelCauseFunc) { f(nil) }, context.Canceled},
		{"cancel with a cause", func(f context.CancelCauseFunc) { f(errors.New("stop it")) }, context.Canceled},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			parent, cancel := context.WithCancelCause(context.Background())
			c := newTimeoutCtx(parent)
			defer c.release()
			c.arm(time.Hour)
			tt.cancel(cancel)
			waitClosed(t, c.Done())
			if err := c.Err(); err != tt.want {
				t.Errorf("Err = %v, want %v (context.Context's contract)", err, tt.want)
			}
			c.disarm()
			// Arming under a cancelled parent gives a closed channel at once.
			c.arm(time.Hour)
			if !closed(c.Done()) || c.Err() != tt.want {
				t.Errorf("armed under a cancelled parent: closed %v, Err %v", closed(c.Done()), c.Err())
			}
		})
	}
	t.Run("parent deadline", func(t *testing.T) {
		parent, cancel := context.WithTimeout(context.Background(), time.Millisecond)
		defer cancel()
		c := newTimeoutCtx(parent)
		defer c.release()
		c.arm(time.Hour)
		waitClosed(t, c.Done())
		if c.Err() != context.DeadlineExceeded {
			t.Errorf("Err = %v, want DeadlineExceeded", c.Err())
		}
	})
	t.Run("release", func(t *testing.T) {
		parent, cancel := context.WithCancel(context.Background())
		c := newTimeoutCtx(parent)
		c.release()
		cancel()
		time.Sleep(time.Millisecond)
		if closed(c.Done()) {
			t.Errorf("a released context followed its parent")
		}
	})
}

func TestTimeoutCtxDeadlineAndValue(t *testing.T) {
	type key struct{}
	parent := context.WithValue(context.Background(), key{}, "v")
	c := newTimeoutCtx(parent)
	defer c.release()
	if _, ok := c.Deadline(); ok {
		t.Errorf("Deadline reports a deadline before arm")
	}
	before := time.Now()
	c.arm(time.Hour)
	after := time.Now()
	d, ok := c.Deadline()
	if !ok || d.Before(before.Add(time.Hour)) || d.After(after.Add(time.Hour)) {
		t.Errorf("Deadline() = %v, %v; want an hour after arm", d, ok)
	}
	c.disarm()
	if _, ok := c.Deadline(); ok {
		t.Errorf("Deadline reports a deadline after disarm")
	}
	if c.Value(key{}) != "v" {
		t.Errorf("Value does not reach the parent")
	}
	var _ context.Context = c
}

// Arming and disarming does not allocate.
func TestTimeoutCtxNoAlloc(t *testing.T) {
	c := newTimeoutCtx(context.Background())
	defer c.release()
	if n := testing.AllocsPerRun(1000, func() {
		c.arm(time.Second)
		_ = c.Done()
		_ = c.Err()
		c.disarm()
	}); n != 0 {
		t.Errorf("arm/disarm allocates %v times", n)
	}
}
