package report_test

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"io"
	"reflect"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/gcperf/gcperf/report"
	"github.com/gcperf/gcperf/runstats"
	"github.com/gcperf/gcperf/workload"
)

// streamOp is a test operation: call n (0-based, across threads) counts n%5
// results, sleeps sleep(n) when sleep is set, and fails when fail divides
// n+1.
type streamOp struct {
	calls atomic.Int64
	fail  int64
	sleep func(n int64) time.Duration
}

func (o *streamOp) Name() string { return "stream" }
func (o *streamOp) Run(_ context.Context, p *workload.Probe) error {
	n := o.calls.Add(1) - 1
	p.Results(n % 5)
	if o.sleep != nil {
		time.Sleep(o.sleep(n))
	}
	if o.fail > 0 && (n+1)%o.fail == 0 {
		return errors.New("failed on purpose")
	}
	return nil
}

// streamConfig is a configuration of runs timed runs after 10 warmups,
// keeping none out.
func streamConfig(runs, keep, threads int, gc workload.GCStats) workload.Config {
	c := workload.DefaultConfig()
	c.Warmups, c.Runs, c.Outliers, c.Threads, c.KeepRuns, c.GCStats, c.Seed = 10, runs, 0, threads, keep, gc, 1
	return c
}

func run(t *testing.T, cfg workload.Config, mix workload.Mix, obs ...workload.Observer) *workload.Result {
	t.Helper()
	res, err := workload.Run(context.Background(), cfg, mix, obs...)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// gcColumns are runstats.GCDelta's JSON keys, in field order: the run
// log's GC columns.
func gcColumns() []string {
	var names []string
	for _, ty := range []reflect.Type{reflect.TypeFor[runstats.GCDelta](), reflect.TypeFor[runstats.RunDelta]()} {
		for i := range ty.NumField() {
			names = append(names, strings.Split(ty.Field(i).Tag.Get("json"), ",")[0])
		}
	}
	return names
}

// runFields are a record's values by run log column, the GC ones read
// through their JSON keys (not as the log writes them).
func runFields(t *testing.T, r *workload.RunRecord) map[string]int64 {
	t.Helper()
	m := map[string]int64{
		"run": int64(r.Run), "thread": int64(r.Thread), "start_ns": int64(r.Start),
		"runtime_ns": int64(r.Runtime), "response_ns": int64(r.Response),
		"results": r.Results, "errors": int64(r.Errors),
	}
	m["mark_at_start"] = 0 // false is left out of the JSON
	for _, v := range []any{r.GC, r.Causes} {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		var fields map[string]any
		if err := json.Unmarshal(b, &fields); err != nil {
			t.Fatal(err)
		}
		for k, v := range fields {
			switch v := v.(type) {
			case float64:
				m[k] = int64(v)
			case bool:
				m[k] = 0
				if v {
					m[k] = 1
				}
			}
		}
	}
	return m
}

// The run log read back with encoding/csv is Result.Runs, field by field,
// when every run is kept, and holds every run (Result.Done lines) when
// fewer are kept, each once.
func TestRunLogReadBack(t *testing.T) {
	base := []string{"run", "thread", "start_ns", "runtime_ns", "response_ns", "results", "errors"}
	tests := []struct {
		name    string
		runs    int
		keep    int
		threads int
		gc      workload.GCStats
	}{
		{"all kept, gcstats run", 300, 0, 1, workload.GCStatsRun},
		{"all kept, gcstats total", 300, 0, 1, workload.GCStatsTotal},
		{"all kept, threads 2", 300, 0, 2, workload.GCStatsRun},
		{"50 kept of 300", 300, 50, 1, workload.GCStatsRun},
		{"50 kept of 300, threads 2, gcstats off", 300, 50, 2, workload.GCStatsOff},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			l := report.NewRunLog(&buf)
			mix := workload.Mix{&streamOp{fail: 7}, &streamOp{}}
			res := run(t, streamConfig(tt.runs, tt.keep, tt.threads, tt.gc), mix, l)
			if err := l.Err(); err != nil {
				t.Fatalf("Err() = %v", err)
			}
			rows, err := csv.NewReader(&buf).ReadAll()
			if err != nil {
				t.Fatalf("reading the log back: %v", err)
			}
			want := base
			if tt.gc == workload.GCStatsRun {
				want = append(want[:len(want):len(want)], gcColumns()...)
			}
			if !slices.Equal(rows[0], want) {
				t.Fatalf("header %q, want %q", rows[0], want)
			}
			lines := rows[1:]
			if len(lines) != res.Done || res.Done != tt.runs {
				t.Fatalf("%d lines, %d runs done; want %d", len(lines), res.Done, tt.runs)
			}
			kept := min(tt.runs, res.Config.Kept())
			if len(res.Runs) != kept {
				t.Fatalf("%d runs kept, want %d", len(res.Runs), kept)
			}
			seen := make([]bool, tt.runs+1)
			for i, line := range lines {
				got := map[string]int64{}
				for j, cell := range line {
					v, err := strconv.ParseInt(cell, 10, 64)
					if err != nil {
						t.Fatalf("line %d, %s: %v", i+2, rows[0][j], err)
					}
					got[rows[0][j]] = v
				}
				n := int(got["run"])
				if n < 1 || n > tt.runs || seen[n] {
					t.Fatalf("line %d: run %d out of range or repeated", i+2, n)
				}
				seen[n] = true
				if n > kept {
					continue
				}
				r := res.Run(n)
				if r == nil {
					t.Fatalf("run %d kept but not in the result", n)
				}
				fields := runFields(t, r)
				for col, v := range got {
					if fields[col] != v {
						t.Errorf("run %d, %s: %d in the log, %d in the result", n, col, v, fields[col])
					}
				}
			}
		})
	}
}

