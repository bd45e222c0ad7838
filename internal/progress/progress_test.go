package progress

import (
	"io"
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
