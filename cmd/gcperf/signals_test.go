//go:build linux

package main

// The tests of issue 24's items 2 and 3: gcperf keeps what it measured
// when the session around it goes, whatever the command. A real gcperf
// process (this test binary running main: mainChildEnv) gets real signals
// (SIGHUP, a closed terminal or a dropped ssh session; SIGTERM; SIGINT)
// and writes to real closed pipes (gcperf ... | head -1); each case checks
// the exit status (1: interrupted, or could not print; never killed by the
// signal), the result files, and that no temporary file is left, in the
// output directory or in the child's TMPDIR (-count's results).

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
	"unsafe"
)

// mainChildEnv makes this test binary gcperf itself: init calls main with
// its arguments, before TestMain, so that the child takes its signals
// exactly as gcperf does. The programs it starts (-count's processes,
// sweep's points) inherit it and are gcperf's main too.
const mainChildEnv = "GCPERF_TEST_MAIN"

func init() {
	// A server under test (serverChildArg) that gcperf started is not
	// gcperf: TestMain makes it the server.
	if os.Getenv(mainChildEnv) == "1" && (len(os.Args) < 2 || os.Args[1] != serverChildArg) {
		main()
	}
}

// A streamMode is what is at the other end of a child's stdout or stderr.
type streamMode int

const (
	streamRead   streamMode = iota // a pipe read to its end
	streamClosed                   // a pipe whose reader has gone (| true)
	streamHead                     // a pipe whose reader goes after one line (| head -1)
	streamFull                     // /dev/full: every write fails (ENOSPC)
	streamStdout                   // stderr only: stdout's pipe (2>&1)
)

// mainProc is gcperf running in a child process.
type mainProc struct {
	args           []string
	cmd            *exec.Cmd
	stdout, stderr *guarBuffer
	readers        []*os.File // the read ends this test holds
	done           chan struct{}
}

// newMainProc is gcperf with args in dir, its TMPDIR tmp, not started.
func newMainProc(t *testing.T, dir, tmp string, args ...string) *mainProc {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	p := &mainProc{args: args, stdout: &guarBuffer{}, stderr: &guarBuffer{}, done: make(chan struct{})}
	p.cmd = exec.Command(exe, args...)
	p.cmd.Dir = dir
	p.cmd.Env = append(os.Environ(), mainChildEnv+"=1", "TMPDIR="+tmp)
	return p
}

// start starts p, closes this process's copies of the child's ends
// (parentCopies) and, at the end of the test, kills what is left of p.
func (p *mainProc) start(t *testing.T, parentCopies ...*os.File) {
	t.Helper()
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	for _, f := range parentCopies {
		f.Close()
	}
	go func() {
		p.cmd.Wait()
		close(p.done)
	}()
	t.Cleanup(func() {
		select {
		case <-p.done:
		default:
			syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
			<-p.done
		}
		p.hangUp()
	})
}

// startMain starts gcperf with args in dir, its TMPDIR tmp, its stdout and
// stderr as the modes say.
func startMain(t *testing.T, dir, tmp string, stdout, stderr streamMode, args ...string) *mainProc {
	t.Helper()
	p := newMainProc(t, dir, tmp, args...)
	// Its own process group: the hang guard kills what it started too.
	p.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	var writers []*os.File
	var wg []func()
	stream := func(mode streamMode, buf *guarBuffer) *os.File {
		switch mode {
		case streamFull:
			f, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
			if err != nil {
				t.Skipf("no /dev/full: %v", err)
			}
			writers = append(writers, f)
			return f
		case streamStdout:
			return p.cmd.Stdout.(*os.File)
		}
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		writers = append(writers, w)
		if mode == streamClosed {
			r.Close()
			return w
		}
		p.readers = append(p.readers, r)
		wg = append(wg, func() { readStream(r, buf, mode == streamHead) })
		return w
	}
	p.cmd.Stdout = stream(stdout, p.stdout)
	p.cmd.Stderr = stream(stderr, p.stderr)
	p.start(t, writers...)
	for _, f := range wg {
		go f()
	}
	return p
}

