package sweep

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gcperf/gcperf/internal/safefile"
	"github.com/gcperf/gcperf/report"
	"github.com/gcperf/gcperf/target"
)

// ErrInterrupted is returned by Runner.Run when Stop was closed: the
// outcomes it returns are the points that finished before.
var ErrInterrupted = errors.New("sweep: interrupted")

// tailLines is how many of a child's last stderr lines an Outcome keeps.
const tailLines = 20

// A Runner runs the points of a sweep, each repeat of each point in a fresh
// child process, and reads back the child's JSON result.
//
// The command line of a child is
//
//	Exe Args... -json Dir/<point>,rep=N.json -overwrite Ops...
//
// with the point's GOGC, GOMEMLIMIT (and GOMAXPROCS) appended to Env. Every
// child, a gcperf one or Command, runs through package target: in a process
// group of its own, watched, capped and stopped with its descendants. The
// child writes its result through report.WriteFile (a temporary file renamed
// into place), so a child that is killed leaves no half result. Its stdout and
// stderr go to Dir/<point>,rep=N.log; the last tailLines lines of its stderr
// are kept for a failed point. Run over the one point Inherited, it runs
// one benchmark Count times (gcperf -count N): process-N.json and
// process-N.log.
type Runner struct {
	Exe  string   // the child's executable: os.Executable() in gcperf
	Args []string // the child's arguments before the result flag: ["-size=64", "-runs=200"] or ["run", "-runs=200"]
	// Ops are the child's arguments after the result flag: the operations
	// of gcperf run and their parameters, which must come after every flag.
	Ops []string
	// ProfileDir, when set, gives each child -profile ProfileDir/<point>,rep=N,
	// so that every point and repeat leaves its own profiles.
	ProfileDir string
	Dir        string // where the result and log files go; it must exist
	Count      int    // repeats of every point, interleaved; at least 1
	// Timeout stops a child that runs longer (0: no timeout; AutoTimeout:
	// a limit derived from the repeats that finished, see AutoTimeout).
	Timeout time.Duration
	// MemCap stops a child whose memory grows above it, in bytes (0: no
	// cap): its process tree's resident set, or its own peak (VmHWM), read
	// from procfs every Poll (target.Command's MemCap).
	MemCap int64
	// Resume skips a point whose result file is already in Dir, complete
	// (not interrupted, every timed run done), run with the same arguments
	// and with the point's settings applied.
	Resume bool
	// Shard and Shards select the points whose index mod Shards is Shard;
	// Shards 0 or 1 runs every point.
	Shard, Shards int
	// Env is the children's environment before each point's settings: the
	// parent's, without GOGC, GOMEMLIMIT and GOMAXPROCS (with them for
	// Inherited). Should it hold them anyway, the point's own come after
	// and win, as os/exec keeps the last of duplicated keys.
	Env []string
	// Observe, when set, is told of each point and repeat as it starts,
	// ends, is resumed or interrupted (RepeatEvent), from the goroutine
	// that called Run; ProgressWriter writes them as lines.
	Observe func(RepeatEvent)
	// Progress, when set, is called after each point and repeat of the
	// shard is done (run, failed or resumed), once Observe was told, with
	// the number done and the total (the shard's points times
	// Count). It is called in the parent between two children, never while
	// one runs; not for a point that was interrupted.
	Progress func(done, total int)
	// Stop, when closed, kills the running child: Run returns the outcomes
	// finished before with ErrInterrupted. Cancelling ctx does the same
	// with ctx's error.
	Stop <-chan struct{}
	// ProcRoot is the root of the procfs the RSS is read from: "/" (or "")
	// for the live machine.
	ProcRoot string
	// Poll is the time between two readings of the child's RSS (0: 100ms).
	Poll time.Duration

	// Command, when set, is the program every point runs instead of a
	// gcperf child (gcperf sweep -- CMD): each repeat starts it afresh
	// through package target with the point's settings in its environment
	// (after Env), GODEBUG=gctrace=1 added, no stdin, its output to the
	// point's log, and writes its document (RunCommand's) as the point's
	// result. Exe, Args, Ops and
	// ProfileDir are then unused; Command's own output and environment
	// fields are replaced.
	Command *target.Command
	// Meta gives a command's documents their Tool and Env.
	Meta report.Meta

	// Server, when set, is a program under test that every point's gcperf
	// child loads with Ops (gcperf sweep OP... -- SERVER): the point's
	// settings go to the server (-server-gogc, -server-memlimit, and
	// MemCap as -server-memory), not to the child, which runs with Env
	// alone; the child starts and stops the server itself.
	Server []string

	// Lock, when set, is Dir's lock, which the caller (a Session, from
	// Prepare to Report or Close; bench.RunCount) took before it touched
	// Dir and holds until its last file there is written: Run refuses
	// another's. When nil, Run takes Dir's lock itself for the run: one
	// gcperf at a time runs points into a directory, so that a second
	// never removes the files a first is writing nor runs its points
	// again; its error then wraps safefile.ErrLocked.
	Lock *safefile.DirLock

	// temps holds the temporary files of the results Run writes itself
	// (a Command's), which RemoveTemps removes when its caller gives up
	// at once.
	temps *safefile.Temps
	// largest is the most bytes a repeat has left in Dir: the room the
	// next one must find (space.go).
	largest int64
}

