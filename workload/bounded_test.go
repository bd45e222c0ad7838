package workload_test

import (
	"context"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/gcperf/gcperf/latency"
	"github.com/gcperf/gcperf/workload"
)

// varying is an operation whose runtime varies from call to call: a few
// calls are much slower, so that the worst runs are distinct.
func varying(name string) *fnOp {
	return &fnOp{name: name, fn: func(_ context.Context, p *workload.Probe, call int64) error {
		d := time.Duration(call%7) * time.Microsecond
		if call%97 == 13 {
			d = 200 * time.Microsecond
		}
		for start := time.Now(); time.Since(start) < d; {
		}
		p.Results(1)
		return nil
	}}
}

// The statistics come from bounded state (latency.Accumulator); with every
// run kept, they equal those computed the long way from the records.
func TestBoundedStatisticsEqualTheRecords(t *testing.T) {
	for _, threads := range []int{1, 3} {
		cfg := testConfig(600)
		cfg.Outliers, cfg.Threads = 2, threads
		mix := workload.Mix{varying("a"), varying("b")}
		res, err := workload.Run(context.Background(), cfg, mix)
		if err != nil {
			t.Fatal(err)
		}
		if res.Summarised() || len(res.Runs) != 600 || res.Done != 600 {
			t.Fatalf("threads %d: %d runs kept of %d done, summarised %v", threads, len(res.Runs), res.Done, res.Summarised())
		}
		var mixRT []time.Duration
		for _, r := range res.Runs {
			mixRT = append(mixRT, r.Runtime)
		}
		if got, want := res.Mix.Stats.Runtime, latency.Summarize(mixRT, 2, res.Mix.Runtime); got != want {
			t.Errorf("threads %d: mix runtime\n got %+v\nwant %+v", threads, got, want)
		}
		for i := range mix {
			var rt []time.Duration
			for _, x := range res.Executions {
				if int(x.Op) == i {
					rt = append(rt, x.Runtime)
				}
			}
			op := res.Operations[i]
			if got, want := op.Stats.Runtime, latency.Summarize(rt, 2, op.Runtime); got != want {
				t.Errorf("threads %d, %s: runtime\n got %+v\nwant %+v", threads, op.Name, got, want)
			}
			if op.Stats.Runs != 600 || op.Stats.Results != 600 {
				t.Errorf("threads %d, %s: %d runs, %d results", threads, op.Name, op.Stats.Runs, op.Stats.Results)
			}
		}
		// The worst runs kept whole are the slowest of the records.
		byTime := slices.Clone(res.Runs)
		slices.SortStableFunc(byTime, func(a, b workload.RunRecord) int {
			if a.Runtime != b.Runtime {
				return int(b.Runtime - a.Runtime)
			}
			return b.Run - a.Run
		})
		if len(res.Worst) != 600 && len(res.Worst) != workload.MaxWorst+1 {
			t.Errorf("threads %d: %d worst runs kept", threads, len(res.Worst))
		}
		for i, w := range res.Worst[:10] {
			if w.Run != byTime[i].Run || w.Runtime != byTime[i].Runtime {
				t.Errorf("threads %d: worst %d is run %d (%v), want run %d (%v)", threads, i, w.Run, w.Runtime, byTime[i].Run, byTime[i].Runtime)
			}
		}
	}
}

