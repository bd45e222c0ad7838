package sweep

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/gcperf/gcperf/env"
	"github.com/gcperf/gcperf/internal/safefile"
	"github.com/gcperf/gcperf/internal/setting"
	"github.com/gcperf/gcperf/target"
)

// A Session is one sweep as gcperf sweep runs it, from the checks before
// the first point to the table and files after the last: Prepare, then Run
// under a context (or Announce, the Runner's Run, Report, as gcperf does to
// run the points under its interrupts). Bad input is a UsageError naming
// the session's field; what happens reaches Observe as Events.
type Session struct {
	// Dir "" runs the sweep in a new temporary directory. Exe "" runs
	// this executable as every point's child: it must take gcperf's
	// command line (gcperf itself, or a test binary that acts as gcperf).
	Runner
	Grid Grid
	// MemNote says how Runner.MemCap was chosen (ParseMemCap).
	MemNote string
	// SLO, when set, asks for advice (not for one shard or an interrupted
	// sweep: they have not seen the whole grid).
	SLO *SLO
	// HTML, when set, is a file ("-": stdout) that receives the sweep's
	// page besides HTMLFile in Dir; Overwrite replaces an existing one.
	HTML      string
	Overwrite bool
	// Page renders the HTML page (report/html.Sweep, which this package
	// cannot import).
	Page func(io.Writer, *Summary) error
	// Bar, when set, is a progress bar that the per-point lines go
	// through (internal/progress.Sweep).
	Bar Bar
	// Observe, when set, receives what the session has to say: what
	// runs, where the files are, why a sweep failed (Event).
	Observe func(Event)
	// FromOldPlan says that the caller rebuilt this resumed session from
	// the plan a gcperf before this one wrote in Dir (OldPlanArgs):
	// Prepare replaces that plan with this session's.
	FromOldPlan bool
	// Label, when set, is what an error names a file by: field is "HTML"
	// (the page) or "Dir" (Dir itself, or a file in it, path). Nil names
	// it by the field ("HTML page.html", "Dir d: d/sweep.json"); gcperf
	// names it by its flags.
	Label func(field, path string) string
}

// label is what an error names path by (Label).
func (s *Session) label(field, path string) string {
	if s.Label != nil {
		return s.Label(field, path)
	}
	if field == "Dir" && path != s.Dir {
		return "Dir " + s.Dir + ": " + path
	}
	return field + " " + path
}

// A Bar is a progress bar of the points and repeats that their lines go
// through (internal/progress.Sweep).
type Bar interface {
	io.Writer
	Start()
	End()
	Progress(done, total int)
}

// A UsageError is bad input that a Session finds before anything runs
// (Check, Prepare, Merge: its Op): the Field of the session whose Value is
// wrong, and why (Err: one of the errors below, a *PlanError, or the
// cause). Limit is the bound the value misses, when there is one: the
// last shard's index, the grid's points. It wraps ErrUsage and Err. Its
// text names the session's fields; gcperf names its flags instead.
type UsageError struct {
	Op    string // "check", "prepare", "merge"
	Field string // "Dir", "Dirs" (Merge's), "Resume", "Count", "Shard", "ProfileDir", "Command", "Outputs"
	Value string
	Err   error
	Limit int
}

func (e *UsageError) Error() string {
	s := "sweep: " + e.Op + ": " + e.Field
	if e.Value != "" {
		s += " " + strconv.Quote(e.Value)
	}
	if e.Limit != 0 {
		s += fmt.Sprintf(" (limit %d)", e.Limit)
	}
	return s + ": " + e.Err.Error()
}

func (e *UsageError) Unwrap() []error { return []error{ErrUsage, e.Err} }

// The reasons of a UsageError.
var (
	ErrResumeOverwrite = errors.New("resuming and overwriting exclude each other")
	ErrResumeNoDir     = errors.New("resuming needs a Dir")
	ErrShardIndex      = errors.New("the shard's index is not one of the shards'")
	ErrTooManyShards   = errors.New("more shards than points")
	ErrDirStdout       = errors.New("a sweep writes a directory of files, not stdout")
	ErrNoDirs          = errors.New("no directory to merge")
	ErrMergeInto       = errors.New("the merged sweep's Dir is one of the directories to merge")
	// ErrDirInUse is a Dir that another gcperf (another process, or
	// another session of this one) holds: Prepare, Merge and a Runner's
	// Run refuse it at once.
	ErrDirInUse = safefile.ErrLocked
)

