package runstats

import "syscall"

// rusageThread is Linux's RUSAGE_THREAD (since 2.6.26), which package
// syscall does not name. A variable only so that a test can make a kernel
// refuse it.
var rusageThread = 1

// rusage reads getrusage(2) for one target (RUSAGE_SELF or RUSAGE_THREAD)
// into a buffer it owns, so that reading allocates nothing.
type rusage struct {
	who int
	buf *syscall.Rusage
}

// newRusage reads the calling thread's counts when thread is set and the
// kernel offers them, else the process's, else none.
func newRusage(thread bool) (Scope, rusage) {
	buf := new(syscall.Rusage)
	if thread && syscall.Getrusage(rusageThread, buf) == nil {
		return ScopeThread, rusage{who: rusageThread, buf: buf}
	}
	if syscall.Getrusage(syscall.RUSAGE_SELF, buf) == nil {
		return ScopeProcess, rusage{who: syscall.RUSAGE_SELF, buf: buf}
	}
	return ScopeNone, rusage{}
}

// read fills c, or leaves it as it was when the OS refuses.
func (r rusage) read(c *osCounts) {
	if r.buf == nil || syscall.Getrusage(r.who, r.buf) != nil {
		return
	}
	*c = osCounts{
		minflt: uint64(r.buf.Minflt), majflt: uint64(r.buf.Majflt),
		nvcsw: uint64(r.buf.Nvcsw), nivcsw: uint64(r.buf.Nivcsw),
	}
}