// Past Config.KeepRuns, the records stop and nothing else changes: every
// run is counted, the worst ones are kept whole, the GCPerfP99 figures are
// exact while the worst runs kept cover the dropped ones.
func TestKeepRunsBoundsTheRecords(t *testing.T) {
	cfg := testConfig(3000)
	cfg.KeepRuns = 100
	op := varying("a")
	res, err := workload.Run(context.Background(), cfg, workload.Mix{op})
	if err != nil {
		t.Fatal(err)
	}
	switch {
	case res.Done != 3000 || len(res.Runs) != 100 || len(res.Executions) != 100 || !res.Summarised() || !res.Complete():
		t.Fatalf("done %d, %d runs and %d executions kept, summarised %v, complete %v",
			res.Done, len(res.Runs), len(res.Executions), res.Summarised(), res.Complete())
	case res.Runs[99].Run != 100:
		t.Errorf("the last record kept is run %d, want 100", res.Runs[99].Run)
	case res.Mix.Stats.Runs != 3000 || res.Operations[0].Stats.Runtime.Count != 3000 || res.Mix.Runtime.Count() != 3000:
		t.Errorf("the statistics cover %d runs, %d executions, %d in the histogram; want 3000",
			res.Mix.Stats.Runs, res.Operations[0].Stats.Runtime.Count, res.Mix.Runtime.Count())
	case res.Tail.Runs != 3000:
		t.Errorf("tail over %d runs", res.Tail.Runs)
	}
	f := res.P99
	if f.Runs != 3000 || f.Kept != 2970 || len(f.Worst) != 30 || f.Estimated {
		t.Errorf("P99: %d runs, %d kept, %d worst, estimated %v", f.Runs, f.Kept, len(f.Worst), f.Estimated)
	}
	for _, w := range f.Worst {
		if res.Run(w.Run) == nil {
			t.Errorf("worst run %d has no record", w.Run)
		}
	}
	if want := res.Mix.Stats.Runtime.Max; f.Worst[len(f.Worst)-1].Time != want {
		t.Errorf("the slowest dropped run took %v, the slowest run %v", f.Worst[len(f.Worst)-1].Time, want)
	}
}

// The records are outside the Go heap: a benchmark of many runs adds
// nothing to the live heap the collector paces itself by.
func TestRecordsStayOffTheHeap(t *testing.T) {
	if runtime.GOOS == "windows" || runtime.GOOS == "plan9" {
		t.Skip("no anonymous mappings: the records are on the heap")
	}
	cfg := testConfig(200000)
	cfg.GCStats = workload.GCStatsTotal
	res, err := workload.Run(context.Background(), cfg, workload.Mix{workload.Noop{}})
	if err != nil {
		t.Fatal(err)
	}
	// 100,000 records of ~200 bytes would be ~20 MB; the harness's own
	// state is its histograms, about 1 MB.
	if res.HarnessHeap == 0 || res.HarnessHeap > 4<<20 {
		t.Errorf("harness heap %d bytes", res.HarnessHeap)
	}
	if res.GC.HeapLive > 16<<20 {
		t.Errorf("heap live %d bytes at the end of the timed runs, with the records outside it", res.GC.HeapLive)
	}
}

// Response times are recorded apart only from the first execution that
// responds; before it they are the runtimes. The statistics must not see
// the switch.
func TestResponseFromTheFirstResponder(t *testing.T) {
	for _, threads := range []int{1, 2} {
		op := &fnOp{name: "late", fn: func(_ context.Context, p *workload.Probe, call int64) error {
			for start := time.Now(); time.Since(start) < time.Duration(call%5)*time.Microsecond; {
			}
			if call >= 50 {
				p.Respond()
			}
			return nil
		}}
		cfg := testConfig(200)
		cfg.Threads, cfg.Outliers = threads, 1
		res, err := workload.Run(context.Background(), cfg, workload.Mix{op, named("plain")})
		if err != nil {
			t.Fatal(err)
		}
		for i, o := range res.Operations {
			var resp []time.Duration
			for _, x := range res.Executions {
				if int(x.Op) == i {
					resp = append(resp, x.Response)
				}
			}
			if got, want := o.Stats.Response, latency.Summarize(resp, 1, o.Response); got != want {
				t.Errorf("threads %d, %s: response\n got %+v\nwant %+v", threads, o.Name, got, want)
			}
			if o.Response.Count() != 200 {
				t.Errorf("threads %d, %s: %d responses in the histogram", threads, o.Name, o.Response.Count())
			}
		}
		var mixResp []time.Duration
		for _, r := range res.Runs {
			mixResp = append(mixResp, r.Response)
		}
		if got, want := res.Mix.Stats.Response, latency.Summarize(mixResp, 1, res.Mix.Response); got != want {
			t.Errorf("threads %d, mix: response\n got %+v\nwant %+v", threads, got, want)
		}
	}
}

