package sweep

import (
	"cmp"
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/gcperf/gcperf/internal/redact"
	"github.com/gcperf/gcperf/internal/safefile"
	"github.com/gcperf/gcperf/report"

	"github.com/gcperf/gcperf/internal/quote"
)

// SummaryFile is the name of a sweep's summary in its directory.
const SummaryFile = "sweep.json"

// LoadDir reads a sweep's directory: its summary (dir/sweep.json) and the
// result of each of its outcomes that did not fail (dir/File), into the
// outcome's Doc. The outcomes returned are the summary's. Every file named
// by the summary must lie inside dir (ErrOutside): a summary is input, and
// a sweep.json that names ../x or /etc/passwd is never followed. The
// summary and the results are read from regular files only, within
// safefile.ResultLimit.
func LoadDir(dir string) ([]Outcome, *Summary, error) {
	path := filepath.Join(dir, SummaryFile)
	f, err := safefile.Open(path, safefile.ResultLimit)
	if err != nil {
		return nil, nil, err
	}
	s, err := ReadSummary(f)
	f.Close()
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	for i := range s.Outcomes {
		o := &s.Outcomes[i]
		if o.File != "" {
			if err := inside(dir, o.File); err != nil {
				return nil, nil, fmt.Errorf("%s: %s rep %d: %w", path, o.Point.Name(), o.Rep, err)
			}
		}
		if !o.Failed.IsZero() {
			continue
		}
		if o.File == "" {
			return nil, nil, fmt.Errorf("%s: %s rep %d has no result file", path, o.Point.Name(), o.Rep)
		}
		if o.Doc, err = readDoc(filepath.Join(dir, o.File)); err != nil {
			return nil, nil, err
		}
	}
	return s.Outcomes, s, nil
}

// ErrOutside is wrapped by LoadDir's and Merge's error for a summary that
// names a file outside its directory.
var ErrOutside = errors.New("outside the sweep's directory")

// inside checks that file, named by the summary of dir, is a local path
// (not absolute, no ..) that stays in dir once symbolic links are followed.
func inside(dir, file string) error {
	if !filepath.IsLocal(file) {
		return fmt.Errorf("file %q: %w", quote.Clip(file), ErrOutside)
	}
	root, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return err
	}
	real, err := filepath.EvalSymlinks(filepath.Join(dir, file))
	if err != nil {
		return nil // missing: reading it says so
	}
	if rel, err := filepath.Rel(root, real); err != nil || !filepath.IsLocal(rel) {
		return fmt.Errorf("file %q links to %s: %w", quote.Clip(file), quote.Clip(real), ErrOutside)
	}
	return nil
}

