package sweep

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/gcperf/gcperf/report"
)

// writeDir saves a sweep as the runner leaves it: each result in dir/File
// (report.JSON), the summary in dir/sweep.json.
func writeDir(t *testing.T, dir string, s *Summary) {
	t.Helper()
	for _, o := range s.Outcomes {
		if o.Doc == nil {
			continue
		}
		err := report.WriteFile(filepath.Join(dir, o.File), nil, false, func(w io.Writer) error { return report.JSON(w, o.Doc) })
		if err != nil {
			t.Fatal(err)
		}
	}
	err := report.WriteFile(filepath.Join(dir, SummaryFile), nil, false, func(w io.Writer) error { return WriteJSON(w, s) })
	if err != nil {
		t.Fatal(err)
	}
}

// summaryOf summarises outcomes as a sweep does before writing them.
func summaryOf(g Grid, count int, shard string, outs []Outcome) *Summary {
	rows := Summarize(outs)
	MarkFrontier(rows)
	return &Summary{Schema: SummarySchema, Grid: g, Count: count, Shard: shard, Outcomes: outs, Rows: rows}
}

// shard keeps the outcomes of shard i of n.
func shard(outs []Outcome, i, n int) []Outcome {
	var out []Outcome
	for _, o := range outs {
		if o.Point.InShard(i, n) {
			out = append(out, o)
		}
	}
	return out
}

func TestLoadDir(t *testing.T) {
	dir := t.TempDir()
	s := fixtureSummary(t)
	writeDir(t, dir, s)
	outs, got, err := LoadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got.Rows, s.Rows) || got.Advice.Text != s.Advice.Text || len(outs) != len(s.Outcomes) {
		t.Fatalf("LoadDir: %+v", got)
	}
	for i, o := range outs {
		want := s.Outcomes[i]
		if o.Failed != want.Failed || o.File != want.File || (o.Doc == nil) != (want.Doc == nil) {
			t.Errorf("outcome %d: failed %q, file %q, doc %t", i, o.Failed, o.File, o.Doc != nil)
		}
		if o.Doc != nil && o.Doc.Mix.Runtime != want.Doc.Mix.Runtime {
			t.Errorf("outcome %d: mix %+v, want %+v", i, o.Doc.Mix.Runtime, want.Doc.Mix.Runtime)
		}
	}
	// Summarising the loaded outcomes gives the saved rows back.
	rows := Summarize(outs)
	MarkFrontier(rows)
	if !reflect.DeepEqual(rows, s.Rows) {
		t.Errorf("rows of the loaded outcomes differ:\n got %+v\nwant %+v", rows, s.Rows)
	}

	// A missing result is an error naming it.
	os.Remove(filepath.Join(dir, s.Outcomes[0].File))
	if _, _, err := LoadDir(dir); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("LoadDir with a result missing: %v", err)
	}
	if _, _, err := LoadDir(t.TempDir()); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("LoadDir of an empty directory: %v", err)
	}
}

// Merging the two shards of a sweep gives what the whole sweep run in one
// directory gives.
func TestMergeShards(t *testing.T) {
	all := fixture()
	one, a, b := t.TempDir(), t.TempDir(), t.TempDir()
	writeDir(t, one, summaryOf(fixtureGrid, 3, "", all))
	writeDir(t, a, summaryOf(fixtureGrid, 3, "0/2", shard(all, 0, 2)))
	writeDir(t, b, summaryOf(fixtureGrid, 3, "1/2", shard(all, 1, 2)))

	want, err := Merge(one)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Merge(b, a)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got.Rows, want.Rows) {
		t.Errorf("rows:\n got %+v\nwant %+v", got.Rows, want.Rows)
	}
	// The rows are those of the fixture, frontier included.
	if fx := fixtureSummary(t); !reflect.DeepEqual(got.Rows, fx.Rows) {
		t.Errorf("rows:\n got %+v\nwant %+v", got.Rows, fx.Rows)
	}
	if got.Schema != SummarySchema || !reflect.DeepEqual(got.Grid, fixtureGrid) || got.Count != 3 || got.Shard != "" || got.Advice != nil {
		t.Errorf("merged summary: schema %q, grid %+v, count %d, shard %q, advice %v", got.Schema, got.Grid, got.Count, got.Shard, got.Advice)
	}
	// The outcomes in run order, each with its own directory's file.
	if len(got.Outcomes) != len(all) {
		t.Fatalf("%d outcomes, want %d", len(got.Outcomes), len(all))
	}
	for i, o := range got.Outcomes {
		w := all[i]
		dir := a
		if !w.Point.InShard(0, 2) {
			dir = b
		}
		if o.Point != w.Point || o.Rep != w.Rep || o.Failed != w.Failed || o.File != filepath.Join(dir, w.File) {
			t.Errorf("outcome %d: %s rep %d %q in %s; want %s rep %d %q in %s",
				i, o.Point.Name(), o.Rep, o.Failed, o.File, w.Point.Name(), w.Rep, w.Failed, filepath.Join(dir, w.File))
		}
	}
	// The merged summary, written elsewhere without its results, is refused:
	// a summary's files are read from its own directory only.
	out := t.TempDir()
	writeDir(t, out, &Summary{Grid: got.Grid, Count: got.Count, Outcomes: withoutDocs(got.Outcomes), Rows: got.Rows})
	if _, err := Merge(out); !errors.Is(err, ErrOutside) {
		t.Errorf("a merged summary naming its shards' files: %v, want ErrOutside", err)
	}

	// One shard alone says which it is.
	part, err := Merge(a)
	if err != nil {
		t.Fatal(err)
	}
	if part.Shard != "0/2" || len(part.Rows) != 3 || part.Rows[1].Point.Index != 2 {
		t.Errorf("shard 0/2 alone: shard %q, %d rows", part.Shard, len(part.Rows))
	}
}

