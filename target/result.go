package target

import (
	"errors"
	"fmt"
	"syscall"
	"time"

	"github.com/gcperf/gcperf/env"
	"github.com/gcperf/gcperf/internal/peaks"
)

// ErrStopped is a Result's Stopped when Process.Stop stopped the child.
var ErrStopped = errors.New("target: stopped")

// ErrOverMemory is wrapped by a Result's Stopped when the child's memory
// grew above Command.MemCap: an *OverMemoryError.
var ErrOverMemory = errors.New("target: over the memory cap")

// An OverMemoryError is a Result's Stopped when a sample found the child's
// memory above Command.MemCap; it is ErrOverMemory to errors.Is.
type OverMemoryError struct {
	RSS int64 // the sample's: the larger of the tree's resident set and the child's own peak, in bytes
	Cap int64 // Command.MemCap
}

func (e *OverMemoryError) Error() string {
	return fmt.Sprintf("target: over the memory cap: RSS %s > %s", env.Bytes(e.RSS), env.Bytes(e.Cap))
}

func (e *OverMemoryError) Is(target error) bool { return target == ErrOverMemory }

// ErrKilled is a Result's Stopped when Process.Kill killed the child
// without a cause of its own.
var ErrKilled = errors.New("target: killed")

// ErrInterrupted is the cause gcperf gives Process.Kill at its third
// interrupt: a Result's Stopped then.
var ErrInterrupted = errors.New("target: interrupted three times")

// A Result is what a child did, once it and its process tree have ended.
type Result struct {
	Path string   // the program, as Command gave it
	Args []string // its arguments
	// Settings are the GOGC, GOMEMLIMIT and GODEBUG of the child's
	// environment, "" where it had none.
	Settings Settings
	// TraceNote says why the collector's trace may be absent although
	// GCTrace asked for it (the environment's own gctrace), else "".
	TraceNote string

	// ExitCode is the child's exit status, -1 when a signal ended it.
	ExitCode int
	// Signal is the signal that ended the child, 0 when it exited.
	Signal syscall.Signal
	// Interrupted says an interrupt (Process.Interrupt) reached the child.
	Interrupted bool
	// Stopped says why the parent stopped the child, nil when it did not:
	// ErrStopped (Process.Stop), Process.Kill's cause, or the context's
	// cause (context.DeadlineExceeded for a deadline).
	Stopped error
	// Killed says SIGKILL was sent: a process of the tree outlived the
	// grace period after SIGTERM, or Process.Kill killed it.
	Killed bool
	// Leftovers is the number of processes of the child's tree still
	// running when the child ended, which were then stopped as the child
	// would have been; Unkilled, of those still there KillWait after
	// SIGKILL (a process in uninterruptible sleep), which were left
	// running. Unkilled is 0 unless the kernel could not kill.
	Leftovers, Unkilled int

	// Wall is the time from just before the child started until the
	// parent saw it end (the monotonic clock).
	Wall time.Duration
	// UserCPU and SystemCPU are the CPU time of the child and of the
	// descendants it waited for (the kernel's accounting: wait4's rusage,
	// RUSAGE_CHILDREN as the child's parent sees it). A descendant the
	// child did not wait for (one left running, then killed) is not in
	// them.
	UserCPU, SystemCPU time.Duration
	// MaxRSS is the kernel's ru_maxrss of the child, in bytes: the
	// largest resident set of the child or of any descendant it waited
	// for, each on its own, never a sum. 0 outside Linux. It has a floor:
	// Linux counts in it the parent's resident set the child shared until
	// its exec (Go starts it with vfork), so for a small command it is the
	// parent's size, not the command's.
	MaxRSS int64

	// PeakRSS is the largest sum of the resident sets of the child and
	// its descendants (the process tree) over the samples, in bytes; 0
	// when none was taken (a child shorter than the interval, no /proc).
	PeakRSS int64
	// OwnPeakRSS is the child's own peak resident set since its exec, as
	// the kernel keeps it (VmHWM), at the last sample, in bytes: between
	// two samples too, but not the interval before the child ended, nor
	// its descendants; 0 without a sample. Unlike MaxRSS it has no floor
	// from the parent's memory before the exec.
	OwnPeakRSS int64
	// Samples is the number of samples taken, every Interval.
	Samples int
	// RSS is the tree's resident set over time, at most MaxSamples
	// points. Each point is the largest of Stride consecutive samples;
	// Stride doubles each time the series fills up.
	RSS    []Sample
	Stride int
	// Interval is the time between two samples.
	Interval time.Duration
}

// A Sample is one reading of the process tree's resident set.
type Sample struct {
	At        time.Duration // since the child started
	RSS       int64         // the sum of the tree's resident sets, in bytes
	Processes int           // the processes of the tree at that time
}

// Status says how the child ended, as a shell would: "exit status 3",
// "killed by SIGKILL".
func (r *Result) Status() string {
	if r.Signal != 0 {
		return "killed by " + SignalName(r.Signal)
	}
	return fmt.Sprintf("exit status %d", r.ExitCode)
}

// Success says the child exited with status 0, unstopped.
func (r *Result) Success() bool {
	return r.ExitCode == 0 && r.Signal == 0 && r.Stopped == nil
}

// SignalName is a signal's name, "SIGTERM", or its number with the
// system's description when it has no name here.
func SignalName(s syscall.Signal) string {
	if n, ok := signalNames[s]; ok {
		return n
	}
	return fmt.Sprintf("signal %d (%v)", int(s), s)
}

var signalNames = map[syscall.Signal]string{
	syscall.SIGABRT: "SIGABRT", syscall.SIGBUS: "SIGBUS", syscall.SIGFPE: "SIGFPE",
	syscall.SIGHUP: "SIGHUP", syscall.SIGILL: "SIGILL", syscall.SIGINT: "SIGINT",
	syscall.SIGKILL: "SIGKILL", syscall.SIGPIPE: "SIGPIPE", syscall.SIGQUIT: "SIGQUIT",
	syscall.SIGSEGV: "SIGSEGV", syscall.SIGTERM: "SIGTERM", syscall.SIGTRAP: "SIGTRAP",
}

// series is the RSS series: at most its max points, each the largest of
// its stride's samples (peaks.Series).
type series struct{ s *peaks.Series[Sample] }

func newSeries(max int) *series {
	return &series{peaks.New(max, func(a, b Sample) bool { return a.RSS < b.RSS })}
}

func (s *series) add(x Sample) { s.s.Add(x) }

// samples returns the points, and the one being filled.
func (s *series) samples() []Sample { return s.s.Points() }

// stride is the number of samples a point stands for.
func (s *series) stride() int { return s.s.Stride() }
