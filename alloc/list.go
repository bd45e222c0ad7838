package alloc

import (
	"context"
	"fmt"
	"math"
	"math/bits"

	"github.com/gcperf/gcperf/workload"
)

// GCPerfP99's defaults.
const (
	DefaultSize    = 1024 // KB per object
	DefaultBase    = 32   // objects kept alive for the whole benchmark
	DefaultChunk   = 32   // objects added and removed by each run
	DefaultWarmup  = 64   // warmup runs
	DefaultRuns    = 1000 // timed runs
	maxSizeKB      = 1 << 30
	wordsPerKB     = 128 // 128 int64 = 1024 bytes
	objectOverhead = 48  // the object header and slice header, roughly
)

func init() {
	workload.MustRegister(workload.Spec{
		Name: "alloc.list",
		Doc:  "GCPerfP99: a doubly linked list of size-KB objects that gains and loses chunk objects per run, over base long-lived ones",
		Params: []workload.Param{
			{Name: "size", Kind: workload.Int, Default: fmt.Sprint(DefaultSize), Min: "1", Doc: "KB per object (each holds size*128 int64)"},
			{Name: "base", Kind: workload.Int, Default: fmt.Sprint(DefaultBase), Min: "0", Doc: "objects added before the warmups and kept"},
			{Name: "chunk", Kind: workload.Int, Default: fmt.Sprint(DefaultChunk), Min: "1", Doc: "objects added, then removed, by each run"},
		},
		New: func(p workload.Params) (workload.Operation, error) {
			return NewList(int(p.Int("size")), int(p.Int("base")), int(p.Int("chunk")))
		},
	})
}

// List is GCPerfP99's workload as an operation. Setup adds Base objects of
// Size KB to a doubly linked list; each run adds Chunk new objects at the head,
// then removes Chunk objects from the tail, so the live set stays at Base
// objects between runs and the removed ones become garbage. Each object holds
// Size*128 int64 values filled with i/2+i/3+i/4+i/5, as in the Java original.
// A run counts Chunk results ("objects").
type List struct {
	Size, Base, Chunk int

	head, tail *object
}

type object struct {
	obj        []int64
	next, prev *object
}

// NewList checks the parameters and returns a List. Its errors are
// *workload.ConfigError values naming the parameter.
func NewList(size, base, chunk int) (*List, error) {
	bad := func(field, msg string, v int) error {
		return &workload.ConfigError{Field: field, Msg: fmt.Sprintf(msg, v)}
	}
	switch {
	case size < 1:
		return nil, bad("size", "must be at least 1 (KB), got %d", size)
	case size > maxSizeKB:
		return nil, bad("size", "must be at most 1073741824 (KB, 1 TiB), got %d", size)
	case base < 0:
		return nil, bad("base", "must be at least 0, got %d", base)
	case chunk < 1:
		return nil, bad("chunk", "must be at least 1, got %d", chunk)
	}
	return &List{Size: size, Base: base, Chunk: chunk}, nil
}

func (*List) Name() string { return "alloc.list" }

// Unit is what a run's results count.
func (*List) Unit() string { return "objects" }

func (l *List) Describe() string {
	return fmt.Sprintf("size=%d base=%d chunk=%d", l.Size, l.Base, l.Chunk)
}

// Clone gives each goroutine its own list.
func (l *List) Clone() workload.Operation { return &List{Size: l.Size, Base: l.Base, Chunk: l.Chunk} }

// LiveBytes is the most the list holds live at once: Base+Chunk objects.
// It saturates at math.MaxInt64 rather than overflow, so that an absurd
// -base is refused by the memory check instead of slipping past it.
func (l *List) LiveBytes() int64 {
	hi, lo := bits.Mul64(uint64(l.Base+l.Chunk), uint64(l.Size)*1024+objectOverhead)
	if hi != 0 || lo > math.MaxInt64 {
		return math.MaxInt64
	}
	return int64(lo)
}

// Setup builds the base of the list. It stops early, with the context's
// error, when ctx is cancelled: a large base takes a while.
func (l *List) Setup(ctx context.Context) error {
	l.head, l.tail = nil, nil
	for i := range l.Base {
		if i%64 == 63 && ctx.Err() != nil {
			return ctx.Err()
		}
		l.add(l.newObject())
	}
	return nil
}

// Teardown drops the list, so its memory can be collected.
func (l *List) Teardown() error {
	l.head, l.tail = nil, nil
	return nil
}

// Run adds Chunk objects, then removes Chunk objects from the tail.
func (l *List) Run(_ context.Context, p *workload.Probe) error {
	l.Step()
	p.Results(int64(l.Chunk))
	return nil
}

// Step is one GCPerfP99 run without the engine: Chunk adds, Chunk removals.
func (l *List) Step() {
	for range l.Chunk {
		l.add(l.newObject())
	}
	for range l.Chunk {
		l.removeTail()
	}
}

// Len counts the objects in the list, from the tail.
func (l *List) Len() int {
	n := 0
	for o := l.tail; o != nil; o = o.next {
		n++
	}
	return n
}

func (l *List) newObject() *object {
	n := l.Size * wordsPerKB
	o := &object{obj: make([]int64, n)}
	for i := range o.obj {
		o.obj[i] = int64(i/2 + i/3 + i/4 + i/5) // some work load, as in GCPerfP99
	}
	return o
}

// add links o at the head, exactly as GCPerfP99's MyList.add.
func (l *List) add(o *object) {
	if l.head == nil {
		l.head, l.tail = o, o
		return
	}
	o.prev = l.head
	l.head.next = o
	l.head = o
}

// removeTail unlinks the oldest object, exactly as GCPerfP99's
// MyList.removeTail.
func (l *List) removeTail() {
	if l.tail == nil {
		return
	}
	if l.tail.next == nil {
		l.tail, l.head = nil, nil
		return
	}
	l.tail = l.tail.next
	l.tail.prev = nil
}
