package bench_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gcperf/gcperf/bench"
	"github.com/gcperf/gcperf/env"
	"github.com/gcperf/gcperf/internal/safefile"
	"github.com/gcperf/gcperf/internal/setting"
	"github.com/gcperf/gcperf/profiles/pprofhttp"
	"github.com/gcperf/gcperf/report"
	"github.com/gcperf/gcperf/sweep"
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

// loader loads an address (a bench.Loader).
type loader struct{ counting }

func (loader) Loads() (string, string) { return "localhost:8123", "http://localhost:8123/" }

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
		field   string // the InputError's Field ("": a *MemoryError)
		want    string // in its reason
		errIs   error
		linuxOK bool // the check needs /proc
	}{
		{name: "profile runs", edit: func(o *bench.Options) { o.ProfileRuns = -1 },
			field: "ProfileRuns", want: "must be at least 1, got -1"},
		{name: "out is stdout", edit: func(o *bench.Options) { o.Dirs = []bench.File{{Path: "-", Label: "the output directory"}} },
			field: "Dirs", want: "the output directory: - is stdout, not a directory"},
		{name: "public without http", edit: func(o *bench.Options) { o.HTTPPublic = true },
			field: "HTTPPublic", want: "goes with HTTP"},
		{name: "http not loopback", edit: func(o *bench.Options) { o.HTTP = "0.0.0.0:0" },
			field: "HTTP", errIs: pprofhttp.ErrNotLoopback},
		{name: "http is what the mix loads", edit: func(o *bench.Options) { o.HTTP = "127.0.0.1:8123" },
			op:    func(c counting) workload.Operation { return loader{c} },
			field: "HTTP", want: "the address the operation counting loads (http://localhost:8123/)"},
		{name: "two on stdout", edit: func(o *bench.Options) {
			o.Outputs = []bench.Output{{Label: "the JSON", Path: "-", Format: json}, {Label: "the CSV", Path: "-", Format: csv}}
		}, field: "Outputs", want: "the JSON and the CSV: at most one format can go to stdout"},
		{name: "existing", edit: func(o *bench.Options) {
			o.Outputs = []bench.Output{{Path: existing, Format: json}}
		}, field: "Outputs", want: existing + ": file exists", errIs: safefile.ErrExists},
		{name: "one file twice", edit: func(o *bench.Options) {
			p := filepath.Join(dir, "r")
			o.Outputs = []bench.Output{{Label: "-json r", Path: p, Format: json}, {Label: "-csv r", Path: p, Format: csv}}
		}, field: "Outputs", want: "the same file as"},
		{name: "runlog exists", edit: func(o *bench.Options) { o.RunLog = bench.File{Path: existing, Label: "the run log"} },
			field: "Outputs", want: "the run log: file exists", errIs: safefile.ErrExists},
		{name: "hlog is a directory", edit: func(o *bench.Options) { o.HistogramLog = bench.File{Path: dir} },
			field: "Outputs", want: dir + ": is a directory", errIs: safefile.ErrNotRegular},
		{name: "hlog and json one file", edit: func(o *bench.Options) {
			p := filepath.Join(dir, "r")
			o.Outputs = []bench.Output{{Label: "-json r", Path: p, Format: json}}
			o.HistogramLog = bench.File{Path: p}
		}, field: "Outputs", want: filepath.Join(dir, "r") + ": the same file as -json r", errIs: safefile.ErrSameFile},
		{name: "runlog and hlog on stdout", edit: func(o *bench.Options) {
			o.RunLog, o.HistogramLog = bench.File{Path: "-", Label: "the run log"}, bench.File{Path: "-", Label: "the histogram log"}
		}, field: "Outputs", want: "the run log and the histogram log: at most one format can go to stdout"},
		{name: "hlog interval", edit: func(o *bench.Options) {
			o.HistogramLog, o.HistogramLogInterval = bench.File{Path: "-"}, time.Microsecond
		},
			field: "HistogramLogInterval", want: "must be at least 1ms, got 1µs"},
		{name: "does not fit", op: func(c counting) workload.Operation { return huge{c} },
			want: "the mix needs", linuxOK: true},
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
			o.Stdout = &stdout
			out, err := bench.Run(context.Background(), o, workload.Mix{op})
			var ie *bench.InputError
			var me *bench.MemoryError
			switch {
			case tt.field == "" && !errors.As(err, &me):
				t.Fatalf("error %v (%T), want a *MemoryError", err, err)
			case tt.field == "" && (me.Ops != 1 || me.Need.Biggest == nil || !strings.Contains(err.Error(), tt.want)):
				t.Errorf("MemoryError %+v (%v), want the need of one operation, saying %q", me, err, tt.want)
			case tt.field == "":
			case !errors.As(err, &ie):
				t.Fatalf("error %v (%T), want an *InputError", err, err)
			case ie.Field != tt.field || !strings.Contains(ie.Reason, tt.want):
				t.Errorf("InputError{Field: %q, Reason: %q}, want Field %q and a reason holding %q", ie.Field, ie.Reason, tt.field, tt.want)
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
	o.Dirs = []bench.File{{Path: dir}}
	var events []bench.Event
	o.Events = func(e bench.Event) { events = append(events, e) }
	var stdout bytes.Buffer
	o.Stdout = &stdout
	out, err := bench.Run(context.Background(), o, workload.Mix{workload.Noop{}})
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
	// What runs, then the phases (an incomplete environment may be said
	// first).
	if len(events) > 0 {
		if _, ok := events[0].(bench.EnvIncomplete); ok {
			events = events[1:]
		}
	}
	if len(events) != 3 || events[1] != bench.Profiling || events[2] != bench.Writing {
		t.Fatalf("events %+v, want Running, Profiling, Writing", events)
	}
	if r, ok := events[0].(bench.Running); !ok || r.Config.Runs != 5 || len(r.Mix) != 1 {
		t.Errorf("first event %+v, want the runs of noop", events[0])
	}
}

// Run measures a mix and writes its report: the JSON result to a file,
// the text report to a buffer.
func ExampleRun() {
	dir, err := os.MkdirTemp("", "bench-example-")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	cfg := workload.DefaultConfig()
	cfg.Warmups, cfg.Runs, cfg.Outliers, cfg.Seed = 0, 100, 0, 1
	json, _ := bench.LookupFormat("json")
	var text bytes.Buffer
	out, err := bench.Run(context.Background(), bench.Options{
		Config:  cfg,
		Outputs: []bench.Output{{Path: filepath.Join(dir, "result.json"), Format: json}},
		Stdout:  &text,
	}, workload.Mix{workload.Noop{}})
	if err != nil {
		fmt.Println(err)
		return
	}
	doc, err := report.ReadFile(filepath.Join(dir, "result.json"))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(doc.Config.Runs, "runs; failed:", out.Failed())
	fmt.Println("the text report names the operation:", strings.Contains(text.String(), "noop"))
	// Output:
	// 100 runs; failed: false
	// the text report names the operation: true
}

// RunCount refuses a count it cannot run.
func TestRunCountRefuses(t *testing.T) {
	for _, n := range []int{1, setting.MaxCount + 1} {
		if _, err := bench.RunCount(context.Background(), options(5), workload.Mix{counting{new(atomic.Int64)}}, bench.Count{N: n}); err == nil {
			t.Errorf("RunCount of %d processes: no error", n)
		}
	}
}

// The controls: closing Config.Stop stops the runs, which are reported;
// closing Abort first gives them up, nothing written; the phases come as
// events.
func TestRunControls(t *testing.T) {
	for _, abort := range []bool{false, true} {
		t.Run(fmt.Sprintf("abort=%v", abort), func(t *testing.T) {
			dir := t.TempDir()
			json, _ := bench.LookupFormat("json")
			o := options(1_000_000)
			o.Outputs = []bench.Output{{Path: filepath.Join(dir, "r.json"), Format: json}}
			o.RunLog = bench.File{Path: filepath.Join(dir, "runs.csv")}
			stop, abortc := make(chan struct{}), make(chan struct{})
			o.Config.Stop, o.Abort = stop, abortc
			var phases []bench.Phase
			o.Events = func(e bench.Event) {
				switch e := e.(type) {
				case bench.Running:
					go func() {
						time.Sleep(10 * time.Millisecond)
						if abort {
							close(abortc)
						}
						close(stop) // the runs Abort left behind end too
					}()
				case bench.Phase:
					phases = append(phases, e)
				}
			}
			out, err := bench.Run(context.Background(), o, workload.Mix{&workload.Sleep{D: time.Millisecond}})
			entries, _ := os.ReadDir(dir)
			if abort {
				if !errors.Is(err, bench.ErrAborted) || out.Doc != nil || len(entries) != 0 {
					t.Errorf("Run: %v, doc %v, files %v: want ErrAborted and nothing written", err, out.Doc != nil, entries)
				}
				return
			}
			if err != nil || out.Doc == nil || !out.Stopped || len(entries) != 2 {
				t.Fatalf("Run: %v, outcome %+v, files %v: want a stopped benchmark reported", err, out, entries)
			}
			if len(phases) != 2 || phases[0] != bench.Profiling || phases[1] != bench.Writing {
				t.Errorf("phases %v, want Profiling, Writing", phases)
			}
		})
	}
}

// Issue 24, item 8: the check before the runs counts what building and
// writing the report holds at the end, per kept run and per format (the
// JSON the most), not only the engine's records: runs whose records fit
// but whose report does not are refused, naming the format.
func TestCheckMemoryCountsTheReport(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the memory check reads /proc")
	}
	json, _ := bench.LookupFormat("json")
	c := counting{new(atomic.Int64)}
	// Runs whose records (280 B each) take about a third of the memory
	// available, whose text report about two thirds, whose JSON (with the
	// collector's figures per run, about 4 KiB a run) many times it.
	avail := availableMemory(t)
	kept := int(avail / 1000)
	for _, tc := range []struct {
		name    string
		outputs []bench.Output
		format  string // the MemoryError's Format, "" for none
	}{
		{"text", nil, ""},
		{"json", []bench.Output{{Label: "-json r.json", Path: filepath.Join(t.TempDir(), "r.json"), Format: json}}, "-json r.json"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := options(kept)
			o.Config.KeepRuns, o.Outputs = kept, tc.outputs
			_, err := o.CheckMemory(workload.Mix{c})
			var me *bench.MemoryError
			switch {
			case tc.format == "" && err != nil:
				t.Errorf("%d kept runs, %s available: %v, want no error", kept, env.Bytes(avail), err)
			case tc.format == "":
			case !errors.As(err, &me) || me.Report == 0 || me.Format != tc.format || me.Kept != kept:
				t.Errorf("%d kept runs, %s available: %v (%T), want a *MemoryError of the report naming %s", kept, env.Bytes(avail), err, err, tc.format)
			}
		})
	}
}

// availableMemory is the memory the check compares with.
func availableMemory(t *testing.T) int64 {
	t.Helper()
	m, err := env.ReadMemory(context.Background(), "/")
	if err != nil {
		t.Skip(err)
	}
	return m.Available
}

// Issue 24, item 8: RunCount counts the processes' results it reads back
// and holds together, before any process starts.
func TestRunCountChecksTheSetsMemory(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the memory check reads /proc")
	}
	kept := int(availableMemory(t) / 2000)
	o := options(kept)
	o.Config.KeepRuns = kept
	var started atomic.Int64
	_, err := bench.RunCount(context.Background(), o, workload.Mix{counting{new(atomic.Int64)}},
		bench.Count{N: 20, Exe: "/bin/false", Dir: t.TempDir(), Observe: func(sweep.RepeatEvent) { started.Add(1) }})
	var me *bench.MemoryError
	if !errors.As(err, &me) || me.Processes != 20 || me.Kept != kept || me.Report == 0 {
		t.Errorf("RunCount: %v (%T), want a *MemoryError of the 20 processes' results", err, err)
	}
	if started.Load() != 0 {
		t.Errorf("%d process events before refusing", started.Load())
	}
}
