//go:build linux

package target

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// run runs c and fails the test when it cannot.
func run(t *testing.T, c *Command) *Result {
	t.Helper()
	res, err := c.Run(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func TestRunStatus(t *testing.T) {
	tests := []struct {
		steps   []string
		code    int
		signal  syscall.Signal
		status  string
		success bool
	}{
		{[]string{"exit", "0"}, 0, 0, "exit status 0", true},
		{[]string{}, 0, 0, "exit status 0", true},
		{[]string{"exit", "3"}, 3, 0, "exit status 3", false},
		{[]string{"raise", "KILL"}, -1, syscall.SIGKILL, "killed by SIGKILL", false},
		{[]string{"raise", "TERM"}, -1, syscall.SIGTERM, "killed by SIGTERM", false},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.steps, " "), func(t *testing.T) {
			res := run(t, helperCommand(tt.steps...))
			if res.ExitCode != tt.code || res.Signal != tt.signal || res.Status() != tt.status || res.Success() != tt.success {
				t.Errorf("exit code %d, signal %v, %q, success %v; want %d, %v, %q, %v",
					res.ExitCode, res.Signal, res.Status(), res.Success(), tt.code, tt.signal, tt.status, tt.success)
			}
			if res.Stopped != nil || res.Killed || res.Interrupted || res.Leftovers != 0 {
				t.Errorf("stopped %v, killed %v, interrupted %v, leftovers %d; want none", res.Stopped, res.Killed, res.Interrupted, res.Leftovers)
			}
			if res.Wall <= 0 || res.UserCPU+res.SystemCPU <= 0 {
				t.Errorf("wall %v, CPU %v + %v: want them above 0", res.Wall, res.UserCPU, res.SystemCPU)
			}
		})
	}
}

func TestStartErrors(t *testing.T) {
	dir := t.TempDir()
	plain := filepath.Join(dir, "plain")
	if err := os.WriteFile(plain, []byte("not a program"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		c    Command
		want string
	}{
		{"not in PATH", Command{Path: "gcperf-no-such-command"}, `target: cannot start "gcperf-no-such-command": executable file not found in $PATH`},
		{"no such file", Command{Path: filepath.Join(dir, "missing")}, "no such file or directory"},
		{"not executable", Command{Path: plain}, "permission denied"},
		{"a directory", Command{Path: dir}, "permission denied"},
		{"no working directory", Command{Path: os.Args[0], Dir: filepath.Join(dir, "missing")}, "chdir"},
		{"no program", Command{}, `target: cannot start "": no program`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := tt.c.Start(t.Context())
			if err == nil {
				p.Stop()
				t.Fatalf("Start: no error")
			}
			var se *StartError
			if !errors.Is(err, ErrNotStarted) || !errors.As(err, &se) {
				t.Errorf("error %v (%T) is not ErrNotStarted and a *StartError", err, err)
			}
			if msg := err.Error(); !strings.Contains(msg, tt.want) || strings.Contains(msg, "\n") {
				t.Errorf("error %q: want one line with %q", msg, tt.want)
			}
		})
	}
}

// A context already ended starts nothing, and is not ErrNotStarted: the
// command is not at fault.
func TestStartContextEnded(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	_, err := helperCommand().Start(ctx)
	if !errors.Is(err, context.Canceled) || errors.Is(err, ErrNotStarted) {
		t.Errorf("error %v: want context.Canceled, not ErrNotStarted", err)
	}
}

// The child's stdout and stderr pass through, its trace included with
// GCTrace; stdin is passed.
func TestOutputs(t *testing.T) {
	var stdout, stderr bytes.Buffer
	c := helperCommand("out", "hello", "err", "warning", "cat", "err", "bye", "gc", "2", "sleep", "100ms")
	c.Stdin = strings.NewReader("from stdin\n")
	c.Stdout, c.Stderr = &stdout, &stderr
	c.GCTrace = true
	run(t, c)
	if got, want := stdout.String(), "hello\nfrom stdin\n"; got != want {
		t.Errorf("stdout %q, want %q", got, want)
	}
	if got := stderr.String(); !strings.HasPrefix(got, "warning\nbye\n") {
		t.Errorf("stderr %q, want warning and bye first", got)
	}
	// Two forced collections: two lines of the runtime's trace at least.
	if n := strings.Count(stderr.String(), "(forced)"); n < 2 {
		t.Errorf("%d forced collections in the stderr %q; want 2 or more", n, stderr.String())
	}
}

