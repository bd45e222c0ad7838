package main

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"regexp"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gcperf/gcperf/report"
	"github.com/gcperf/gcperf/sweep"
)

// serverChildArg, as this test binary's first argument, makes it the
// server under test of gcperf run OP... -- SERVER (TestMain):
//
//	exe gcperf-test-server ADDR BEHAVIOUR
//
// It prints its pid and its runtime's GOGC and GOMEMLIMIT (read back from
// runtime/metrics: what the runtime applied) to stderr, allocates enough
// to run a few collections, listens on ADDR and serves until SIGTERM or
// SIGINT, then exits 0. BEHAVIOUR: ok; never-ready (never listens);
// crash-after-ready (exits 3 20ms after its first request);
// crash-if-gogc=N (crash-after-ready when its GOGC is N, else ok);
// worker (ok, having started a worker: a copy of itself that ignores
// SIGTERM and SIGINT, "worker PID" on its stderr); daemonize (starts a
// copy of itself, ok, in a session of its own, and exits 0 at once: a
// server behind a daemonizing wrapper). Two more are not servers, ADDR
// then a file where they write their pid: hold (waits until a signal
// ends it) and ignoreterm (ignores SIGTERM and SIGINT, and waits).
const serverChildArg = "gcperf-test-server"

// serverChildOther runs the behaviours of a server child but ok, never-
// ready and crash-*; handled is false for those.
func serverChildOther(arg, behave string) (code int, handled bool) {
	switch behave {
	case "hold", "ignoreterm":
		if behave == "ignoreterm" {
			signal.Ignore(syscall.SIGTERM, syscall.SIGINT)
		}
		if arg != "-" {
			if err := os.WriteFile(arg, []byte(strconv.Itoa(os.Getpid())), 0o644); err != nil {
				return 96, true
			}
		}
		time.Sleep(time.Hour)
		return 0, true
	case "daemonize", "worker":
		exe, _ := os.Executable()
		c := exec.Command(exe, serverChildArg, "-", "ignoreterm")
		if behave == "daemonize" {
			c = exec.Command(exe, serverChildArg, arg, "ok")
			c.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
		}
		c.Stdout, c.Stderr = os.Stdout, os.Stderr
		if err := c.Start(); err != nil {
			return 95, true
		}
		if behave == "daemonize" {
			return 0, true
		}
		fmt.Fprintf(os.Stderr, "worker %d\n", c.Process.Pid)
	}
	return 0, false
}

var serverKeep [][]byte

func runServerChild(args []string) int {
	if len(args) != 2 {
		return 97
	}
	addr, behave := args[0], args[1]
	if code, ok := serverChildOther(addr, behave); ok {
		return code
	}
	s := []metrics.Sample{{Name: "/gc/gogc:percent"}, {Name: "/gc/gomemlimit:bytes"}}
	metrics.Read(s)
	gogc, limit := s[0].Value.Uint64(), s[1].Value.Uint64()
	fmt.Fprintf(os.Stderr, "pid %d gogc %d gomemlimit %d\n", os.Getpid(), gogc, limit)
	if g, ok := strings.CutPrefix(behave, "crash-if-gogc="); ok {
		behave = "ok"
		if g == strconv.FormatUint(gogc, 10) {
			behave = "crash-after-ready"
		}
	}
	if behave == "setgogc" {
		// A server that sets its own GOGC, whatever its environment
		// says: 8MiB live, and 16MiB more then a collection, 16 times:
		// cycles whose goals tell it.
		debug.SetGCPercent(100)
		ring := make([][]byte, 128)
		for i := range 4096 {
			ring[i%len(ring)] = make([]byte, 64<<10)
			if i%256 == 255 {
				runtime.GC()
			}
		}
		serverKeep, behave = ring, "ok"
	}
	for i := range 256 { // 16MiB in 64KiB pieces, the last 2MiB kept: a few cycles
		b := make([]byte, 64<<10)
		b[0] = byte(i)
		serverKeep = append(serverKeep, b)
		if len(serverKeep) > 32 {
			serverKeep = serverKeep[1:]
		}
	}
	runtime.GC()
	stop := make(chan os.Signal, 1)
	signal.Notify(stop, syscall.SIGTERM, os.Interrupt)
	if behave == "never-ready" {
		<-stop
		return 0
	}
	l, err := net.Listen("tcp", addr)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 98
	}
	first := make(chan struct{}, 1)
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case first <- struct{}{}:
		default:
		}
		fmt.Fprintln(w, "ok")
	})}
	go srv.Serve(l)
	if behave == "crash-after-ready" {
		<-first
		time.Sleep(20 * time.Millisecond)
		fmt.Fprintln(os.Stderr, "crashing on purpose")
		return 3
	}
	<-stop
	srv.Shutdown(context.Background())
	return 0
}

