//go:build linux

package target

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// helperEnv, set in a child's environment, makes the test binary the
// helper child: it runs the steps of its arguments instead of the tests.
const helperEnv = "GCPERF_TARGET_HELPER"

func TestMain(m *testing.M) {
	if os.Getenv(helperEnv) == "1" {
		helper(os.Args[1:])
		os.Exit(0)
	}
	// As gcperf's main does: the orphans of the children's trees come
	// back to this process.
	if err := Subreaper(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	os.Exit(m.Run())
}

// helperCommand is a Command running the helper child with steps.
func helperCommand(steps ...string) *Command {
	// A race-detecting child would sleep a second as it exits.
	return &Command{Path: os.Args[0], Args: steps, Env: append(os.Environ(), helperEnv+"=1", "GORACE=atexit_sleep_ms=0")}
}

var (
	held     [][]byte // what "alloc" holds
	ringHeld [][]byte // what "churn" holds
	sink     uint64   // what "work" computes
)

// helper runs steps, in order:
//
//	exit K             exit with status K
//	out TEXT, err TEXT a line on stdout, stderr
//	cat                copy stdin to stdout
//	env                print GOGC, GOMEMLIMIT and GODEBUG, a line each
//	alloc N            allocate N MiB, touch every page, hold it
//	churn N            allocate N MiB, 16 MiB live at a time
//	work N             N million rounds of a hash: CPU, no allocation
//	gc N               run N collections (trace lines with gctrace=1)
//	ignore SIG         ignore SIGTERM or SIGINT (TERM, INT): handled, nothing done
//	on-int-exit K      exit with status K at SIGINT
//	raise SIG          send itself SIGKILL (KILL) or SIGTERM (TERM)
//	spawn [setsid] STEPS... end
//	                   start the helper with STEPS (in a new session with
//	                   setsid), its stdout and stderr this one's; print
//	                   "spawned PID"
//	daemon [setsid] STEPS... end
//	                   a double fork: start the helper with "spawn [setsid]
//	                   STEPS... end", which starts the helper with STEPS
//	                   and exits at once, and wait for it: the grandchild
//	                   is an orphan ("spawned PID" gives its pid)
//	wait-child         wait for the child spawned, exit with its status
//	ready              print "ready"
//	print N            print N bytes of 'x' and a newline on stdout
//	sleep D            sleep D ("forever": until killed)
//	spin D             use the CPU for D
func helper(steps []string) {
	var child *exec.Cmd
	for i := 0; i < len(steps); {
		step := steps[i]
		i++
		arg := func() string {
			if i == len(steps) {
				fail("step %q needs an argument", step)
			}
			i++
			return steps[i-1]
		}
		switch step {
		case "exit":
			os.Exit(atoi(arg()))
		case "out":
			fmt.Println(arg())
		case "err":
			fmt.Fprintln(os.Stderr, arg())
		case "cat":
			io.Copy(os.Stdout, os.Stdin)
		case "env":
			for _, k := range []string{"GOGC", "GOMEMLIMIT", "GODEBUG"} {
				fmt.Printf("%s=%s\n", k, os.Getenv(k))
			}
		case "alloc":
			b := make([]byte, atoi(arg())<<20)
			for i := 0; i < len(b); i += 4096 {
				b[i] = 1
			}
			held = append(held, b)
		case "churn":
			// N MiB allocated in 64 KiB pieces, 16 MiB of them live at a
			// time: a collection every 16 MiB or so at GOGC=100.
			ring := make([][]byte, 256)
			for i := range atoi(arg()) * 16 {
				ring[i%len(ring)] = make([]byte, 64<<10)
				if i%len(ring) == 0 {
					ringHeld = ring
				}
			}
		case "work":
			// N million rounds of an integer hash: fixed work, one thread,
			// no allocation.
			x := uint64(1)
			for range atoi(arg()) * 1_000_000 {
				x ^= x << 13
				x ^= x >> 7
				x ^= x << 17
			}
			sink = x
		case "gc":
			for range atoi(arg()) {
				runtime.GC()
			}
		case "ignore":
			signal.Notify(make(chan os.Signal, 1), parseSignal(arg()))
		case "on-int-exit":
			c := make(chan os.Signal, 1)
			signal.Notify(c, syscall.SIGINT)
			code := atoi(arg())
			go func() {
				<-c
				os.Exit(code)
			}()
		case "raise":
			syscall.Kill(os.Getpid(), parseSignal(arg()))
			time.Sleep(time.Hour)
		case "spawn":
			setsid := i < len(steps) && steps[i] == "setsid"
			if setsid {
				i++
			}
			end := i
			for end < len(steps) && steps[end] != "end" {
				end++
			}
			child = exec.Command(os.Args[0], steps[i:end]...)
			child.Stdout, child.Stderr = os.Stdout, os.Stderr
			child.SysProcAttr = &syscall.SysProcAttr{Setsid: setsid}
			if err := child.Start(); err != nil {
				fail("spawn: %v", err)
			}
			fmt.Println("spawned", child.Process.Pid)
			i = end + 1
		case "daemon":
			end := i
			for end < len(steps) && steps[end] != "end" {
				end++
			}
			mid := exec.Command(os.Args[0], slices.Concat([]string{"spawn"}, steps[i:end], []string{"end"})...)
			mid.Stdout, mid.Stderr = os.Stdout, os.Stderr
			if err := mid.Run(); err != nil {
				fail("daemon: %v", err)
			}
			i = end + 1
		case "wait-child":
			child.Wait()
			os.Exit(child.ProcessState.ExitCode())
		case "ready":
			fmt.Println("ready")
		case "print":
			fmt.Println(strings.Repeat("x", atoi(arg())))
		case "sleep":
			if d := arg(); d == "forever" {
				time.Sleep(1 << 62)
			} else {
				time.Sleep(duration(d))
			}
		case "spin":
			for end := time.Now().Add(duration(arg())); time.Now().Before(end); {
			}
		default:
			fail("unknown step %q", step)
		}
	}
}

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "helper: "+format+"\n", args...)
	os.Exit(98)
}

