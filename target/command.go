package target

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"slices"
	"sync"
	"syscall"
	"time"
)

// The defaults of a Command's zero fields.
const (
	DefaultInterval   = 100 * time.Millisecond
	DefaultMaxSamples = 1000
	DefaultGrace      = 10 * time.Second
)

// A Command is a program under test: what to run, in what environment,
// where its output goes and how it is watched. Its zero fields take the
// defaults; Start does not modify it.
type Command struct {
	Path string   // the program: a path, or a name looked up in PATH
	Args []string // its arguments, without the program's name
	Dir  string   // its working directory ("": the parent's)

	// Env is the child's environment before the settings below (nil: the
	// parent's, os.Environ()). See Environ.
	Env []string
	// GOGC and GOMEMLIMIT, when not "", are set in the child's environment
	// as they are written ("off", "200", "512MiB"); the runtime reads them.
	GOGC, GOMEMLIMIT string

	Stdin  io.Reader // nil: the null device
	Stdout io.Writer // nil: the null device
	Stderr io.Writer // nil: the null device
	// GCTrace merges gctrace=1 into the child's GODEBUG (see Environ): the
	// collector's trace then comes on Stderr, with the program's own
	// output, for the caller's reader (a gctrace.Scanner) to take out.
	GCTrace bool

	// Interval is the time between two samples of the tree's RSS
	// (0: DefaultInterval).
	Interval time.Duration
	// MaxSamples bounds the RSS series of the Result (0: DefaultMaxSamples,
	// at least 2).
	MaxSamples int
	// OnSample, when set, is called with each sample as it is taken, from
	// the goroutine that watches the child, which waits for it to return
	// (MemCap caps the child's memory).
	OnSample func(Sample)
	// MemCap, when above 0, stops the child as Stop does once a sample
	// finds its process tree's resident set, or the child's own peak
	// resident set (VmHWM: it may have grown and shrunk between two
	// samples), above it, in bytes: Result.Stopped is then an
	// *OverMemoryError.
	MemCap int64
	// Grace is how long a process of the tree has between SIGTERM and
	// SIGKILL (0: DefaultGrace; below 0: none, SIGKILL at once, for a child
	// whose stop must not let it write anything more).
	Grace time.Duration
	// ProcRoot is the root of the procfs read for the process tree ("":
	// "/", the live machine).
	ProcRoot string
}

// ErrNotStarted is wrapped by the error of a command that could not be
// started: not found, not executable, a working directory that is not
// there. Nothing ran.
var ErrNotStarted = errors.New("target: cannot start")

// A StartError says why a command could not be started; it is ErrNotStarted
// to errors.Is.
type StartError struct {
	Path string
	Err  error // the cause: exec.ErrNotFound, fs.ErrPermission, ...
}

func (e *StartError) Error() string {
	return fmt.Sprintf("target: cannot start %q: %v", e.Path, e.Err)
}

func (e *StartError) Unwrap() error        { return e.Err }
func (e *StartError) Is(target error) bool { return target == ErrNotStarted }

// CanStart checks, without starting it, that the program at path (a path,
// or a name looked up in PATH) can be started: it returns nil, or a
// *StartError (ErrNotStarted) whose Err is the cause alone (not found,
// permission denied), for a caller that refuses it before anything runs.
func CanStart(path string) error {
	if _, err := exec.LookPath(path); err != nil {
		return startError(path, err)
	}
	if err := checkInterpreter(path, "", nil); err != nil {
		return &StartError{Path: path, Err: err}
	}
	return nil
}

// startError gives the cause of a failed start without the layers that
// repeat the program's name.
func startError(path string, err error) error {
	var ee *exec.Error
	if errors.As(err, &ee) {
		err = ee.Err
	}
	var pe *fs.PathError
	if errors.As(err, &pe) && (pe.Op == "fork/exec" || pe.Op == "stat") {
		err = pe.Err
	}
	return &StartError{Path: path, Err: err}
}

// A Process is a started Command.
type Process struct {
	cmd      *exec.Cmd
	stop     chan struct{}
	stopOnce sync.Once
	sig      chan os.Signal
	kill     chan error
	killOnce sync.Once
	exited   chan struct{} // the child has been waited for
	done     chan struct{}
	tree     *osTree
	res      *Result
	err      error
}