// A PlanError says how a resumed sweep differs from the Plan its
// directory records: the Part that Plan.Diff names, or "program" (another
// program's path; with Path, another program at the same path), as
// recorded and as given.
type PlanError struct {
	Part, Recorded, Given string
	Path                  string // the program's, for "program"
}

func (e *PlanError) Error() string {
	return fmt.Sprintf("the sweep records another %s: %s, not %s", e.Part, e.Recorded, e.Given)
}

func (s *Session) observe(e Event) {
	if s.Observe != nil {
		s.Observe(e)
	}
}

// An EventKind says what an Event reports.
type EventKind int

// The events of a Session, and the fields of Event each sets.
const (
	// Started: the points are about to run. Points (of Of, the grid's,
	// with Shard), Count, Dir, MemCap and MemNote, Timeout.
	Started EventKind = iota
	// Aborted: the sweep was given up before its table; the finished
	// points' results are in Dir.
	Aborted
	// TableFailed: the table could not be written (Err).
	TableFailed
	// WriteFailed: some of the sweep's files could not be written (Err,
	// naming each).
	WriteFailed
	// Written: the sweep's own files written in Dir (Files; none when it
	// could write none).
	Written
	// NoAdvice: an SLO asked for advice that a part of the grid cannot
	// give (Err: ErrOneShard, ErrInterrupted, ErrIncomplete); Shard, and
	// Repeats of Of for an incomplete merge.
	NoAdvice
	// Interrupted: the sweep was interrupted; Repeats finished, kept in Dir.
	Interrupted
	// RepeatsFailed: Failed of Repeats failed (Merge set for a merge).
	RepeatsFailed
	// Merged: the merged sweep is in Dir.
	Merged
	// Stopped: the sweep stopped before its end because Dir cannot take
	// another repeat's files (Err, an ErrCannotWrite); Repeats finished,
	// kept in Dir.
	Stopped
)

// An Event is what a Session has to say (Session.Observe): its Kind and
// the fields that kind sets.
type Event struct {
	Kind              EventKind
	Dir               string
	Points, Of, Count int
	Shard             string
	MemCap            int64
	MemNote           string
	Timeout           time.Duration
	Files             []string
	Repeats, Failed   int
	Merge             bool
	Err               error
}

// The reasons a sweep gives no advice (an Event of kind NoAdvice).
var (
	ErrOneShard   = errors.New("one shard has not seen the whole grid")
	ErrIncomplete = errors.New("the merged directories do not hold the whole grid")
)

// points lists the grid's points.
func (s *Session) points() []Point { return s.Grid.Points() }

// shard is "i/n" for a sweep of one shard, else "".
func (s *Session) shard() string {
	if s.Shards > 1 {
		return fmt.Sprintf("%d/%d", s.Shard, s.Shards)
	}
	return ""
}

// Close releases what Prepare holds: Dir's lock, which Report releases
// too once the sweep's files are written. Call it when a prepared session
// is given up before its Report (or defer it); it may be called twice.
func (s *Session) Close() error {
	l := s.Runner.Lock
	s.Runner.Lock = nil
	return l.Unlock()
}

// lockDir locks s.Dir for the session (Runner.Lock) when it exists and is
// not locked yet: before anything in it is touched, as soon as it exists.
func (s *Session) lockDir(op string) error {
	if s.Dir == "" || s.Runner.Lock.Holds(s.Dir) {
		return nil
	}
	if st, err := os.Stat(s.Dir); err != nil || !st.IsDir() {
		return nil // prepareDir says why, or creates it
	}
	l, err := safefile.LockDir(s.Dir)
	if err != nil {
		return &UsageError{Op: op, Field: "Dir", Value: s.Dir, Err: err}
	}
	s.Runner.Lock = l
	return nil
}