// freeAddr is a loopback address no one listens on, for a server child.
func freeAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return addr
}

// serverArgv is the command line of this test binary as a server child.
func serverArgv(t *testing.T, addr, behave string) []string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return []string{exe, serverChildArg, addr, behave}
}

// serverPid reads the server child's pid from its log.
func serverPid(t *testing.T, log string) int {
	t.Helper()
	b, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`pid (\d+) `).FindSubmatch(b)
	if m == nil {
		t.Fatalf("no pid in the server's log: %q", b)
	}
	pid, _ := strconv.Atoi(string(m[1]))
	return pid
}

// gone reports whether process pid has ended: reaped, or a zombie (whose
// parent died before it: init reaps it when it does).
func gone(pid int) bool {
	if syscall.Kill(pid, 0) == syscall.ESRCH {
		return true
	}
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return true
	}
	// pid (comm) STATE ...: the state follows the last ')'.
	i := strings.LastIndexByte(string(b), ')')
	return i >= 0 && i+2 < len(b) && b[i+2] == 'Z'
}

// TestRunServer: gcperf run OP... -- SERVER starts the server with its own
// settings (not gcperf's), waits until it is ready, runs, stops it, and
// reports its run beside the client's.
func TestRunServer(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("a server's figures are Linux's")
	}
	dir := t.TempDir()
	addr := freeAddr(t)
	log, out := filepath.Join(dir, "server.log"), filepath.Join(dir, "r.json")
	csvOut, htmlOut, benchOut := filepath.Join(dir, "r.csv"), filepath.Join(dir, "r.html"), filepath.Join(dir, "r.txt")
	args := append([]string{"run", "-q", "-runs", "50", "-ready", "http://" + addr + "/", "-server-gogc", "37", "-server-memlimit", "1GiB",
		"-server-log", log, "-json", out, "-csv", csvOut, "-html", htmlOut, "-bench", benchOut, "noop", "--"}, serverArgv(t, addr, "ok")...)
	code, stdout, stderr := gcperf(t, nil, args...)
	if code != 0 {
		t.Fatalf("exit %d; stderr:\n%s", code, stderr)
	}
	for _, w := range []string{"gcperf: starting the server ", "gcperf: the server is ready after "} {
		if !strings.Contains(stderr, w) {
			t.Errorf("stderr lacks %q:\n%s", w, stderr)
		}
	}
	// The server handles SIGTERM: it exits 0.
	for _, w := range []string{"\nServer: ", "Status: exit status 0, stopped: by gcperf after the runs\n",
		"Output: " + log + "\n", "Settings: GOGC 37, GOMEMLIMIT 1GiB, GODEBUG gctrace=1\n", "GC: ", "The load generator's own GC"} {
		if !strings.Contains(stdout, w) {
			t.Errorf("the report lacks %q:\n%s", w, stdout)
		}
	}
	d, err := report.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	x := d.Server
	if x == nil || !x.Success || x.Settings.GOGC != "37" || x.Settings.GOMEMLIMIT != "1GiB" || x.Log != log || x.GC == nil || x.GC.Cycles < 1 {
		t.Fatalf("server section %+v", x)
	}
	// The settings reached the server's runtime, and not gcperf's.
	b, _ := os.ReadFile(log)
	if !strings.Contains(string(b), fmt.Sprintf(" gogc 37 gomemlimit %d\n", 1<<30)) || strings.Contains(string(b), "gc 1 @") {
		t.Errorf("server log %q", b)
	}
	if d.Env.Go.GOGC == 37 || d.Env.Go.GOMEMLIMIT == 1<<30 {
		t.Errorf("the load generator ran with the server's settings: %+v", d.Env.Go)
	}
	if pid := serverPid(t, log); !gone(pid) {
		t.Errorf("the server %d is still running", pid)
	}
	// Every format has the server.
	for file, want := range map[string][]string{
		csvOut:   {"\nServer\n", "Server RSS over Time", ",37,1GiB,"},
		htmlOut:  {"The server under load", "The server&#39;s resident set over time"},
		benchOut: {"BenchmarkServer/gogc=37/memlimit=1GiB/cmd=gcperf.test\t       1\t"},
	} {
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range want {
			if !strings.Contains(string(b), w) {
				t.Errorf("%s lacks %q", filepath.Base(file), w)
			}
		}
	}
}

