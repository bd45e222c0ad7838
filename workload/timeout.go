package workload

import (
	"context"
	"sync"
	"time"
)

// timeoutCtx is a reusable per-goroutine context with a deadline, armed
// before each operation and disarmed after it, so that timeouts cost no
// allocation per operation (context.WithTimeout allocates a context, a timer
// and a channel every time). Once closed (a timeout or a cancellation) it
// stays closed, as a context must: the engine then replaces it.
type timeoutCtx struct {
	parent context.Context
	timer  *time.Timer
	stop   func() bool // unregisters from parent

	mu       sync.Mutex
	done     chan struct{}
	closed   bool
	err      error
	deadline time.Time
	armed    bool
}

func newTimeoutCtx(parent context.Context) *timeoutCtx {
	c := &timeoutCtx{parent: parent, done: make(chan struct{})}
	c.timer = time.AfterFunc(time.Hour, c.expire)
	c.timer.Stop()
	c.stop = context.AfterFunc(parent, func() {
		c.mu.Lock()
		c.closeLocked(parent.Err()) // Canceled or DeadlineExceeded, never a cause
		c.mu.Unlock()
	})
	return c
}

// arm starts a deadline d from now. The context must not have expired.
func (c *timeoutCtx) arm(d time.Duration) {
	c.mu.Lock()
	c.deadline = time.Now().Add(d)
	c.armed = true
	if err := c.parent.Err(); err != nil {
		c.closeLocked(err)
	}
	c.mu.Unlock()
	c.timer.Reset(d)
}

// expired reports whether the context was closed; it cannot be armed again.
func (c *timeoutCtx) expired() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.closed
}

// disarm ends the current deadline.
func (c *timeoutCtx) disarm() {
	c.timer.Stop()
	c.mu.Lock()
	c.armed = false
	c.mu.Unlock()
}

// expire runs on the timer's goroutine. A stale expiry (the operation ended
// and the next was armed before this ran) finds the deadline not yet passed
// and does nothing.
func (c *timeoutCtx) expire() {
	c.mu.Lock()
	if c.armed && !time.Now().Before(c.deadline) {
		c.closeLocked(context.DeadlineExceeded)
	}
	c.mu.Unlock()
}

func (c *timeoutCtx) closeLocked(err error) {
	if !c.closed {
		close(c.done)
		c.closed, c.err = true, err
	}
}

func (c *timeoutCtx) release() {
	c.timer.Stop()
	c.stop()
}

func (c *timeoutCtx) Deadline() (time.Time, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.deadline, c.armed
}

func (c *timeoutCtx) Done() <-chan struct{} {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.done
}

func (c *timeoutCtx) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}

func (c *timeoutCtx) Value(key any) any { return c.parent.Value(key) }
