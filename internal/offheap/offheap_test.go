package offheap

import (
	"runtime"
	"runtime/metrics"
	"testing"
	"time"
)

type record struct {
	A    int64
	B    [3]uint16
	D    time.Duration
	Flag bool
}

func heapAlloc() uint64 {
	s := []metrics.Sample{{Name: "/gc/heap/allocs:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

func TestSliceIsOutsideTheHeap(t *testing.T) {
	before := heapAlloc()
	s, free := Slice[record](1 << 20) // 32 MiB of records
	after := heapAlloc()
	defer free()
	if len(s) != 1<<20 {
		t.Fatalf("len %d", len(s))
	}
	for i := range s {
		if s[i] != (record{}) {
			t.Fatalf("record %d not zero: %+v", i, s[i])
		}
		s[i].A = int64(i)
	}
	runtime.GC()
	if s[12345].A != 12345 {
		t.Errorf("a record changed: %+v", s[12345])
	}
	if runtime.GOOS != "windows" && runtime.GOOS != "plan9" && after-before > 1<<20 {
		t.Errorf("the heap grew by %d bytes for records meant to be outside it", after-before)
	}
}

func TestSlicePanicsOnPointers(t *testing.T) {
	for name, f := range map[string]func(){
		"pointer": func() { Slice[*int](1) },
		"string":  func() { Slice[string](1) },
		"struct":  func() { Slice[struct{ P []byte }](1) },
		"array":   func() { Slice[[2]map[int]int](1) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", name)
				}
			}()
			f()
		}()
	}
}

func TestSliceEmpty(t *testing.T) {
	s, free := Slice[record](0)
	free()
	if len(s) != 0 {
		t.Errorf("len %d", len(s))
	}
}