func TestRunServerFailures(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("a server's figures are Linux's")
	}
	for _, tc := range []struct {
		name   string
		behave string
		flags  []string
		code   int
		want   *regexp.Regexp // the last line of stderr
		report string         // in the report on stdout, when not ""
	}{
		{"not ready", "never-ready", []string{"-ready-timeout", "300ms"}, exitFail,
			regexp.MustCompile(`^gcperf: server: not ready within 300ms: http://127\.0\.0\.1:\d+/ gave no HTTP response \(last: .*\); its output: .*server\.log$`), ""},
		{"crash", "crash-after-ready", []string{"-runs", "2000", "spin", "-d", "1ms"}, exitFail,
			regexp.MustCompile(`^gcperf: server: ended during the runs \(exit status 3\); its output: .*server\.log$`),
			"\nInterrupted: "}, // the server's end stopped the runs
		{"memory cap", "ok", []string{"-server-memory", "1MiB"}, exitFail,
			regexp.MustCompile(`^gcperf: server: the server exceeded the memory cap: RSS of its process tree .* > 1MiB( before it was ready)?; its output: .*server\.log$`), ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			addr := freeAddr(t)
			log := filepath.Join(t.TempDir(), "server.log")
			args := []string{"run", "-q", "-runs", "50", "-ready", "http://" + addr + "/", "-server-log", log}
			args = append(args, tc.flags...)
			if !strings.Contains(strings.Join(tc.flags, " "), "spin") {
				args = append(args, "spin", "-d", "2ms")
			}
			args = append(append(args, "--"), serverArgv(t, addr, tc.behave)...)
			code, stdout, stderr := gcperf(t, nil, args...)
			lines := strings.Split(strings.TrimSpace(stderr), "\n")
			if code != tc.code || !tc.want.MatchString(lines[len(lines)-1]) {
				t.Errorf("exit %d, want %d; last line %q, want %v; stderr:\n%s", code, tc.code, lines[len(lines)-1], tc.want, stderr)
			}
			if tc.report != "" && !strings.Contains(stdout, tc.report) {
				t.Errorf("the report lacks %q:\n%s", tc.report, stdout)
			}
			if pid := serverPid(t, log); !gone(pid) {
				t.Errorf("the server %d is still running", pid)
			}
		})
	}
}

