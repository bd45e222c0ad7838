package workload

import (
	"context"
	"errors"
	"runtime"
	"slices"
	"strings"
	"testing"
	"testing/synctest"
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

// The tests run in testing/synctest bubbles where they can: the clock is
// fake, a sleep moves it on exactly as far as asked, and synctest.Wait
// returns once every other goroutine (a timer's callback, a context's
// AfterFunc) has run to where it waits or has ended.

func TestTimeoutCtxArmDisarm(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
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
		// Short deadlines disarmed before they pass leave it open too,
		// once they have all passed.
		for range 100 {
			c.arm(50 * time.Millisecond)
			c.disarm()
		}
		time.Sleep(60 * time.Millisecond)
		synctest.Wait()
		if closed(c.Done()) || c.Err() != nil {
			t.Errorf("a disarmed deadline expired: Err %v", c.Err())
		}
	})
}

func TestTimeoutCtxExpiry(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := newTimeoutCtx(context.Background())
		defer c.release()
		first := c.Done()
		c.arm(time.Millisecond)
		time.Sleep(time.Millisecond - time.Nanosecond)
		synctest.Wait()
		if closed(first) || c.Err() != nil {
			t.Fatalf("closed a nanosecond before its deadline: Err %v", c.Err())
		}
		time.Sleep(2 * time.Nanosecond)
		synctest.Wait()
		if !closed(first) || !errors.Is(c.Err(), context.DeadlineExceeded) {
			t.Fatalf("a nanosecond after its deadline: closed %v, Err %v; want closed, DeadlineExceeded", closed(first), c.Err())
		}
		c.disarm()
		if !closed(c.Done()) || c.Err() == nil {
			t.Errorf("disarm reopened an expired context")
		}

		// An expired context stays expired, as a context must, and says
		// so: the engine gives the next operation a new one.
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
		// A stale expiry (a timer's callback running late) finds the
		// deadline not passed and does nothing.
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
	})
}

// A timer that fires while the mutex is held (the operation ended and the
// next was armed before the callback ran) finds, once it has the mutex, the
// new deadline, and does nothing. On the real clock: in a bubble, a
// goroutine waiting for a mutex stops the fake clock.
func TestTimeoutCtxStaleTimerWaitsForMutex(t *testing.T) {
	c := newTimeoutCtx(context.Background())
	defer c.release()
	c.arm(time.Millisecond)
	c.mu.Lock()
	// The timer fires; its callback waits for mu, having read nothing.
	waitGoroutines(t, "the timer's callback waiting for the mutex", func(g string) bool {
		return strings.Contains(g, "[sync.Mutex.Lock") && strings.Contains(g, ".(*timeoutCtx).expire(")
	}, true)
	c.deadline = time.Now().Add(time.Hour)
	c.mu.Unlock()
	waitGoroutines(t, "the timer's callback", func(g string) bool {
		return strings.Contains(g, ".(*timeoutCtx).expire(")
	}, false)
	if closed(c.Done()) {
		t.Errorf("the old timer closed Done after the deadline moved an hour on")
	}
	c.disarm()
}

// waitGoroutines waits until some goroutine's stack satisfies match (want
// true) or none does (want false). It has no time limit of its own: the
// test's -timeout reports a wait that never ends, with every stack.
func waitGoroutines(t *testing.T, what string, match func(stack string) bool, want bool) {
	t.Helper()
	buf := make([]byte, 1<<16)
	for {
		n := runtime.Stack(buf, true)
		if n == len(buf) {
			buf = make([]byte, 2*len(buf))
			continue
		}
		if slices.ContainsFunc(strings.Split(string(buf[:n]), "\n\n"), match) == want {
			return
		}
		time.Sleep(100 * time.Microsecond)
	}
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
			synctest.Test(t, func(t *testing.T) {
				parent, cancel := context.WithCancelCause(context.Background())
				c := newTimeoutCtx(parent)
				defer c.release()
				c.arm(time.Hour)
				tt.cancel(cancel)
				synctest.Wait()
				if !closed(c.Done()) {
					t.Fatalf("Done not closed once the parent's AfterFunc has run")
				}
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
		})
	}
	t.Run("parent deadline", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			parent, cancel := context.WithTimeout(context.Background(), time.Millisecond)
			defer cancel()
			c := newTimeoutCtx(parent)
			defer c.release()
			c.arm(time.Hour)
			time.Sleep(time.Millisecond + time.Nanosecond)
			synctest.Wait()
			if !closed(c.Done()) || c.Err() != context.DeadlineExceeded {
				t.Errorf("after the parent's deadline: closed %v, Err %v; want closed, DeadlineExceeded", closed(c.Done()), c.Err())
			}
		})
	})
	t.Run("release", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			parent, cancel := context.WithCancel(context.Background())
			c := newTimeoutCtx(parent)
			c.release()
			cancel()
			synctest.Wait()
			if closed(c.Done()) {
				t.Errorf("a released context followed its parent")
			}
		})
	})
}

func TestTimeoutCtxDeadlineAndValue(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		type key struct{}
		parent := context.WithValue(context.Background(), key{}, "v")
		c := newTimeoutCtx(parent)
		defer c.release()
		if _, ok := c.Deadline(); ok {
			t.Errorf("Deadline reports a deadline before arm")
		}
		now := time.Now() // the fake clock stands still while nothing waits
		c.arm(time.Hour)
		if d, ok := c.Deadline(); !ok || !d.Equal(now.Add(time.Hour)) {
			t.Errorf("Deadline() = %v, %v; want %v, an hour after arm", d, ok, now.Add(time.Hour))
		}
		c.disarm()
		if _, ok := c.Deadline(); ok {
			t.Errorf("Deadline reports a deadline after disarm")
		}
		if c.Value(key{}) != "v" {
			t.Errorf("Value does not reach the parent")
		}
		var _ context.Context = c
	})
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
