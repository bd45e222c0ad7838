package alloc

import (
	"context"
	"fmt"

	"github.com/gcperf/gcperf/internal/sat"
	"github.com/gcperf/gcperf/workload"
)

// alloc.ring's defaults: gc_latency's shape (1 KiB messages, the oldest
// replaced), with a tenth of its 200000-message buffer.
const (
	DefaultRingK     = 10000 // buffers in the ring (10 MiB live)
	DefaultRingSize  = 1024  // bytes per buffer
	DefaultRingPer   = 100   // buffers replaced by each run
	DefaultRingFluff = 0     // bytes of short-lived garbage per run
	ringCheckEvery   = 1024  // Setup checks its context every 1024 buffers
)

func init() {
	workload.MustRegister(workload.Spec{
		Name: "alloc.ring",
		Doc:  "a large live set that ages: a ring of k buffers of size bytes, each run replacing the oldest per of them, plus fluff bytes of short-lived garbage (golang.org/x/benchmarks gc_latency's shape)",
		Params: []workload.Param{
			{Name: "k", Kind: workload.Int, Default: fmt.Sprint(DefaultRingK), Min: "1", Doc: "buffers in the ring, allocated by Setup and kept alive"},
			{Name: "size", Kind: workload.Int, Default: fmt.Sprint(DefaultRingSize), Min: "1", Doc: "bytes per buffer (rounded up to Go's size class)"},
			{Name: "per", Kind: workload.Int, Default: fmt.Sprint(DefaultRingPer), Min: "1", Doc: "buffers replaced by each run, oldest first (at most k)"},
			{Name: "fluff", Kind: workload.Int, Default: fmt.Sprint(DefaultRingFluff), Min: "0", Doc: "bytes of short-lived garbage each run allocates, in pieces of at most size bytes"},
		},
		New: func(p workload.Params) (workload.Operation, error) {
			return NewRing(int(p.Int("k")), int(p.Int("size")), int(p.Int("per")), int(p.Int("fluff")))
		},
	})
}

// Ring is the ageing-live-set workload, after golang.org/x/benchmarks'
// gc_latency: Setup fills a ring of K buffers of Size bytes; each run
// replaces the next Per buffers in turn (the oldest ones) with new buffers,
// each filled with one byte value as gc_latency fills its messages, then
// allocates Fluff bytes of garbage that dies at once, in pieces of at most
// Size bytes (gc_latency's -fluff allocates an extra 1 KiB message, which
// dies at the next one, every 64 messages).
//
// It stresses a large live heap whose objects die in age order: every
// cycle marks about K buffers, each buffer lives K/Per runs before it dies,
// and a replacement stores a new pointer into an old, already-marked slice
// (the write barrier). Fluff adds garbage that is never live at a cycle, so
// cycles come more often for the same live set. A run allocates Per buffers
// of Size bytes plus Fluff bytes, each rounded up to the size class
// (exactly Per*Size+Fluff when Size and the last fluff piece are size
// classes), and counts Per results ("buffers").
type Ring struct {
	K, Size, Per, Fluff int

	ring  [][]byte
	next  int    // the oldest buffer: the next to be replaced
	count int    // buffers made; each is filled with byte(count)
	fluff []byte // the last piece of fluff, as gc_latency's global
}

// NewRing checks the parameters and returns a Ring. Its errors are
// *workload.ConfigError values naming the parameter.
func NewRing(k, size, per, fluff int) (*Ring, error) {
	bad := func(field, msg string, v int) error {
		return &workload.ConfigError{Field: field, Msg: fmt.Sprintf(msg, v)}
	}
	switch {
	case k < 1:
		return nil, bad("k", "must be at least 1, got %d", k)
	case size < 1:
		return nil, bad("size", "must be at least 1 (bytes), got %d", size)
	case per < 1:
		return nil, bad("per", "must be at least 1, got %d", per)
	case per > k:
		return nil, &workload.ConfigError{Field: "per", Msg: fmt.Sprintf("must be at most k=%d (a run replaces each buffer at most once), got %d", k, per)}
	case fluff < 0:
		return nil, bad("fluff", "must be at least 0 (bytes), got %d", fluff)
	}
	return &Ring{K: k, Size: size, Per: per, Fluff: fluff}, nil
}

func (*Ring) Name() string { return "alloc.ring" }

// Unit is what a run's results count.
func (*Ring) Unit() string { return "buffers" }

func (r *Ring) Describe() string {
	return fmt.Sprintf("k=%d size=%d per=%d fluff=%d", r.K, r.Size, r.Per, r.Fluff)
}

// Clone gives each goroutine its own ring.
func (r *Ring) Clone() workload.Operation {
	return &Ring{K: r.K, Size: r.Size, Per: r.Per, Fluff: r.Fluff}
}

// LiveBytes is the ring (24 bytes a slot) and its K buffers, plus the new
// buffer and the piece of fluff a run holds at once, in the bytes the heap
// counts, saturating at math.MaxInt64.
func (r *Ring) LiveBytes() int64 {
	k, size := int64(r.K), int64(r.Size)
	live := objectBytes(sat.Mul(k, sliceHeaderLen), true)
	live = sat.Add(live, heapBytes(sat.Add(k, 1), size, false))
	return sat.Add(live, heapBytes(1, min(int64(r.Fluff), size), false))
}

// Setup fills the ring. It stops early, with the context's error, when ctx
// is cancelled: a large ring takes a while.
func (r *Ring) Setup(ctx context.Context) error {
	r.ring, r.next, r.count, r.fluff = nil, 0, 0, nil
	ring := make([][]byte, r.K)
	for i := range ring {
		if i%ringCheckEvery == ringCheckEvery-1 && ctx.Err() != nil {
			return ctx.Err()
		}
		ring[i] = r.buffer()
	}
	r.ring = ring
	return nil
}

// Teardown drops the ring, so its memory can be collected.
func (r *Ring) Teardown() error {
	r.ring, r.fluff = nil, nil
	return nil
}

// Run replaces Per buffers and makes the fluff.
func (r *Ring) Run(_ context.Context, p *workload.Probe) error {
	r.Step()
	p.Results(int64(r.Per))
	return nil
}

// Step is one run without the engine: replace the Per oldest buffers, then
// allocate and drop Fluff bytes. Without Setup, it fills the ring first.
func (r *Ring) Step() {
	if len(r.ring) != r.K {
		_ = r.Setup(context.Background())
	}
	for range r.Per {
		r.ring[r.next] = r.buffer()
		if r.next++; r.next == r.K {
			r.next = 0
		}
	}
	for left := r.Fluff; left > 0; left -= r.Size {
		r.fluff = make([]byte, min(left, r.Size))
	}
	r.fluff = nil
}

// buffer makes a buffer filled with byte(count), as gc_latency's newSlice.
func (r *Ring) buffer() []byte {
	b := make([]byte, r.Size)
	v := byte(r.count)
	r.count++
	for i := range b {
		b[i] = v
	}
	return b
}
