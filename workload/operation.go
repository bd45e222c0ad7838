package workload

import (
	"context"
	"time"
)

// An Operation is one unit of work the engine times. Run is called once per
// execution; the time from just before the call to its return is the
// operation's runtime. Run should return promptly when ctx is done: it is
// cancelled on a timeout (Config.Timeout) and when the benchmark is stopped
// hard.
//
// With Config.Threads > 1 the same Operation runs in several goroutines at
// once, unless it implements Cloner.
type Operation interface {
	Name() string
	Run(ctx context.Context, p *Probe) error
}

// A Probe is handed to every execution of an Operation. The operation calls
// Respond when it starts responding (its response time); an operation that
// never calls it has a response time equal to its runtime. Results counts what
// the execution produced (rows, objects, bytes: whatever Unit names).
//
// The engine reuses one Probe per goroutine; an operation must not keep it
// after Run returns.
type Probe struct {
	start     time.Time
	response  time.Duration
	responded bool
	results   int64
}

// Respond marks the first response of the execution; later calls are
// ignored. It reads the monotonic clock once.
func (p *Probe) Respond() {
	if !p.responded {
		p.response = time.Since(p.start)
		p.responded = true
	}
}

// Results adds n to the execution's result count.
func (p *Probe) Results(n int64) { p.results += n }

// Started returns the instant the execution started, as read by the engine
// (with a monotonic clock reading).
func (p *Probe) Started() time.Time { return p.start }

func (p *Probe) reset() {
	p.response = 0
	p.responded = false
	p.results = 0
}

// Optional interfaces an Operation may implement.
type (
	// A Setupper is set up once before the warmups, outside every timed
	// region (the linked-list workload builds its base list here).
	Setupper interface {
		Setup(ctx context.Context) error
	}
	// A Teardowner is torn down once after the timed runs.
	Teardowner interface {
		Teardown() error
	}
	// A Cloner gives each goroutine of a multi-threaded benchmark its own
	// copy, for operations that hold state which is not safe to share.
	Cloner interface {
		Clone() Operation
	}
	// A Uniter names what Probe.Results counts ("objects", "rows"); the
	// default is "results".
	Uniter interface {
		Unit() string
	}
	// A Describer describes the operation's parameters ("size=1024 chunk=32"),
	// shown next to its name in reports.
	Describer interface {
		Describe() string
	}
	// A Footprinter says how many bytes the operation keeps live at its peak,
	// so that a caller can refuse a run that cannot fit in memory before it
	// allocates anything.
	Footprinter interface {
		LiveBytes() int64
	}
)

// A Mix is the list of operations run by each run of a benchmark.
// An operation may appear several times; each position is reported as an
// operation of its own.
type Mix []Operation
