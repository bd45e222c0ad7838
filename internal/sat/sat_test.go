package sat

import (
	"math"
	"testing"
)

func TestAddMul(t *testing.T) {
	const m = math.MaxInt64
	tests := []struct {
		a, b, add, mul int64
	}{
		{0, 0, 0, 0},
		{2, 3, 5, 6},
		{m, 1, m, m},
		{m - 1, 1, m, m - 1},
		{m / 2, 3, m/2 + 3, m},
		{0, m, m, 0},
		{1 << 32, 1 << 31, 1<<32 + 1<<31, m},
	}
	for _, tt := range tests {
		if got := Add(tt.a, tt.b); got != tt.add {
			t.Errorf("Add(%d, %d) = %d, want %d", tt.a, tt.b, got, tt.add)
		}
		if got := Mul(tt.a, tt.b); got != tt.mul {
			t.Errorf("Mul(%d, %d) = %d, want %d", tt.a, tt.b, got, tt.mul)
		}
	}
}