// Run starts the command and waits for it: Start then Wait.
func (c *Command) Run(ctx context.Context) (*Result, error) {
	p, err := c.Start(ctx)
	if err != nil {
		return nil, err
	}
	return p.Wait()
}

// Start starts the command in a process group of its own and watches it
// until it and its process tree have ended. When ctx ends, the child is
// stopped as by Stop, and the Result's Stopped is ctx's cause.
//
// A command that cannot be started returns an error that is ErrNotStarted
// (a *StartError); ctx ended before the start returns its error.
func (c *Command) Start(ctx context.Context) (*Process, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("target: %w", context.Cause(ctx))
	}
	if err := c.check(); err != nil {
		return nil, err
	}
	env, set, note := c.Environ()
	cmd := exec.Command(c.Path, c.Args...)
	cmd.Dir, cmd.Env = c.Dir, env
	detach(cmd)

	var streams ioSet
	if err := streams.setup(c, cmd); err != nil {
		return nil, startError(c.Path, err)
	}
	start := time.Now()
	if err := reg.start(cmd); err != nil {
		streams.abort()
		return nil, startError(c.Path, err)
	}
	streams.started()

	interval, grace, maxSamples := c.Interval, c.Grace, c.MaxSamples
	if interval <= 0 {
		interval = DefaultInterval
	}
	if grace == 0 {
		grace = DefaultGrace
	}
	if maxSamples <= 0 {
		maxSamples = DefaultMaxSamples
	}
	p := &Process{cmd: cmd, stop: make(chan struct{}), sig: make(chan os.Signal), kill: make(chan error, 1),
		exited: make(chan struct{}), done: make(chan struct{})}
	res := &Result{Path: c.Path, Args: slices.Clone(c.Args), Settings: set, TraceNote: note, Interval: interval}
	root := c.ProcRoot
	if root == "" {
		root = "/"
	}
	t := &osTree{proc: cmd.Process, pid: cmd.Process.Pid}
	t.r, _ = newTreeReader(root, t.pid) // nil: no /proc, the child alone
	p.tree = t
	reg.watch(p, t.r)
	m := &monitor{tree: t, interval: interval, grace: grace, onSample: c.OnSample, memCap: c.MemCap,
		start: start, series: newSeries(max(maxSamples, 2)), res: res, kill: p.kill}

	var waitErr error
	go func() {
		waitErr = cmd.Wait()
		reg.waited(t.pid)
		close(p.exited)
	}()
	go func() {
		defer close(p.done)
		m.run(ctx, p.sig, p.stop, p.exited)
		p.err = streams.finish(max(grace, time.Second))
		if p.err == nil && cmd.ProcessState == nil {
			p.err = fmt.Errorf("target: waiting for %s: %w", c.Path, waitErr)
		}
		res.exited(cmd.ProcessState)
		p.res = res
		reg.unwatch(p, t.r)
	}()
	return p, nil
}

// check refuses, before anything starts, a command without a program or
// whose working directory is not there.
func (c *Command) check() error {
	if c.Path == "" {
		return &StartError{Path: c.Path, Err: errors.New("no program")}
	}
	if c.Dir != "" {
		// os/exec says a missing directory is a missing program once the
		// child has its SysProcAttr: say which it is.
		if _, err := os.Stat(c.Dir); err != nil {
			var pe *fs.PathError
			if errors.As(err, &pe) {
				err = &fs.PathError{Op: "chdir", Path: c.Dir, Err: pe.Err}
			}
			return &StartError{Path: c.Path, Err: err}
		}
	}
	if err := checkInterpreter(c.Path, c.Dir, c.Env); err != nil {
		return &StartError{Path: c.Path, Err: err}
	}
	return nil
}

// exited sets what the kernel says of a child that was waited for: its
// exit status, the signal that ended it, its CPU time and MaxRSS; nothing
// when ps is nil.
func (r *Result) exited(ps *os.ProcessState) {
	if ps == nil {
		return
	}
	r.ExitCode = ps.ExitCode()
	if ws, ok := ps.Sys().(interface {
		Signaled() bool
		Signal() syscall.Signal
	}); ok && ws.Signaled() {
		r.Signal = ws.Signal()
	}
	r.UserCPU, r.SystemCPU = ps.UserTime(), ps.SystemTime()
	r.MaxRSS = maxRSS(ps)
}

