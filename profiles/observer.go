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
	reqs     []Request
	once     sync.Once
	mu       sync.Mutex
	sess     *Session
	err      error
	profiles []Profile
}

// NewProfiler returns a Profiler for reqs; check them with Check first.
func NewProfiler(reqs []Request) *Profiler { return &Profiler{reqs: reqs} }

func (p *Profiler) Begin(workload.Begin) {}

func (p *Profiler) RunStart(phase workload.Phase, _ int) {
	if phase != workload.Timed {
		return
	}
	p.once.Do(func() {
		s, err := Start(p.reqs)
		p.mu.Lock()
		p.sess, p.err = s, err
		p.mu.Unlock()
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