// RemoveTemps removes the temporary files of the results Run is writing
// itself, for a caller that gives up a Run at once: it leaves no file
// half-written, and removes no other writer's.
func (r *Runner) RemoveTemps() { r.temps.Remove() }

// AutoTimeout, as a Runner's Timeout, limits each repeat to 10 times the
// longest repeat of the sweep that succeeded so far, at least
// MinAutoTimeout; until one has succeeded, to FirstAutoTimeout. Every
// repeat of every point runs the same benchmark, so a repeat ten times
// slower than any before is stuck (a child that ignores its work, GOMAXPROCS
// too large, a GC death spiral under GOMEMLIMIT), and the sweep goes on.
const AutoTimeout time.Duration = -1

// The bounds of AutoTimeout.
const (
	MinAutoTimeout   = time.Minute
	FirstAutoTimeout = 30 * time.Minute
)

// timeout is the limit of the next repeat, after outs.
func (r *Runner) timeout(outs []Outcome) time.Duration {
	if r.Timeout >= 0 {
		return r.Timeout
	}
	var longest time.Duration
	for _, o := range outs {
		if o.Failed.IsZero() {
			longest = max(longest, o.Wall)
		}
	}
	if longest == 0 {
		return FirstAutoTimeout
	}
	return max(MinAutoTimeout, 10*longest)
}

// ErrConflict is wrapped by Run's error when resuming into a directory that
// holds a complete result of another benchmark: Run never replaces one.
var ErrConflict = errors.New("sweep: a complete result of another benchmark")

// Run runs every point of the shard Count times, repeat 1 of every point
// first, then repeat 2, and so on. A point that fails is recorded with the
// reason and the sweep goes on, unless Dir cannot take another repeat's
// files (checked before each repeat, and after one that failed without a
// result): it then stops with a *CannotWriteError (ErrCannotWrite). It
// returns the outcomes in the order they ran (those resumed from files in
// their place, with a Wall of 0).
func (r *Runner) Run(ctx context.Context, points []Point) ([]Outcome, error) {
	if r.Count < 1 {
		return nil, fmt.Errorf("sweep: count must be at least 1, got %d", r.Count)
	}
	if r.Exe == "" && r.Command == nil {
		return nil, errors.New("sweep: no executable to run")
	}
	if r.temps == nil {
		r.temps = new(safefile.Temps)
	}
	release, err := r.hold()
	if err != nil {
		return nil, err
	}
	defer release()
	var mine []Point
	for _, p := range points {
		if r.Shards <= 1 || p.InShard(r.Shard, r.Shards) {
			mine = append(mine, p)
		}
	}
	observe := r.Observe
	if observe == nil {
		observe = func(RepeatEvent) {}
	}
	if r.Resume {
		if err := r.prepareResume(mine); err != nil {
			return nil, err
		}
	}
	var outs []Outcome
	total := len(mine) * r.Count
	progress := func() {
		if r.Progress != nil {
			r.Progress(len(outs), total)
		}
	}
	for rep := 1; rep <= r.Count; rep++ {
		for i, p := range mine {
			if err := r.stopped(ctx); err != nil {
				return outs, err
			}
			e := RepeatEvent{Point: p, Rep: rep, Count: r.Count, Index: i + 1, Of: len(mine)}
			if r.Resume {
				if o, ok := r.resume(p, rep); ok {
					e.Kind, e.Outcome = RepeatResumed, &o
					observe(e)
					outs = append(outs, o)
					progress()
					continue
				}
			}
			if err := r.roomBefore(); err != nil {
				return outs, err
			}
			observe(e)
			o, err := r.runPoint(ctx, p, rep, r.timeout(outs))
			if err != nil {
				e.Kind = RepeatInterrupted
				observe(e)
				return outs, err
			}
			r.wrote(o)
			full := r.cannotWrite(&o)
			e.Kind, e.Outcome, e.Log = RepeatDone, &o, filepath.Join(r.Dir, logName(o.Point, o.Rep))
			observe(e)
			outs = append(outs, o)
			progress()
			if full != nil {
				return outs, full
			}
		}
	}
	return outs, nil
}

