package report

import (
	"bytes"
	"encoding/json"
	"github.com/gcperf/gcperf/env"
	"github.com/gcperf/gcperf/latency"
	"github.com/gcperf/gcperf/runstats"
	"github.com/gcperf/gcperf/workload"
	"golang.org/x/perf/benchfmt"
	"strings"
	"testing"
	"time"
)

func TestExecText(t *testing.T) {
	base := func() *Exec {
		return &Exec{
			Command: []string{"./prog", "-x", "a b"}, Status: "exit status 0", Success: true,
			Wall: 1500 * time.Millisecond, UserCPU: time.Second, SystemCPU: 100 * time.Millisecond,
			MaxRSSBytes: 10 << 20, PeakRSSBytes: 12 << 20, OwnPeakRSSBytes: 11 << 20,
			RSS:      ExecRSS{Interval: 100 * time.Millisecond, Samples: 14, Stride: 1},
			Settings: ExecSettings{GOGC: "200", GODEBUG: "gctrace=1"},
		}
	}
	withGC := base()
	withGC.TraceLines, withGC.UnreadTraceLines = 5, 1
	withGC.GC = &ExecGC{
		Cycles: 4, Forced: 1, Sequences: 1, CPUPercent: 3, CPU: 20 * time.Millisecond,
		Pauses:      ExecPauses{Count: 8, Total: 800_000, P50: 50_000, P90: 200_000, P99: 300_000, Max: 300_000},
		PeakHeapMiB: 9, PeakLiveMiB: 4,
		Goal: []ExecGoalPoint{{At: 1, GoalMiB: 4}, {At: 2, GoalMiB: 8}},
	}
	withGC.Benchmarks = []ExecBenchmark{{Pkg: "example.com/p", Name: "List-2", Metrics: []ExecMetric{
		{Unit: "sec/op", Values: []float64{0.002, 0.003, 0.0025}, Median: 0.0025},
		{Unit: "B/op", Values: []float64{2048, 2048, 2048}, Median: 2048},
	}}}
	withGC.SkippedBenchmarkLines = 1
	noGC := base()
	noGC.GCUnavailable = "no gctrace lines (not a Go program)"
	failed := base()
	failed.Status, failed.Success, failed.Interrupted, failed.RSS.Samples = "killed by SIGINT", false, true, 0
	failed.GCUnavailable = "none"
	left := base()
	left.Killed, left.Leftovers, left.Unkilled = true, 3, 1
	left.GCUnavailable = "none"
	for _, tc := range []struct {
		name string
		d    *Exec
		want []string
	}{
		{"gc", withGC, []string{
			"Command: ./prog -x 'a b'\n",
			"Status: exit status 0\n",
			"Time: wall 1.50s, user CPU 1.00s, system CPU 100ms\n",
			"Memory: peak RSS of the process tree 12MiB (14 samples, every 100ms); the command's own peak (VmHWM) 11MiB; max RSS of one process (kernel, at least gcperf's own size) 10MiB\n",
			"Settings: GOGC 200, GOMEMLIMIT unset, GODEBUG gctrace=1\n",
			"GC: 4 cycles (1 forced); GC CPU 3% (the trace's, rounded down), 20.0ms\n",
			"   8 stop-the-world pauses totalling 800µs: P50 50.0µs, P90 200µs, P99 300µs, max 300µs\n",
			"   Heap (MiB, rounded down): peak 9, peak live 4; goal 4 → 8 over 2 cycles\n",
			"   1 of 5 trace lines were not cycles",
			"Benchmarks printed by the command (median of each metric's values, as benchstat shows them):\n" +
				"   example.com/p List-2: 2.500m sec/op, 2.000Ki B/op (3 results)\n" +
				"   1 benchmark line of the command's stdout could not be read\n",
		}},
		{"no gc", noGC, []string{"GC figures unavailable: no gctrace lines (not a Go program)\n"}},
		{"interrupted", failed, []string{"Status: killed by SIGINT (interrupted)\n", "not sampled"}},
		{"leftovers", left, []string{"Status: exit status 0, SIGKILL needed, 3 processes left running were stopped, 1 process survived SIGKILL and is still running\n"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := Text(&b, &Document{Exec: tc.d}); err != nil {
				t.Fatal(err)
			}
			for _, w := range tc.want {
				if !strings.Contains(b.String(), w) {
					t.Errorf("lacks %q:\n%s", w, b.String())
				}
			}
		})
	}
}

// TestExecJSON: a command's document is gcperf/v2 with an exec section,
// and reads back as one; a benchmark's has none.
func TestExecJSON(t *testing.T) {
	d := &Document{Schema: Schema, Exec: &Exec{Command: []string{"x"}, Wall: 5, GCUnavailable: "why",
		Benchmarks: []ExecBenchmark{{Name: "B-2", Metrics: []ExecMetric{{Unit: "sec/op", Values: []float64{1, 3}, Median: 2}}}}}}
	var b bytes.Buffer
	if err := JSON(&b, d); err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b.Bytes(), &m); err != nil {
		t.Fatal(err)
	}
	x, _ := m["exec"].(map[string]any)
	if m["schema"] != Schema || x["wall_ns"] != 5.0 || x["gc"] != nil {
		t.Errorf("document %s", b.String())
	}
	back, err := ReadJSON(&b)
	if err != nil {
		t.Fatal(err)
	}
	if back.Exec == nil || back.Exec.Wall != 5 || back.Exec.Benchmarks[0].Metrics[0].Median != 2 {
		t.Errorf("read back %+v", back.Exec)
	}
	b.Reset()
	if err := JSON(&b, &Document{Schema: Schema}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), `"exec"`) {
		t.Error("a benchmark's document has an exec key")
	}
}

