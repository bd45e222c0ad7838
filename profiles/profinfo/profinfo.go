// Package profinfo describes a profile that was written: its kind, file,
// duration and top functions. It is the part of
// [github.com/gcperf/gcperf/profiles] that a result records, in a package of
// its own so that a program reading results ([github.com/gcperf/gcperf/report])
// links no profiler. The profiles package names these types as its own
// (profiles.Profile is profinfo.Profile).
package profinfo

import "time"

// Kind names a profile.
type Kind string

const (
	CPU    Kind = "cpu"    // runtime/pprof CPU profile
	Heap   Kind = "heap"   // heap profile, with allocations (alloc_space, alloc_objects, inuse_*)
	Block  Kind = "block"  // blocking on synchronisation, with runtime.SetBlockProfileRate
	Mutex  Kind = "mutex"  // mutex contention, with runtime.SetMutexProfileFraction
	Trace  Kind = "trace"  // runtime/trace execution trace (not a pprof file)
	FGProf Kind = "fgprof" // github.com/felixge/fgprof wall-clock profile (pprof format)
)

// Profile is a profile that was written: its kind, file, how long it
// covered, and its top functions (none for a trace).
type Profile struct {
	Kind     Kind
	File     string
	Duration time.Duration
	Top      Summary
}

// Summary is the top of a pprof profile by function, read back from its
// file: the sample type summed (e.g. "cpu nanoseconds", "alloc_space bytes"),
// the total, and the functions with the largest flat (or cumulative) values.
type Summary struct {
	SampleType string // e.g. "cpu", "alloc_space", "delay"
	Unit       string // e.g. "nanoseconds", "bytes", "count"
	Total      int64
	Funcs      []Func
}

// Func is one function's share of a profile.
type Func struct {
	Name    string
	Flat    int64
	Cum     int64
	FlatPct float64 // of Summary.Total, 0..100
	CumPct  float64
}
