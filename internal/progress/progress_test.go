package progress

import (
	"io"
	"strings"
	"testing"
	"time"

	"github.com/gcperf/gcperf/workload"
)

// The RunEnd of the bar allocates nothing: the goroutines running the
// benchmark only count.
func TestProgressRunEndAllocs(t *testing.T) {
	p := NewRuns(io.Discard, time.Hour)
	p.Begin(workload.Begin{Config: workload.DefaultConfig()})
	defer p.End(nil)
	if a := testing.AllocsPerRun(1000, func() {
		p.RunStart(workload.Timed, 1)
		p.RunEnd(workload.Timed, 1, nil)
	}); a != 0 {
		t.Errorf("RunStart+RunEnd allocate %v times", a)
	}
}

// A time-bounded benchmark's bar counts milliseconds against -duration,
// not runs against -runs.
func TestProgressDuration(t *testing.T) {
	var w strings.Builder
	p := NewRuns(&w, time.Hour)
	cfg := workload.DefaultConfig()
	cfg.Warmups, cfg.Runs, cfg.Duration = 0, 0, 2*time.Second
	p.Begin(workload.Begin{Config: cfg})
	p.RunStart(workload.Timed, 1)
	p.due.Store(true)
	p.RunEnd(workload.Timed, 1, nil)
	p.End(nil)
	if out := w.String(); !strings.Contains(out, "/2000") || !strings.Contains(out, "ms") {
		t.Errorf("the bar of a 2s benchmark: %q", out)
	}
}