// readStream copies r into buf until its end or, with head, its first
// line, and closes r.
func readStream(r *os.File, buf *guarBuffer, head bool) {
	defer r.Close()
	if !head {
		io.Copy(buf, r)
		return
	}
	line, _ := bufio.NewReader(r).ReadString('\n')
	buf.Write([]byte(line))
}

// hangUp closes the read ends of the child's pipes, as a closed terminal
// or a dropped ssh session does.
func (p *mainProc) hangUp() {
	for _, r := range p.readers {
		r.Close()
	}
}

// waitFor polls what the child wrote (stderr, or stdout with onStdout)
// until re matches it; past limit (a hang guard, not a measure) the test
// fails.
func (p *mainProc) waitFor(t *testing.T, onStdout bool, re *regexp.Regexp, limit time.Duration) {
	t.Helper()
	buf := p.stderr
	if onStdout {
		buf = p.stdout
	}
	for deadline := time.Now().Add(limit); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		if re.MatchString(buf.String()) {
			return
		}
		select {
		case <-p.done:
			t.Fatalf("%q exited (%v) before its output matched %s; stdout:\n%s\nstderr:\n%s", p.args, p.cmd.ProcessState, re, guarClip(p.stdout.String()), guarClip(p.stderr.String()))
		default:
		}
	}
	t.Fatalf("%q: no match for %s within %v; stderr:\n%s", p.args, re, limit, guarClip(p.stderr.String()))
}

// signal sends s to gcperf alone, as kill(1) does.
func (p *mainProc) signal(t *testing.T, s syscall.Signal) {
	t.Helper()
	if err := p.cmd.Process.Signal(s); err != nil {
		t.Fatalf("%q: %v: %v", p.args, s, err)
	}
}

// wait waits for gcperf to exit, at most limit (a hang guard), and
// describes how it ended: "exit N" or "killed by SIGNAL".
func (p *mainProc) wait(t *testing.T, limit time.Duration) string {
	t.Helper()
	select {
	case <-p.done:
	case <-time.After(limit):
		syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
		<-p.done
		t.Fatalf("%q did not exit within %v; stderr:\n%s", p.args, limit, guarClip(p.stderr.String()))
	}
	ws := p.cmd.ProcessState.Sys().(syscall.WaitStatus)
	if ws.Signaled() {
		return "killed by " + ws.Signal().String()
	}
	return fmt.Sprintf("exit %d", ws.ExitStatus())
}

// checkKept checks what a gcperf that was interrupted or could not print
// left: exit status 1, each of files (relative to dir) a regular file
// with something in it (JSON that parses), and no temporary file in dir
// or tmp.
func checkKept(t *testing.T, p *mainProc, how, dir, tmp string, files ...string) {
	t.Helper()
	if how != "exit 1" {
		t.Errorf("%q: %s, want exit 1; stderr:\n%s", p.args, how, guarClip(p.stderr.String()))
	}
	for _, f := range files {
		b, err := os.ReadFile(filepath.Join(dir, f))
		switch {
		case err != nil:
			t.Errorf("%q (%s): what was measured is lost: %v", p.args, how, err)
		case len(b) == 0:
			t.Errorf("%q (%s): %s is empty", p.args, how, f)
		case strings.HasSuffix(f, ".json") && !json.Valid(b):
			t.Errorf("%q (%s): %s is not JSON:\n%s", p.args, how, f, guarClip(string(b)))
		}
	}
	if temps := guarTemps(t, dir); len(temps) > 0 {
		t.Errorf("%q (%s): temporary files left: %q", p.args, how, temps)
	}
	if left, err := os.ReadDir(tmp); err != nil || len(left) > 0 {
		t.Errorf("%q (%s): left in TMPDIR: %v %v", p.args, how, left, err)
	}
}