// prepareResume checks that Dir holds no complete result of another
// benchmark, and removes what a killed gcperf left half-written (a
// SIGKILL, a power cut): no child runs yet, and Dir's lock (hold) keeps
// out every other gcperf, so nothing there is being written.
func (r *Runner) prepareResume(mine []Point) error {
	if err := r.conflicts(mine); err != nil {
		return err
	}
	safefile.RemoveStale(r.Dir)
	for _, p := range mine {
		for rep := 1; rep <= r.Count; rep++ {
			r.cleanProfiles(p.FileName(rep))
		}
	}
	return nil
}

// hold checks that Lock holds Dir, or takes Dir's lock for the run when
// Lock is nil; release releases the lock it took.
func (r *Runner) hold() (release func(), err error) {
	switch {
	case r.Lock == nil:
		l, err := safefile.LockDir(r.Dir)
		if err != nil {
			return nil, fmt.Errorf("sweep: %s: %w", r.Dir, err)
		}
		return func() { l.Unlock() }, nil
	case !r.Lock.Holds(r.Dir):
		return nil, fmt.Errorf("sweep: the lock given is not that of %s, or was released", r.Dir)
	}
	return func() {}, nil
}

// stopped returns the error Run returns once Stop is closed or ctx is done.
func (r *Runner) stopped(ctx context.Context) error {
	select {
	case <-r.Stop:
		return ErrInterrupted
	default:
	}
	return ctx.Err()
}

// logName is the file a child's output goes to.
func logName(p Point, rep int) string {
	return strings.TrimSuffix(p.FileName(rep), ".json") + ".log"
}

// serverStopGrace is how long a gcperf child loading a server has, after
// the sweep's SIGTERM, to stop its server and exit before SIGKILL: the
// server's own grace after SIGTERM (target.DefaultGrace) and a margin.
const serverStopGrace = target.DefaultGrace + 5*time.Second

// failedName is the name a failed child's result file is moved to, so that
// it is neither read as a result nor skipped by a resumed sweep.
func failedName(file string) string { return file + ".failed" }

// childArgs is a child's command line after the executable.
func (r *Runner) childArgs(p Point, rep int, path string) []string {
	var prof []string
	if r.ProfileDir != "" {
		prof = []string{"-profile", filepath.Join(r.ProfileDir, strings.TrimSuffix(p.FileName(rep), ".json"))}
	}
	if r.Server != nil {
		srv := []string{"-server-gogc=" + p.GOGC.String(), "-server-memlimit=" + p.MemLimit.String(),
			"-server-log=" + filepath.Join(r.Dir, serverLogName(p, rep))}
		if r.MemCap > 0 {
			srv = append(srv, "-server-memory="+strconv.FormatInt(r.MemCap, 10)+"B")
		}
		return slices.Concat(r.Args, prof, srv, []string{"-json", path, "-overwrite"}, r.Ops, []string{"--"}, r.Server)
	}
	return slices.Concat(r.Args, prof, []string{"-json", path, "-overwrite"}, r.Ops)
}

