package runstats

import "syscall"

// rusageThread is Linux's RUSAGE_THREAD (since 2.6.26), which package
// syscall does not name.
const rusageThread = 1

// rusage reads getrusage(2) for one target (RUSAGE_SELF or RUSAGE_THREAD)
// into a buffer it owns, so that reading allocates nothing.
type rusage struct {
	who int
	buf *syscall.Rusage
}

func newRusage(thread bool) (Scope, rusage) {
	r := rusage{who: syscall.RUSAGE_SELF, buf: new(syscall.Rusage)}
	scope := ScopeProcess
	if thread {
		r.who, scope = rusageThread, ScopeThread
	}
	if syscall.Getrusage(r.who, r.buf) != nil {
		return ScopeNone, rusage{}
	}
	return scope, r
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