// TestRunServerDefaultLog: without -server-log the server's output goes to
// a new temporary file, which gcperf names as it starts the server; it is
// removed once the server has run well (issue 24, item 30), and kept, and
// named, when the server failed, to read why.
func TestRunServerDefaultLog(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("a server's figures are Linux's")
	}
	for _, tc := range []struct {
		behave string
		code   int
		kept   bool
	}{
		{"ok", 0, false},
		{"crash-after-ready", exitFail, true},
	} {
		t.Run(tc.behave, func(t *testing.T) {
			addr := freeAddr(t)
			args := append([]string{"run", "-q", "-runs", "20", "-ready", "http://" + addr + "/", "spin", "-d", "2ms", "--"}, serverArgv(t, addr, tc.behave)...)
			code, stdout, stderr := gcperf(t, nil, args...)
			m := regexp.MustCompile(`its output in (.*gcperf-server-\d+\.log)\n`).FindStringSubmatch(stderr)
			if code != tc.code || m == nil {
				t.Fatalf("exit %d, want %d; stdout:\n%s\nstderr:\n%s", code, tc.code, stdout, stderr)
			}
			defer os.Remove(m[1])
			_, err := os.Stat(m[1])
			if kept := err == nil; kept != tc.kept {
				t.Errorf("the server's log %s kept: %v, want %v", m[1], kept, tc.kept)
			}
			if tc.kept {
				if !strings.Contains(stderr, "its output: "+m[1]) {
					t.Errorf("the failure does not name the log %s:\n%s", m[1], stderr)
				}
				if pid := serverPid(t, m[1]); !gone(pid) {
					t.Errorf("the server %d is still running", pid)
				}
				return
			}
			if strings.Contains(stdout, "\nOutput: ") {
				t.Errorf("the report names the removed log:\n%s", stdout)
			}
			if c, err := net.Dial("tcp", addr); err == nil {
				c.Close()
				t.Errorf("the server still listens on %s", addr)
			}
		})
	}
}

func TestRunServerBadUsage(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want *regexp.Regexp
	}{
		{[]string{"-ready", "http://127.0.0.1:1/", "noop"}, regexp.MustCompile(`^gcperf: -ready goes with a server to load: gcperf run \[flags\] OP\.\.\. -- SERVER \[ARGS\.\.\.\]$`)},
		{[]string{"noop", "--"}, regexp.MustCompile(`^gcperf: no server after --$`)},
		{[]string{"noop", "--", "./server"}, regexp.MustCompile(`^gcperf: -ready is needed: no operation before -- has a -url to poll$`)},
		{[]string{"-ready", "ftp://x/", "noop", "--", "./server"}, regexp.MustCompile(`^gcperf: -ready "ftp://x/" is not an http or https URL$`)},
		{[]string{"-ready", "http://127.0.0.1:1/", "-server-gogc", "x", "noop", "--", "true"}, regexp.MustCompile(`^gcperf: -server-gogc`)},
		{[]string{"-ready", "http://127.0.0.1:1/", "-server-memory", "lots", "noop", "--", "true"}, regexp.MustCompile(`^gcperf: -server-memory "lots" is not a size such as 4GiB$`)},
		{[]string{"-ready", "http://127.0.0.1:1/", "noop", "--", "no-such-server"}, regexp.MustCompile(`^gcperf: cannot start the server "no-such-server": executable file not found in \$PATH$`)},
		{[]string{"-ready", "http://127.0.0.1:1/", "noop", "--", "go", "run", "."}, regexp.MustCompile(`^gcperf: go run builds the program`)},
	} {
		code, _, stderr := gcperf(t, nil, append([]string{"run", "-q", "-runs", "5"}, tc.args...)...)
		if code != exitUsage || strings.Count(stderr, "\n") != 1 || !tc.want.MatchString(strings.TrimSuffix(stderr, "\n")) {
			t.Errorf("%q: exit %d, stderr %q; want exit 2 and %v", tc.args, code, stderr, tc.want)
		}
	}
}

// TestRunServerInterrupt: an interrupt stops the runs, and the server is
// stopped with them: no orphan.
func TestRunServerInterrupt(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("signals")
	}
	addr := freeAddr(t)
	log := filepath.Join(t.TempDir(), "server.log")
	sig := make(chan os.Signal, 1)
	w := &notifyWriter{want: "the server is ready", seen: make(chan struct{})}
	go func() {
		<-w.seen
		time.Sleep(100 * time.Millisecond)
		sig <- syscall.SIGINT
	}()
	args := append([]string{"run", "-q", "-runs", "100000", "-ready", "http://" + addr + "/", "-server-log", log, "spin", "-d", "1ms", "--"}, serverArgv(t, addr, "ok")...)
	var out strings.Builder
	code := run(args, &out, w, sig)
	if code != exitFail || !strings.Contains(out.String(), "\nServer: ") {
		t.Errorf("exit %d; stdout:\n%s\nstderr:\n%s", code, out.String(), w.String())
	}
	if pid := serverPid(t, log); !gone(pid) {
		t.Errorf("the server %d is still running", pid)
	}
}

