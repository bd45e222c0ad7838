package workload

import (
	"context"
	"time"
)

// The built-in operations: noop calibrates the harness; spin and sleep have
// known latencies, for tests and calibration.
func init() {
	MustRegister(Spec{
		Name: "noop",
		Doc:  "returns at once: what remains is the harness's own cost",
		New:  func(Params) (Operation, error) { return Noop{}, nil },
	})
	MustRegister(Spec{
		Name:   "spin",
		Doc:    "busy-waits on the monotonic clock for d (holds a processor)",
		Params: []Param{{Name: "d", Kind: Duration, Default: "100us", Min: "0s", Doc: "how long to spin"}},
		New:    func(p Params) (Operation, error) { return Spin{D: p.Duration("d")}, nil },
	})
	MustRegister(Spec{
		Name:   "sleep",
		Doc:    "sleeps for d (releases the processor); returns early when cancelled",
		Params: []Param{{Name: "d", Kind: Duration, Default: "1ms", Min: "0s", Doc: "how long to sleep"}},
		New:    func(p Params) (Operation, error) { return &Sleep{D: p.Duration("d")}, nil },
	})
}

// Noop does nothing.
type Noop struct{}

func (Noop) Name() string                      { return "noop" }
func (Noop) Run(context.Context, *Probe) error { return nil }

// Spin busy-waits for D, checking its context every 1024 clock reads.
type Spin struct{ D time.Duration }

func (Spin) Name() string       { return "spin" }
func (s Spin) Describe() string { return "d=" + s.D.String() }
func (s Spin) Run(ctx context.Context, p *Probe) error {
	start := p.Started()
	for i := 0; time.Since(start) < s.D; i++ {
		if i&1023 == 1023 && ctx.Err() != nil {
			return ctx.Err()
		}
	}
	return nil
}

// Sleep sleeps for D or until its context is done. Its timer is allocated
// once per goroutine (Clone), so a timed run allocates nothing.
type Sleep struct {
	D     time.Duration
	timer *time.Timer
}

func (*Sleep) Name() string       { return "sleep" }
func (s *Sleep) Describe() string { return "d=" + s.D.String() }
func (s *Sleep) Clone() Operation { return &Sleep{D: s.D} }
func (s *Sleep) Setup(context.Context) error {
	s.timer = time.NewTimer(time.Hour)
	s.timer.Stop()
	return nil
}
func (s *Sleep) Run(ctx context.Context, p *Probe) error {
	if s.timer == nil {
		_ = s.Setup(ctx)
	}
	s.timer.Reset(s.D)
	select {
	case <-s.timer.C:
		return nil
	case <-ctx.Done():
		s.timer.Stop()
		return ctx.Err()
	}
}