// sigRunFlags make the default workload small.
var sigRunFlags = []string{"-size", "16", "-base", "2", "-chunk", "2", "-warmup", "1"}

// A signalCase is a command interrupted by a signal once it has measured
// something: after its output (stderr, or stdout) matched after.
type signalCase struct {
	name     string
	args     []string
	onStdout bool
	after    *regexp.Regexp
	files    []string
}

// start starts the case's command in a directory of its own (dir, with
// its TMPDIR tmp) and waits until it has something to keep.
func (c signalCase) start(t *testing.T) (p *mainProc, dir, tmp string) {
	t.Helper()
	dir, tmp = t.TempDir(), t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "hup"), 0o755); err != nil {
		t.Fatal(err)
	}
	p = startMain(t, dir, tmp, streamRead, streamRead, c.args...)
	p.waitFor(t, c.onStdout, c.after, 60*time.Second)
	return p, dir, tmp
}

// signalCases are every command of gcperf that measures, each interrupted
// once it has something to keep.
var signalCases = []signalCase{
	{"gcperf", append([]string{"-q", "-show-runs", "-duration", "30s", "-json", "d.json", "-runlog", "rl.csv", "-hlog", "h.hlog"}, sigRunFlags...),
		false, regexp.MustCompile(`(?m)^\[.*\] Run end 20:`), []string{"d.json", "rl.csv", "h.hlog"}},
	{"run", []string{"run", "-q", "-show-runs", "-duration", "30s", "-runlog", "hup/rl.csv", "-hlog", "hup/h.hlog", "-out", "hup/o", "sleep", "-d", "1ms"},
		false, regexp.MustCompile(`(?m)^\[.*\] Run end 20:`), []string{"hup/rl.csv", "hup/h.hlog", "hup/o/result.json", "hup/o/report.txt"}},
	{"run-count", []string{"run", "-q", "-count", "3", "-duration", "2s", "-json", "c.json", "sleep", "-d", "1ms"},
		false, regexp.MustCompile(`(?m)^gcperf: process 1/3 \.\.\. ok`), []string{"c.json"}},
	{"sweep", []string{"sweep", "-q", "-gogc", "50,100,200", "-duration", "2s", "-out", "sw", "sleep", "-d", "1ms"},
		false, regexp.MustCompile(`(?m)^gcperf: sweep: point 1/3 .* ok`), []string{"sw/sweep.json", "sw/sweep.csv", "sw/bench.txt"}},
	{"exec", []string{"exec", "-json", "e.json", "--", "sh", "-c", "echo started; exec sleep 30"},
		true, regexp.MustCompile(`started`), []string{"e.json"}},
	{"exec-count", []string{"exec", "-count", "3", "-json", "ec.json", "--", "sh", "-c",
		"if [ -e ran ]; then echo second; exec sleep 30; fi; : >ran; echo first"},
		true, regexp.MustCompile(`second`), []string{"ec.json"}},
}

// SIGHUP (a closed terminal, a dropped ssh session) and SIGTERM keep what
// was measured, as one Ctrl-C does, in every command: the command stops,
// writes what finished and exits 1. Before issue 24, SIGHUP killed gcperf
// (exit 129), writing nothing and leaving -runlog's and -hlog's temporary
// files. Every command gets SIGHUP; run, the others' engine, SIGTERM and
// SIGINT as well.
func TestSignalsKeepWhatWasMeasured(t *testing.T) {
	type sigCase struct {
		signalCase
		sig syscall.Signal
	}
	var cases []sigCase
	for _, c := range signalCases {
		cases = append(cases, sigCase{c, syscall.SIGHUP})
		if c.name == "run" {
			cases = append(cases, sigCase{c, syscall.SIGTERM}, sigCase{c, syscall.SIGINT})
		}
	}
	for _, c := range cases {
		t.Run(c.name+"/"+c.sig.String(), func(t *testing.T) {
			t.Parallel()
			p, dir, tmp := c.start(t)
			p.signal(t, c.sig)
			how := p.wait(t, 60*time.Second)
			checkKept(t, p, how, dir, tmp, c.files...)
			if !strings.Contains(p.stderr.String(), "nterrupted") {
				t.Errorf("%q: %v does not say it was interrupted; stderr:\n%s", c.args, c.sig, guarClip(p.stderr.String()))
			}
		})
	}
}

