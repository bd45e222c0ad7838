package latency

import (
	"slices"
	"testing"
	"time"
)

func TestUnion(t *testing.T) {
	tests := []struct {
		name string
		iv   []Interval
		want time.Duration
	}{
		{name: "nil", iv: nil, want: 0},
		{name: "empty", iv: []Interval{}, want: 0},
		{name: "single", iv: []Interval{{3, 10}}, want: 7},                           // 10-3
		{name: "single empty interval", iv: []Interval{{5, 5}}, want: 0},             // 5-5
		{name: "disjoint", iv: []Interval{{0, 10}, {20, 25}}, want: 15},              // 10 + 5
		{name: "disjoint, three", iv: []Interval{{0, 1}, {2, 4}, {8, 16}}, want: 11}, // 1 + 2 + 8
		{
			// [0,10) ∪ [5,20) = [0,20): 20; plus [30,40): 10 -> 30.
			name: "overlapping",
			iv:   []Interval{{0, 10}, {5, 20}, {30, 40}},
			want: 30,
		},
		{
			// [0,10) ∪ [5,15) = [0,15): 15; plus [30,40): 10 -> 25.
			name: "overlapping, 25",
			iv:   []Interval{{0, 10}, {5, 15}, {30, 40}},
			want: 25,
		},
		{name: "identical", iv: []Interval{{0, 100}, {0, 100}, {0, 100}, {0, 100}}, want: 100},
		{name: "nested", iv: []Interval{{0, 100}, {10, 20}, {30, 40}, {99, 100}}, want: 100},
		{
			// [0,50) swallows [10,20); [40,60) extends it to [0,60): 60;
			// [70,80): 10 -> 70.
			name: "nested then extended",
			iv:   []Interval{{0, 50}, {10, 20}, {40, 60}, {70, 80}},
			want: 70,
		},
		{
			// An interval contained in the first must not end the merged
			// run early: [0,100) ⊃ [10,20), then [50,150) -> [0,150).
			name: "short interval inside a long one",
			iv:   []Interval{{10, 20}, {0, 100}, {50, 150}},
			want: 150,
		},
		{name: "touching", iv: []Interval{{0, 10}, {10, 20}}, want: 20},                 // [0,20)
		{name: "touching chain", iv: []Interval{{20, 35}, {0, 10}, {10, 20}}, want: 35}, // [0,35)
		{name: "unsorted", iv: []Interval{{30, 40}, {5, 20}, {0, 10}}, want: 30},        // as "overlapping"
		{name: "same start", iv: []Interval{{0, 5}, {0, 50}, {0, 20}}, want: 50},        // [0,50)
		{name: "empty intervals add nothing", iv: []Interval{{0, 10}, {20, 20}, {30, 30}}, want: 10},
		{name: "negative origin", iv: []Interval{{-10, 0}, {-5, 5}}, want: 15}, // [-10,5)
		{
			// Monotonic clock readings far from 0: [1e18, 1e18+1s) and
			// [1e18+0.5s, 1e18+2s) -> 2s.
			name: "large timestamps",
			iv:   []Interval{{1e18, 1e18 + 1e9}, {1e18 + 5e8, 1e18 + 2e9}},
			want: 2 * time.Second,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Union(tt.iv); got != tt.want {
				t.Errorf("Union(%v) = %v, want %v", tt.iv, got, tt.want)
			}
		})
	}
}

// TestUnionAnyOrder checks every order of the same intervals gives the same
// hand-computed union.
func TestUnionAnyOrder(t *testing.T) {
	tests := []struct {
		name string
		iv   []Interval
		want time.Duration
	}{
		// [0,10) ∪ [5,20) ∪ [20,25) = [0,25): 25; [40,45): 5 -> 30.
		{name: "overlap, touch, gap", iv: []Interval{{0, 10}, {5, 20}, {20, 25}, {40, 45}}, want: 30},
		// [0,100) holds everything but [150,160): 100 + 10 = 110.
		{name: "nested and disjoint", iv: []Interval{{0, 100}, {10, 20}, {30, 90}, {150, 160}}, want: 110},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			permute(tt.iv, 0, func(p []Interval) {
				iv := slices.Clone(p)
				if got := Union(iv); got != tt.want {
					t.Errorf("Union(%v) = %v, want %v", p, got, tt.want)
				}
			})
		})
	}
}

// permute calls f with every permutation of iv[k:] (Heap-style, in place).
func permute(iv []Interval, k int, f func([]Interval)) {
	if k == len(iv) {
		f(iv)
		return
	}
	for i := k; i < len(iv); i++ {
		iv[k], iv[i] = iv[i], iv[k]
		permute(iv, k+1, f)
		iv[k], iv[i] = iv[i], iv[k]
	}
}
