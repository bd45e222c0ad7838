package alloc

import (
	"context"
	"errors"
	"runtime"
	"runtime/metrics"
	"testing"

	"github.com/gcperf/gcperf/workload"
)

func TestNewListErrors(t *testing.T) {
	tests := []struct {
		size, base, chunk int
		field             string
	}{
		{0, 1, 1, "size"},
		{-1, 1, 1, "size"},
		{maxSizeKB + 1, 1, 1, "size"},
		{1, -1, 1, "base"},
		{1, 1, 0, "chunk"},
	}
	for _, tt := range tests {
		_, err := NewList(tt.size, tt.base, tt.chunk)
		var ce *workload.ConfigError
		if !errors.As(err, &ce) || ce.Field != tt.field {
			t.Errorf("NewList(%d, %d, %d) = %v, want a ConfigError on %s", tt.size, tt.base, tt.chunk, err, tt.field)
		}
	}
	if _, err := NewList(1, 0, 1); err != nil {
		t.Errorf("NewList(1, 0, 1): %v", err)
	}
}

// TestListSemantics checks the port against GCPerfP99's MyList: adds at the
// head, removals from the tail (first in, first out), base kept across runs.
func TestListSemantics(t *testing.T) {
	l, err := NewList(1, 3, 5)
	if err != nil {
		t.Fatal(err)
	}
	if err := l.Setup(context.Background()); err != nil {
		t.Fatal(err)
	}
	if n := l.Len(); n != 3 {
		t.Fatalf("after Setup: %d objects, want base=3", n)
	}
	base := map[*object]bool{}
	for o := l.tail; o != nil; o = o.next {
		base[o] = true
	}
	for range l.Chunk {
		l.add(l.newObject())
	}
	if n := l.Len(); n != 8 {
		t.Fatalf("after adding a chunk: %d objects, want 8", n)
	}
	for range l.Chunk {
		l.removeTail()
	}
	// The 5 removals took the 3 base objects (the oldest) and 2 of the chunk.
	if n := l.Len(); n != 3 {
		t.Fatalf("after removing a chunk: %d objects, want 3", n)
	}
	for o := l.tail; o != nil; o = o.next {
		if base[o] {
			t.Errorf("a base object survived: removals must take the oldest objects first")
		}
	}
	if l.tail.prev != nil || l.head.next != nil {
		t.Errorf("list ends are not terminated")
	}
	// Removing from an empty list is a no-op, as in Java.
	e, _ := NewList(1, 0, 1)
	e.removeTail()
	e.add(e.newObject())
	e.removeTail()
	if e.head != nil || e.tail != nil {
		t.Errorf("removing the last object must empty the list")
	}
}

func TestObjectContents(t *testing.T) {
	l, _ := NewList(2, 0, 1)
	o := l.newObject()
	if len(o.obj) != 2*128 {
		t.Fatalf("object of size 2 holds %d int64, want 256", len(o.obj))
	}
	// Hand-computed from GCPerfP99: obj[i] = i/2+i/3+i/4+i/5 (integer division).
	for i, want := range map[int]int64{0: 0, 1: 0, 2: 1, 3: 2, 4: 4, 5: 5, 6: 7, 7: 7, 60: 30 + 20 + 15 + 12, 255: 127 + 85 + 63 + 51} {
		if o.obj[i] != want {
			t.Errorf("obj[%d] = %d, want %d", i, o.obj[i], want)
		}
	}
}

func TestRegistered(t *testing.T) {
	op, err := workload.New("alloc.list", nil)
	if err != nil {
		t.Fatal(err)
	}
	l := op.(*List)
	if l.Size != DefaultSize || l.Base != DefaultBase || l.Chunk != DefaultChunk {
		t.Errorf("defaults %d/%d/%d, want GCPerfP99's 1024/32/32", l.Size, l.Base, l.Chunk)
	}
	if got, want := l.LiveBytes(), int64(64)*(1024*1024+objectOverhead); got != want {
		t.Errorf("LiveBytes = %d, want %d", got, want)
	}
	op, err = workload.New("alloc.list", map[string]string{"size": "8", "base": "0", "chunk": "3"})
	if err != nil {
		t.Fatal(err)
	}
	if d := op.(workload.Describer).Describe(); d != "size=8 base=0 chunk=3" {
		t.Errorf("Describe = %q", d)
	}
}

// TestThroughEngine runs the list through the engine: every run counts
// chunk objects, and the list holds base objects at the end.
func TestThroughEngine(t *testing.T) {
	l, _ := NewList(4, 2, 3)
	cfg := workload.DefaultConfig()
	cfg.Warmups, cfg.Runs, cfg.Seed = 4, 30, 1
	res, err := workload.Run(context.Background(), cfg, workload.Mix{l})
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Operations[0].Stats.Results; got != 30*3 {
		t.Errorf("results %d, want 90", got)
	}
	if res.Unit != "objects" || res.P99.PerRun != 3 {
		t.Errorf("unit %q, per run %v; want objects, 3", res.Unit, res.P99.PerRun)
	}
}

// TestAllocatesWhatItClaims: one run allocates chunk objects of size KB,
// within 5%, measured with runtime/metrics.
func TestAllocatesWhatItClaims(t *testing.T) {
	for _, tt := range []struct{ size, chunk int }{{1, 64}, {64, 8}, {1024, 4}} {
		l, _ := NewList(tt.size, 2, tt.chunk)
		_ = l.Setup(context.Background())
		const runs = 5
		s := []metrics.Sample{{Name: "/gc/heap/allocs:bytes"}}
		runtime.GC()
		metrics.Read(s)
		before := s[0].Value.Uint64()
		for range runs {
			l.Step()
		}
		metrics.Read(s)
		got := float64(s[0].Value.Uint64()-before) / runs
		want := float64(tt.chunk * tt.size * 1024)
		if got < want*0.95 || got > want*1.05 {
			t.Errorf("size %d chunk %d: %.0f bytes per run, want %.0f within 5%%", tt.size, tt.chunk, got, want)
		}
	}
}
