// Package target runs every program gcperf starts: the user's own (gcperf
// exec, gcperf sweep -- CMD, a server under load) and gcperf's children. It
// starts the program with the collector settings of the run, passes its
// input and output through, watches its process tree's memory while it
// runs, forwards the interrupts its caller gives it, stops it (and
// everything it started) when asked, and says what it did. It parses no
// trace: with GCTrace set the child's runtime writes the collector's trace
// to its stderr, for the caller's reader (package target/gctrace's
// Scanner, as sweep.RunCommand uses it).
//
//	c := &target.Command{
//		Path: "./alloc.test", Args: []string{"-test.bench", "."},
//		GOGC: "200", GOMEMLIMIT: "256MiB", GCTrace: true,
//		Stdout: os.Stdout, Stderr: traceScanner, // an io.Writer
//	}
//	p, err := c.Start(ctx) // ctx's end stops it (a deadline: a timeout)
//	if errors.Is(err, target.ErrNotStarted) {
//		// not found, not executable: nothing ran (gcperf exits 2)
//	}
//	p.Interrupt(os.Interrupt) // forwarded to its process group, as a terminal would
//	res, err := p.Wait()
//	fmt.Println(res.Status(), res.Wall, res.UserCPU, res.MaxRSS, res.PeakRSS)
//
// [Command.Start] returns a [Process] at once, for a caller that does
// something while the program runs (drives load against a server):
// [Process.Stop] stops it, [Process.Kill] kills it at once,
// [Process.Interrupt] forwards an interrupt and [Process.Wait] returns the
// [Result]. [Command.Run] is Start then Wait.
//
// # Environment
//
// The child gets Command.Env, or the parent's environment, with GOGC and
// GOMEMLIMIT replaced when the Command sets them. With GCTrace set, its
// GODEBUG gains gctrace=1, merged with the settings it holds
// (GODEBUG=madvdontneed=1 becomes madvdontneed=1,gctrace=1); a gctrace of
// the environment's own is respected, whatever its value, and
// Result.TraceNote then says the trace may be absent. Result.Settings
// records the GOGC, GOMEMLIMIT and GODEBUG the child ran with.
// [Command.Environ] returns all of it without starting anything.
//
// # Input and output
//
// Stdin is passed to the child, Stdout receives its stdout and Stderr its
// stderr. An *os.File is given to the child as it is, so a terminal stays a
// terminal and nothing is copied; any other reader or writer goes through a
// pipe. A writer that fails does not block the child: its output is
// drained and dropped, and Wait returns the writer's error beside the
// Result. The output is drained for at most the grace period after the
// tree has ended (a process out of reach may hold it open).
//
// On Linux the parent reads such a pipe by polling, outside Go's
// netpoller: every 10ms while output comes, backing off to every 100ms
// while none does; each poll reads until the pipe is empty, and while a
// poll finds a quarter of the pipe or more, the next comes four times
// sooner (down to 50µs), so that the pipe never fills and a child writing
// hundreds of MiB a second is not held up; the pipe holds 1MiB where the
// kernel allows. A Go runtime writes each trace
// line in about 20 pieces, one write(2) each, and a pipe in the netpoller
// woke the parent at every piece: 60ms of its CPU for a second of a child
// collecting 450 times, against about 12ms now (BenchmarkOverhead). The
// output reaches its writer at most 100ms late.
//
// A Go program's runtime writes a trace line in pieces, and the program's
// own writes to stderr from other threads can fall between them: the
// trace's reader (gctrace.Scanner) mends such a line from the stream.
//
// # Start
//
// A command that cannot be started (not found in PATH, no such file, not
// executable, no working directory) is an error that is ErrNotStarted, a
// [*StartError] holding the cause (exec.ErrNotFound, fs.ErrPermission...),
// in one line: `target: cannot start "no-such-command": executable file not
// found in $PATH`. A context that has ended before the start is its own
// error, not ErrNotStarted.
//
// The child starts in a process group of its own (its pid), so that a
// signal to the group reaches what it starts too (go run and go test run
// the program as a grandchild), and with Pdeathsig SIGKILL, so that it dies
// with the parent.
//
// # Orphans: Subreaper
//
// A process of the tree whose parent ends (a double fork, a daemon that
// calls setsid: `sh -c '(setsid sleep 30 &)'`) goes to init, out of the
// tree, unless the parent is a subreaper: [Subreaper] makes this process
// one (prctl PR_SET_CHILD_SUBREAPER), a setting of the whole process that
// its program decides (gcperf's main calls it). The kernel then gives
// such an orphan to this process: the tree's walks find it among this
// process's children that the package did not start, ascribe it to the
// tree whose child leads its process group, else to the tree started last
// before it (with one command at a time, as gcperf runs them, the one
// running), count it in the tree's samples, stop it with the tree and as
// a leftover, and wait for it (wait4: os/exec waits for its own child
// only), so that no zombie stays. Such a program starts its other
// children in its own process group (os/exec's default): a child of its
// own in another group would be taken for an orphan. [KillAll] kills
// every Process still running, with its tree, at once, and waits for
// them: a program that exits at once (gcperf's third interrupt) calls it
// first.
//
// The limit: should this process itself be killed by SIGKILL, nothing of
// it runs any more to stop anything. The kernel kills its direct children
// (Pdeathsig), but their descendants, and the orphans it had adopted, go
// to init (or to the nearest subreaper above it) and keep running.
// Pdeathsig is one process's, not inherited, and a subreaper must be
// alive to reap: only a cgroup holding the tree could stop them (a later
// issue), or a process outside gcperf watching it, which, standing in the
// measured tree as its parent, would add its own memory and CPU to the
// figures, so there is none. Outside Linux there is no subreaper:
// Subreaper returns an error.
//
// # While it runs
//
// Every Interval (default 100ms) the process tree is read from
// ProcRoot/proc ("/" by default; tests read fake trees): the child and its
// descendants (with the orphans of the tree adopted with Subreaper, and
// theirs), found through /proc/<pid>/task/<tid>/children, or by
// reading the parent of every process where the kernel has no children
// files (CONFIG_PROC_CHILDREN), which costs more. A sample is the sum of
// the tree's resident sets (stat's rss, through prometheus/procfs; a page
// that several processes share counts once in each) and the number of
// processes. Result.PeakRSS is the largest sample; Result.RSS the series,
// at most MaxSamples points (default 1000): when full, each two
// consecutive points become the larger of them, so the peaks stay and a
// run of hours fits (Result.Stride says how many samples a point stands
// for). OnSample sees each sample as it is taken, to stop a child that
// grows past a cap. A child that ends within its first Interval has no
// sample; the kernel's MaxRSS still holds. A tree walk reads at most
// MaxTree processes.
//
// # Interrupts and stopping
//
// [Process.Interrupt] forwards a signal to the child's process group, as a
// terminal would send it (SIGINT for an os.Signal that is not a
// syscall.Signal): the child decides what it means, and
// Result.Interrupted says one came. The package reads no signal of its
// own: its caller (gcperf's command) decides what its interrupts mean, and
// calls Interrupt, Stop or Kill.
//
// [Process.Stop], and the end of Start's context (a deadline: sweep's
// -point-timeout), stop the child: SIGTERM to its process group and to
// every descendant seen that left it (a daemon that called setsid) or
// adopted (Subreaper), then, Grace later (default 10s), SIGKILL to all of
// them. Result.Stopped says why (ErrStopped, Kill's cause, the context's
// cause) and Result.Killed that SIGKILL was needed. [Process.Kill] sends
// SIGKILL at once, a stop under way included. Nothing waits forever on a
// child that ignores signals: after SIGKILL, a process that does not end within KillWait (one
// in uninterruptible sleep) is counted in Result.Unkilled and left.
//
// When the child ends, what it left running (its group, the descendants
// seen that left the group, told from a new process with the same pid by
// their start time, and the orphans of the tree adopted with Subreaper)
// is stopped the same way, each process signalled on its own, SIGTERM
// then SIGKILL (at once when Kill is called), and counted in
// Result.Leftovers: no process of the tree outlives Wait. Without
// Subreaper one that was never seen (started and detached between two
// samples) escapes.
//
// # When it ends
//
// Result holds the exit status (ExitCode, or the Signal that killed it;
// Status says it as a shell would), the wall time from just before the
// start until the parent saw the child end (monotonic), and the kernel's
// accounting of the child and the descendants it waited for (wait4's
// rusage, RUSAGE_CHILDREN as the parent sees it): UserCPU, SystemCPU and
// MaxRSS, the largest single resident set among them, in bytes (Linux's
// ru_maxrss is in KiB). A descendant the child did not wait for is not in
// them; the samples cover it.
//
// Outside Linux the child shares the parent's process group, signals
// reach the child alone, and there is no tree and no MaxRSS.
package target