// Prepare checks, before anything runs, what the session could not do
// (Check) and the outputs written at the end (an HTML file that exists without Overwrite,
// that is not a regular file, whose directory is missing, or that is one
// of the files the sweep writes in Dir). Then it fills what is unset: Exe
// (this executable), ProcRoot ("/"), Env (childEnv of this process's);
// without Linux's /proc there is no memory cap. Last it creates
// ProfileDir (made absolute) and Dir (makeSweepDir: a new temporary one when
// Dir is "", which must be empty unless Resume or Overwrite) and writes
// the plan there.
//
// One gcperf at a time runs a sweep in a directory: Prepare locks Dir
// (safefile.DirLock) before it touches anything in it, and the session
// holds the lock, as its Runner's Lock, until Report has written its
// files or Close; another session on the same directory, in this process
// or another, is refused at once with a UsageError of Dir wrapping
// safefile.ErrLocked.
func (s *Session) Prepare() (err error) {
	if err := s.Check(); err != nil {
		return err
	}
	defer func() {
		if err != nil {
			s.Close()
		}
	}()
	if err := s.lockDir("prepare"); err != nil {
		return err
	}
	if s.MemCap > 0 && runtime.GOOS != "linux" {
		s.MemCap, s.MemNote = 0, "no memory cap: a child's RSS is read from Linux's /proc"
	}
	if s.Command != nil {
		// A command that cannot start would fail every point: say so
		// once, before anything runs.
		var se *target.StartError
		if err := target.CanStart(s.Command.Path); errors.As(err, &se) {
			return &UsageError{Op: "prepare", Field: "Command", Value: s.Command.Path, Err: err}
		}
		if s.Meta.Env.Host.OS == "" {
			s.Meta.Env, _ = env.CaptureMachine(context.Background(), "/") // the machine: what it could read
		}
	}
	if s.Exe == "" && s.Command == nil {
		exe, err := os.Executable()
		if err != nil {
			return fmt.Errorf("sweep: cannot find this executable to run the points: %w", err)
		}
		s.Exe = exe
	}
	if s.ProcRoot == "" {
		s.ProcRoot = "/"
	}
	if s.Env == nil {
		s.Env = childEnv(os.Environ(), s.Grid)
	}
	if s.ProfileDir != "" {
		// Each point profiles into a directory of its own, under one
		// checked now, before anything runs.
		d, err := filepath.Abs(s.ProfileDir)
		if err == nil {
			err = safefile.MakeDir(d)
		}
		if err != nil {
			return &UsageError{Op: "prepare", Field: "ProfileDir", Value: s.ProfileDir, Err: err}
		}
		s.ProfileDir = d
	}
	if err := s.checkOutputs("prepare", s.Dir, s.points(), s.Count); err != nil {
		return err
	}
	dir, err := prepareDir("prepare", s.Dir, s.Resume || s.Overwrite)
	if err != nil {
		if lerr := s.lockDir("prepare"); lerr != nil {
			return lerr // another gcperf created it since, and is using it
		}
		return err
	}
	s.Dir = dir
	if err := s.lockDir("prepare"); err != nil { // created now
		return err
	}
	return s.recordPlan(dir)
}

// recordPlan writes the session's plan in dir, or with Resume checks it
// against the plan recorded there, which is not replaced by another.
func (s *Session) recordPlan(dir string) error {
	plan, err := s.Plan()
	if err != nil {
		return err
	}
	if s.Resume {
		// A resumed sweep measures what the directory's plan records.
		rec, err := ReadPlan(dir)
		switch {
		case err == nil:
			if s.SLO == nil {
				s.SLO = rec.SLO // the sweep's advice is that of its SLO
			}
			return checkResumed(dir, plan, rec)
		case errors.Is(err, ErrOldPlan) && s.FromOldPlan:
		case !errors.Is(err, ErrNoPlan):
			return &UsageError{Op: "prepare", Field: "Resume", Value: dir, Err: err}
		}
	}
	if err := WritePlan(dir, plan); err != nil {
		return fmt.Errorf("sweep: %v", err)
	}
	return nil
}

