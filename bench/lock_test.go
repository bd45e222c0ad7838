package bench_test

import (
	"context"
	"errors"
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/gcperf/gcperf/bench"
	"github.com/gcperf/gcperf/internal/safefile"
	"github.com/gcperf/gcperf/workload"
)

// tryLock tries to lock dir from each of its runs, as another gcperf would.
type tryLock struct {
	dir    string
	locked *atomic.Int64 // runs that could lock it
}

func (tryLock) Name() string { return "trylock" }
func (l tryLock) Run(context.Context, *workload.Probe) error {
	if lk, err := safefile.LockDir(l.dir); err == nil {
		l.locked.Add(1)
		lk.Unlock()
	}
	return nil
}

// A directory to lock (File.Lock, -out DIR) is held for the whole
// benchmark, created or not, and released when Run returns; one that
// another holds is refused before anything runs.
func TestRunLocksDir(t *testing.T) {
	for _, created := range []bool{false, true} {
		dir := filepath.Join(t.TempDir(), "out")
		if created {
			dir = t.TempDir()
		}
		o := options(5)
		json, _ := bench.LookupFormat("json")
		o.Outputs = []bench.Output{{Path: filepath.Join(dir, "r.json"), Format: json}}
		o.Dirs = []bench.File{{Path: dir, Label: "-out " + dir, Lock: true}}
		op := tryLock{dir, new(atomic.Int64)}
		out, err := bench.Run(context.Background(), o, workload.Mix{op})
		if err != nil || out.Failed() {
			t.Fatalf("Run: %v, %+v", err, out)
		}
		if n := op.locked.Load(); n != 0 {
			t.Errorf("another could lock -out during %d runs (existing before: %v)", n, created)
		}
		held, err := safefile.LockDir(dir)
		if err != nil {
			t.Fatalf("the lock outlived Run: %v", err)
		}
		var ie *bench.InputError
		c := counting{new(atomic.Int64)}
		o.Overwrite = true
		if _, err := bench.Run(context.Background(), o, workload.Mix{c}); !errors.Is(err, bench.ErrDirInUse) || !errors.As(err, &ie) ||
			ie.Field != "Dirs" || ie.Reason != "-out "+dir+": another gcperf is using this directory" || c.n.Load() != 0 {
			t.Errorf("Run on a held directory: %v (ran %d), want an *InputError of Dirs wrapping ErrDirInUse", err, c.n.Load())
		}
		held.Unlock()
	}
}