// Logging a run allocates nothing: not RunEnd itself, and not the timed
// runs of noop with the log (Result.HeapAllocBytes, the collector off as in
// workload's TestTimedRunsDoNotAllocate).
func TestRunLogDoesNotAllocate(t *testing.T) {
	l := report.NewRunLog(io.Discard)
	l.Begin(workload.Begin{Config: streamConfig(1, 0, 1, workload.GCStatsRun)})
	rec := &workload.RunRecord{Run: 12345, Thread: 3, Start: time.Hour, Runtime: time.Millisecond, Results: 7,
		GC: runstats.GCDelta{Cycles: 2, STW: time.Microsecond, HeapGoal: 1 << 30}}
	if n := testing.AllocsPerRun(1000, func() { l.RunEnd(workload.Timed, rec.Run, rec) }); n != 0 {
		t.Errorf("RunEnd allocates %v times per run, want 0", n)
	}
	if raceEnabled {
		t.Skip("the race detector's instrumentation allocates")
	}
	noop, err := workload.New("noop", nil)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		threads int
		gc      workload.GCStats
	}{
		{"gcstats run", 1, workload.GCStatsRun},
		{"gcstats off", 1, workload.GCStatsOff},
		{"threads 2", 2, workload.GCStatsRun},
	}
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// As in workload's test: the runtime may allocate in one
			// attempt (an OS thread started on a loaded machine), so a
			// clean attempt out of three proves the log clean.
			var got []string
			for range 3 {
				runtime.GC()
				l := report.NewRunLog(io.Discard)
				res := run(t, streamConfig(20000, 0, tt.threads, tt.gc), workload.Mix{noop}, l)
				if res.Done != 20000 {
					t.Fatalf("%d runs done", res.Done)
				}
				if res.HeapAllocBytes == 0 && res.HeapAllocObjects == 0 {
					return
				}
				got = append(got, strconv.FormatUint(res.HeapAllocBytes, 10)+" bytes")
			}
			t.Errorf("every attempt's timed runs allocated with the run log: %s; want none", strings.Join(got, ", "))
		})
	}
}

// hlogIntervals reads an interval log back with hdrhistogram-go's reader.
func hlogIntervals(t *testing.T, log []byte) []*hdrhistogram.Histogram {
	t.Helper()
	r := hdrhistogram.NewHistogramLogReader(bytes.NewReader(log))
	var hs []*hdrhistogram.Histogram
	for {
		h, err := r.NextIntervalHistogram()
		if err != nil {
			t.Fatalf("reading the log back: %v\n%s", err, log)
		}
		if h == nil {
			return hs
		}
		hs = append(hs, h)
	}
}

