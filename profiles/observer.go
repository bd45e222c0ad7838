package profiles

import (
	"errors"
	"sync"

	"github.com/gcperf/gcperf/workload"
)

// A Profiler is a workload.Observer that profiles a benchmark's timed runs:
// it starts the profilers as the first timed run starts (after the
// warmups, between runs) and stops them when the benchmark ends.
type Profiler struct {
	reqs      []Request
	once      sync.Once
	mu        sync.Mutex
	sess      *Session
	err       error
	profiles  []Profile
	abandoned bool // Abandon was called: nothing starts, nothing is written
}

// NewProfiler returns a Profiler for reqs; check them with Check first.
func NewProfiler(reqs []Request) *Profiler { return &Profiler{reqs: reqs} }

func (p *Profiler) Begin(workload.Begin) {}

func (p *Profiler) RunStart(phase workload.Phase, _ int) {
	if phase != workload.Timed {
		return
	}
	p.once.Do(func() {
		p.mu.Lock()
		defer p.mu.Unlock()
		if p.abandoned {
			return
		}
		p.sess, p.err = Start(p.reqs)
	})
}

func (p *Profiler) RunEnd(workload.Phase, int, *workload.RunRecord) {}

func (p *Profiler) End(*workload.Result) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.sess != nil {
		p.profiles, p.err = p.sess.Stop()
		p.sess = nil
	}
}

// Abandon gives the profiles up: the profilers stop if they run, their
// temporary files are removed, and none starts after, so that a benchmark
// left to finish on its own (an interrupted profiled pass) writes nothing.
func (p *Profiler) Abandon() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.abandoned = true
	if p.sess != nil {
		p.sess.Abort()
		p.sess = nil
	}
	p.err = errors.New("the profiles were abandoned")
}

// Profiles returns the profiles written, and the first error met starting
// or stopping the profilers; an error when no timed run started them.
func (p *Profiler) Profiles() ([]Profile, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.profiles == nil && p.err == nil {
		return nil, errors.New("no profile was taken: the benchmark ended before its first timed run")
	}
	return p.profiles, p.err
}