// A dropped ssh session: the terminal's pipes close, then SIGHUP comes.
// gcperf can print nothing more, and writes its files all the same.
func TestSignalHangUpTerminalGone(t *testing.T) {
	for _, c := range signalCases {
		if c.name != "run" && c.name != "sweep" {
			continue
		}
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			p, dir, tmp := c.start(t)
			p.hangUp()
			p.signal(t, syscall.SIGHUP)
			checkKept(t, p, p.wait(t, 60*time.Second), dir, tmp, c.files...)
		})
	}
}

// A closed pipe on stdout or stderr (gcperf ... | head -1, or a reader
// gone before gcperf writes) does not lose the result files, and the
// exit status says that gcperf could not print (1), where before issue 24
// SIGPIPE killed it (141 in a shell) before it wrote them. exec with its
// stderr on /dev/full wrote no JSON. help and -h, which print nothing
// else, exit 1 too.
func TestClosedPipeKeepsResults(t *testing.T) {
	cases := []struct {
		name           string
		stdout, stderr streamMode
		args           []string
		files          []string
	}{
		{"run-json", streamClosed, streamRead,
			[]string{"run", "-q", "-runs", "300", "-json", "hp.json", "sleep", "-d", "1ms"}, []string{"hp.json"}},
		{"run-out", streamClosed, streamRead,
			[]string{"run", "-q", "-runs", "300", "-out", "o", "sleep", "-d", "1ms"}, []string{"o/result.json", "o/report.txt"}},
		{"gcperf-both", streamClosed, streamStdout,
			append([]string{"-runs", "50", "-json", "d.json"}, sigRunFlags...), []string{"d.json"}},
		{"run-count-both", streamClosed, streamStdout,
			[]string{"run", "-count", "2", "-runs", "50", "-json", "c.json", "sleep", "-d", "1ms"}, []string{"c.json"}},
		{"sweep-both", streamClosed, streamStdout,
			[]string{"sweep", "-gogc", "50,100", "-runs", "50", "-out", "sw", "sleep", "-d", "1ms"}, []string{"sw/sweep.json", "sw/bench.txt"}},
		{"exec-head", streamHead, streamRead,
			[]string{"exec", "-json", "p.json", "--", "sh", "-c", "echo a; echo b; sleep 1; echo c"}, []string{"p.json"}},
		{"exec-stderr-full", streamRead, streamFull,
			[]string{"exec", "-json", "p.json", "--", "sh", "-c", "echo a"}, []string{"p.json"}},
		{"exec-count-both", streamClosed, streamStdout,
			[]string{"exec", "-count", "2", "-json", "ec.json", "--", "sh", "-c", "echo a"}, []string{"ec.json"}},
		// What measures nothing says too that it could not print.
		{"help", streamClosed, streamRead, []string{"help"}, nil},
		{"run-h", streamClosed, streamRead, []string{"run", "-h"}, nil},
		{"list", streamClosed, streamRead, []string{"list"}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			dir, tmp := t.TempDir(), t.TempDir()
			p := startMain(t, dir, tmp, c.stdout, c.stderr, c.args...)
			checkKept(t, p, p.wait(t, 60*time.Second), dir, tmp, c.files...)
		})
	}
}

