//go:build linux

package target

import (
	"errors"
	"os"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/prometheus/procfs"
)

// Issue 24, item 5: a process of the tree that an intermediate process
// left behind (a double fork, a daemon that called setsid) before any
// sample saw it is found all the same, once this process is a subreaper
// (TestMain: Subreaper, as gcperf's main): stopped as a leftover, SIGKILL
// when it ignores SIGTERM, counted, and waited for (no zombie stays).
func TestOrphansStopped(t *testing.T) {
	tests := []struct {
		name   string
		steps  []string
		killed bool
	}{
		{"double fork", []string{"daemon", "ready", "sleep", "forever", "end"}, false},
		{"setsid daemon", []string{"daemon", "setsid", "ready", "sleep", "forever", "end"}, false},
		{"setsid daemon ignoring SIGTERM", []string{"daemon", "setsid", "ignore", "TERM", "ready", "sleep", "forever", "end"}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := newOutput()
			c := helperCommand(append(tt.steps, "sleep", "forever")...)
			// No sample: the orphan is never seen in the tree.
			c.Stdout, c.Grace, c.Interval = out, 100*time.Millisecond, time.Hour
			p, orphan := startWithOrphan(t, c, out)
			if pp := parentOf(orphan); pp != os.Getpid() {
				t.Fatalf("the orphan's parent is %d, not this process (%d): not a subreaper", pp, os.Getpid())
			}
			if got := p.Processes(); !slices.Contains(got, orphan) || !slices.Contains(got, p.Pid()) {
				t.Errorf("Processes() = %v: want the child %d and the orphan %d", got, p.Pid(), orphan)
			}
			syscall.Kill(p.Pid(), syscall.SIGKILL)
			res, err := p.Wait()
			if err != nil {
				t.Fatal(err)
			}
			if res.Leftovers != 1 || res.Killed != tt.killed || res.Unkilled != 0 {
				t.Errorf("leftovers %d, killed %v, unkilled %d: want 1, %v, 0", res.Leftovers, res.Killed, res.Unkilled, tt.killed)
			}
			if !reaped(orphan) {
				t.Errorf("the orphan %d still runs, or is a zombie of this process", orphan)
			}
		})
	}
}

// The case: `sh -c '(setsid sleep 30 &); exit 0'`. The child
// ends at once, leaving a daemon that holds its stdout: the daemon is
// stopped, counted, and its pipe does not hold Wait for the grace period.
func TestOrphanOfAnEndedChild(t *testing.T) {
	out := newOutput()
	c := helperCommand("daemon", "setsid", "ready", "sleep", "30s", "end")
	c.Stdout = out // a pipe, which the daemon holds
	start := time.Now()
	res, err := c.Run(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	// Run has returned: the output is all there.
	var spawned []string
	for l := range strings.Lines(out.String()) {
		if strings.HasPrefix(l, "spawned ") {
			spawned = append(spawned, strings.TrimSpace(l))
		}
	}
	if len(spawned) != 1 {
		t.Fatalf("output %q: want one spawned line", out.String())
	}
	orphan := pids(t, spawned)[0]
	defer syscall.Kill(orphan, syscall.SIGKILL)
	if !res.Success() || res.Leftovers != 1 || res.Killed {
		t.Errorf("%s, leftovers %d, killed %v: want exit status 0, 1 leftover stopped by SIGTERM", res.Status(), res.Leftovers, res.Killed)
	}
	if !reaped(orphan) {
		t.Errorf("the daemon %d still runs, or is a zombie of this process", orphan)
	}
	if d := time.Since(start); d > DefaultGrace/2 {
		t.Errorf("Run took %v: held up by the daemon's pipe", d)
	}
}

// KillAll kills every Process still running, with its tree, its orphans
// included, without the grace period, and returns once they have ended.
func TestKillAll(t *testing.T) {
	out := newOutput()
	c := helperCommand("ignore", "TERM", "daemon", "setsid", "ignore", "TERM", "ready", "sleep", "forever", "end",
		"spawn", "ignore", "TERM", "ready", "sleep", "forever", "end", "sleep", "forever")
	c.Stdout, c.Interval = out, time.Hour // grace: the default 10s
	p, err := c.Start(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	out.waitFor(t, p, "ready", 2)
	spawned := pids(t, out.waitFor(t, p, "spawned", 2))
	for _, pid := range spawned {
		defer syscall.Kill(pid, syscall.SIGKILL)
	}
	start := time.Now()
	KillAll(ErrInterrupted)
	if d := time.Since(start); d > DefaultGrace/2 {
		t.Errorf("KillAll took %v: it waited for the grace period", d)
	}
	select {
	case <-p.done:
	default:
		t.Fatal("KillAll returned before the process was waited for")
	}
	res, _ := p.Wait()
	if !errors.Is(res.Stopped, ErrInterrupted) || !res.Killed || res.Signal != syscall.SIGKILL {
		t.Errorf("stopped %v, killed %v, signal %v: want ErrInterrupted, SIGKILL", res.Stopped, res.Killed, res.Signal)
	}
	for _, pid := range append(spawned, p.Pid()) {
		if !reaped(pid) {
			t.Errorf("process %d still runs, or is a zombie of this process", pid)
		}
	}
	KillAll(nil) // none left: nothing
}

// Kill cuts short the grace period of the leftovers' stop: a leftover
// that ignores SIGTERM is killed at once.
func TestKillDuringLeftovers(t *testing.T) {
	out := newOutput()
	c := helperCommand("daemon", "setsid", "ignore", "TERM", "ready", "sleep", "forever", "end", "sleep", "forever")
	c.Stdout = out // grace: the default 10s
	p, orphan := startWithOrphan(t, c, out)
	syscall.Kill(p.Pid(), syscall.SIGKILL)
	<-p.exited
	time.Sleep(50 * time.Millisecond) // the leftovers' SIGTERM
	start := time.Now()
	p.Kill(nil)
	res, err := p.Wait()
	if err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > DefaultGrace/2 {
		t.Errorf("Wait took %v after Kill: the grace period was not cut short", d)
	}
	if res.Leftovers != 1 || !res.Killed || !reaped(orphan) {
		t.Errorf("leftovers %d, killed %v, reaped %v: want 1, true, true", res.Leftovers, res.Killed, reaped(orphan))
	}
}

// startWithOrphan starts c, whose steps start a daemon that prints
// "ready" on out, and returns it and the daemon's pid, killed at the end
// of the test whatever happens.
func startWithOrphan(t *testing.T, c *Command, out *output) (*Process, int) {
	t.Helper()
	p, err := c.Start(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	out.waitFor(t, p, "ready", 1)
	orphan := pids(t, out.waitFor(t, p, "spawned", 1))[0]
	t.Cleanup(func() { syscall.Kill(orphan, syscall.SIGKILL) })
	return p, orphan
}

// parentOf is the parent of process pid, 0 when it cannot be read.
func parentOf(pid int) int {
	p, err := procfs.NewProc(pid)
	if err != nil {
		return 0
	}
	st, err := p.Stat()
	if err != nil {
		return 0
	}
	return st.PPID
}

// reaped says whether process pid has ended and is no zombie of this
// process (a pid reused by another process counts as ended).
func reaped(pid int) bool {
	for end := time.Now().Add(time.Second); ; time.Sleep(10 * time.Millisecond) {
		p, err := procfs.NewProc(pid)
		if err != nil {
			return true
		}
		st, err := p.Stat()
		if err != nil || (st.State == "Z" && st.PPID != os.Getpid()) {
			return true
		}
		if !time.Now().Before(end) {
			return false
		}
	}
}