func readDoc(path string) (*report.Document, error) {
	f, err := safefile.Open(path, safefile.ResultLimit)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	d, err := report.ReadJSON(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return d, nil
}

// Merge joins the sweeps of several directories, typically the shards of
// one grid (-shard 0/2 and 1/2), into one summary. They must have the same
// grid and count. An outcome (point and repeat) present in more than one
// directory keeps its success (two successes are an error) or else its
// first failure. The rows are summarised again (Summarize, MarkFrontier),
// in point order; the outcomes are in the order a sweep runs them, repeat
// by repeat, each point's in point order.
//
// The merged outcomes' File is the absolute path of their result, for the
// caller to copy: a summary written to disk must name its results by their
// names in its own directory, the only place LoadDir reads them from (gcperf
// sweep -merge -out DIR copies them there);
// Shard is empty when the outcomes cover every point and repeat, else the
// directories' shards joined with "+". Advice is nil: the caller computes
// it with its SLO (Advise), which need not be the shards'.
func Merge(dirs ...string) (*Summary, error) {
	if len(dirs) == 0 {
		return nil, fmt.Errorf("no directory to merge")
	}
	m := &merger{merged: map[mergeKey]*Outcome{}, from: map[mergeKey]string{}}
	for _, dir := range dirs {
		outs, s, err := LoadDir(dir)
		if err != nil {
			return nil, err
		}
		if err := m.sameSweep(dir, dirs[0], s); err != nil {
			return nil, err
		}
		for i := range outs {
			if err := m.add(dir, s.Count, &outs[i]); err != nil {
				return nil, err
			}
		}
	}
	outs := make([]Outcome, 0, len(m.merged))
	for _, o := range m.merged {
		outs = append(outs, *o)
	}
	slices.SortFunc(outs, func(a, b Outcome) int {
		return cmp.Or(cmp.Compare(a.Rep, b.Rep), cmp.Compare(a.Point.Index, b.Point.Index))
	})
	first := m.first
	s := &Summary{Schema: SummarySchema, Grid: first.Grid, Count: first.Count, Command: first.Command, Outcomes: outs}
	if len(outs) < len(m.points)*first.Count {
		slices.Sort(m.shards)
		s.Shard = strings.Join(m.shards, "+")
	}
	s.Rows = Summarize(outs)
	markCommand(s.Rows, s.Command)
	MarkFrontier(s.Rows)
	return s, nil
}

// mergeKey is a repeat of a point.
type mergeKey struct{ index, rep int }

// A merger is Merge's state: the first directory's summary and points,
// the shards seen, the outcome kept for each repeat and where it came
// from, and the benchmark every result ran.
type merger struct {
	first  *Summary
	points []Point
	shards []string
	merged map[mergeKey]*Outcome
	from   map[mergeKey]string

	command     []string
	commandFrom string
}

// sameSweep refuses s, the sweep of dir, when it is not the sweep of
// firstDir (its grid, count or command differ), and notes its shard.
func (m *merger) sameSweep(dir, firstDir string, s *Summary) error {
	if m.first == nil {
		m.first, m.points = s, s.Grid.Points()
	} else {
		first := m.first
		switch {
		case !reflect.DeepEqual(s.Grid, first.Grid):
			return fmt.Errorf("%s: grid %s differs from %s's %s", dir, gridString(s.Grid), firstDir, gridString(first.Grid))
		case s.Count != first.Count:
			return fmt.Errorf("%s: count %d differs from %s's %d", dir, s.Count, firstDir, first.Count)
		case !slices.Equal(s.Command, first.Command):
			return fmt.Errorf("%s: the command %q differs from %s's %q", dir, strings.Join(s.Command, " "), firstDir, strings.Join(first.Command, " "))
		}
	}
	if s.Shard != "" && !slices.Contains(m.shards, s.Shard) {
		m.shards = append(m.shards, s.Shard)
	}
	return nil
}

// add merges o, an outcome of dir's sweep of count repeats: its File made
// absolute, a success kept over a failure, two successes refused.
func (m *merger) add(dir string, count int, o *Outcome) error {
	if err := m.sameBenchmark(dir, o); err != nil {
		return err
	}
	idx := o.Point.Index
	if idx < 0 || idx >= len(m.points) || m.points[idx] != o.Point {
		return fmt.Errorf("%s: point %s is not point %d of the grid", dir, o.Point.Name(), idx)
	}
	if o.Rep < 1 || o.Rep > count {
		return fmt.Errorf("%s: %s rep %d is outside 1..%d", dir, o.Point.Name(), o.Rep, count)
	}
	if o.File != "" && !filepath.IsAbs(o.File) {
		abs, err := filepath.Abs(filepath.Join(dir, o.File))
		if err != nil {
			return err
		}
		o.File = abs
	}
	k := mergeKey{idx, o.Rep}
	have, ok := m.merged[k]
	switch {
	case !ok || o.Failed.IsZero() && !have.Failed.IsZero():
		m.merged[k], m.from[k] = o, dir
	case o.Failed.IsZero() && have.Failed.IsZero():
		return fmt.Errorf("%s: %s rep %d succeeded in %s too", dir, o.Point.Name(), o.Rep, m.from[k])
	}
	return nil
}

// sameBenchmark refuses o when its result ran another benchmark than the
// results before it: every result must have the same command line but for
// where its files went.
func (m *merger) sameBenchmark(dir string, o *Outcome) error {
	if o.Doc == nil {
		return nil
	}
	cmd := benchCommand(o.Doc.Tool.Command)
	if x := o.Doc.Exec; o.Doc.Kind() == report.CommandDocument {
		cmd = append([]string{"--"}, x.Command...)
	}
	if m.command == nil {
		m.command, m.commandFrom = cmd, dir
	} else if !slices.Equal(cmd, m.command) {
		return fmt.Errorf("%s: %s ran %q, not %q as in %s: the shards measured different benchmarks",
			dir, o.Point.Name(), strings.Join(cmd, " "), strings.Join(m.command, " "), m.commandFrom)
	}
	return nil
}

// joinValues is the values comma-separated, as a flag takes them.
func joinValues[T fmt.Stringer](vs []T) string {
	s := make([]string, len(vs))
	for i, v := range vs {
		s[i] = v.String()
	}
	return strings.Join(s, ",")
}

// gridString spells a grid as its flags would: "-gogc 50,100 -memlimit off".
func gridString(g Grid) string {
	s := "-gogc " + joinValues(g.GOGC) + " -memlimit " + joinValues(g.MemLimit)
	if len(g.GOMAXPROCS) > 0 {
		procs := make([]string, len(g.GOMAXPROCS))
		for i, n := range g.GOMAXPROCS {
			procs[i] = strconv.Itoa(n)
		}
		s += " -gomaxprocs " + strings.Join(procs, ",")
	}
	return s
}

// benchCommand is a child's command line without the values of the flags
// that name where its files go (-json, -profile, -server-log), which differ
// per point, nor those of a server's settings and cap (-server-gogc,
// -server-memlimit: the point's; -server-memory: the machine's).
func benchCommand(cmd []string) []string {
	out := make([]string, 0, len(cmd))
	cmd = redact.Args(cmd) // as the result recorded it (report.New)
	for i, a := range cmd {
		if i > 0 && (cmd[i-1] == "-json" || cmd[i-1] == "-profile") {
			out = append(out, "…")
			continue
		}
		// A server's settings are its point's, its log its point's, its
		// cap the machine's: not what the benchmark is.
		if k, _, ok := strings.Cut(a, "="); ok && (k == "-server-log" || k == "-server-gogc" || k == "-server-memlimit" || k == "-server-memory") {
			out = append(out, k+"=…")
			continue
		}
		out = append(out, a)
	}
	return out
}
