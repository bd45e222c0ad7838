//go:build linux

package main

// The tests of issue 24's items 5 and 6: nothing gcperf started outlives
// it, whatever it forked. A real gcperf process (mainProc: main, a child
// subreaper) runs programs that double-fork, daemonize, or start a worker
// that ignores SIGTERM, and gets real signals.

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// processesWith lists the running processes whose command line is argv.
func processesWith(argv ...string) []int {
	want := []byte(strings.Join(argv, "\x00") + "\x00")
	dirs, _ := os.ReadDir("/proc")
	var pids []int
	for _, d := range dirs {
		pid, err := strconv.Atoi(d.Name())
		if err != nil {
			continue
		}
		if b, err := os.ReadFile(filepath.Join("/proc", d.Name(), "cmdline")); err == nil && bytes.Equal(b, want) && !gone(pid) {
			pids = append(pids, pid)
		}
	}
	return pids
}

// waitGone waits until process pid has ended, at most limit; if it has
// not, it kills it and the test fails.
func waitGone(t *testing.T, what string, pid int, limit time.Duration) {
	t.Helper()
	for deadline := time.Now().Add(limit); !gone(pid) && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
	}
	if !gone(pid) {
		syscall.Kill(pid, syscall.SIGKILL)
		t.Errorf("%s (pid %d) outlived gcperf", what, pid)
	}
}

// readPid waits for the pid a child writes to file, at most limit.
func readPid(t *testing.T, p *mainProc, file string, limit time.Duration) int {
	t.Helper()
	for deadline := time.Now().Add(limit); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		if b, err := os.ReadFile(file); err == nil && len(b) > 0 {
			pid, err := strconv.Atoi(string(b))
			if err != nil {
				t.Fatal(err)
			}
			return pid
		}
	}
	t.Fatalf("%q: no pid in %s within %v; stderr:\n%s", p.args, file, limit, guarClip(p.stderr.String()))
	return 0
}

// Item 5: `gcperf exec -- sh -c '(setsid sleep 30 &); exit 0'` left the
// sleep running, reported no leftover, waited 10s on the pipe it held and
// exited 0. The daemon is stopped, and said to be.
func TestExecDaemonStopped(t *testing.T) {
	dir, tmp := t.TempDir(), t.TempDir()
	d := fmt.Sprintf("300.%d", os.Getpid()) // a sleep of this test's own
	start := time.Now()
	p := startMain(t, dir, tmp, streamRead, streamRead, "exec", "--", "sh", "-c", "(setsid sleep "+d+" &); exit 0")
	how := p.wait(t, 60*time.Second)
	took := time.Since(start)
	// The report, once this test has read the pipe to its end.
	for deadline := time.Now().Add(5 * time.Second); !strings.Contains(p.stderr.String(), "Status: ") && time.Now().Before(deadline); {
		time.Sleep(5 * time.Millisecond)
	}
	for _, pid := range processesWith("sleep", d) {
		syscall.Kill(pid, syscall.SIGKILL)
		t.Errorf("the daemon (pid %d) outlived gcperf exec", pid)
	}
	if how != "exit 0" || !strings.Contains(p.stderr.String(), "Status: exit status 0, 1 process left running was stopped") {
		t.Errorf("%s; stderr:\n%s\nwant exit 0 and the daemon said to be stopped", how, guarClip(p.stderr.String()))
	}
	if took > 5*time.Second {
		t.Errorf("gcperf exec took %v: held up by the daemon's pipe", took)
	}
}

// Item 6: three interrupts on a sweep of a command whose grandchild
// ignores SIGTERM (`sweep -- sh -c '$H ignoreterm; true'`) exit 130 and
// leave no grandchild under init.
func TestThirdInterruptSweepLeavesNothing(t *testing.T) {
	dir, tmp := t.TempDir(), t.TempDir()
	pidFile := filepath.Join(dir, "grandchild.pid")
	cmd := strings.Join(serverArgv(t, pidFile, "ignoreterm"), " ") + "; true"
	p := startMain(t, dir, tmp, streamRead, streamRead, "sweep", "-q", "-gogc", "50,100", "-out", "sw13", "--", "sh", "-c", cmd)
	grandchild := readPid(t, p, pidFile, 60*time.Second)
	p.interrupt(t, 3)
	// Two interrupts merged into one make it exit 1, once the point is
	// stopped; nothing must be left either way.
	if how := p.wait(t, 60*time.Second); how != "exit 130" && how != "exit 1" {
		t.Errorf("%s, want exit 130; stderr:\n%s", how, guarClip(p.stderr.String()))
	}
	waitGone(t, "the grandchild ignoring SIGTERM", grandchild, 5*time.Second)
}

// workerOf waits for the pid of the worker a server child started, in
// its log, at most limit.
func workerOf(t *testing.T, p *mainProc, log string, limit time.Duration) int {
	t.Helper()
	re := regexp.MustCompile(`worker (\d+)`)
	for deadline := time.Now().Add(limit); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		b, _ := os.ReadFile(log)
		if m := re.FindSubmatch(b); m != nil {
			pid, _ := strconv.Atoi(string(m[1]))
			return pid
		}
	}
	t.Fatalf("%q: no worker in %s within %v; stderr:\n%s", p.args, log, limit, guarClip(p.stderr.String()))
	return 0
}

