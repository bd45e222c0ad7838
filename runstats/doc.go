// Package runstats reads the counters a benchmark takes between its runs:
// what the collector and the scheduler did (runtime/metrics), the page
// faults and context switches of the process or of one thread (getrusage),
// the process's own RSS, faults, switches and CPU time (/proc), and the
// machine's CPU time and steal (/proc/stat). Its readers allocate when
// they are made and never when they read, so that reading them adds no
// garbage to the heap a benchmark measures. It imports no other gcperf
// package and no gopsutil: the engine that reads it stays small, and the
// machine's description is package env's.
//
//	s := runstats.NewGCSampler()
//	from, to := s.NewReading(), s.NewReading() // before the measured phase
//	pr, err := runstats.NewProcessReader("/", os.Getpid()) // err: no /proc, not Linux
//	var p0, p1 runstats.Process
//	pr.Read(&p0)
//	s.Read(from)
//	work()
//	s.Read(to) // no allocation
//	pr.Read(&p1) // none either
//	d := s.Delta(from, to)
//	fmt.Println(d.Cycles, d.STW, d.AllocBytes, p1.MinorFaults-p0.MinorFaults)
//
// The main functions:
//
//   - a [GCSampler] reads the collector's counters into [GCReading] values,
//     and [GCSampler.Delta] gives what it did between two ([GCDelta]);
//   - a [RunSampler] reads, in one runtime/metrics read and one getrusage,
//     everything that can make a run slow ([RunReading]), and
//     [RunSampler.Delta] gives the collector's part ([GCDelta]) and the
//     rest ([RunDelta]);
//   - a [ProcessReader] reads a process's counters ([Process]) from /proc,
//     and so do [ReadProcess] and [ReadSelf], once;
//   - [ReadSystemCPU] reads the machine's CPU time and steal
//     ([SystemCPU]), allocating: around a measured phase, not within it.
//
// # The collector
//
// A GCSampler reads /gc/cycles/total, the heap's allocations, live bytes and
// goal, the GC CPU classes and the stop-the-world pause histogram
// (/sched/pauses/total/gc:seconds) from runtime/metrics. Its sample slice and
// its readings are allocated once, so Read allocates nothing and costs about
// 0.7–0.9µs (BenchmarkGCSamplerReadDelta); gcperf reads a RunSampler, which
// adds the scheduler's histogram and getrusage (about 2µs in all), between
// every two timed runs. A GCSampler is not
// safe for concurrent use; give each goroutine its own. Pause durations come
// from the histogram's buckets, so STW and the pause quantiles
// ([GCSampler.PauseQuantile]) are within a bucket's width (up to a quarter)
// of the truth; the CPU figures are the runtime's estimates, updated at
// each pause and as each cycle ends. [GCSampler.ReadFull], for readings
// around a whole phase, also reads the heap's objects and the histogram of
// the time spent stopping the world ([GCSampler.Stopping]); one histogram
// more costs about 0.1µs, so the readings between runs leave them out.
//
// # The causes of a slow run
//
// A [RunSampler] reads what a GCSampler's Read does, the scheduler's
// latency histogram (/sched/latencies:seconds, one wait in eight of each
// goroutine timed by the runtime) in the same runtime/metrics read, and
// getrusage: of the whole process ([ScopeProcess]), or of the calling
// thread ([ScopeThread], RUSAGE_THREAD, when the goroutine that reads is
// locked to its thread); none where the OS offers neither ([ScopeNone]).
// [RunDelta] holds the page faults, the context switches, the scheduling
// waits of at least [SchedSlow], and whether a mark phase was in progress
// at the first reading (one stop-the-world pause more than twice the
// completed cycles). It allocates nothing after NewReading.
//
// # Process
//
// A [ProcessReader] opens root/proc/<pid>/stat and root/proc/<pid>/status
// once and keeps them open; each Read reads both again from the start into
// a buffer it owns and parses them in place, so it allocates nothing after
// NewProcessReader. RSSBytes is stat's rss in pages times the page size
// (none when negative), MinorFaults and MajorFaults are minflt and majflt,
// UserCPU and SystemCPU are utime and stime in ticks of 1/100 s; PeakRSSBytes
// is status's VmHWM and the context switches are its
// voluntary_ctxt_switches and nonvoluntary_ctxt_switches. The files are
// parsed as prometheus/procfs parses them (a status line it cannot read
// leaves its field 0), by functions of the bytes alone, because procfs's own
// readers allocate at every call.
//
// [ReadProcess] opens, reads and closes, for a caller that reads once;
// [ReadSelf] reads the running process from the live /proc. Readers take a
// root directory, as prometheus/procfs does ("/" for the live machine), so
// tests read fixtures under testdata/.
package runstats
