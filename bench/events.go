package bench

import (
	"time"

	"github.com/gcperf/gcperf/workload"
)

// An Event is something a benchmark has to say as it goes: what runs, a
// warning, the phases. Options.Events receives them in order, from the
// goroutine that called Run or RunCount; the measured runs themselves are
// followed by Options.Observers.
type Event interface{ event() }

// Serving: the HTTP server of Options.HTTP listens on Addr. Exposed is set
// when other machines can reach it (Options.HTTPPublic on an address that
// is not loopback).
type Serving struct {
	Addr    string
	Exposed bool
}

// EnvIncomplete: the environment recorded in the report is incomplete.
type EnvIncomplete struct{ Err error }

// ServerStarting: the server under test (Options.Server) is starting,
// with the command's path and settings ("" inherited), its output in Log.
type ServerStarting struct {
	Path, GOGC, GOMEMLIMIT, Log string
}

// ServerReady: the server answered its readiness URL after After.
type ServerReady struct {
	After time.Duration
	URL   string
}

// Running: the measured runs start, mix with config.
type Running struct {
	Mix    workload.Mix
	Config workload.Config
}

// RunningProcesses: RunCount starts its N processes, one after another,
// each writing its result to Dir.
type RunningProcesses struct {
	Mix workload.Mix
	N   int
	Dir string
}

// ProfilingPass: the separate profiled pass of Runs runs starts.
type ProfilingPass struct{ Runs int }

// A Phase is where a benchmark is, for what a caller's interrupt means:
// Run moves from Measuring to Profiling when the measured runs are over
// (whether or not a profiled pass follows), then to Writing; RunCount from
// Measuring to Writing. Options.Abort is heeded until the move to Writing
// (Run: to Profiling), and checked after the event is delivered, so a
// caller that closes Abort only before it has seen the event never has
// half the reports written.
type Phase int

// The phases.
const (
	Measuring Phase = iota
	Profiling
	Writing
)

func (Serving) event()          {}
func (EnvIncomplete) event()    {}
func (ServerStarting) event()   {}
func (ServerReady) event()      {}
func (Running) event()          {}
func (RunningProcesses) event() {}
func (ProfilingPass) event()    {}
func (Phase) event()            {}

// event delivers e to o.Events, if any.
func (o *Options) event(e Event) {
	if o.Events != nil {
		o.Events(e)
	}
}

// closed reports whether c is closed (never for nil).
func closed(c <-chan struct{}) bool {
	select {
	case <-c:
		return true
	default:
		return false
	}
}