// TestExecPeakRSS: a sweep weighs the larger of the tree's sampled peak and
// the command's own VmHWM; the kernel's max RSS, whose floor is gcperf's
// size, only when nothing was sampled.
func TestExecPeakRSS(t *testing.T) {
	for _, tc := range []struct {
		e    Exec
		want int64
	}{
		{Exec{MaxRSSBytes: 15, PeakRSSBytes: 4, OwnPeakRSSBytes: 6, RSS: ExecRSS{Samples: 3}}, 6},
		{Exec{MaxRSSBytes: 15, PeakRSSBytes: 9, OwnPeakRSSBytes: 6, RSS: ExecRSS{Samples: 3}}, 9},
		{Exec{MaxRSSBytes: 15}, 15},
	} {
		if got := tc.e.PeakRSS(); got != tc.want {
			t.Errorf("%+v: PeakRSS %d, want %d", tc.e, got, tc.want)
		}
	}
}

// TestClientGC: the load generator's longest pause against 1% of the P99
// the client measured, the corrected one in open loop.
func TestClientGC(t *testing.T) {
	ms := time.Millisecond
	open := func(p99 time.Duration) []Operation {
		return []Operation{{Corrected: &Percentiles{Count: 10, Percentiles: latency.Percentiles{P99: p99}}}}
	}
	for _, tc := range []struct {
		name string
		d    Document
		want string
	}{
		{"no GC", Document{}, "was not measured (-gcstats off)"},
		{"closed loop, small", Document{GC: &GC{GCSummary: workload.GCSummary{GCDelta: runstats.GCDelta{STWMax: 50 * time.Microsecond}}}, Mix: Mix{Operation: Operation{Runtime: Distribution{Percentiles: latency.Percentiles{P99: 10 * ms}}}}},
			"its longest pause, 50.0µs, is 0.5% of the P99 (10.0ms): the tail is the server's."},
		{"open loop, corrected", Document{GC: &GC{GCSummary: workload.GCSummary{GCDelta: runstats.GCDelta{STWMax: 500 * time.Microsecond}}}, Operations: open(20 * ms), Mix: Mix{Operation: Operation{Runtime: Distribution{Percentiles: latency.Percentiles{P99: ms}}}}},
			"paused up to 500µs, 2.5% of the P99 (20.0ms): part of the tail may be the client's"},
	} {
		got := clientGC(&tc.d)
		if !strings.Contains(got, tc.want) {
			t.Errorf("%s: %q, want %q in it", tc.name, got, tc.want)
		}
	}
}

// TestBenchServer: a server's run is a benchmark of its own, its settings
// in its name; an open-loop operation has its corrected percentiles too;
// a URL in a name stays one sub-benchmark.
func TestBenchServer(t *testing.T) {
	d := &Document{Schema: Schema, Env: Env{Go: env.Go{GOMAXPROCS: 1, GOGC: 100}},
		Operations: []Operation{{Name: "http", Params: "url=http://h:1/x method=GET", Unit: "requests", Runs: 10, Results: 10, AvgResults: 1, OpsPerSecond: 5,
			Runtime:   Distribution{Count: 10, Mean: 2e6, Percentiles: latency.Percentiles{P50: 2e6, P99: 3e6, P999: 3e6, Max: 3e6}},
			Corrected: &Percentiles{Count: 10, Percentiles: latency.Percentiles{P50: 4e6, P99: 9e6, P999: 9e6, Max: 9e6}}}},
		Server: &Exec{Command: []string{"/bin/server", "-addr", "x"}, Wall: 1e9, MaxRSSBytes: 5 << 20, RSS: ExecRSS{Samples: 1}, PeakRSSBytes: 7 << 20,
			Settings: ExecSettings{GOGC: "200", GOMEMLIMIT: "off"}, GC: &ExecGC{Cycles: 3}},
	}
	var b bytes.Buffer
	if err := Bench(&b, d); err != nil {
		t.Fatal(err)
	}
	r := benchfmt.NewReader(&b, "bench")
	got := map[string]map[string]float64{}
	for r.Scan() {
		res, ok := r.Result().(*benchfmt.Result)
		if !ok {
			continue
		}
		vals := map[string]float64{}
		for _, v := range res.Values {
			if v.OrigUnit != "" {
				vals[v.OrigUnit] = v.OrigValue
			} else {
				vals[v.Unit] = v.Value
			}
		}
		got[string(res.Name.Full())] = vals
	}
	op := got["Http/url=http:%2F%2Fh:1%2Fx/method=GET"]
	srv := got["Server/gogc=200/memlimit=off/cmd=server"]
	if op == nil || srv == nil {
		t.Fatalf("benchmarks %v", got)
	}
	if op["p99-corrected-ns"] != 9e6 || op["p99-ns"] != 3e6 || srv["peak-RSS-B"] != 7<<20 || srv["gc-cycles"] != 3 {
		t.Errorf("op %v, server %v", op, srv)
	}
}

// TestInterruptedDuration: an interrupted -duration run says how far it
// got, not "N of 0 timed runs".
func TestInterruptedDuration(t *testing.T) {
	for _, tc := range []struct {
		c    Config
		want string
	}{
		{Config{Runs: 100}, "Interrupted: 40 of 100 timed runs completed;"},
		{Config{Duration: 10 * time.Second}, "Interrupted: 40 timed runs completed, in 2.00s of the 10.0s asked;"},
	} {
		var b strings.Builder
		p := &printer{w: &b}
		p.footer(&Document{Config: tc.c, Interrupted: true, Timing: Timing{Done: 40, Timing: workload.Timing{Elapsed: 2 * time.Second}}})
		if !strings.Contains(b.String(), tc.want) {
			t.Errorf("%+v: %q, want %q in it", tc.c, b.String(), tc.want)
		}
	}
}
