package report

import (
	"strings"
	"testing"
	"time"

	"github.com/gcperf/gcperf/workload"
)

// estimateSentence says what each kind of estimate means in words: a cost
// whose whole interval is below zero (runs with more of the cause were
// faster) adds nothing, and is said so rather than as a negative part of
// the P99.
func TestEstimateSentence(t *testing.T) {
	tail := &Tail{Tail: workload.Tail{P99: 16 * time.Millisecond}}
	for _, tt := range []struct {
		name string
		c    Cause
		want string
	}{
		{"adds", Cause{Cause: workload.CauseMinorFaults, Method: workload.MethodPerUnit, Cost: workload.CostAdds,
			P99Adds: 7 * time.Millisecond, P99Low: 6 * time.Millisecond, P99High: 8 * time.Millisecond, PerUnit: 1390},
			"Minor page faults add 7.00ms (6.00ms to 8.00ms) to the P99, 43.8%; slowest 1%: 0ns; 1.39µs each."},
		{"uncertain", Cause{Cause: workload.CauseGC, Method: workload.MethodPerUnit, Cost: workload.CostUncertain,
			P99Adds: 2 * time.Millisecond, P99Low: time.Millisecond, P99High: 39 * time.Millisecond},
			"GC: about 2.00ms, uncertain (1.00ms to 39.0ms)"},
		{"under", Cause{Cause: workload.CauseSTW, Method: workload.MethodDirect,
			P99Adds: 85 * time.Microsecond, P99Low: 60 * time.Microsecond, P99High: 95 * time.Microsecond},
			"Stop-the-world pauses: under 10% of the P99, 85.0µs (60.0µs to 95.0µs)"},
		{"faster", Cause{Cause: workload.CauseVoluntarySwitches, Method: workload.MethodPerUnit,
			P99Adds: -199 * time.Microsecond, P99Low: -228 * time.Microsecond, P99High: -154 * time.Microsecond, PerUnit: -22700},
			"Voluntary context switches: nothing; the runs with more of them were faster (-199µs, -228µs to -154µs)"},
	} {
		c := tt.c
		c.Runs, c.RunsWith = 1000, 700
		if got := estimateSentence(c, tail); !strings.HasPrefix(got, tt.want) {
			t.Errorf("%s: %q, want it to begin %q", tt.name, got, tt.want)
		}
	}
}
