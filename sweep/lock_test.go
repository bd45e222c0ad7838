package sweep

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/gcperf/gcperf/internal/safefile"
)

// A prepared Session holds its Dir's lock until Close (or Report): another
// session, or a Runner run alone, on that directory is refused at once,
// touching nothing there; a Runner given the session's lock runs.
func TestSessionLocksDir(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	exe := filepath.Join(t.TempDir(), "prog")
	if err := os.WriteFile(exe, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	grid := Grid{GOGC: gs("50"), MemLimit: mls("off")}
	args := []string{"-runs=10", "-size=16"}
	first := &Session{Grid: grid, Runner: Runner{Count: 1, Dir: dir, Exe: exe, Args: args}}
	if err := first.Prepare(); err != nil {
		t.Fatal(err)
	}
	if !first.Lock.Holds(dir) {
		t.Fatal("a prepared session does not hold its Dir's lock")
	}
	before, _ := os.ReadDir(dir)
	second := &Session{Grid: grid, Runner: Runner{Count: 1, Resume: true, Dir: dir, Exe: exe, Args: args}}
	var ue *UsageError
	if err := second.Prepare(); !errors.Is(err, safefile.ErrLocked) || !errors.As(err, &ue) || ue.Field != "Dir" || ue.Value != dir {
		t.Errorf("a second session on a held directory: %v, want a UsageError of Dir wrapping safefile.ErrLocked", err)
	}
	merge := &Session{Runner: Runner{Dir: dir}, Overwrite: true}
	if _, err := merge.Merge([]string{t.TempDir()}, io.Discard); !errors.Is(err, safefile.ErrLocked) {
		t.Errorf("a merge into a held directory: %v, want safefile.ErrLocked", err)
	}
	alone := &Runner{Count: 1, Dir: dir, Exe: exe, Args: args}
	if _, err := alone.Run(context.Background(), grid.Points()); !errors.Is(err, safefile.ErrLocked) {
		t.Errorf("a Runner alone on a held directory: %v, want safefile.ErrLocked", err)
	}
	if after, _ := os.ReadDir(dir); len(after) != len(before) {
		t.Errorf("the refused ones touched the directory: %v, then %v", before, after)
	}
	first.Close()
	if first.Lock != nil {
		t.Error("Close left the lock")
	}
	if err := second.Prepare(); err != nil {
		t.Fatalf("a session after Close: %v", err)
	}
	defer second.Close()
	other := &Runner{Count: 1, Dir: t.TempDir(), Exe: exe, Lock: second.Lock}
	if _, err := other.Run(context.Background(), grid.Points()); err == nil {
		t.Error("a Runner given another directory's lock ran")
	}
}
