package bench_test

import (
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/gcperf/gcperf/bench"
	"github.com/gcperf/gcperf/internal/safefile"
	"github.com/gcperf/gcperf/workload"
)

// intruder writes a file at path during the first run, as another process
// might while the benchmark streams to it.
type intruder struct {
	path string
	once *sync.Once
}

func (intruder) Name() string { return "intruder" }
func (o intruder) Run(context.Context, *workload.Probe) error {
	o.once.Do(func() { _ = os.WriteFile(o.path, []byte("theirs"), 0o644) })
	return nil
}

// failingSetup cannot start.
type failingSetup struct{ workload.Noop }

func (failingSetup) Setup(context.Context) error { return errors.New("no setup") }

// csvRows counts the CSV rows of b, failing on a malformed one.
func csvRows(t *testing.T, b []byte) int {
	t.Helper()
	rows, err := csv.NewReader(bytes.NewReader(b)).ReadAll()
	if err != nil {
		t.Fatalf("the run log is not CSV: %v", err)
	}
	return len(rows)
}

// hlogCount is the number of values in an interval log, read back with
// hdrhistogram-go's reader.
func hlogCount(t *testing.T, b []byte) int64 {
	t.Helper()
	r := hdrhistogram.NewHistogramLogReader(bytes.NewReader(b))
	var n int64
	for {
		h, err := r.NextIntervalHistogram()
		if err != nil {
			t.Fatalf("reading the interval log: %v", err)
		}
		if h == nil {
			return n
		}
		n += h.TotalCount()
	}
}

// The streams appear whole at their paths once the runs are over, through
// a temporary file that never outlives Run; "-" streams to stdout, the
// text report then going to stderr; a stream that cannot be put in place
// is an error of the Outcome, named by its flag, and leaves nothing behind.
func TestRunStreams(t *testing.T) {
	const runs = 50
	tests := []struct {
		name      string
		runlog    string // "-", or a name in the test's directory
		hlog      string
		overwrite bool
		existing  bool // the run log's file exists before the run
		op        func(runlog string) workload.Operation
		wantErr   string // in the Outcome's WriteErrs, with errIs
		errIs     error
		noRuns    bool // the runs never start: Outcome.Err
	}{
		{name: "both", runlog: "runs.csv", hlog: "runs.hlog"},
		{name: "run log to stdout", runlog: "-", hlog: "runs.hlog"},
		{name: "hlog to stdout", hlog: "-"},
		{name: "overwrite", runlog: "runs.csv", overwrite: true, existing: true},
		{name: "a file appears", runlog: "runs.csv", op: func(p string) workload.Operation { return intruder{p, new(sync.Once)} },
			wantErr: "the run log: file exists", errIs: safefile.ErrExists},
		{name: "no runs", runlog: "runs.csv", hlog: "runs.hlog", op: func(string) workload.Operation { return failingSetup{} }, noRuns: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			path := func(name string) string {
				if name == "-" || name == "" {
					return name
				}
				return filepath.Join(dir, name)
			}
			o := options(runs)
			runlog, hlog := path(tt.runlog), path(tt.hlog)
			o.RunLog, o.HistogramLog, o.Overwrite = bench.File{Path: runlog, Label: "the run log"}, bench.File{Path: hlog}, tt.overwrite
			if tt.existing {
				if err := os.WriteFile(runlog, []byte("old"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			var op workload.Operation = workload.Noop{}
			if tt.op != nil {
				op = tt.op(runlog)
			}
			var stdout, stderr bytes.Buffer
			o.Stdout, o.Stderr = &stdout, &stderr
			out, err := bench.Run(context.Background(), o, workload.Mix{op})
			if err != nil {
				t.Fatalf("Run: %v", err)
			}
			entries, _ := os.ReadDir(dir)
			for _, e := range entries {
				if safefile.IsTemp(e.Name()) {
					t.Errorf("temporary file %s left behind", e.Name())
				}
			}
			switch {
			case tt.noRuns:
				if out.Err == nil {
					t.Errorf("the runs started: outcome %+v", out)
				}
				if len(entries) != 0 {
					t.Errorf("files %v written when the runs never started", entries)
				}
				return
			case tt.wantErr != "":
				want := strings.ReplaceAll(tt.wantErr, "{}", runlog)
				if len(out.WriteErrs) != 1 || out.WriteErrs[0].Error() != want || !errors.Is(out.WriteErrs[0], tt.errIs) {
					t.Errorf("WriteErrs %v, want one: %s", out.WriteErrs, want)
				}
				if b, _ := os.ReadFile(runlog); string(b) != "theirs" {
					t.Errorf("the file that appeared holds %q, want it untouched", b)
				}
				return
			case err != nil || out.Failed():
				t.Fatalf("outcome %+v", out)
			}
			read := func(p string) []byte {
				if p == "-" {
					return stdout.Bytes()
				}
				b, err := os.ReadFile(p)
				if err != nil {
					t.Fatal(err)
				}
				return b
			}
			if runlog != "" {
				if n := csvRows(t, read(runlog)); n != runs+1 {
					t.Errorf("%d rows in the run log, want a header and %d runs", n, runs)
				}
			}
			if hlog != "" {
				if n := hlogCount(t, read(hlog)); n != runs {
					t.Errorf("%d runs in the interval log, want %d", n, runs)
				}
			}
			text := &stdout
			if runlog == "-" || hlog == "-" {
				text = &stderr
			}
			if !strings.Contains(text.String(), "noop") {
				t.Errorf("no text report where it belongs:\n%s", text)
			}
		})
	}
}
