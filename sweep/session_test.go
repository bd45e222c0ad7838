package sweep

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestSessionCheck(t *testing.T) {
	grid := Grid{GOGC: gs("50", "100"), MemLimit: mls("off")}
	tests := []struct {
		name string
		s    Session
		want string // "" for none
	}{
		{"fine", Session{Grid: grid, Runner: Runner{Count: 1}}, ""},
		{"no repeat", Session{Grid: grid}, "Count \"0\": must be at least 1, got 0"},
		{"too many repeats", Session{Grid: grid, Runner: Runner{Count: 1000000000}}, "Count \"1000000000\": must be at most 10000, got 1000000000"},
		{"resume and overwrite", Session{Grid: grid, Runner: Runner{Count: 1, Resume: true, Dir: "d"}, Overwrite: true}, "exclude each other"},
		{"resume without dir", Session{Grid: grid, Runner: Runner{Count: 1, Resume: true}}, `Resume: resuming needs a Dir`},
		{"too many shards", Session{Grid: grid, Runner: Runner{Count: 1, Shard: 0, Shards: 3}}, `Shard "0/3" (limit 2): more shards than points`},
		{"shard out of range", Session{Grid: grid, Runner: Runner{Count: 1, Shard: 5, Shards: 2}}, `Shard "5/2" (limit 1): the shard's index is not one of the shards'`},
		{"page without Page", Session{Grid: grid, Runner: Runner{Count: 1}, HTML: "x.html"}, "needs Page"},
	}
	for _, tt := range tests {
		err := tt.s.Check()
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%s: %v", tt.name, err)
		case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("%s: error %v, want one saying %q", tt.name, err, tt.want)
		}
	}
}