// resume returns the outcome of a point whose result file is complete.
func (r *Runner) resume(p Point, rep int) (Outcome, bool) {
	file := p.FileName(rep)
	path := filepath.Join(r.Dir, file)
	doc, err := report.ReadFile(path)
	if err != nil {
		return Outcome{}, false
	}
	if !complete(doc) || !r.same(doc, p, rep, path) || CheckApplied(p, doc) != nil {
		return Outcome{}, false
	}
	return Outcome{Point: p, Rep: rep, File: file, Doc: doc}, true
}

// conflicts returns an error wrapping ErrConflict for the first point and
// repeat whose result in Dir is complete but of another benchmark (another
// command line): resuming would replace it.
func (r *Runner) conflicts(points []Point) error {
	for rep := 1; rep <= r.Count; rep++ {
		for _, p := range points {
			path := filepath.Join(r.Dir, p.FileName(rep))
			doc, err := report.ReadFile(path)
			if err != nil || !complete(doc) {
				continue
			}
			if !r.same(doc, p, rep, path) {
				return fmt.Errorf("%w: %s ran %q, not %q", ErrConflict, path,
					strings.Join(r.ran(doc), " "), strings.Join(r.wants(p, rep, path), " "))
			}
		}
	}
	return nil
}

// same reports whether a result in Dir was measured by what this runner
// runs at p's repeat rep: a gcperf child with the same flags, or the same
// command.
func (r *Runner) same(d *report.Document, p Point, rep int, path string) bool {
	if r.Command != nil {
		return d.Kind() == report.CommandDocument && slices.Equal(d.Exec.Command, r.commandArgv())
	}
	return d.Kind() != report.CommandDocument && sameCommand(d.Tool.Command, append([]string{"gcperf"}, r.childArgs(p, rep, path)...))
}

// ran and wants are what a result measured and what the runner would run,
// as a person reads them.
func (r *Runner) ran(d *report.Document) []string {
	if d.Kind() == report.CommandDocument {
		return d.Exec.Command
	}
	return benchCommand(d.Tool.Command)
}

func (r *Runner) wants(p Point, rep int, path string) []string {
	if r.Command != nil {
		return r.commandArgv()
	}
	return benchCommand(append([]string{"gcperf"}, r.childArgs(p, rep, path)...))
}

// complete reports whether a result holds every timed run it was asked
// for: all of -runs, or with -duration as many as the time allowed (-runs
// then the most, or 0); a command's, whether the command succeeded.
func complete(d *report.Document) bool {
	if d.Kind() == report.CommandDocument {
		return d.Exec.Success
	}
	if d.Kind() == report.ServerDocument && !d.Server.Success {
		return false
	}
	c := d.Config
	return !d.Interrupted && d.Halted == "" &&
		(d.Timing.Done == c.Runs || c.Duration > 0 && (c.Runs == 0 || d.Timing.Done <= c.Runs))
}

// sameCommand compares two command lines as benchCommand writes them:
// but for where the files go (-json, -profile, -server-log) and what is
// the point's or the machine's (a server's settings, its memory cap), so
// that a result is resumed only by a sweep with the same flags, whichever
// way its directory was spelled (the point's settings are CheckApplied's).
func sameCommand(got, want []string) bool {
	return slices.Equal(benchCommand(got), benchCommand(want))
}