// Files are given to the child as they are.
func TestOutputsFiles(t *testing.T) {
	dir := t.TempDir()
	in, out := filepath.Join(dir, "in"), filepath.Join(dir, "out")
	if err := os.WriteFile(in, []byte("a file\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	fin, err := os.Open(in)
	if err != nil {
		t.Fatal(err)
	}
	defer fin.Close()
	fout, err := os.Create(out)
	if err != nil {
		t.Fatal(err)
	}
	defer fout.Close()
	c := helperCommand("cat", "err", "to the file")
	c.Stdin, c.Stdout, c.Stderr = fin, fout, fout
	run(t, c)
	if b, _ := os.ReadFile(out); string(b) != "a file\nto the file\n" {
		t.Errorf("the file holds %q", b)
	}
}

// A writer that fails is the parent's error, not the child's: the child
// is not blocked on a full pipe, and ends as it would have.
func TestStdoutWriterFails(t *testing.T) {
	fail := errors.New("disk full")
	c := helperCommand("print", "1000000", "print", "1000000", "exit", "4")
	c.Stdout = writerFunc(func([]byte) (int, error) { return 0, fail })
	res, err := c.Run(t.Context())
	if !errors.Is(err, fail) || !strings.Contains(err.Error(), "stdout") {
		t.Errorf("error %v: want %v, naming stdout", err, fail)
	}
	if res == nil || res.ExitCode != 4 {
		t.Errorf("result %+v: want exit status 4", res)
	}
}

func TestEnvironmentReachesTheChild(t *testing.T) {
	var stdout bytes.Buffer
	c := helperCommand("env")
	c.Env = append(c.Env, "GODEBUG=madvdontneed=1", "GOGC=50")
	c.GOGC, c.GOMEMLIMIT = "off", "1GiB"
	c.GCTrace = true
	c.Stdout = &stdout
	res := run(t, c)
	want := "GOGC=off\nGOMEMLIMIT=1GiB\nGODEBUG=madvdontneed=1,gctrace=1\n"
	if stdout.String() != want {
		t.Errorf("the child's environment:\n%s\nwant\n%s", stdout.String(), want)
	}
	if want := (Settings{GOGC: "off", GOMEMLIMIT: "1GiB", GODEBUG: "madvdontneed=1,gctrace=1"}); res.Settings != want {
		t.Errorf("Settings %+v, want %+v", res.Settings, want)
	}
}

// The tree's RSS is sampled: a child holding 64 MiB is seen holding it, by
// the samples and by the kernel.
func TestRSS(t *testing.T) {
	const mib = 64
	c := helperCommand("alloc", strconv.Itoa(mib), "ready", "sleep", "forever")
	c.Interval = 5 * time.Millisecond
	var p *Process
	started := make(chan struct{})
	c.OnSample = func(s Sample) {
		<-started
		if s.RSS >= mib<<20 {
			p.Stop()
		}
	}
	p, err := c.Start(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	close(started)
	res, err := p.Wait()
	if err != nil {
		t.Fatal(err)
	}
	if res.PeakRSS < mib<<20 || res.MaxRSS < mib<<20 || res.OwnPeakRSS < mib<<20 {
		t.Errorf("peak RSS %d, max RSS %d, own peak %d: want all %d MiB or more", res.PeakRSS, res.MaxRSS, res.OwnPeakRSS, mib)
	}
	if res.Samples < 1 || len(res.RSS) < 1 || res.RSS[len(res.RSS)-1].Processes != 1 {
		t.Errorf("%d samples, series %v: want a process in each", res.Samples, res.RSS)
	}
	if !errors.Is(res.Stopped, ErrStopped) || res.Signal != syscall.SIGTERM || res.Killed {
		t.Errorf("stopped %v, signal %v, killed %v: want ErrStopped, SIGTERM, not killed", res.Stopped, res.Signal, res.Killed)
	}
}

// The whole tree is sampled, as go run and go test run their program: a
// child of 16 MiB and its child of 48 MiB are 64 MiB.
func TestTreeRSS(t *testing.T) {
	c := helperCommand("alloc", "16", "spawn", "alloc", "48", "sleep", "forever", "end", "sleep", "forever")
	c.Interval = 5 * time.Millisecond
	stop := make(chan struct{}, 1)
	c.OnSample = func(s Sample) {
		if s.Processes == 2 && s.RSS >= 64<<20 {
			select {
			case stop <- struct{}{}:
			default:
			}
		}
	}
	p, err := c.Start(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	<-stop
	p.Stop()
	res, err := p.Wait()
	if err != nil {
		t.Fatal(err)
	}
	if res.PeakRSS < 64<<20 {
		t.Errorf("peak RSS %d: want 64 MiB or more", res.PeakRSS)
	}
}

// pids returns the pids of "spawned PID" lines.
func pids(t *testing.T, lines []string) []int {
	var out []int
	for _, l := range lines {
		pid, err := strconv.Atoi(strings.TrimPrefix(l, "spawned "))
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, pid)
	}
	return out
}

// running says whether process pid is running: there, and not a zombie.
func running(pid int) bool {
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return false
	}
	i := bytes.LastIndexByte(b, ')')
	return i < 0 || i+2 >= len(b) || b[i+2] != 'Z'
}

// Stop ends the whole tree, though every process of it ignores SIGTERM and
// one left the process group: no process of it is left.
func TestStopLeavesNoProcess(t *testing.T) {
	tests := []struct {
		name  string
		steps []string
	}{
		{"child and grandchild ignore SIGTERM", []string{"ignore", "TERM",
			"spawn", "ignore", "TERM", "ready", "sleep", "forever", "end", "sleep", "forever"}},
		{"the grandchild left the group", []string{
			"spawn", "setsid", "ignore", "TERM", "ready", "sleep", "forever", "end", "sleep", "forever"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := newOutput()
			c := helperCommand(tt.steps...)
			c.Stdout, c.Grace, c.Interval = out, 100*time.Millisecond, 10*time.Millisecond
			p, err := c.Start(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			out.waitFor(t, p, "ready", 1)
			grandchild := pids(t, out.waitFor(t, p, "spawned", 1))[0]
			p.Stop()
			res, err := p.Wait()
			if err != nil {
				t.Fatal(err)
			}
			for _, pid := range []int{p.Pid(), grandchild} {
				if running(pid) {
					t.Errorf("process %d still runs after Stop", pid)
					syscall.Kill(pid, syscall.SIGKILL)
				}
			}
			if !res.Killed || res.Unkilled != 0 {
				t.Errorf("killed %v, unkilled %d: want SIGKILL and none left", res.Killed, res.Unkilled)
			}
		})
	}
}

// What a child leaves running when it ends is stopped: in its group, or
// out of it; SIGTERM first, SIGKILL when it is ignored.
func TestLeftovers(t *testing.T) {
	tests := []struct {
		name   string
		steps  []string
		killed bool
	}{
		{"in the group", []string{"spawn", "ready", "sleep", "forever", "end", "sleep", "forever"}, false},
		{"out of the group", []string{"spawn", "setsid", "ready", "sleep", "forever", "end", "sleep", "forever"}, false},
		{"ignoring SIGTERM, out of the group", []string{"spawn", "setsid", "ignore", "TERM", "ready", "sleep", "forever", "end", "sleep", "forever"}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := newOutput()
			c := helperCommand(tt.steps...)
			c.Stdout, c.Grace, c.Interval = out, 100*time.Millisecond, 10*time.Millisecond
			// A sample that saw the grandchild; then the child ends.
			seen := make(chan struct{}, 1)
			c.OnSample = func(s Sample) {
				if s.Processes == 2 {
					select {
					case seen <- struct{}{}:
					default:
					}
				}
			}
			p, err := c.Start(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			out.waitFor(t, p, "ready", 1)
			grandchild := pids(t, out.waitFor(t, p, "spawned", 1))[0]
			<-seen
			syscall.Kill(p.Pid(), syscall.SIGKILL)
			res, err := p.Wait()
			if err != nil {
				t.Fatal(err)
			}
			if res.Leftovers != 1 || res.Killed != tt.killed || res.Stopped != nil || res.Unkilled != 0 {
				t.Errorf("leftovers %d, killed %v, stopped %v, unkilled %d: want 1, %v, nil, 0",
					res.Leftovers, res.Killed, res.Stopped, res.Unkilled, tt.killed)
			}
			if running(grandchild) {
				t.Errorf("the grandchild %d still runs", grandchild)
				syscall.Kill(grandchild, syscall.SIGKILL)
			}
		})
	}
}

// An interrupt reaches the child's process group: the grandchild too.
func TestInterruptForwarded(t *testing.T) {
	out := newOutput()
	c := helperCommand("ignore", "INT", "spawn", "on-int-exit", "7", "ready", "sleep", "forever", "end", "wait-child")
	c.Stdout = out
	p, err := c.Start(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	out.waitFor(t, p, "ready", 1)
	p.Interrupt(os.Interrupt)
	res, err := p.Wait()
	if err != nil {
		t.Fatal(err)
	}
	if res.ExitCode != 7 || !res.Interrupted || res.Stopped != nil || res.Killed {
		t.Errorf("exit code %d, interrupted %v, stopped %v, killed %v: want 7, true, nil, false",
			res.ExitCode, res.Interrupted, res.Stopped, res.Killed)
	}
	p.Interrupt(os.Interrupt) // after the end: nothing, and no block
}

// Kill kills a child that ignores interrupts, at once, with its cause.
func TestKill(t *testing.T) {
	out := newOutput()
	c := helperCommand("ignore", "INT", "ready", "sleep", "forever")
	c.Stdout = out
	p, err := c.Start(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	out.waitFor(t, p, "ready", 1)
	for range 2 {
		p.Interrupt(syscall.SIGINT)
	}
	p.Kill(ErrInterrupted)
	p.Kill(nil) // again: nothing
	res, err := p.Wait()
	if err != nil {
		t.Fatal(err)
	}
	if res.Signal != syscall.SIGKILL || !errors.Is(res.Stopped, ErrInterrupted) || !res.Killed || !res.Interrupted {
		t.Errorf("signal %v, stopped %v, killed %v, interrupted %v: want SIGKILL, ErrInterrupted, true, true",
			res.Signal, res.Stopped, res.Killed, res.Interrupted)
	}
}

// A context's deadline stops the child as Stop does (-point-timeout).
func TestDeadline(t *testing.T) {
	ctx, cancel := context.WithTimeout(t.Context(), 100*time.Millisecond)
	defer cancel()
	res, err := helperCommand("sleep", "forever").Run(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !errors.Is(res.Stopped, context.DeadlineExceeded) || res.Killed || res.Signal != syscall.SIGTERM {
		t.Errorf("stopped %v, killed %v, signal %v: want the deadline, SIGTERM", res.Stopped, res.Killed, res.Signal)
	}
}

func TestCanStart(t *testing.T) {
	dir := t.TempDir()
	notExec := filepath.Join(dir, "data")
	if err := os.WriteFile(notExec, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		path string
		want error // the StartError's cause; nil: it can start
	}{
		{"sh", nil},
		{"no-such-program-here", exec.ErrNotFound},
		{filepath.Join(dir, "missing"), fs.ErrNotExist},
		{notExec, fs.ErrPermission},
	} {
		err := CanStart(tc.path)
		var se *StartError
		switch {
		case tc.want == nil && err != nil:
			t.Errorf("%s: %v", tc.path, err)
		case tc.want != nil && (!errors.As(err, &se) || !errors.Is(se.Err, tc.want) || !errors.Is(err, ErrNotStarted)):
			t.Errorf("%s: %v (%#v), want a StartError of %v", tc.path, err, err, tc.want)
		}
	}
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }
