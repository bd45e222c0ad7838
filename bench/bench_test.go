package bench_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gcperf/gcperf/bench"
	"github.com/gcperf/gcperf/internal/safefile"
	"github.com/gcperf/gcperf/internal/setting"
	"github.com/gcperf/gcperf/profiles/pprofhttp"
	"github.com/gcperf/gcperf/workload"
)

// counting counts its runs, so that a test sees that nothing ran.
type counting struct{ n *atomic.Int64 }

func (counting) Name() string { return "counting" }
func (c counting) Run(context.Context, *workload.Probe) error {
	c.n.Add(1)
	return nil
}

// huge claims more live memory than any machine has.
type huge struct{ counting }

func (huge) Name() string     { return "huge" }
func (huge) LiveBytes() int64 { return math.MaxInt64 / 2 }
func (huge) Describe() string { return "-n 1" }

func options(runs int) bench.Options {
	cfg := workload.DefaultConfig()
	cfg.Warmups, cfg.Runs, cfg.Outliers = 0, runs, 0
	return bench.Options{Config: cfg, ProfileRuns: runs}
}

func TestRunRefusesBeforeRunning(t *testing.T) {
	dir := t.TempDir()
	existing := filepath.Join(dir, "existing.json")
	if err := os.WriteFile(existing, []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	json, _ := bench.LookupFormat("json")
	csv, _ := bench.LookupFormat("csv")
	tests := []struct {
		name    string
		edit    func(o *bench.Options)
		op      func(c counting) workload.Operation
		flag    string // the InputError's Flag
		want    string // in its message
		errIs   error
		linuxOK bool // the check needs /proc
	}{
		{name: "profile runs", edit: func(o *bench.Options) { o.ProfileRuns = -1 },
			flag: "profile-runs", want: "must be at least 1, got -1"},
		{name: "out is stdout", edit: func(o *bench.Options) { o.Dirs = []safefile.Output{{Label: "-out -", Path: "-"}} },
			want: "-out -: - is stdout, not a directory"},
		{name: "public without http", edit: func(o *bench.Options) { o.HTTPPublic = true },
			flag: "http-public", want: "goes with -http ADDR"},
		{name: "http not loopback", edit: func(o *bench.Options) { o.HTTP = "0.0.0.0:0" },
			flag: "http", want: "(-http-public allows it)", errIs: pprofhttp.ErrNotLoopback},
		{name: "two on stdout", edit: func(o *bench.Options) {
			o.Outputs = []bench.Output{{Label: "-json -", Path: "-", Format: json}, {Label: "-csv -", Path: "-", Format: csv}}
		}, want: "-json - and -csv -: at most one format can go to stdout"},
		{name: "existing", edit: func(o *bench.Options) {
			o.Outputs = []bench.Output{{Label: "-json " + existing, Path: existing, Format: json}}
		}, want: "-json " + existing + ": file exists", errIs: safefile.ErrExists},
		{name: "one file twice", edit: func(o *bench.Options) {
			p := filepath.Join(dir, "r")
			o.Outputs = []bench.Output{{Label: "-json r", Path: p, Format: json}, {Label: "-csv r", Path: p, Format: csv}}
		}, want: "the same file as"},
		{name: "runlog exists", edit: func(o *bench.Options) { o.RunLog = existing },
			want: "-runlog " + existing + ": file exists", errIs: safefile.ErrExists},
		{name: "hlog is a directory", edit: func(o *bench.Options) { o.HistogramLog = dir },
			want: "-hlog " + dir + ": is a directory", errIs: safefile.ErrNotRegular},
		{name: "hlog and json one file", edit: func(o *bench.Options) {
			p := filepath.Join(dir, "r")
			o.Outputs = []bench.Output{{Label: "-json r", Path: p, Format: json}}
			o.HistogramLog = p
		}, want: "-hlog " + filepath.Join(dir, "r") + ": the same file as -json r", errIs: safefile.ErrSameFile},
		{name: "runlog and hlog on stdout", edit: func(o *bench.Options) { o.RunLog, o.HistogramLog = "-", "-" },
			want: "-runlog - and -hlog -: at most one format can go to stdout"},
		{name: "hlog interval", edit: func(o *bench.Options) { o.HistogramLog, o.HistogramLogInterval = "-", time.Microsecond },
			flag: "hlog-interval", want: "must be at least 1ms, got 1µs"},
		{name: "does not fit", op: func(c counting) workload.Operation { return huge{c} },
			want: "huge -n 1 needs", linuxOK: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.linuxOK && runtime.GOOS != "linux" {
				t.Skip("the memory check reads /proc")
			}
			o := options(3)
			if tt.edit != nil {
				tt.edit(&o)
			}
			c := counting{new(atomic.Int64)}
			var op workload.Operation = c
			if tt.op != nil {
				op = tt.op(c)
			}
			var stdout bytes.Buffer
			out, err := bench.Run(o, workload.Mix{op}, &stdout, io.Discard, nil)
			var ie *bench.InputError
			switch {
			case !errors.As(err, &ie):
				t.Fatalf("error %v (%T), want an *InputError", err, err)
			case ie.Flag != tt.flag || !strings.Contains(ie.Msg, tt.want):
				t.Errorf("InputError{Flag: %q, Msg: %q}, want Flag %q and a message holding %q", ie.Flag, ie.Msg, tt.flag, tt.want)
			case tt.errIs != nil && !errors.Is(err, tt.errIs):
				t.Errorf("%v does not wrap %v", err, tt.errIs)
			}
			if c.n.Load() != 0 || out.Doc != nil || stdout.Len() > 0 {
				t.Errorf("ran %d operations and wrote %d bytes before refusing", c.n.Load(), stdout.Len())
			}
		})
	}
}