// runPoint runs one repeat of one point. Its error is not nil only when the
// sweep was stopped while the child ran.
func (r *Runner) runPoint(ctx context.Context, p Point, rep int, limit time.Duration) (Outcome, error) {
	if r.Command != nil {
		return r.runCommand(ctx, p, rep, limit)
	}
	file := p.FileName(rep)
	path := filepath.Join(r.Dir, file)
	o := Outcome{Point: p, Rep: rep}
	ch, f := r.newChild(ctx, p, rep, limit)
	if !f.IsZero() {
		o.Failed = f
		return o, nil
	}
	defer ch.stop()
	defer r.cleanTemp(file)
	start := time.Now()
	c := r.gcperfChild(p, rep, path, ch)
	res, err := c.Run(ch.ctx)
	o.Wall = time.Since(start)
	o.StderrTail = ch.tail.Lines()
	if res == nil {
		if ch.outer.Err() != nil || errors.Is(context.Cause(ch.ctx), ErrInterrupted) {
			return o, context.Cause(ch.ctx)
		}
		o.Failed = startFailure(r.Exe, err)
		return o, nil
	}
	if o.Failed, err = ch.stopped(res.Stopped, r, ""); err != nil {
		return o, err
	}
	if o.Failed.IsZero() {
		o.Failed = exitFailure(res)
		if !o.Failed.IsZero() && r.Server != nil {
			r.serverFailed(&o, path)
		}
	}
	o.noteLog(ch.log)
	if o.Failed.IsZero() {
		var doc *report.Document
		if doc, o.Failed = readResult(p, path); o.Failed.IsZero() {
			o.File, o.Doc = file, doc
			o.StderrTail = nil
			return o, nil
		}
	}
	r.setAside(&o, path)
	return o, nil
}

// gcperfChild is the gcperf child of point p's repeat rep, writing its
// result to path. It is killed at once when stopped, so that it writes no
// result; one loading a server has serverStopGrace to stop it.
func (r *Runner) gcperfChild(p Point, rep int, path string, ch *child) target.Command {
	c := r.command(target.Command{Path: r.Exe, Args: r.childArgs(p, rep, path), Env: slices.Concat(r.Env, p.Env()), Grace: -1}, ch)
	if r.Server != nil {
		// The settings and the cap are the server's (childArgs). A
		// SIGKILL of the child alone would leave the server running:
		// SIGTERM is an interrupt to gcperf, which stops its server.
		c.Env, c.MemCap, c.Grace = r.Env, 0, serverStopGrace
	}
	return c
}

// serverFailed reads why a gcperf child failed for its server, which it
// says in its result when it wrote one (the server ended during the runs,
// or outgrew its cap), and adds the server's own last words to o's tail,
// after gcperf's.
func (r *Runner) serverFailed(o *Outcome, path string) {
	var onlyFailure *report.FailedRunError
	if doc, err := report.ReadFile(path); err == nil || errors.As(err, &onlyFailure) {
		if f, ok := documentFailure(doc); ok {
			o.Failed = f
		}
	}
	o.StderrTail = append(o.StderrTail, serverLogTail(filepath.Join(r.Dir, serverLogName(o.Point, o.Rep)))...)
	if n := len(o.StderrTail); n > tailLines {
		o.StderrTail = o.StderrTail[n-tailLines:]
	}
}

// readResult reads and checks the result a gcperf child that succeeded
// wrote at path; a failure says what is wrong with it.
func readResult(p Point, path string) (*report.Document, Failure) {
	doc, err := report.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, failure(NoResult, "exited without writing its result")
	case err != nil:
		return nil, failure(NoResult, "unreadable result: %v", err)
	case !complete(doc):
		return nil, failure(NoResult, "incomplete result: %d of %d timed runs", doc.Timing.Done, doc.Config.Runs)
	}
	if err := CheckApplied(p, doc); err != nil {
		return nil, failure(NotApplied, "%v", err)
	}
	return doc, Failure{}
}

// setAside keeps a result left by a failed child aside, for a look, under
// a name that no reader of results and no resumed sweep takes for one; so
// are its profiles, which may be partial.
func (r *Runner) setAside(o *Outcome, path string) {
	file := filepath.Base(path)
	if _, err := os.Lstat(path); err == nil {
		if os.Rename(path, filepath.Join(r.Dir, failedName(file))) == nil {
			o.File = failedName(file)
		}
	}
	if r.ProfileDir != "" {
		pd := filepath.Join(r.ProfileDir, strings.TrimSuffix(file, ".json"))
		if _, err := os.Lstat(pd); err == nil {
			os.RemoveAll(failedName(pd))
			os.Rename(pd, failedName(pd))
		}
	}
}

// serverLogName is the file a point's server writes its output to.
func serverLogName(p Point, rep int) string {
	return strings.TrimSuffix(p.FileName(rep), ".json") + ".server.log"
}

