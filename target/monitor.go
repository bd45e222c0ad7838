package target

import (
	"context"
	"os"
	"syscall"
	"time"
)

// KillWait is how long the processes of a tree have to end after SIGKILL
// (or Grace, if longer), before they are counted as Unkilled and left: a
// process ends at SIGKILL once the kernel schedules it (on a loaded
// machine, a fraction of a second), unless it is in uninterruptible sleep.
const KillWait = 5 * time.Second

// leftoverPoll is the time between two looks at the processes a child left
// behind, while they are given time to end.
const leftoverPoll = 10 * time.Millisecond

// tree is what the monitor does to a child's process tree: the OS's (osTree)
// or a test's.
type tree interface {
	// sample reads the tree's resident set, and the child's own peak
	// resident set since its exec (0 when unknown): ok is false once the
	// child has ended.
	sample() (rss, hwm int64, procs int, ok bool)
	// forward sends an interrupt to the child's process group, as a
	// terminal would.
	forward(s syscall.Signal)
	// signal sends s to the child's process group and to every descendant
	// known to have left it; running says the child may still be running,
	// and its tree is read again first.
	signal(s syscall.Signal, running bool)
	// left counts the processes of the tree still running once the child
	// has ended.
	left() int
}

// A monitor watches one child from its start until it and its tree have
// ended: it samples the tree's RSS, forwards interrupts, stops the child
// when asked or when the context ends, kills it when asked, and stops what
// the child leaves behind.
type monitor struct {
	tree     tree
	interval time.Duration
	grace    time.Duration
	onSample func(Sample)
	memCap   int64 // 0: none
	start    time.Time
	series   *series
	res      *Result
	// kill receives the cause of a kill at once (Process.Kill).
	kill <-chan error
}

// run watches the child until exited is closed (the child has been waited
// for), then stops its leftovers. Each interrupt on sig is forwarded to
// the child's process group. It sets the Result's fields of the
// monitor's own: Wall, the samples, Interrupted, Stopped, Killed,
// Leftovers and Unkilled.
func (m *monitor) run(ctx context.Context, sig <-chan os.Signal, stop <-chan struct{}, exited <-chan struct{}) {
	tick := time.NewTicker(m.interval)
	defer tick.Stop()
	var kill <-chan time.Time // after SIGTERM, when SIGKILL is due
	var killAt time.Time
	done := ctx.Done()
	killNow := m.kill
	terminate := func(why error) {
		if m.res.Stopped != nil {
			return
		}
		m.res.Stopped = why
		if m.grace < 0 {
			m.tree.signal(syscall.SIGKILL, true)
			m.res.Killed = true
			killAt = time.Now()
			return
		}
		m.tree.signal(syscall.SIGTERM, true)
		killAt = time.Now().Add(m.grace)
		kill = time.After(m.grace)
	}
	sigkill := func() {
		m.tree.signal(syscall.SIGKILL, true)
		m.res.Killed = true
		kill = nil
	}
wait:
	for {
		select {
		case <-exited:
			break wait
		case now := <-tick.C:
			if over := m.sample(now); over != nil {
				terminate(over)
			}
		case s, ok := <-sig:
			if !ok {
				sig = nil
				continue
			}
			m.res.Interrupted = true
			m.tree.forward(toSignal(s))
		case why := <-killNow:
			killNow = nil
			if m.res.Stopped == nil {
				m.res.Stopped = why
			}
			if !m.res.Killed {
				sigkill()
			}
		case <-done:
			terminate(context.Cause(ctx))
			done = nil
		case <-stop:
			terminate(ErrStopped)
			stop = nil
		case <-kill:
			sigkill()
		}
	}
	m.res.Wall = time.Since(m.start)
	m.res.RSS = m.series.samples()
	m.res.Stride = m.series.stride()
	m.leftovers(killAt)
}

// sample takes one sample of the tree's RSS; it returns an
// *OverMemoryError when the sample is above the memory cap.
func (m *monitor) sample(now time.Time) error {
	rss, hwm, n, ok := m.tree.sample()
	if !ok {
		return nil
	}
	m.res.OwnPeakRSS = max(m.res.OwnPeakRSS, hwm)
	s := Sample{At: now.Sub(m.start), RSS: rss, Processes: n}
	m.res.Samples++
	m.res.PeakRSS = max(m.res.PeakRSS, rss)
	m.series.add(s)
	if m.onSample != nil {
		m.onSample(s)
	}
	if peak := max(rss, hwm); m.memCap > 0 && peak > m.memCap {
		return &OverMemoryError{RSS: peak, Cap: m.memCap}
	}
	return nil
}

// leftovers stops the processes the child left running when it ended:
// SIGTERM, then SIGKILL after the grace period, as the child would have
// been stopped. A stop already under way goes on: its SIGKILL is due at
// killAt. It waits at most KillWait (or the grace period) after SIGKILL;
// what is still there then is counted in Unkilled and left.
func (m *monitor) leftovers(killAt time.Time) {
	n := m.tree.left()
	if n == 0 {
		return
	}
	m.res.Leftovers = n
	if !m.res.Killed {
		if killAt.IsZero() {
			m.tree.signal(syscall.SIGTERM, false)
			killAt = time.Now().Add(max(m.grace, 0))
		}
		if m.gone(killAt, m.kill) {
			return
		}
		m.res.Killed = true
	}
	m.tree.signal(syscall.SIGKILL, false) // again: some may have started since
	if m.gone(time.Now().Add(max(m.grace, KillWait)), nil) {
		return
	}
	m.res.Unkilled = m.tree.left()
}

// gone waits until no process of the tree is left, until deadline, or
// until a kill on cut (Process.Kill: the grace period is cut short; nil:
// none): it says whether none is left.
func (m *monitor) gone(deadline time.Time, cut <-chan error) bool {
	for {
		if m.tree.left() == 0 {
			return true
		}
		if !time.Now().Before(deadline) {
			return false
		}
		select {
		case <-cut:
			return false
		case <-time.After(min(leftoverPoll, time.Until(deadline))):
		}
	}
}

// toSignal is the signal to forward for an interrupt: the one received,
// SIGINT for an os.Signal that is not a syscall.Signal.
func toSignal(s os.Signal) syscall.Signal {
	if ss, ok := s.(syscall.Signal); ok {
		return ss
	}
	return syscall.SIGINT
}
