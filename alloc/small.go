package alloc

import (
	"context"
	"fmt"

	"github.com/gcperf/gcperf/internal/sat"
	"github.com/gcperf/gcperf/workload"
)

// alloc.small's defaults.
const (
	DefaultSmallN    = 100000 // objects per run
	DefaultSmallSize = 32     // bytes per object (a size class)
)

func init() {
	workload.MustRegister(workload.Spec{
		Name: "alloc.small",
		Doc:  "many tiny objects: allocates n objects of size bytes per run, holds them for the run, drops them (the allocator's fast path)",
		Params: []workload.Param{
			{Name: "n", Kind: workload.Int, Default: fmt.Sprint(DefaultSmallN), Min: "1", Doc: "objects allocated by each run"},
			{Name: "size", Kind: workload.Int, Default: fmt.Sprint(DefaultSmallSize), Min: "1", Doc: "bytes per object (rounded up to Go's size class; under 16, packed into shared 16-byte blocks)"},
		},
		New: func(p workload.Params) (workload.Operation, error) {
			return NewSmall(int(p.Int("n")), int(p.Int("size")))
		},
	})
}

// Small is the small-object workload: each run allocates N pointer-free
// objects of Size bytes ([]byte), writes one byte of each, holds them all in
// a slice until the last one is made, then drops them. The slice itself is
// allocated once, by Setup, so a run allocates only the objects.
//
// It stresses the allocator's fast path: the per-processor cache handing
// out slots from spans of one size class, span refills, and (for sizes
// under 16 bytes) the tiny allocator packing several objects into a 16-byte
// block; then the sweeping of a great many dead objects. The objects hold
// no pointers, so marking them costs little. A run allocates N objects of
// Size bytes rounded up to the size class (N*Size exactly when Size is a
// size class: 8, 16, 24, 32, 48, 64, 80, 96, 112, 128, ...) and counts N
// results ("objects").
type Small struct {
	N, Size int

	objs [][]byte
}

// NewSmall checks the parameters and returns a Small. Its errors are
// *workload.ConfigError values naming the parameter.
func NewSmall(n, size int) (*Small, error) {
	switch {
	case n < 1:
		return nil, &workload.ConfigError{Field: "n", Msg: fmt.Sprintf("must be at least 1, got %d", n)}
	case size < 1:
		return nil, &workload.ConfigError{Field: "size", Msg: fmt.Sprintf("must be at least 1 (bytes), got %d", size)}
	}
	return &Small{N: n, Size: size}, nil
}

func (*Small) Name() string { return "alloc.small" }

// Unit is what a run's results count.
func (*Small) Unit() string { return "objects" }

func (s *Small) Describe() string { return fmt.Sprintf("n=%d size=%d", s.N, s.Size) }

// Clone gives each goroutine its own slice.
func (s *Small) Clone() workload.Operation { return &Small{N: s.N, Size: s.Size} }

// LiveBytes is the slice (24 bytes an object) plus the N objects a run
// holds at its end, in the bytes the heap counts, saturating at
// math.MaxInt64.
func (s *Small) LiveBytes() int64 {
	slots := objectBytes(sat.Mul(int64(s.N), sliceHeaderLen), true)
	return sat.Add(slots, heapBytes(int64(s.N), int64(s.Size), false))
}

// Setup allocates the slice that holds a run's objects.
func (s *Small) Setup(context.Context) error {
	s.objs = make([][]byte, s.N)
	return nil
}

// Teardown drops the slice.
func (s *Small) Teardown() error {
	s.objs = nil
	return nil
}

// Run allocates, holds and drops N objects.
func (s *Small) Run(_ context.Context, p *workload.Probe) error {
	s.Step()
	p.Results(int64(s.N))
	return nil
}

// Step is one run without the engine. Without Setup, it allocates the
// slice first.
func (s *Small) Step() {
	s.fill()
	s.drop()
}

// fill allocates the run's objects into the slice: the run's peak.
func (s *Small) fill() {
	if len(s.objs) != s.N {
		s.objs = make([][]byte, s.N)
	}
	for i := range s.objs {
		b := make([]byte, s.Size)
		b[0] = byte(i)
		s.objs[i] = b
	}
}

// drop makes the run's objects garbage.
func (s *Small) drop() { clear(s.objs) }
