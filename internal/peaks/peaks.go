// Package peaks keeps a series of readings over a run in bounded memory,
// its peaks kept: gcperf exec's resident set over time (target) and heap
// goal over time (gctrace).
package peaks

import "slices"

// A Series keeps at most Max points of the readings added to it: when it
// holds Max points, each two consecutive points become the larger of them
// and a point stands for twice as many readings as before (Stride), so a
// series of any length fits and its peaks stay in it.
type Series[T any] struct {
	max     int
	less    func(a, b T) bool // a is smaller than b
	stride  int               // readings a point stands for
	points  []T
	pending T   // the largest reading of a point being filled
	n       int // the readings in pending
}

// New returns an empty series of at most n points (at least 2), whose
// readings less orders.
func New[T any](n int, less func(a, b T) bool) *Series[T] {
	n = max(n, 2)
	return &Series[T]{max: n, less: less, stride: 1, points: make([]T, 0, n)}
}

// Add adds a reading.
func (s *Series[T]) Add(x T) {
	if s.n == 0 || s.less(s.pending, x) {
		s.pending = x
	}
	if s.n++; s.n < s.stride {
		return
	}
	s.points = append(s.points, s.pending)
	s.n = 0
	if len(s.points) < s.max {
		return
	}
	half := s.points[:0]
	for i := 0; i+1 < len(s.points); i += 2 {
		half = append(half, s.larger(s.points[i], s.points[i+1]))
	}
	if len(s.points)%2 == 1 {
		s.pending, s.n = s.points[len(s.points)-1], s.stride
	}
	s.points = half
	s.stride *= 2
}

func (s *Series[T]) larger(a, b T) T {
	if s.less(a, b) {
		return b
	}
	return a
}

// Points returns a copy of the points, and the one being filled (which
// stands for fewer readings than Stride), in the order added; nil for no
// reading.
func (s *Series[T]) Points() []T {
	out := slices.Clone(s.points)
	if s.n > 0 {
		out = append(out, s.pending)
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// Stride is the number of readings a point stands for.
func (s *Series[T]) Stride() int { return s.stride }

// Readings is the number of readings added.
func (s *Series[T]) Readings() int { return len(s.points)*s.stride + s.n }
