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

// A ProcessReader opens a process's /proc files once and reads them again
// at every Read without allocating, so that it can be read around the timed
// runs. Here it reads a fixture: a root other than "/" holds a proc/<pid>
// tree, as tests use.
func ExampleProcessReader() {
	r, err := runstats.NewProcessReader("testdata/host1", 4242) // "/", os.Getpid() for this process
	if err != nil {
		fmt.Println(err)
		return
	}
	defer r.Close()
	var p runstats.Process // reused by every Read
	if err := r.Read(&p); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("peak RSS:", p.PeakRSSBytes>>20, "MiB")
	fmt.Println("faults:", p.MinorFaults, "minor,", p.MajorFaults, "major")
	fmt.Println("context switches:", p.VoluntaryCtxSwitches, "voluntary,", p.InvoluntaryCtxSwitches, "involuntary")
	fmt.Println("CPU:", p.UserCPU, "user,", p.SystemCPU, "system")

	_, err = runstats.NewProcessReader("testdata/host1", 999)
	fmt.Println(err)
	// Output:
	// peak RSS: 24 MiB
	// faults: 1534 minor, 2 major
	// context switches: 311 voluntary, 27 involuntary
	// CPU: 2.5s user, 750ms system
	// runstats: process 999: open testdata/host1/proc/999/stat: no such file or directory
}

// PauseQuantile reads the stop-the-world pauses between two readings as a
// distribution; each is the upper bound of its histogram bucket.
func ExampleGCSampler_PauseQuantile() {
	s := runstats.NewGCSampler()
	before, after := s.NewReading(), s.NewReading()
	s.Read(before)
	for range 5 {
		runtime.GC()
	}
	s.Read(after)
	d := s.Delta(before, after)
	p50, p99 := s.PauseQuantile(before, after, 0.5), s.PauseQuantile(before, after, 0.99)
	fmt.Println("pauses >= 10:", d.Pauses >= 10)
	fmt.Println("0 < P50 <= P99 <= max:", 0 < p50 && p50 <= p99 && p99 <= d.STWMax)
	// Output:
	// pauses >= 10: true
	// 0 < P50 <= P99 <= max: true
}