// TestSweepServer: the grid applies to the server each point starts, not to
// the load generator; a server that crashes at a point fails that point and
// the sweep goes on.
func TestSweepServer(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("a server's figures are Linux's")
	}
	sweepTest(t)
	addr := freeAddr(t)
	dir := filepath.Join(t.TempDir(), "sw")
	args := append([]string{"sweep", "-gogc", "50,400,800", "-runs", "60", "-ready", "http://" + addr + "/", "-q", "-out", dir,
		"spin", "-d", "2ms", "--"}, serverArgv(t, addr, "crash-if-gogc=800")...)
	code, stdout, stderr := gcperf(t, nil, args...)
	if code != exitFail {
		t.Fatalf("exit %d; stderr:\n%s", code, stderr)
	}
	if !strings.Contains(stdout, "a server under load: the latencies are the client's") || !strings.Contains(stdout, "gogc=800,memlimit=off rep 1: server: ended during the runs (exit status 3)") {
		t.Errorf("stdout:\n%s", stdout)
	}
	outs, _, err := sweep.LoadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range outs {
		if o.Point.GOGC.String() == "800" {
			if o.Failed.Reason != sweep.Exited {
				t.Errorf("gogc=800: %v %q", o.Failed.Reason, o.Failed.Text)
			}
			// The tail of the server's log, after gcperf's line.
			if n := len(o.StderrTail); n == 0 || o.StderrTail[n-1] != "server| crashing on purpose" {
				t.Errorf("gogc=800: tail %q", o.StderrTail)
			}
			continue
		}
		if !o.Failed.IsZero() || o.Doc == nil || o.Doc.Server == nil {
			t.Fatalf("%s: %q", o.Point.Name(), o.Failed)
		}
		if g := o.Doc.Server.Settings.GOGC; g != o.Point.GOGC.String() {
			t.Errorf("%s: the server ran with GOGC %s", o.Point.Name(), g)
		}
		if o.Doc.Env.Go.GOGC == 50 || o.Doc.Env.Go.GOGC == 400 {
			t.Errorf("%s: the load generator ran with the point's GOGC %d", o.Point.Name(), o.Doc.Env.Go.GOGC)
		}
		log := filepath.Join(dir, strings.TrimSuffix(o.Point.FileName(o.Rep), ".json")+".server.log")
		b, err := os.ReadFile(log)
		if err != nil || !strings.Contains(string(b), " gogc "+o.Point.GOGC.String()+" ") {
			t.Errorf("%s: server log %q, %v", o.Point.Name(), b, err)
		}
	}
}

