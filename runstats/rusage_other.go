//go:build !linux

package runstats

// rusage reads nothing where gcperf does not read getrusage(2): the
// counts stay zero and the scope is ScopeNone.
type rusage struct{}

func newRusage(bool) (Scope, rusage) { return ScopeNone, rusage{} }

func (rusage) read(*osCounts) {}