// Plan is what the session measures, as Prepare records it in Dir: its
// grid, count and shard, the Runner's children or command, the program
// it measures as it is now, and the SLO.
func (s *Session) Plan() (Plan, error) {
	p := Plan{Grid: s.Grid, Count: s.Count, Args: s.Args, Ops: s.Ops, Server: s.Server,
		ProfileDir: s.ProfileDir, SLO: s.SLO}
	if s.Shards > 1 {
		p.Shard, p.Shards = s.Shard, s.Shards
	}
	prog := s.Exe
	switch {
	case s.Command != nil:
		p.Command, prog = s.commandArgv(), s.Command.Path
	case s.Server != nil:
		prog = s.Server[0]
	}
	if s.Command != nil || s.Server != nil {
		wd, err := os.Getwd()
		if err != nil {
			return Plan{}, fmt.Errorf("sweep: %w", err)
		}
		p.WorkDir = wd
	}
	var err error
	if p.Program, err = ProgramAt(prog); err != nil {
		return Plan{}, fmt.Errorf("sweep: the program to measure: %w", err)
	}
	return p, nil
}

// checkResumed refuses to resume in dir, whose plan is rec, a sweep whose
// plan differs or whose program is another now.
func checkResumed(dir string, plan, rec Plan) error {
	if d := plan.Diff(rec); d != "" {
		return &UsageError{Op: "prepare", Field: "Resume", Value: dir,
			Err: &PlanError{Part: d, Recorded: planPart(rec, d), Given: planPart(plan, d)}}
	}
	if !plan.Program.Same(rec.Program) {
		return &UsageError{Op: "prepare", Field: "Resume", Value: dir,
			Err: &PlanError{Part: "program", Recorded: rec.Program.String(), Given: plan.Program.String(), Path: plan.Program.Path}}
	}
	return nil
}

// planPart is the part of p that Diff names, as a person reads it.
func planPart(p Plan, part string) string {
	switch part {
	case "grid":
		return gridString(p.Grid)
	case "count":
		return strconv.Itoa(p.Count)
	case "shard":
		return fmt.Sprintf("%d/%d", p.Shard, p.Shards)
	case "profile_dir":
		return p.ProfileDir
	case "workdir":
		return p.WorkDir
	}
	v := map[string][]string{"args": p.Args, "ops": p.Ops, "server": p.Server, "command": p.Command}[part]
	return strings.Join(v, " ")
}

// Check refuses what the session could not do, before anything runs: no
// repeat or more than setting.MaxCount, Resume with Overwrite or without a Dir, a shard that is not one
// of the grid's, an HTML file without a Page to draw it.
func (s *Session) Check() error {
	switch {
	case setting.CheckCount(s.Count) != nil:
		return &UsageError{Op: "check", Field: "Count", Value: strconv.Itoa(s.Count), Err: setting.CheckCount(s.Count)}
	case s.Shards > 1 && (s.Shard < 0 || s.Shard >= s.Shards):
		return &UsageError{Op: "check", Field: "Shard", Value: fmt.Sprintf("%d/%d", s.Shard, s.Shards), Err: ErrShardIndex, Limit: s.Shards - 1}
	case s.HTML != "" && s.Page == nil:
		return errors.New("sweep: Session.HTML needs Page to draw it (report/html.Sweep)")
	case s.Resume && s.Overwrite:
		return &UsageError{Op: "check", Field: "Resume", Err: ErrResumeOverwrite}
	case s.Resume && s.Dir == "":
		return &UsageError{Op: "check", Field: "Resume", Err: ErrResumeNoDir}
	case s.Shards > len(s.points()):
		return &UsageError{Op: "check", Field: "Shard", Value: fmt.Sprintf("%d/%d", s.Shard, s.Shards), Err: ErrTooManyShards, Limit: len(s.points())}
	case s.SLO != nil && s.Command != nil && s.SLO.ForCommand() != nil:
		return s.SLO.ForCommand()
	case s.SLO != nil && s.Command == nil && s.SLO.ForBenchmark() != nil:
		return s.SLO.ForBenchmark()
	}
	return nil
}