// TestSweepServerTimeoutNoOrphan: a point that times out stops its server,
// also one started through a wrapper that forks it (sh -c), which a
// SIGKILL of the gcperf child's process group would leave running.
func TestSweepServerTimeoutNoOrphan(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("signals")
	}
	sweepTest(t)
	addr := freeAddr(t)
	dir := filepath.Join(t.TempDir(), "sw")
	argv := serverArgv(t, addr, "ok")
	script := strings.Join(argv, " ") + "; true" // not exec'd: sh stays the server's parent
	args := []string{"sweep", "-gogc", "100", "-point-timeout", "1s", "-runs", "100000", "-ready", "http://" + addr + "/", "-q", "-out", dir,
		"spin", "-d", "1ms", "--", "sh", "-c", script}
	code, stdout, stderr := gcperf(t, nil, args...)
	if code != exitFail || !strings.Contains(stdout, "exceeded the point timeout 1s") {
		t.Fatalf("exit %d; stdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	pid := serverPid(t, filepath.Join(dir, "gogc=100,memlimit=off,rep=1.server.log"))
	if !gone(pid) {
		syscall.Kill(pid, syscall.SIGKILL)
		b, _ := os.ReadFile(filepath.Join(dir, "gogc=100,memlimit=off,rep=1.log"))
		t.Errorf("the server %d outlived its point; the child's log:\n%s", pid, b)
	}
}

// TestSweepServerFailures: a point whose server fails fails with the
// reason its gcperf child wrote in its result, not one read from its
// stderr. A server sweep's -point-memory caps the server's process tree
// (through its child's -server-memory): the point fails over memory,
// naming the server; a server that never answers is not ready.
func TestSweepServerFailures(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the cap reads Linux's /proc")
	}
	sweepTest(t)
	for _, tc := range []struct {
		name, behave string
		flags        []string
		reason       sweep.Reason
		text         string // in the failure's text
	}{
		{"memory cap", "ok", []string{"-point-memory", "2MiB", "-runs", "500"}, sweep.OverMemory, "the server exceeded the memory cap"},
		{"not ready", "never-ready", []string{"-ready-timeout", "300ms", "-runs", "50"}, sweep.ServerNotReady, "server: not ready within 300ms: "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			addr := freeAddr(t)
			dir := filepath.Join(t.TempDir(), "sw")
			args := slices.Concat([]string{"sweep", "-gogc", "100"}, tc.flags, []string{"-ready", "http://" + addr + "/", "-q", "-out", dir,
				"spin", "-d", "1ms", "--"}, serverArgv(t, addr, tc.behave))
			code, stdout, stderr := gcperf(t, nil, args...)
			if code != exitFail {
				t.Fatalf("exit %d; stdout:\n%s\nstderr:\n%s", code, stdout, stderr)
			}
			outs, _, err := sweep.LoadDir(dir)
			if err != nil {
				t.Fatal(err)
			}
			if len(outs) != 1 || outs[0].Failed.Reason != tc.reason || !strings.Contains(outs[0].Failed.Text, tc.text) {
				t.Errorf("outcomes %+v", outs)
			}
		})
	}
}

// listenHTTP serves "ok" on addr from this process until the test ends.
func listenHTTP(t *testing.T, addr string) {
	t.Helper()
	l, err := net.Listen("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { fmt.Fprintln(w, "not the server") })}
	go srv.Serve(l)
	t.Cleanup(func() { srv.Close() })
}

// Issue 24, item 10: with another process already listening on the
// server's address, gcperf measured that process, saying "the server is
// ready after 2ms". It refuses before starting the server, naming the
// address; nothing is started, no log created.
func TestRunServerAddressInUse(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("a server's figures are Linux's")
	}
	addr := freeAddr(t)
	listenHTTP(t, addr)
	log := filepath.Join(t.TempDir(), "server.log")
	args := append([]string{"run", "-q", "-runs", "20", "-server-log", log, "http", "-url", "http://" + addr + "/", "--"}, serverArgv(t, addr, "never-ready")...)
	code, _, stderr := gcperf(t, nil, args...)
	want := "gcperf: the server's URL http://" + addr + "/: another process already listens on " + addr +
		" and would answer in the server's place: stop it, or give the server another port\n"
	if code != exitUsage || stderr != want {
		t.Errorf("exit %d, stderr:\n%s\nwant exit 2 and %q", code, stderr, want)
	}
	if _, err := os.Stat(log); err == nil {
		t.Errorf("the server's log was created: the server was started")
	}
}