// The interval log read back with hdrhistogram-go's reader holds every
// successful run once, its maximum is the mix's, and its intervals tile
// the timed runs: each interval long, but for a stretch in which no run
// ended (one line) and the last. The runs sleep in a synctest bubble, so
// the clock, the runtimes and the intervals are exact.
func TestHistogramLogReadBack(t *testing.T) {
	tests := []struct {
		name      string
		runs      int
		threads   int
		interval  time.Duration
		fail      int64
		sleep     func(n int64) time.Duration
		intervals int // lines, the last partial one included
	}{
		// 300 runs of 10..70µs, 11.97ms in all: 11 intervals and the
		// last, partial one.
		{"1ms", 300, 1, time.Millisecond, 0, func(n int64) time.Duration { return time.Duration(10+n%7*10) * time.Microsecond }, 12},
		{"1ms, failures", 300, 1, time.Millisecond, 5, func(n int64) time.Duration { return time.Duration(10+n%7*10) * time.Microsecond }, 12},
		// Two threads share 400 runs of 40µs, 8ms: the last runs end at
		// 8ms, in a ninth interval, of no length.
		{"1ms, threads 2", 400, 2, time.Millisecond, 0, func(int64) time.Duration { return 40 * time.Microsecond }, 9},
		// 200 runs of 100µs, run 100 lasting 25ms, 44.9ms in all:
		// [0,5) and [5,10), no run ending in [10,30), run 100 ending in
		// [30,35), then [35,40) and [40,44.9).
		{"5ms, a long run", 200, 1, 5 * time.Millisecond, 0, func(n int64) time.Duration {
			if n == 99 {
				return 25 * time.Millisecond
			}
			return 100 * time.Microsecond
		}, 6},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				var buf bytes.Buffer
				l := report.NewHistogramLog(&buf, tt.interval)
				cfg := streamConfig(tt.runs, 0, tt.threads, workload.GCStatsRun)
				cfg.Warmups = 0
				res := run(t, cfg, workload.Mix{&streamOp{fail: tt.fail, sleep: tt.sleep}}, l)
				if err := l.Err(); err != nil {
					t.Fatalf("Err() = %v", err)
				}
				log := buf.Bytes()
				for _, line := range []string{"#[Logged with gcperf: ", "#[Mix: stream]\n", "#[Histogram log format version 1.3]\n",
					"#[StartTime: 946684800.000 (seconds since epoch), 2000-01-01T00:00:00.000Z]\n",
					"#[BaseTime: 946684800.000 (seconds since epoch)]\n", `"StartTimestamp","Interval_Length",`} {
					if !bytes.Contains(log, []byte(line)) {
						t.Errorf("the log has no line %q:\n%s", line, log)
					}
				}
				hs := hlogIntervals(t, log)
				if len(hs) != tt.intervals {
					t.Errorf("%d intervals, want %d:\n%s", len(hs), tt.intervals, log)
				}
				sum := hdrhistogram.New(1, int64(time.Hour), 3)
				prevEnd := res.Started.UnixMilli()
				for i, h := range hs {
					sum.Merge(h)
					start, end := h.StartTimeMs(), h.EndTimeMs()
					// The reader's float arithmetic may lose a millisecond.
					if d := start - prevEnd; d < -1 || d > 1 {
						t.Errorf("interval %d starts at %dms, the previous ended at %dms", i, start, prevEnd)
					}
					if length := time.Duration(end-start) * time.Millisecond; i < len(hs)-1 && h.TotalCount() > 0 && (length < tt.interval-time.Millisecond || length > tt.interval+time.Millisecond) {
						t.Errorf("interval %d is %v long with %d runs, want %v", i, length, h.TotalCount(), tt.interval)
					}
					prevEnd = end
				}
				if d := prevEnd - res.Ended.UnixMilli(); d < -1 || d > 1 {
					t.Errorf("the log ends at %dms, the timed runs at %dms", prevEnd, res.Ended.UnixMilli())
				}
				if got, want := sum.TotalCount(), res.Mix.Runtime.Count(); got != want || want == 0 {
					t.Errorf("%d runs in the log, %d successful runs", got, want)
				}
				if tt.fail > 0 && res.Mix.Runtime.Count() == int64(res.Done) {
					t.Errorf("no run failed")
				}
				if got, want := sum.Max(), int64(res.Mix.Runtime.Max()); !sum.ValuesAreEquivalent(got, want) {
					t.Errorf("max %dns in the log, %dns in the result", got, want)
				}
			})
		})
	}
}

// failWriter fails every write after the first n bytes.
type failWriter struct{ n int }

var errFull = errors.New("disk full")

func (w *failWriter) Write(b []byte) (int, error) {
	if len(b) > w.n {
		k := w.n
		w.n = 0
		return k, errFull
	}
	w.n -= len(b)
	return len(b), nil
}

// A stream is an observer that keeps its write error.
type stream interface {
	workload.Observer
	Err() error
}

// A write error is kept, not raised: the benchmark runs to its end.
func TestStreamWriteErrors(t *testing.T) {
	tests := []struct {
		name string
		obs  func(w io.Writer) stream
		room int
	}{
		{"run log, header", func(w io.Writer) stream { return report.NewRunLog(w) }, 0},
		{"run log, lines", func(w io.Writer) stream { return report.NewRunLog(w) }, 100},
		{"histogram log, header", func(w io.Writer) stream { return report.NewHistogramLog(w, time.Millisecond) }, 0},
		{"histogram log, intervals", func(w io.Writer) stream { return report.NewHistogramLog(w, time.Millisecond) }, 400},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				o := tt.obs(&failWriter{n: tt.room})
				op := &streamOp{sleep: func(int64) time.Duration { return 100 * time.Microsecond }}
				res := run(t, streamConfig(2000, 0, 1, workload.GCStatsRun), workload.Mix{op}, o)
				if res.Done != 2000 || res.Interrupted {
					t.Errorf("%d runs done, interrupted %v; want all 2000", res.Done, res.Interrupted)
				}
				if err := o.Err(); !errors.Is(err, errFull) {
					t.Errorf("Err() = %v, want %v", err, errFull)
				}
			})
		})
	}
}