// Repeats is how many repeats the session runs: its points (those of its
// shard) times Count.
func (s *Session) Repeats() int {
	n := 0
	for _, pt := range s.points() {
		if s.Shards <= 1 || pt.InShard(s.Shard, s.Shards) {
			n++
		}
	}
	return n * s.Count
}

// checkOutputs refuses an HTML file that could not be written at the end
// or that is one of the files a sweep of points × count writes in dir.
func (s *Session) checkOutputs(op, dir string, points []Point, count int) error {
	var outs []safefile.Output
	if page := s.HTML; page != "" && page != "-" {
		outs = append(outs, safefile.Output{Label: s.label("HTML", page), Path: page})
	}
	if dir != "" {
		for _, name := range Files(points, count) {
			path := filepath.Join(dir, name)
			outs = append(outs, safefile.Output{Label: s.label("Dir", path), Path: path, Replace: true})
		}
	}
	if err := safefile.Check(outs, s.Overwrite, safefile.Output{Label: s.label("Dir", dir), Path: dir}); err != nil {
		return &UsageError{Op: op, Field: "Outputs", Err: err}
	}
	return nil
}

// prepareDir checks dir and creates it (makeSweepDir), for op.
func prepareDir(op, dir string, keep bool) (string, error) {
	if dir == "-" {
		return "", &UsageError{Op: op, Field: "Dir", Value: dir, Err: ErrDirStdout}
	}
	d, err := makeSweepDir(dir, keep)
	switch {
	case errors.Is(err, ErrNotEmpty):
		return "", &UsageError{Op: op, Field: "Dir", Value: dir, Err: err}
	case err != nil:
		return "", &UsageError{Op: op, Field: "Dir", Value: dir, Err: err}
	}
	return d, nil
}

// Run runs the prepared sweep under ctx, prints its table on stdout and
// writes its files: Announce, the Runner's Run over Points, then Report.
// Cancelling ctx stops the running point, whose result is not kept, and
// the table of the finished ones is written. It returns whether the sweep
// failed (a point failed, it was interrupted, a file could not be
// written); began is when the sweep began, for its overhead.
func (s *Session) Run(ctx context.Context, began time.Time, stdout io.Writer) (failed bool, err error) {
	s.Announce()
	r := &s.Runner
	if s.Bar != nil {
		r.Progress = s.Bar.Progress // the lines go through it when Runner.Observe writes them there
		s.Bar.Start()
	}
	outs, err := r.Run(ctx, s.Points())
	if s.Bar != nil {
		s.Bar.End()
	}
	if ctx.Err() != nil && errors.Is(err, ctx.Err()) {
		err = ErrInterrupted
	}
	return s.Report(began, outs, err, stdout)
}

// Points are the points the session runs: the grid's (those of its shard
// only are run).
func (s *Session) Points() []Point { return s.points() }

// Announce says what the session is about to run (Started): its points
// and repeats, where, its memory cap and point timeout.
func (s *Session) Announce() {
	r := &s.Runner
	s.observe(Event{Kind: Started, Points: s.Repeats() / r.Count, Of: len(s.points()), Shard: s.shard(),
		Count: r.Count, Dir: r.Dir, MemCap: r.MemCap, MemNote: s.MemNote, Timeout: r.Timeout})
}

// Aborted says that the sweep was given up before its table (Aborted).
func (s *Session) Aborted() {
	// Each finished point's result is in Dir already: Resume finds it.
	s.observe(Event{Kind: Aborted, Dir: s.Dir})
}

