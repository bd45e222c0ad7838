package profiles

import (
	"context"
	"errors"
	"fmt"

	"github.com/gcperf/gcperf/internal/interrupt"
	"github.com/gcperf/gcperf/workload"
)

// Profilers distort what they observe (fgprof stops the world about 99
// times a second, CPU profiling interrupts with signals, tracing costs
// several percent), so gcperf takes its profiles from a separate pass, after
// the measured runs, with the same settings: the measured figures are never
// taken under a profiler unless asked (NewProfiler as an Observer of the
// measured runs).

// PassConfig is the configuration of the separate profiled pass after
// measured runs of cfg: runs timed runs with cfg's settings, no outliers
// discarded (its figures are not reported).
func PassConfig(cfg workload.Config, runs int) workload.Config {
	cfg.Runs, cfg.Outliers = runs, 0
	return cfg
}

// ErrAbandoned is Pass's error when abandon was closed. Pass's errors do
// not start with "profiles:": the command says they are about profiles.
var ErrAbandoned = errors.New("the profiled pass was abandoned at an interrupt: no profiles")

// Pass runs the separate profiled pass, cfg over mix with the profilers of
// reqs (checked with Check), after measured, the measured runs' result,
// which must be complete. The pass's own figures are discarded. When
// abandon is closed the pass is given up at once (ErrAbandoned): its
// temporary files are removed and its profiles lost, the measured runs not.
// A pass that is interrupted or halts returns the profiles it took with an
// error saying what they cover.
func Pass(ctx context.Context, cfg workload.Config, mix workload.Mix, reqs []Request, measured *workload.Result, abandon <-chan struct{}) ([]Profile, error) {
	if !measured.Complete() {
		return nil, errors.New("no profiled pass after an incomplete benchmark")
	}
	p := NewProfiler(reqs)
	// An abandoned pass is stopped, not waited for: its operations may
	// ignore their context.
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	stop := make(chan struct{})
	cfg.Stop = stop
	type pass struct {
		res  *workload.Result
		got  []Profile
		perr error
	}
	r, err, ok := interrupt.Unless(abandon, func() (pass, error) {
		res, err := workload.Run(ctx, cfg, mix, p)
		if err != nil && res == nil {
			return pass{}, err
		}
		got, perr := p.Profiles()
		return pass{res, got, perr}, nil
	})
	switch {
	case !ok:
		p.Abandon() // its temporary files, and no profile started after this
		close(stop)
		return nil, ErrAbandoned
	case err != nil:
		return nil, err
	case r.perr != nil:
		return r.got, r.perr
	case r.res.Interrupted:
		return r.got, fmt.Errorf("the profiled pass was interrupted after %d of %d runs: its profiles cover those only", len(r.res.Runs), cfg.Runs)
	case r.res.Halted != "":
		return r.got, fmt.Errorf("the profiled pass halted after %d of %d runs: %s", len(r.res.Runs), cfg.Runs, r.res.Halted)
	}
	return r.got, nil
}
