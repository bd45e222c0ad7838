package workload_test

import (
	"context"
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gcperf/gcperf/workload"
)

// The harness allocates nothing during the timed runs: with noop, whatever
// Result.HeapAllocBytes counts is the harness's own garbage.
//
// The runtime counts small allocations when a goroutine's cached span is
// refilled or flushed, so a garbage collection landing in the timed runs
// would flush, and count, what was allocated before them: the test turns
// the collector off while it runs.
func TestTimedRunsDoNotAllocate(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector's instrumentation allocates")
	}
	noop, err := workload.New("noop", nil)
	if err != nil {
		t.Fatal(err)
	}
	sleep, err := workload.New("sleep", map[string]string{"d": "1us"})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		runs    int
		threads int
		timeout time.Duration
		verbose bool
		mix     workload.Mix
		rate    float64
		pin     bool // per-thread page faults and context switches
	}{
		{"noop", 20000, 1, 0, false, workload.Mix{noop}, 0, false},
		{"timeout", 20000, 1, time.Second, false, workload.Mix{noop}, 0, false},
		{"verbose", 20000, 1, 0, true, workload.Mix{noop}, 0, false},
		{"threads 2", 20000, 2, 0, false, workload.Mix{noop}, 0, false},
		{"threads 2, timeout, verbose", 20000, 2, time.Second, true, workload.Mix{noop}, 0, false},
		{"mix of 3, timeout", 5000, 1, time.Second, false, workload.Mix{noop, noop, noop}, 0, false},
		{"sleep, timeout, threads 2", 2000, 2, time.Second, false, workload.Mix{sleep}, 0, false},
		// Open loop: 200µs apart, each start waited for with a sleep and a spin.
		{"rate", 1000, 1, 0, false, workload.Mix{noop}, 5000, false},
		{"rate, threads 2, timeout, verbose", 1000, 2, time.Second, true, workload.Mix{noop, noop}, 10000, false},
		{"rate, behind", 2000, 1, 0, false, workload.Mix{sleep}, 1e6, false},
		{"pinned, threads 2", 20000, 2, 0, false, workload.Mix{noop}, 0, true},
	}
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := workload.DefaultConfig()
			cfg.Warmups, cfg.Runs, cfg.Outliers, cfg.Threads, cfg.Timeout, cfg.Rate = 100, tt.runs, 0, tt.threads, tt.timeout, tt.rate
			cfg.Pin = tt.pin
			var obs []workload.Observer
			if tt.verbose {
				obs = append(obs, workload.Verbose(io.Discard, time.Now()))
			}
			// Anything the harness allocates, it allocates in every
			// attempt, as each Run starts afresh. The runtime itself may
			// allocate during one, when a loaded machine makes it start an
			// OS thread (its goroutine record, 480 bytes): so a clean attempt
			// out of three proves the harness clean.
			var got []string
			for range 3 {
				runtime.GC()
				res := mustRun(t, cfg, tt.mix, obs...)
				if len(res.Runs) != tt.runs || res.Operations[0].Stats.Errors != 0 {
					t.Fatalf("%d runs, %d errors", len(res.Runs), res.Operations[0].Stats.Errors)
				}
				if res.HeapAllocBytes == 0 && res.HeapAllocObjects == 0 {
					return
				}
				got = append(got, fmt.Sprintf("%d bytes in %d objects", res.HeapAllocBytes, res.HeapAllocObjects))
			}
			t.Errorf("every attempt's timed runs allocated: %s; want none", strings.Join(got, ", "))
		})
	}
}

// The allocation counters do see what an operation allocates: 100 runs of
// 64 KiB (large objects, counted as they are allocated) are at least 6.4 MiB.
func TestHeapAllocCounted(t *testing.T) {
	var sink atomic.Pointer[[]byte]
	op := &fnOp{name: "alloc", fn: func(context.Context, *workload.Probe, int64) error {
		b := make([]byte, 64<<10)
		sink.Store(&b)
		return nil
	}}
	res := mustRun(t, testConfig(100), workload.Mix{op})
	if res.HeapAllocBytes < 100*64<<10 || res.HeapAllocObjects < 100 {
		t.Errorf("HeapAllocBytes %d, HeapAllocObjects %d; want at least %d bytes in 100 objects", res.HeapAllocBytes, res.HeapAllocObjects, 100*64<<10)
	}
}