// Pid is the child's process id, and its process group's.
func (p *Process) Pid() int { return p.cmd.Process.Pid }

// Interrupt forwards s to the child's process group, as a terminal would
// send it (SIGINT for an os.Signal that is not a syscall.Signal), and
// Result.Interrupted says one came. The child decides what it means.
// Interrupting a child that has ended does nothing. Interrupt may be
// called from any goroutine.
func (p *Process) Interrupt(s os.Signal) {
	select {
	case p.sig <- s:
	case <-p.exited:
	}
}

// Kill kills the child's process tree at once with SIGKILL, without the
// grace period of Stop; why is the Result's Stopped (nil: ErrKilled),
// unless the child was being stopped already. It returns at once; killing
// a child that has ended, or killing it again, does nothing.
func (p *Process) Kill(why error) {
	if why == nil {
		why = ErrKilled
	}
	p.killOnce.Do(func() { p.kill <- why })
}

// Stop stops the child: SIGTERM to its process group and to its
// descendants that left it, then, for any process still there after the
// grace period, SIGKILL. It returns at once; Wait returns when the tree
// has ended. Stopping a child that has ended, or stopping it again, does
// nothing. Stop may be called from any goroutine, OnSample's included.
func (p *Process) Stop() {
	p.stopOnce.Do(func() { close(p.stop) })
}

// Wait waits until the child and its process tree have ended and returns
// what it did. The Result is there whenever the child was waited for,
// also with an error: the error says that the parent could not do its part
// (its stdout or stderr writer failed), not that the child failed, which
// the Result says. Wait may be called more than once.
func (p *Process) Wait() (*Result, error) {
	<-p.done
	return p.res, p.err
}

// Processes lists the processes of the child's tree as it is now: the
// child, while it runs, its descendants, those seen that left it, and the
// orphans of the tree this process adopted (Subreaper); only the child
// without /proc. A caller checks with it that a process is the child's
// (a server's listening socket).
func (p *Process) Processes() []int {
	return p.tree.processes()
}

// osTree is the tree of a child on this machine. Its methods may be
// called from any goroutine (Process.Processes beside the monitor's).
type osTree struct {
	mu   sync.Mutex
	proc *os.Process
	pid  int
	r    *treeReader // nil without /proc
}

func (t *osTree) processes() []int {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.r == nil {
		return []int{t.pid}
	}
	var pids []int
	if _, _, ok := t.r.walk(); ok {
		pids = append(pids, t.pid)
	} else {
		t.r.adopt()
	}
	return append(pids, slices.Sorted(maps.Keys(t.r.living()))...)
}

func (t *osTree) sample() (int64, int64, int, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.r == nil {
		return 0, 0, 0, false
	}
	rss, n, ok := t.r.walk()
	if !ok {
		return 0, 0, 0, false
	}
	return rss, t.r.hwm(), n, true
}

func (t *osTree) forward(s syscall.Signal) {
	if !signalGroup(t.pid, s) {
		t.proc.Signal(s)
	}
}

func (t *osTree) signal(s syscall.Signal, running bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.r == nil {
		if running {
			t.forward(s)
		}
		return
	}
	if !running {
		// The child has been waited for: its group's id is free for
		// another once the group is empty, so each process is signalled
		// on its own, once, whether it is still in the group or not (a
		// process that leaves it, setsid, between two readings is not
		// missed).
		t.r.adopt() // the orphans since
		living := t.r.living()
		for pid := range living {
			signalPid(pid, s)
		}
		for _, pid := range t.r.group(t.pid) {
			if _, ok := living[pid]; !ok {
				signalPid(pid, s)
			}
		}
		return
	}
	t.r.walk()             // the descendants started since the last sample
	living := t.r.living() // with their process groups now
	t.forward(s)
	for pid, m := range living {
		if m.pgrp != t.pid {
			signalPid(pid, s)
		}
	}
}

func (t *osTree) left() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.r == nil {
		return 0
	}
	t.r.adopt() // the orphans since the child ended, or since the last look
	living := t.r.living()
	// Each process once: one may leave the group (setsid) between the
	// two readings.
	n := t.r.dying + len(living) // dying: not waited for yet, not gone
	if signalGroup(t.pid, 0) {
		for _, pid := range t.r.group(t.pid) { // not zombies
			if _, ok := living[pid]; !ok {
				n++
			}
		}
	}
	return n
}
