package chart

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/gcperf/gcperf/report"
	"github.com/gcperf/gcperf/sweep"
)

// commandSweepFile writes the fixture sweep as a sweep over a command
// (gcperf sweep -- CMD): a wall time and a peak RSS per point, no P99 and
// no throughput.
func commandSweepFile(t *testing.T) string {
	t.Helper()
	s := readSweep(t)
	s.Command = []string{"./prog"}
	for i := range s.Rows {
		r := &s.Rows[i]
		r.Command, r.Wall, r.P99, r.P999, r.Throughput = true, time.Duration(i+1)*time.Second, 0, 0, 0
	}
	var b bytes.Buffer
	if err := sweep.WriteJSON(&b, s); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "sweep.json")
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// failedResultFile writes the fixture list.json as a result whose every
// run failed.
func failedResultFile(t *testing.T) string {
	t.Helper()
	d, err := report.ReadFile(fixturePath("list.json"))
	if err != nil {
		t.Fatal(err)
	}
	for i := range d.Operations {
		d.Operations[i].Runtime.Count = 0
	}
	var b bytes.Buffer
	if err := report.JSON(&b, d); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "failed.json")
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// A chart whose figure the file lacks is refused, not drawn as zeros:
// the throughput of a sweep over a command (issue 24, item 16: 0/s at
// every GOGC), the runtimes of a result whose every run failed. The
// charts of what the file has are drawn.
func TestReadPlotLackingFigure(t *testing.T) {
	cmd, failed := commandSweepFile(t), failedResultFile(t)
	tests := []struct {
		kind Kind
		file string
		is   error  // nil: drawn
		want string // the error
		has  []Kind // the NoFigureError's
	}{
		{KindSweepP99, cmd, nil, "", nil},
		{KindSweepRSS, cmd, nil, "", nil},
		{KindPareto, cmd, nil, "", nil},
		{KindSweepThroughput, cmd, ErrNoFigure,
			"chart: " + cmd + ": the sweep has no throughput figure (its charts: sweep-p99, sweep-rss, pareto)",
			[]Kind{KindSweepP99, KindSweepRSS, KindPareto}},
		{KindSpectrum, failed, ErrNoRuntime, "chart: " + failed + ": " + ErrNoRuntime.Error(), nil},
		{KindHistogram, failed, ErrNoRuntime, "chart: " + failed + ": " + ErrNoRuntime.Error(), nil},
		{KindTimeline, failed, ErrNoRuntime, "chart: " + failed + ": " + ErrNoRuntime.Error(), nil},
	}
	for _, tt := range tests {
		t.Run(tt.kind.String()+" "+filepath.Base(tt.file), func(t *testing.T) {
			p, err := ReadPlot(tt.kind, []string{tt.file})
			if tt.is == nil {
				if err != nil {
					t.Fatal(err)
				}
				var b bytes.Buffer
				if err := p.Draw(&b, SVG); err != nil {
					t.Fatal(err)
				}
				return
			}
			var fe *FileError
			if !errors.As(err, &fe) || !errors.Is(err, tt.is) || err.Error() != tt.want {
				t.Fatalf("ReadPlot: %v\nwant a *FileError wrapping %v: %s", err, tt.is, tt.want)
			}
			var nf *NoFigureError
			if errors.As(err, &nf) && (nf.Kind != tt.kind || !slices.Equal(nf.Has, tt.has)) {
				t.Errorf("NoFigureError %+v, want kind %v, has %v", nf, tt.kind, tt.has)
			}
		})
	}
}