// Issue 24, item 10: a server that became "ready" because another process
// answers on its address (here this process, which began to listen once
// the server had started) fails the run: its figures would be that
// process's.
func TestRunServerForeignListener(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("a server's figures are Linux's")
	}
	addr := freeAddr(t)
	log := filepath.Join(t.TempDir(), "server.log")
	w := &notifyWriter{want: "gcperf: starting the server", seen: make(chan struct{})}
	go func() {
		<-w.seen
		// Once the server runs (its pid in its log).
		for b := []byte{}; !strings.Contains(string(b), "pid "); time.Sleep(5 * time.Millisecond) {
			b, _ = os.ReadFile(log)
		}
		listenHTTP(t, addr)
	}()
	args := append([]string{"run", "-q", "-runs", "20", "-server-log", log, "http", "-url", "http://" + addr + "/", "--"}, serverArgv(t, addr, "never-ready")...)
	var out strings.Builder
	code := run(args, &out, w, nil)
	stderr := w.String()
	want := regexp.MustCompile(`(?m)^gcperf: the server's URL http://` + regexp.QuoteMeta(addr) + `/: another process \(pid ` + strconv.Itoa(os.Getpid()) + `\) answers on ` + regexp.QuoteMeta(addr) +
		`, not the server gcperf started: its figures would be that process's; the server's output: ` + regexp.QuoteMeta(log) + `\n\z`)
	if code != exitFail || !want.MatchString(stderr) || strings.Contains(stderr, "is ready") {
		t.Errorf("exit %d, stderr:\n%s\nwant exit 1 and %v", code, stderr, want)
	}
	if pid := serverPid(t, log); !gone(pid) {
		t.Errorf("the server %d is still running", pid)
	}
}

// Issue 24, item 10: in a sweep, a point whose server's address another
// process holds (a daemon of an earlier point) fails, not reported ok.
func TestSweepServerAddressInUse(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("a server's figures are Linux's")
	}
	sweepTest(t)
	addr := freeAddr(t)
	listenHTTP(t, addr)
	dir := filepath.Join(t.TempDir(), "sw")
	args := append([]string{"sweep", "-gogc", "50,400", "-runs", "20", "-q", "-out", dir, "http", "-url", "http://" + addr + "/", "--"}, serverArgv(t, addr, "ok")...)
	code, _, stderr := gcperf(t, nil, args...)
	if code != exitFail {
		t.Fatalf("exit %d; stderr:\n%s", code, stderr)
	}
	outs, _, err := sweep.LoadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range outs {
		if o.Failed.Reason != sweep.NotStarted || !strings.Contains(o.Failed.Text, "another process already listens on "+addr) {
			t.Errorf("%s: failure %v %q: want not started, another process listening", o.Point.Name(), o.Failed.Reason, o.Failed.Text)
		}
	}
}

// Three interrupts during the runs give them up (exit 130): the server is
// killed with its worker, which ignores SIGTERM, and its temporary log is
// removed with gcperf's other temporary files (issue 24, items 6 and 30).
func TestRunServerAborted(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("signals")
	}
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	addr := freeAddr(t)
	sig := make(chan os.Signal, 3)
	w := &notifyWriter{want: "gcperf: running ", seen: make(chan struct{})}
	worker := make(chan int, 1)
	go func() {
		<-w.seen
		logs, _ := filepath.Glob(filepath.Join(tmp, "gcperf-server-*.log"))
		b := []byte{}
		if len(logs) == 1 {
			b, _ = os.ReadFile(logs[0])
		}
		m := regexp.MustCompile(`worker (\d+)`).FindSubmatch(b)
		pid := 0
		if m != nil {
			pid, _ = strconv.Atoi(string(m[1]))
		}
		worker <- pid
		for range 3 {
			sig <- syscall.SIGINT
		}
	}()
	args := append([]string{"run", "-q", "-duration", "1m", "http", "-url", "http://" + addr + "/", "--"}, serverArgv(t, addr, "worker")...)
	var out strings.Builder
	code := run(args, &out, w, sig)
	pid := <-worker
	if code != exitAborted || pid == 0 {
		t.Fatalf("exit %d, worker %d; stderr:\n%s", code, pid, w.String())
	}
	if !gone(pid) {
		syscall.Kill(pid, syscall.SIGKILL)
		t.Errorf("the server's worker %d is still running", pid)
	}
	if left, _ := os.ReadDir(tmp); len(left) > 0 {
		t.Errorf("left in TMPDIR: %v", left)
	}
}