// interrupt sends SIGINT n times, 50ms apart, as quick Ctrl-Cs. (The
// kernel, and Go's runtime, merge a signal that comes while the same one
// is pending: on a loaded machine two of them may count as one.)
func (p *mainProc) interrupt(t *testing.T, n int) {
	for range n {
		p.signal(t, syscall.SIGINT)
		time.Sleep(50 * time.Millisecond)
	}
}

// Item 6: three interrupts on a sweep of a server that started a worker
// ignoring SIGTERM exit 130 and leave neither the server nor its worker
// (the point's gcperf, killed, cannot stop them: the sweep's does).
func TestThirdInterruptSweepServerWorker(t *testing.T) {
	dir, tmp := t.TempDir(), t.TempDir()
	addr := freeAddr(t)
	p := startMain(t, dir, tmp, streamRead, streamRead, append([]string{"sweep", "-q", "-gogc", "50,100", "-duration", "1m", "-out", "sws",
		"http", "-url", "http://" + addr + "/", "--"}, serverArgv(t, addr, "worker")...)...)
	log := filepath.Join(dir, "sws", "gogc=50,memlimit=off,rep=1.server.log")
	worker := workerOf(t, p, log, 60*time.Second)
	p.interrupt(t, 3)
	// The first interrupt kills the point's gcperf at once: the next ones
	// may come as the sweep writes what it has (exit 1), or before (130).
	if how := p.wait(t, 60*time.Second); how != "exit 130" && how != "exit 1" {
		t.Errorf("%s, want exit 130 or 1; stderr:\n%s", how, guarClip(p.stderr.String()))
	}
	waitGone(t, "the server", serverPid(t, log), 5*time.Second)
	waitGone(t, "the server's worker ignoring SIGTERM", worker, 5*time.Second)
}

// Item 23: three quick interrupts once the runs are over (the first
// stops them) kill the server at once, rather than wait its grace period
// (10s) on a worker that ignores SIGTERM; what was measured is written.
func TestThirdInterruptKillsServer(t *testing.T) {
	dir, tmp := t.TempDir(), t.TempDir()
	addr := freeAddr(t)
	log := filepath.Join(dir, "server.log")
	p := startMain(t, dir, tmp, streamRead, streamRead, append([]string{"run", "-q", "-duration", "1m", "-server-log", log, "-json", "r.json",
		"http", "-url", "http://" + addr + "/", "--"}, serverArgv(t, addr, "worker")...)...)
	worker := workerOf(t, p, log, 60*time.Second)
	p.waitFor(t, false, regexp.MustCompile(`gcperf: running `), 60*time.Second)
	// The first stops the runs, then the server: it ends at its SIGTERM,
	// its worker does not.
	p.interrupt(t, 1)
	server := serverPid(t, log)
	for deadline := time.Now().Add(10 * time.Second); !gone(server) && time.Now().Before(deadline); {
		time.Sleep(5 * time.Millisecond)
	}
	// One at a time, each seen before the next: os/signal merges a
	// signal that comes before the last one was delivered, which a loaded
	// machine makes likely.
	start := time.Now()
	p.signal(t, syscall.SIGINT)
	p.waitFor(t, false, regexp.MustCompile(`(?s)interrupted.*interrupted`), 10*time.Second)
	p.signal(t, syscall.SIGINT)
	how := p.wait(t, 60*time.Second)
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("gcperf took %v after the interrupts: it waited the server's grace period; stderr:\n%s", took, guarClip(p.stderr.String()))
	}
	checkKept(t, p, how, dir, tmp, "r.json")
	waitGone(t, "the server", server, 5*time.Second)
	waitGone(t, "the server's worker ignoring SIGTERM", worker, 5*time.Second)
}

// Item 5: a server behind a daemonizing wrapper stayed listening on its
// port after the run (and, in a sweep, answered for the next points). The
// daemon is stopped with the wrapper, and the run says why it failed.
func TestRunDaemonizingServer(t *testing.T) {
	dir, tmp := t.TempDir(), t.TempDir()
	addr := freeAddr(t)
	argv := serverArgv(t, addr, "daemonize")
	p := startMain(t, dir, tmp, streamRead, streamRead, append([]string{"run", "-q", "-runs", "50", "-server-log", "server.log",
		"http", "-url", "http://" + addr + "/", "--"}, argv...)...)
	how := p.wait(t, 60*time.Second)
	daemon := append(argv[:len(argv)-1:len(argv)-1], "ok")
	for _, pid := range processesWith(daemon...) {
		syscall.Kill(pid, syscall.SIGKILL)
		t.Errorf("the daemon (pid %d) outlived gcperf", pid)
	}
	want := "exited before it was ready (exit status 0, leaving 1 process running, stopped with it: a server must stay in the foreground)"
	for deadline := time.Now().Add(5 * time.Second); !strings.Contains(p.stderr.String(), want) && time.Now().Before(deadline); {
		time.Sleep(5 * time.Millisecond)
	}
	if how != "exit 1" || !strings.Contains(p.stderr.String(), want) {
		t.Errorf("%s; stderr:\n%s\nwant exit 1 and %q", how, guarClip(p.stderr.String()), want)
	}
}