func TestMergeConflicts(t *testing.T) {
	g := Grid{GOGC: gs("50"), MemLimit: mls("off")}
	p := g.Points()[0]
	write := func(s *Summary) string {
		dir := t.TempDir()
		writeDir(t, dir, s)
		return dir
	}
	failed := write(summaryOf(g, 2, "", []Outcome{badRep(p, 1, memCap), okRep(p, 2, lat(4*ms, mib))}))
	succeeded := write(summaryOf(g, 2, "", []Outcome{okRep(p, 1, lat(3*ms, mib))}))

	// A failure and a success of one repeat: the success.
	m, err := Merge(failed, succeeded)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Outcomes) != 2 || !m.Outcomes[0].Failed.IsZero() || m.Outcomes[0].Doc == nil ||
		m.Outcomes[0].File != filepath.Join(succeeded, p.FileName(1)) || m.Rows[0].Failed != 0 || m.Rows[0].P99 != 3500*us {
		t.Errorf("merge of a failure and a success: %+v", m.Rows)
	}
	if m2, err := Merge(succeeded, failed); err != nil || !reflect.DeepEqual(m2.Rows, m.Rows) {
		t.Errorf("the other way round: %v, %+v", err, m2)
	}

	other := write(summaryOf(Grid{GOGC: gs("50", "100"), MemLimit: mls("off")}, 2, "", nil))
	count := write(summaryOf(g, 3, "", nil))
	stray := write(summaryOf(g, 2, "", []Outcome{okRep(Point{Index: 0, GOGC: G("100"), MemLimit: M("off")}, 1, lat(ms, mib))}))
	rep := write(summaryOf(g, 2, "", []Outcome{okRep(p, 3, lat(ms, mib))}))
	for _, c := range []struct {
		dirs []string
		want string
	}{
		{[]string{succeeded, failed, succeeded}, succeeded + ": gogc=50,memlimit=off rep 1 succeeded in " + succeeded + " too"},
		{[]string{failed, other}, other + ": grid -gogc 50,100 -memlimit off differs from " + failed + "'s -gogc 50 -memlimit off"},
		{[]string{failed, count}, count + ": count 3 differs from " + failed + "'s 2"},
		{[]string{stray}, stray + ": point gogc=100,memlimit=off is not point 0 of the grid"},
		{[]string{rep}, rep + ": gogc=50,memlimit=off rep 3 is outside 1..2"},
		{nil, "no directory to merge"},
	} {
		_, err := Merge(c.dirs...)
		if err == nil || err.Error() != c.want {
			t.Errorf("Merge(%q) = %v, want %q", c.dirs, err, c.want)
		}
	}
}

func TestBenchCommand(t *testing.T) {
	a := benchCommand([]string{"gcperf", "-size=8", "-profile", "/p/gogc=50,rep=1", "-json", "/d/gogc=50,rep=1.json", "-overwrite"})
	b := benchCommand([]string{"gcperf", "-size=8", "-profile", "/q/gogc=off,rep=2", "-json", "/e/gogc=off,rep=2.json", "-overwrite"})
	c := benchCommand([]string{"gcperf", "-size=64", "-profile", "/p/gogc=50,rep=1", "-json", "/d/gogc=50,rep=1.json", "-overwrite"})
	if !slices.Equal(a, b) {
		t.Errorf("the same benchmark with other files: %q != %q", a, b)
	}
	if slices.Equal(a, c) {
		t.Errorf("different benchmarks compare equal: %q", a)
	}
}

// A summary is input: the files it names are read from its directory only,
// whatever it says (issue 10, item 12).
func TestLoadDirOutside(t *testing.T) {
	outside := t.TempDir()
	secret := filepath.Join(outside, "secret.json")
	s0 := fixtureSummary(t)
	if err := report.WriteFile(secret, nil, false, func(w io.Writer) error { return report.JSON(w, s0.Outcomes[0].Doc) }); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		file func(dir string) string // the first outcome's File
		fail bool                    // the outcome is a failed one
	}{
		{"dotdot", func(dir string) string { rel, _ := filepath.Rel(dir, secret); return rel }, false},
		{"absolute", func(string) string { return secret }, false},
		{"etc-passwd", func(string) string { return "/etc/passwd" }, true},
		{"failed-dotdot", func(dir string) string { rel, _ := filepath.Rel(dir, secret); return rel }, true},
		{"symlink", func(dir string) string {
			if err := os.Symlink(secret, filepath.Join(dir, "link.json")); err != nil {
				t.Fatal(err)
			}
			return "link.json"
		}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			s := fixtureSummary(t)
			writeDir(t, dir, s)
			s.Outcomes[0].File = tt.file(dir)
			if tt.fail {
				s.Outcomes[0].Failed, s.Outcomes[0].Doc = failure(Exited, "exit status 1"), nil
			}
			if err := report.WriteFile(filepath.Join(dir, SummaryFile), nil, true, func(w io.Writer) error { return WriteJSON(w, s) }); err != nil {
				t.Fatal(err)
			}
			if _, _, err := LoadDir(dir); !errors.Is(err, ErrOutside) {
				t.Errorf("LoadDir: %v, want ErrOutside", err)
			}
			if _, err := Merge(dir); !errors.Is(err, ErrOutside) {
				t.Errorf("Merge: %v, want ErrOutside", err)
			}
		})
	}
}