// A resumed session never replaces the plan of the sweep it finishes, and
// keeps its SLO; another program behind the same path is refused.
func TestSessionResumeKeepsThePlan(t *testing.T) {
	dir := t.TempDir()
	exe := filepath.Join(t.TempDir(), "prog")
	if err := os.WriteFile(exe, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	grid := Grid{GOGC: gs("50"), MemLimit: mls("off")}
	slo := &SLO{P99: time.Second}
	first := &Session{Grid: grid, SLO: slo, Runner: Runner{Count: 1, Dir: dir, Exe: exe, Args: []string{"-runs=10", "-size=16"}}, Overwrite: true}
	if err := first.Prepare(); err != nil {
		t.Fatal(err)
	}
	first.Close() // given up before its Report: Dir's lock released
	recorded, err := ReadPlan(dir)
	if err != nil {
		t.Fatal(err)
	}
	s := &Session{Grid: grid, Runner: Runner{Count: 1, Resume: true, Dir: dir, Exe: exe}}
	err = s.Prepare()
	var pe *PlanError
	if !errors.Is(err, ErrUsage) || !errors.As(err, &pe) || pe.Part != "args" || pe.Recorded != "-runs=10 -size=16" {
		t.Errorf("resuming with another plan: %v", err)
	}
	s = &Session{Grid: grid, Runner: Runner{Count: 1, Resume: true, Dir: dir, Exe: exe, Args: []string{"-runs=10", "-size=16"}}}
	if err := s.Prepare(); err != nil {
		t.Errorf("resuming with the recorded plan: %v", err)
	}
	s.Close()
	if s.SLO == nil || s.SLO.String() != slo.String() {
		t.Errorf("the resumed session's SLO is %v, want the recorded %v", s.SLO, slo)
	}
	if rec, err := ReadPlan(dir); err != nil || rec.Diff(recorded) != "" || !rec.Program.Same(recorded.Program) {
		t.Errorf("the plan now holds %+v, %v; want %+v", rec, err, recorded)
	}
	// Rebuilt: another program at the same path.
	if err := os.WriteFile(exe, []byte("#!/bin/sh\nexit 0\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	s = &Session{Grid: grid, Runner: Runner{Count: 1, Resume: true, Dir: dir, Exe: exe, Args: []string{"-runs=10", "-size=16"}}}
	if err := s.Prepare(); !errors.Is(err, ErrUsage) || !errors.As(err, &pe) || pe.Part != "program" || pe.Path != exe {
		t.Errorf("resuming with another program: %v", err)
	}
}

// A plan of an earlier gcperf, its arguments, is ErrOldPlan.
func TestReadPlanV1(t *testing.T) {
	dir := t.TempDir()
	v1 := `{"schema": "gcperf-sweep-plan/v1", "args": ["-gogc=100", "-size=8"]}`
	if err := os.WriteFile(filepath.Join(dir, PlanFile), []byte(v1), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadPlan(dir); !errors.Is(err, ErrOldPlan) {
		t.Errorf("a v1 plan: %v, want ErrOldPlan", err)
	}
}

// A session whose context is cancelled reports what finished (nothing
// here) as an interrupted sweep, through Observe, and fails.
func TestSessionRunCancelled(t *testing.T) {
	var kinds []EventKind
	var interrupted Event
	s := &Session{Grid: Grid{GOGC: gs("100")}, Runner: Runner{Count: 1, Dir: t.TempDir(), Exe: "/bin/true"}, SLO: &SLO{P99: time.Second},
		Observe: func(e Event) {
			kinds = append(kinds, e.Kind)
			if e.Kind == Interrupted {
				interrupted = e
			}
		}}
	if err := s.Prepare(); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var stdout strings.Builder
	failed, err := s.Run(ctx, time.Now(), &stdout)
	if !failed || err != nil {
		t.Errorf("Run = %t, %v; want failed, no error", failed, err)
	}
	if want := []EventKind{Started, Written, NoAdvice, Interrupted}; !slices.Equal(kinds, want) {
		t.Errorf("events %v, want %v", kinds, want)
	}
	if interrupted.Repeats != 0 || interrupted.Dir != s.Dir {
		t.Errorf("the Interrupted event is %+v, want 0 repeats kept in %s", interrupted, s.Dir)
	}
}

// Without a Label, a session's errors name its files by its own fields:
// no flag of gcperf's.
func TestSessionLabelsItsFiles(t *testing.T) {
	dir := t.TempDir()
	page := filepath.Join(dir, "page.html")
	if err := os.WriteFile(page, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	s := Session{Grid: Grid{GOGC: gs("100")}, Runner: Runner{Count: 1, Dir: filepath.Join(dir, "sw")}, HTML: page,
		Page: func(io.Writer, *Summary) error { return nil }}
	err := s.Prepare()
	if err == nil || !strings.Contains(err.Error(), "HTML "+page+": file exists") || strings.Contains(err.Error(), "-html") {
		t.Errorf("Prepare: %v, want the page named by its field", err)
	}
	s.Label = func(field, path string) string { return "<" + field + ">" }
	if err := s.Prepare(); err == nil || !strings.Contains(err.Error(), "<HTML>: file exists") {
		t.Errorf("Prepare with a Label: %v, want the page named by it", err)
	}
}

// TestOverheadLine: the overhead is said only when above 1.10 (issue 25),
// or when no point ran.
func TestOverheadLine(t *testing.T) {
	for _, c := range []struct {
		name           string
		wall, children time.Duration
		interrupted    bool
		want           string
	}{
		{"small", 105 * time.Second, 100 * time.Second, false, ""},
		{"at the threshold", 110 * time.Second, 100 * time.Second, false, ""},
		{"worth a word", 150 * time.Second, 100 * time.Second, false, "\nsweep overhead: 1.50 (wall 2m30s, children 1m40s)\n"},
		{"interrupted", 3 * time.Second, time.Second, true, "\nsweep overhead: 3.00 (wall 3s, children 1s; the stopped point's time counts as the sweep's)\n"},
		{"no point ran", 2 * time.Second, 0, false, "\nsweep overhead: none measured: no point ran (wall 2s)\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := overheadLine(c.wall, c.children, c.interrupted); got != c.want {
				t.Errorf("overheadLine(%s, %s, %v) = %q, want %q", c.wall, c.children, c.interrupted, got, c.want)
			}
		})
	}
}
