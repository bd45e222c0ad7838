package runstats_test

import (
	"fmt"
	"runtime"

	"github.com/gcperf/gcperf/runstats"
)

// A GCSampler reads the collector's counters without allocating after its
// first reading, so that it can be read between the timed runs of a
// benchmark. A forced collection is one cycle with two stop-the-world pauses.
func ExampleGCSampler() {
	s := runstats.NewGCSampler()
	before, after := s.NewReading(), s.NewReading() // allocated once, reused
	s.Read(before)
	runtime.GC()
	s.Read(after)
	d := s.Delta(before, after)
	fmt.Println("cycles >= 1:", d.Cycles >= 1)
	fmt.Println("pauses >= 2:", d.Pauses >= 2)
	fmt.Println("overlapped:", d.Overlapped())
	// Output:
	// cycles >= 1: true
	// pauses >= 2: true
	// overlapped: true
}

// ReadSelf reads the process's own counters; two readings around a piece of
// work tell its page faults, context switches and CPU time.
func ExampleReadSelf() {
	before, err := runstats.ReadSelf()
	if err != nil {
		fmt.Println(err) // no /proc: not Linux
		return
	}
	buf := make([]byte, 16<<20)
	for i := range buf {
		buf[i] = 1
	}
	after, _ := runstats.ReadSelf()
	fmt.Println("minor page faults:", after.MinorFaults-before.MinorFaults)
	fmt.Println("peak RSS:", after.PeakRSSBytes>>20, "MiB")
}
