package workload

import (
	"math"
	"testing"
)

// The largest -delay draws a delay instead of overflowing (maxDelay+1).
func TestDelayMax(t *testing.T) {
	o := newOrderer(Config{Seed: 1, MaxDelay: math.MaxInt64}, 1)
	if d := o.delay(math.MaxInt64); d < 0 {
		t.Errorf("delay(MaxInt64) = %d", d)
	}
}