func TestRunWritesEveryFormat(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out") // created by Run
	o := options(5)
	for _, f := range bench.Formats {
		o.Outputs = append(o.Outputs, bench.Output{Path: filepath.Join(dir, f.File), Format: f})
	}
	o.Dirs = []safefile.Output{{Label: "-out " + dir, Path: dir}}
	var lines []string
	o.Notify = func(l string) { lines = append(lines, l) }
	var stdout bytes.Buffer
	out, err := bench.Run(o, workload.Mix{workload.Noop{}}, &stdout, io.Discard, nil)
	if err != nil || out.Failed() {
		t.Fatalf("Run: %v, outcome %+v", err, out)
	}
	for _, f := range bench.Formats {
		if b, err := os.ReadFile(filepath.Join(dir, f.File)); err != nil || len(b) == 0 {
			t.Errorf("%s: %d bytes, %v", f.File, len(b), err)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "report.txt")); string(b) != stdout.String() {
		t.Error("report.txt differs from the text report on stdout")
	}
	if len(lines) == 0 || !strings.HasPrefix(lines[len(lines)-1], "running noop: 0 warmups, 5 timed runs") {
		t.Errorf("notices %q, want the last to say what runs", lines)
	}
}

func ExampleRun() {
	cfg := workload.DefaultConfig()
	cfg.Warmups, cfg.Runs, cfg.Outliers, cfg.Seed = 0, 100, 0, 1
	out, err := bench.Run(bench.Options{Config: cfg, ProfileRuns: cfg.Runs}, workload.Mix{workload.Noop{}}, io.Discard, io.Discard, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(out.Doc.Config.Runs, "runs; failed:", out.Failed())
	// Output: 100 runs; failed: false
}

// RunCount refuses a count it cannot run.
func TestRunCountRefuses(t *testing.T) {
	for _, n := range []int{1, setting.MaxCount + 1} {
		if _, err := bench.RunCount(options(5), workload.Mix{counting{new(atomic.Int64)}}, bench.Count{N: n}, io.Discard, io.Discard, nil); err == nil {
			t.Errorf("RunCount of %d processes: no error", n)
		}
	}
}