// Report makes the table of outs, the outcomes of the Runner's Run and
// its error runErr (ErrInterrupted: the finished ones), prints it on
// stdout and writes the sweep's files, with the advice of a whole sweep.
// It returns whether the sweep failed. It releases Dir's lock (Close)
// once it is done.
func (s *Session) Report(began time.Time, outs []Outcome, runErr error, stdout io.Writer) (failed bool, err error) {
	defer s.Close()
	r := &s.Runner
	interrupted := errors.Is(runErr, ErrInterrupted)
	full := errors.Is(runErr, ErrCannotWrite)
	if runErr != nil && !interrupted && !full {
		return true, runErr
	}
	if full {
		// What finished is reported and kept, as at an interrupt.
		s.observe(Event{Kind: Stopped, Repeats: len(outs), Dir: r.Dir, Err: runErr})
		failed = true
	}
	rows := Summarize(outs)
	var argv []string
	if r.Command != nil {
		argv = r.commandArgv()
	}
	markCommand(rows, argv)
	MarkFrontier(rows)
	var adv *Advice
	if s.SLO != nil && !interrupted && !full && s.shard() == "" {
		a := Advise(rows, outs, *s.SLO)
		adv = &a
	}
	if werr := Table(stdout, rows, adv); werr != nil {
		s.observe(Event{Kind: TableFailed, Err: werr})
		failed = true
	}
	sum := &Summary{Grid: s.Grid, Count: r.Count, Shard: s.shard(), Command: argv, Outcomes: outs, Rows: rows, Advice: adv}
	written, werr := s.write(r.Dir, sum, stdout)
	if werr != nil {
		s.observe(Event{Kind: WriteFailed, Err: werr})
		failed = true
	}
	overhead(stdout, began, outs, interrupted)
	var stopped error // why the sweep has no advice, when it stopped early
	if interrupted || full {
		stopped = runErr
	}
	s.reportWritten(written, stopped)
	if interrupted {
		s.observe(Event{Kind: Interrupted, Repeats: len(outs), Dir: r.Dir})
		failed = true
	}
	if s.reportFailed(outs, false) {
		failed = true
	}
	return failed, nil
}

// overheadWorth is the overhead below which the sweep says nothing of it:
// up to 10% more wall time than its children's is the cost of starting
// them, not worth a word (issue 25).
const overheadWorth = 1.10

// overhead prints the sweep's overhead, its wall time over its children's,
// when it is above overheadWorth or no point ran.
func overhead(stdout io.Writer, began time.Time, outs []Outcome, interrupted bool) {
	var children time.Duration
	for _, o := range outs {
		children += o.Wall
	}
	fmt.Fprint(stdout, overheadLine(time.Since(began), children, interrupted))
}

// overheadLine is overhead's line ("" when not worth one) for a sweep of
// wall time that ran children for children.
func overheadLine(wall, children time.Duration, interrupted bool) string {
	if children <= 0 {
		return fmt.Sprintf("\nsweep overhead: none measured: no point ran (wall %s)\n", wall.Round(10*time.Millisecond))
	}
	ratio := wall.Seconds() / children.Seconds()
	if ratio <= overheadWorth {
		return ""
	}
	note := ""
	if interrupted {
		note = "; the stopped point's time counts as the sweep's"
	}
	return fmt.Sprintf("\nsweep overhead: %.2f (wall %s, children %s%s)\n", ratio,
		wall.Round(10*time.Millisecond), children.Round(10*time.Millisecond), note)
}

// reportWritten says where the results are, and why there is no advice
// when an SLO asked for it (stopped: the sweep stopped early, why).
func (s *Session) reportWritten(written []string, stopped error) {
	s.observe(Event{Kind: Written, Dir: s.Dir, Files: written})
	switch {
	case s.SLO != nil && s.shard() != "":
		s.observe(Event{Kind: NoAdvice, Shard: s.shard(), Err: ErrOneShard})
	case s.SLO != nil && stopped != nil:
		s.observe(Event{Kind: NoAdvice, Err: stopped})
	}
}

// reportFailed says how many of outs, merged or not, failed, if any.
func (s *Session) reportFailed(outs []Outcome, merged bool) bool {
	failed := 0
	for _, o := range outs {
		if !o.Failed.IsZero() {
			failed++
		}
	}
	if failed > 0 {
		s.observe(Event{Kind: RepeatsFailed, Failed: failed, Repeats: len(outs), Merge: merged})
	}
	return failed > 0
}