// A mix of one operation, one per run, records its figures once: the
// mix's are the operation's, and equal what the records say.
func TestSingleOperationMix(t *testing.T) {
	for _, threads := range []int{1, 2} {
		op := varying("a")
		cfg := testConfig(300)
		cfg.Threads, cfg.Outliers = threads, 1
		res, err := workload.Run(context.Background(), cfg, workload.Mix{op})
		if err != nil {
			t.Fatal(err)
		}
		var rt []time.Duration
		for _, r := range res.Runs {
			rt = append(rt, r.Runtime)
		}
		ms := res.Mix.Stats
		if got, want := ms.Runtime, latency.Summarize(rt, 1, res.Mix.Runtime); got != want {
			t.Errorf("threads %d: mix runtime\n got %+v\nwant %+v", threads, got, want)
		}
		if ms.Response != ms.Runtime || res.Mix.Runtime.Count() != 300 || ms.Results != 300 || ms.Runs != 300 {
			t.Errorf("threads %d: mix response %+v, %d in the histogram, %d results, %d runs", threads, ms.Response, res.Mix.Runtime.Count(), ms.Results, ms.Runs)
		}
	}
}

// Past the kept runs, the timeline summarises every run, in order, in at
// most TimelineBuckets spans.
func TestTimelineSummarisesTheRest(t *testing.T) {
	cfg := testConfig(5000)
	cfg.KeepRuns = 100
	res, err := workload.Run(context.Background(), cfg, workload.Mix{varying("a")})
	if err != nil {
		t.Fatal(err)
	}
	tl := res.Timeline
	if len(tl) == 0 || len(tl) > workload.TimelineBuckets {
		t.Fatalf("%d spans", len(tl))
	}
	var runs int64
	for i, s := range tl {
		runs += s.Runs
		if i > 0 && s.FirstRun <= tl[i-1].FirstRun {
			t.Errorf("span %d starts at run %d, after %d", i, s.FirstRun, tl[i-1].FirstRun)
		}
		if s.Mean <= 0 || s.Max < s.Mean || s.Max > res.Mix.Stats.Runtime.Percentiles.Max {
			t.Errorf("span %d: mean %v, max %v (the slowest run: %v)", i, s.Mean, s.Max, res.Mix.Stats.Runtime.Percentiles.Max)
		}
	}
	if tl[0].FirstRun != 101 || runs != 4900 {
		t.Errorf("the spans start at run %d and hold %d runs; want 101 and 4900", tl[0].FirstRun, runs)
	}
	all := mustRun(t, testConfig(50), workload.Mix{varying("a")})
	if all.Timeline != nil {
		t.Errorf("every run kept, yet %d spans", len(all.Timeline))
	}
}

// A time-bounded benchmark's spans are of time.
func TestTimelineOfTime(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		cfg := testConfig(1)
		cfg.Runs, cfg.Duration, cfg.KeepRuns = 0, 2*time.Second, 10
		res, err := workload.Run(context.Background(), cfg, workload.Mix{sleeper(time.Millisecond)})
		if err != nil {
			t.Fatal(err)
		}
		var runs int64
		for _, s := range res.Timeline {
			runs += s.Runs
			if s.FirstRun != 0 || s.Start < 0 || s.Start >= 2*time.Second {
				t.Errorf("span %+v", s)
			}
		}
		if runs != int64(res.Done-10) || len(res.Timeline) != 995 { // the first 10ms are the kept runs'
			t.Errorf("%d spans hold %d runs, want 995 spans and %d", len(res.Timeline), runs, res.Done-10)
		}
	})
}
