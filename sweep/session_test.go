package sweep

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestSessionCheck(t *testing.T) {
	grid := Grid{GOGC: gs("50", "100"), MemLimit: mls("off")}
	tests := []struct {
		name string
		s    Session
		want string // "" for none
	}{
		{"fine", Session{Grid: grid, Runner: Runner{Count: 1}}, ""},
		{"no repeat", Session{Grid: grid}, "-count must be at least 1, got 0"},
		{"too many repeats", Session{Grid: grid, Runner: Runner{Count: 1000000000}}, "-count must be at most 10000, got 1000000000"},
		{"resume and overwrite", Session{Grid: grid, Runner: Runner{Count: 1, Resume: true, Dir: "d"}, Overwrite: true}, "exclude each other"},
		{"resume without dir", Session{Grid: grid, Runner: Runner{Count: 1, Resume: true}}, "-resume needs -out"},
		{"too many shards", Session{Grid: grid, Runner: Runner{Count: 1, Shard: 0, Shards: 3}}, "fewer than 3 shards"},
		{"shard out of range", Session{Grid: grid, Runner: Runner{Count: 1, Shard: 5, Shards: 2}}, "the index must be from 0 to 1"},
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

// A resumed session never replaces the plan of the sweep it finishes.
func TestSessionResumeKeepsThePlan(t *testing.T) {
	dir := t.TempDir()
	recorded := []string{"-runs=10", "-size=16"}
	if err := WritePlan(dir, Plan{Args: recorded}); err != nil {
		t.Fatal(err)
	}
	grid := Grid{GOGC: gs("50"), MemLimit: mls("off")}
	s := &Session{Grid: grid, Runner: Runner{Count: 1, Resume: true, Dir: dir, Exe: "/bin/true"}}
	err := s.Prepare()
	if err == nil || !errors.Is(err, ErrUsage) || !strings.Contains(err.Error(), "records -runs=10 -size=16") {
		t.Errorf("resuming with another plan: %v", err)
	}
	s = &Session{Grid: grid, Plan: Plan{Args: recorded}, Runner: Runner{Count: 1, Resume: true, Dir: dir, Exe: "/bin/true"}}
	if err := s.Prepare(); err != nil {
		t.Errorf("resuming with the recorded plan: %v", err)
	}
	if rec, err := ReadPlan(dir); err != nil || !slices.Equal(rec.Args, recorded) {
		t.Errorf("the plan now holds %v, %v; want %v", rec.Args, err, recorded)
	}
	if _, err := os.Stat(filepath.Join(dir, PlanFile)); err != nil {
		t.Error(err)
	}
}