// A closed terminal, as the kernel closes it: gcperf runs on a
// pseudo-terminal that is its controlling terminal (a session of its
// own), whose other end this test then closes. The kernel sends SIGHUP,
// and the terminal's writes fail (EIO); nothing here sends a signal.
func TestSignalTerminalClosed(t *testing.T) {
	master, tty := openPty(t)
	dir, tmp := t.TempDir(), t.TempDir()
	p := newMainProc(t, dir, tmp, "run", "-show-runs", "-duration", "30s", "-runlog", "rl.csv", "-out", "o", "sleep", "-d", "1ms")
	p.cmd.Stdin, p.cmd.Stdout, p.cmd.Stderr = tty, tty, tty
	// A session of its own (its process group's id its pid, for the hang
	// guard) whose controlling terminal is tty (its fd 0).
	p.cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0}
	p.readers = []*os.File{master}
	p.start(t, tty)
	go io.Copy(p.stderr, master)
	p.waitFor(t, false, regexp.MustCompile(`(?m)^\[.*\] Run end 20:`), 60*time.Second)
	p.hangUp()
	checkKept(t, p, p.wait(t, 60*time.Second), dir, tmp, "rl.csv", "o/result.json", "o/report.txt")
}

// openPty opens a pseudo-terminal: its master, and the terminal.
func openPty(t *testing.T) (master, tty *os.File) {
	t.Helper()
	m, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	sc, err := m.SyscallConn()
	if err != nil {
		t.Fatal(err)
	}
	var n, unlock uint32
	var errno syscall.Errno
	sc.Control(func(fd uintptr) {
		if _, _, errno = syscall.Syscall(syscall.SYS_IOCTL, fd, syscall.TIOCSPTLCK, uintptr(unsafe.Pointer(&unlock))); errno == 0 {
			_, _, errno = syscall.Syscall(syscall.SYS_IOCTL, fd, syscall.TIOCGPTN, uintptr(unsafe.Pointer(&n)))
		}
	})
	if errno != 0 {
		m.Close()
		t.Skipf("no pseudo-terminal: %v", errno)
	}
	tty, err = os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		m.Close()
		t.Skipf("no pseudo-terminal: %v", err)
	}
	return m, tty
}

// A sweep of a server behind a wrapper (sh -c 'SERVER & wait': the
// server a worker of the program gcperf started) that gets SIGHUP keeps
// its finished points, and leaves no server running.
func TestSignalHangUpServerSweep(t *testing.T) {
	addr := freeAddr(t)
	wrapper := strings.Join(serverArgv(t, addr, "ok"), " ") + " & wait"
	c := signalCase{"sweep-server", []string{"sweep", "-q", "-gogc", "50,100", "-duration", "2s", "-out", "sws",
		"http", "-url", "http://" + addr + "/", "--", "sh", "-c", wrapper},
		false, regexp.MustCompile(`(?m)^gcperf: sweep: point 1/2 .* ok`), []string{"sws/sweep.json", "sws/bench.txt"}}
	p, dir, tmp := c.start(t)
	// Once the second point's server has started.
	second := filepath.Join(dir, "sws", "gogc=100,memlimit=off,rep=1.server.log")
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		if b, _ := os.ReadFile(second); strings.Contains(string(b), "pid ") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no server started for the second point; stderr:\n%s", guarClip(p.stderr.String()))
		}
	}
	p.signal(t, syscall.SIGHUP)
	checkKept(t, p, p.wait(t, 60*time.Second), dir, tmp, c.files...)
	logs, _ := filepath.Glob(filepath.Join(dir, "sws", "*.server.log"))
	for _, log := range logs {
		pid := serverPid(t, log)
		for deadline := time.Now().Add(10 * time.Second); !gone(pid) && time.Now().Before(deadline); {
			time.Sleep(10 * time.Millisecond)
		}
		if !gone(pid) {
			syscall.Kill(pid, syscall.SIGKILL)
			t.Errorf("the server of %s (pid %d) outlived gcperf", filepath.Base(log), pid)
		}
	}
}
