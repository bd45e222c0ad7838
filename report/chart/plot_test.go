package chart

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gcperf/gcperf/report"
	"github.com/gcperf/gcperf/sweep"
)

// fixturePath is the path of one of report's fixtures (report/testdata).
func fixturePath(name string) string { return filepath.Join("..", "testdata", name) }

// TestReadPlot checks that a Plot draws what the chart's function draws of
// the files, as the golden files hold it: the spectrum names each result
// by its file, and the sweep's charts draw the advice's SLO or Plot.SLO.
func TestReadPlot(t *testing.T) {
	results := []string{fixturePath("list.json"), fixturePath("threads.json"), fixturePath("errors.json")}
	sw := []string{fixturePath("sweep.json")}
	tests := []struct {
		golden string
		kind   Kind
		files  []string
		slo    *sweep.SLO
	}{
		{"spectrum_all", KindSpectrum, results, nil},
		{"hist_threads", KindHistogram, results[1:2], nil},
		{"timeline_list", KindTimeline, results[:1], &sweep.SLO{P99: time.Millisecond}}, // ignored
		{"sweep_pareto_slo", KindPareto, sw, nil},                                       // the advice's
		{"sweep_pareto", KindPareto, sw, &sweep.SLO{Throughput: 1000}},                  // no P99 bound: none
		{"sweep_p99", KindSweepP99, sw, &sweep.SLO{}},
		{"sweep_rss", KindSweepRSS, sw, &sweep.SLO{P99: time.Millisecond}}, // ignored
		{"sweep_throughput", KindSweepThroughput, sw, nil},
	}
	for _, tt := range tests {
		t.Run(tt.golden, func(t *testing.T) {
			p, err := ReadPlot(tt.kind, tt.files)
			if err != nil {
				t.Fatal(err)
			}
			p.SLO = tt.slo
			checkChart(t, tt.golden, func(w *bytes.Buffer, format Format) error { return p.Draw(w, format) })
		})
	}
	// Another bound than the advice's.
	p, err := ReadPlot(KindSweepP99, sw)
	if err != nil {
		t.Fatal(err)
	}
	p.SLO = &sweep.SLO{P99: 3 * time.Millisecond}
	var got, want bytes.Buffer
	if err := p.Draw(&got, SVG); err != nil {
		t.Fatal(err)
	}
	if err := SweepSLO(&want, p.sweep, KindSweepP99, SVG, 3*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got.Bytes(), want.Bytes()) {
		t.Error("sweep-p99 with an SLO of p99=3ms: not SweepSLO's chart")
	}
}

func TestReadPlotErrors(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "missing.json")
	list, sw, ex := fixturePath("list.json"), fixturePath("sweep.json"), fixturePath("exec.json")
	notes := filepath.Join(dir, "notes.txt")
	if err := os.WriteFile(notes, []byte("hello\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		kind  Kind
		files []string
		is    error  // nil: not a *FileError
		wants string // FileError.Wants
		want  string // the whole message
	}{
		{KindPareto, []string{list}, sweep.ErrNotSweep, "a sweep's sweep.json",
			"chart: " + list + `: not a gcperf sweep summary: schema "gcperf/v2" (a pareto chart reads a sweep's sweep.json)`},
		{KindSweepRSS, []string{notes}, sweep.ErrNotSweep, "a sweep's sweep.json",
			"chart: " + notes + ": not a gcperf sweep summary: invalid character 'h' looking for beginning of value (a sweep-rss chart reads a sweep's sweep.json)"},
		{KindTimeline, []string{sw}, report.ErrNotResult, "gcperf results, FILE.json",
			"chart: " + sw + `: not a gcperf result: schema "gcperf-sweep/v1" (a timeline chart reads gcperf results, FILE.json)`},
		{KindTimeline, []string{ex}, ErrExecResult, "",
			"chart: " + ex + ": a command's result (gcperf exec) has no runs to chart: gcperf report -format html draws its RSS and heap goal over time"},
		{KindSpectrum, []string{list, missing}, fs.ErrNotExist, "",
			"chart: " + missing + ": no such file or directory"},
		{KindSweepP99, []string{dir}, report.ErrNotRegular, "",
			"chart: " + dir + ": is a directory"},
		{0, []string{list}, nil, "",
			"chart: Kind(0) is not a chart (spectrum, hist, timeline, causes, sweep-p99, sweep-rss, sweep-throughput, pareto)"},
		{KindHistogram, nil, nil, "", "chart: no file to plot"},
		{KindTimeline, []string{list, list}, nil, "", "chart: a timeline chart is of one file; got 2"},
	}
	for _, tt := range tests {
		t.Run(tt.kind.String()+" "+strings.Join(tt.files, " "), func(t *testing.T) {
			p, err := ReadPlot(tt.kind, tt.files)
			if p != nil || err == nil {
				t.Fatalf("ReadPlot: %v, %v; want an error", p, err)
			}
			if err.Error() != tt.want {
				t.Errorf("error %q\nwant  %q", err, tt.want)
			}
			var fe *FileError
			switch {
			case tt.is == nil && errors.As(err, &fe):
				t.Errorf("a *FileError for %s", fe.File)
			case tt.is == nil:
			case !errors.As(err, &fe) || !errors.Is(err, tt.is):
				t.Errorf("error %v: not a *FileError wrapping %v", err, tt.is)
			case fe.Kind != tt.kind || fe.Wants() != tt.wants || strings.Contains(fe.Err.Error(), fe.File):
				t.Errorf("FileError %+v: kind %v, wants %q, Err naming the file; want %v, %q and not", fe, fe.Kind, fe.Wants(), tt.kind, tt.wants)
			}
		})
	}
}