func atoi(s string) int {
	n, err := strconv.Atoi(s)
	if err != nil {
		fail("%v", err)
	}
	return n
}

func duration(s string) time.Duration {
	d, err := time.ParseDuration(s)
	if err != nil {
		fail("%v", err)
	}
	return d
}

func parseSignal(s string) syscall.Signal {
	switch s {
	case "TERM":
		return syscall.SIGTERM
	case "INT":
		return syscall.SIGINT
	case "KILL":
		return syscall.SIGKILL
	}
	fail("unknown signal %q", s)
	return 0
}

// output is a Stdout or Stderr that a test can wait on.
type output struct {
	mu      sync.Mutex
	b       strings.Builder
	changed chan struct{}
}

func newOutput() *output { return &output{changed: make(chan struct{}, 1)} }

func (o *output) Write(p []byte) (int, error) {
	o.mu.Lock()
	o.b.Write(p)
	o.mu.Unlock()
	select {
	case o.changed <- struct{}{}:
	default:
	}
	return len(p), nil
}

func (o *output) String() string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.b.String()
}

// waitFor waits until the output has n lines that start with prefix, and
// returns them; it gives up (the test fails) when the process ends first.
func (o *output) waitFor(t *testing.T, p *Process, prefix string, n int) []string {
	t.Helper()
	for {
		var lines []string
		sc := bufio.NewScanner(strings.NewReader(o.String()))
		for sc.Scan() {
			if strings.HasPrefix(sc.Text(), prefix) {
				lines = append(lines, sc.Text())
			}
		}
		if len(lines) >= n {
			return lines
		}
		select {
		case <-o.changed:
		case <-p.done:
			res, _ := p.Wait()
			t.Fatalf("the child ended (%s) before %d lines %q; output:\n%s", res.Status(), n, prefix, o.String())
		}
	}
}