// write writes a sweep's own files to dir (WriteDir), when dir is not "",
// and the HTML page to s.HTML when set. It returns the names, in dir, of
// the files it wrote, and every error, each naming its file.
func (s *Session) write(dir string, sum *Summary, stdout io.Writer) ([]string, error) {
	var written []string
	var errs []error
	if dir != "" { // -merge without -out writes the -html page only
		var err error
		written, err = WriteDir(dir, sum, s.Page)
		errs = append(errs, err)
	}
	if s.HTML != "" && s.Page != nil {
		if err := safefile.Write(s.HTML, stdout, s.Overwrite, func(w io.Writer) error { return s.Page(w, sum) }); err != nil {
			errs = append(errs, fmt.Errorf("%s: %s", s.label("HTML", s.HTML), strings.TrimPrefix(safefile.WithOverwrite(err), s.HTML+": ")))
		}
	}
	return written, errors.Join(errs...)
}

// Merge joins the sweeps of dirs (Merge), prints the table (and the advice
// with SLO, over a complete grid only), and with Dir writes a sweep
// directory holding the merged results; with HTML, the page. It returns
// whether the merged sweep failed: incomplete, or with failed repeats.
// Dir is locked as Prepare locks it, from before it is touched until
// Merge returns.
func (s *Session) Merge(dirs []string, stdout io.Writer) (failed bool, err error) {
	defer s.Close()
	out := s.Dir
	if len(dirs) == 0 {
		return true, &UsageError{Op: "merge", Field: "Dirs", Err: ErrNoDirs}
	}
	if out != "" {
		ost, oerr := os.Stat(out)
		for _, d := range dirs {
			dst, derr := os.Stat(d)
			if filepath.Clean(d) == filepath.Clean(out) || oerr == nil && derr == nil && os.SameFile(ost, dst) {
				return true, &UsageError{Op: "merge", Field: "Dir", Value: out, Err: ErrMergeInto}
			}
		}
	}
	if err := s.lockDir("merge"); err != nil {
		return true, err
	}
	if err := s.checkOutputs("merge", out, nil, 0); err != nil {
		return true, err
	}
	sum, err := Merge(dirs...)
	if err != nil {
		return true, &UsageError{Op: "merge", Field: "Dirs", Err: err}
	}
	if s.SLO != nil {
		check := s.SLO.ForBenchmark
		if sum.Command != nil {
			check = s.SLO.ForCommand
		}
		if err := check(); err != nil {
			return true, err
		}
	}
	// Advice over part of the grid could name a setting that a missing
	// point beats: as a live single-shard sweep, an incomplete merge gives none.
	if s.SLO != nil && sum.Complete() {
		a := Advise(sum.Rows, sum.Outcomes, *s.SLO)
		sum.Advice = &a
	}
	if out != "" {
		if _, err := prepareDir("merge", out, s.Overwrite); err != nil {
			return true, err
		}
		if err := s.lockDir("merge"); err != nil { // created now
			return true, err
		}
		// The results are copied, so that the merged directory is a sweep
		// like any other (gcperf sweep -merge takes it again).
		if err := CopyResults(sum, out); err != nil {
			return true, err
		}
	}
	if err := Table(stdout, sum.Rows, sum.Advice); err != nil {
		s.observe(Event{Kind: TableFailed, Err: err})
		failed = true
	}
	if out != "" || s.HTML != "" {
		if _, err := s.write(out, sum, stdout); err != nil {
			s.observe(Event{Kind: WriteFailed, Err: err})
			failed = true
		}
	}
	if out != "" {
		s.observe(Event{Kind: Merged, Dir: out})
	}
	switch {
	case sum.Shard != "":
		s.observe(Event{Kind: NoAdvice, Merge: true, Shard: sum.Shard, Err: ErrOneShard})
		failed = true
	case !sum.Complete():
		s.observe(Event{Kind: NoAdvice, Merge: true, Repeats: len(sum.Outcomes), Of: len(sum.Grid.Points()) * sum.Count, Err: ErrIncomplete})
		failed = true
	}
	if s.reportFailed(sum.Outcomes, true) {
		failed = true
	}
	return failed, nil
}
