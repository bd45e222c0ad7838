package profiles

import "github.com/gcperf/gcperf/profiles/profinfo"

// Kind names a profile.
type Kind = profinfo.Kind

const (
	CPU    = profinfo.CPU    // runtime/pprof CPU profile
	Heap   = profinfo.Heap   // heap profile, with allocations (alloc_space, alloc_objects, inuse_*)
	Block  = profinfo.Block  // blocking on synchronisation, with runtime.SetBlockProfileRate
	Mutex  = profinfo.Mutex  // mutex contention, with runtime.SetMutexProfileFraction
	Trace  = profinfo.Trace  // runtime/trace execution trace (not a pprof file)
	FGProf = profinfo.FGProf // github.com/felixge/fgprof wall-clock profile (pprof format)
)

// Kinds lists every kind, in the order reports list them.
var Kinds = []Kind{CPU, Heap, Block, Mutex, Trace, FGProf}

// FileName is the fixed name of each kind's file under a -profile DIR.
func FileName(k Kind) string {
	if k == Trace {
		return "trace.out"
	}
	return string(k) + ".pprof"
}

// A Request asks for one profile written to Path.
type Request struct {
	Kind Kind
	Path string
}

// Profile is a profile that was written: its kind, file, how long it
// covered, and its top functions (none for a trace). It is declared in
// profinfo, which a result's reader imports without linking the profilers.
type Profile = profinfo.Profile

// Summary is the top of a pprof profile by function, read back from its
// file: the sample type summed (e.g. "cpu nanoseconds", "alloc_space bytes"),
// the total, and the functions with the largest flat (or cumulative) values.
type Summary = profinfo.Summary

// Func is one function's share of a profile.
type Func = profinfo.Func

// The functions below are the package's API; see their files.
//
//	func Check(reqs []Request, overwrite bool) error
//	func Start(reqs []Request) (*Session, error)
//	func (s *Session) Stop() ([]Profile, error)
//	func Summarize(path string, n int, cum bool) (Summary, error)
//	func Diff(oldPath, newPath string, n int) ([]Change, error)
//	func Compare(oldPath, newPath string, n int) (Comparison, error)
//	func WriteTop(w io.Writer, s Summary, cum bool) error
//	func WriteDiff(w io.Writer, c Comparison) error