// serverLogTail is the last lines of a server's log, each prefixed
// "server| ", at most tailLines/2; none when it cannot be read.
func serverLogTail(path string) []string {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	// The end of the file is enough: a log may be large.
	const most = 64 << 10
	if st, err := f.Stat(); err == nil && st.Size() > most {
		f.Seek(st.Size()-most, io.SeekStart)
	}
	t := &tailWriter{n: tailLines / 2}
	io.Copy(t, f)
	lines := t.Lines()
	for i, l := range lines {
		lines[i] = "server| " + l
	}
	return lines
}

// cleanTemp removes the temporary files a killed child left of its result
// (report.WriteFile names them .<file>.tmp<random>).
func (r *Runner) cleanTemp(file string) {
	r.cleanProfiles(file)
	entries, err := os.ReadDir(r.Dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), "."+file+".tmp") {
			os.Remove(filepath.Join(r.Dir, e.Name()))
		}
	}
}

// logWriter writes a child's output to its log, and after the first
// failure (a full disk) discards the rest without failing, keeping the error:
// should the log's disk fill up, the child must not die of a broken pipe,
// and the reason recorded must be the disk's.
type logWriter struct {
	mu   sync.Mutex
	f    io.Writer
	err  error
	path string // the log's, for the messages
}

// openLog creates the log of point p's repeat rep in Dir.
func (r *Runner) openLog(p Point, rep int) (*logWriter, error) {
	path := filepath.Join(r.Dir, logName(p, rep))
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	return &logWriter{f: f, path: path}, nil
}

// Close closes the log's file.
func (l *logWriter) Close() error {
	if c, ok := l.f.(io.Closer); ok {
		return c.Close()
	}
	return nil
}

// noteLog says in o that its log could not be written, if so: with the
// failure, or as LogError for a repeat that succeeded (its result says
// what the child measured; the log is lost).
func (o *Outcome) noteLog(l *logWriter) {
	lerr := l.Err()
	if lerr == nil {
		return
	}
	note := fmt.Sprintf("its log %s could not be written: %v", l.path, lerr)
	if !o.Failed.IsZero() {
		o.Failed = o.Failed.Note(note)
	} else {
		o.LogError = note
	}
}

func (l *logWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.err == nil {
		if _, err := l.f.Write(p); err != nil {
			l.err = err
		}
	}
	return len(p), nil
}

// Err is the first write error, without the operation and path.
func (l *logWriter) Err() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.err == nil {
		return nil
	}
	return safefile.Cause(l.err)
}

// tailWriter keeps the last n lines written to it.
type tailWriter struct {
	mu    sync.Mutex
	n     int
	lines []string
	part  []byte // the line being written
}

// maxLine bounds a kept line: a child writing megabytes without a newline
// must not grow the parent.
const maxLine = 1000

func (t *tailWriter) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	n := len(p)
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			t.add(p)
			break
		}
		t.add(p[:i])
		t.lines = append(t.lines, strings.TrimRight(string(t.part), "\r"))
		t.part = t.part[:0]
		if len(t.lines) > t.n {
			t.lines = slices.Delete(t.lines, 0, len(t.lines)-t.n)
		}
		p = p[i+1:]
	}
	return n, nil
}

func (t *tailWriter) add(b []byte) {
	if room := maxLine - len(t.part); room > 0 {
		t.part = append(t.part, b[:min(len(b), room)]...)
	}
}

// Lines returns the kept lines, with an unfinished last line.
func (t *tailWriter) Lines() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	lines := slices.Clone(t.lines)
	if len(t.part) > 0 {
		lines = append(lines, string(t.part))
		if len(lines) > t.n {
			lines = lines[1:]
		}
	}
	return lines
}

// cleanProfiles removes the temporary files a killed child left in its
// profile directory (-profile DIR/POINT), kept or set aside as failed.
func (r *Runner) cleanProfiles(file string) {
	if r.ProfileDir == "" {
		return
	}
	pd := filepath.Join(r.ProfileDir, strings.TrimSuffix(file, ".json"))
	safefile.RemoveStale(pd)
	safefile.RemoveStale(failedName(pd))
}
