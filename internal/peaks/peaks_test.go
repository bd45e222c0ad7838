package peaks

import (
	"slices"
	"testing"
)

func TestSeries(t *testing.T) {
	for _, tc := range []struct {
		max, n         int
		points, stride int
	}{
		{max: 4, n: 0, points: 0, stride: 1},
		{max: 4, n: 3, points: 3, stride: 1},
		{max: 4, n: 4, points: 2, stride: 2},
		{max: 1, n: 5, points: 2, stride: 4}, // at least 2
		{max: 5, n: 100, points: 4, stride: 32},
	} {
		s := New(tc.max, func(a, b int) bool { return a < b })
		for i := range tc.n {
			s.Add(i * (i % 2)) // the odd readings are the peaks
		}
		got := s.Points()
		if len(got) != tc.points || s.Stride() != tc.stride || s.Readings() != tc.n {
			t.Errorf("max %d, %d readings: %v, stride %d, %d readings", tc.max, tc.n, got, s.Stride(), s.Readings())
		}
		if tc.n == 0 && got != nil {
			t.Errorf("no reading: %v, want nil", got)
		}
		if tc.n > 1 && slices.Max(got) != (tc.n-2)|1 {
			t.Errorf("max %d, %d readings: the peak %d is not in %v", tc.max, tc.n, (tc.n-2)|1, got)
		}
	}
}
