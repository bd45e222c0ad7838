package workload_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gcperf/gcperf/workload"
)

var verboseLine = regexp.MustCompile(`^\[\d+\.\d{3}s\] Run (start|end) (\d+)(: .+)?$`)

func TestVerbose(t *testing.T) {
	for _, threads := range []int{1, 3} {
		t.Run(fmt.Sprint("threads ", threads), func(t *testing.T) {
			var buf bytes.Buffer
			fail := &fnOp{name: "fail", fn: func(_ context.Context, _ *workload.Probe, n int64) error {
				if n == 3+1 { // the second timed call, after 3 warmups
					return errors.New("no")
				}
				return nil
			}}
			cfg := testConfig(6)
			cfg.Warmups, cfg.Threads = 3, threads
			res := mustRun(t, cfg, workload.Mix{fail}, workload.Verbose(&buf, time.Now()))
			lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
			if len(lines) != 2*cfg.Runs {
				t.Fatalf("%d lines, want a start and an end for each of %d timed runs:\n%s", len(lines), cfg.Runs, buf.String())
			}
			starts, ends := map[string]int{}, map[string]int{}
			for _, l := range lines {
				m := verboseLine.FindStringSubmatch(l)
				if m == nil {
					t.Errorf("line %q does not match %v", l, verboseLine)
					continue
				}
				if m[1] == "start" {
					starts[m[2]]++
					if m[3] != "" {
						t.Errorf("start line %q has a runtime", l)
					}
				} else {
					ends[m[2]]++
					if m[3] == "" {
						t.Errorf("end line %q has no runtime", l)
					}
				}
			}
			for run := 1; run <= cfg.Runs; run++ {
				r := fmt.Sprint(run)
				if starts[r] != 1 || ends[r] != 1 {
					t.Errorf("run %d: %d start and %d end lines, want 1 each", run, starts[r], ends[r])
				}
			}
			if n := strings.Count(buf.String(), "(1 failed)"); n != 1 || res.Mix.Stats.Errors != 1 {
				t.Errorf("%d lines report a failed operation, %d failed runs; want 1", n, res.Mix.Stats.Errors)
			}
		})
	}
}

// The end line carries the run's runtime with three significant digits,
// as time.Duration prints it.
func TestVerboseRuntime(t *testing.T) {
	var buf bytes.Buffer
	v := workload.Verbose(&buf, time.Now())
	tests := []struct {
		rt     time.Duration
		errors int
		want   string
	}{
		{0, 0, "0ns"},
		{999, 0, "999ns"},
		{1500 * time.Nanosecond, 0, "1.50µs"},
		{10800 * time.Microsecond, 2, "10.8ms (2 failed)"},
		{123456789, 0, "123ms"},
		{2500 * time.Millisecond, 0, "2.50s"},
	}
	for _, tt := range tests {
		buf.Reset()
		v.RunEnd(workload.Timed, 7, &workload.RunRecord{Run: 7, Runtime: tt.rt, Errors: tt.errors})
		if want := "] Run end 7: " + tt.want + "\n"; !strings.HasSuffix(buf.String(), want) {
			t.Errorf("runtime %v: %q, want it to end with %q", tt.rt, buf.String(), want)
		}
	}
	buf.Reset()
	v.RunStart(workload.Warmup, 1)
	v.RunEnd(workload.Warmup, 1, nil)
	if buf.Len() != 0 {
		t.Errorf("warmup lines written: %q", buf.String())
	}
}

// Observers see every run of both phases, warmups with a nil record, and
// Begin and End around them.
type countingObserver struct {
	mu           sync.Mutex
	events       []string
	starts, ends [2]int
	nilWarmups   bool
	timedRecords bool
	end          *workload.Result
}

func (o *countingObserver) Begin(b workload.Begin) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.events = append(o.events, fmt.Sprintf("begin %d %v", b.Config.Runs, b.Operations))
}
func (o *countingObserver) RunStart(ph workload.Phase, run int) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.starts[ph]++
}
func (o *countingObserver) RunEnd(ph workload.Phase, run int, r *workload.RunRecord) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.ends[ph]++
	if ph == workload.Warmup && r != nil {
		o.nilWarmups = false
	}
	if ph == workload.Timed && (r == nil || r.Run != run) {
		o.timedRecords = false
	}
}
func (o *countingObserver) End(r *workload.Result) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.events = append(o.events, "end")
	o.end = r
}

func TestObserverCalls(t *testing.T) {
	o := &countingObserver{nilWarmups: true, timedRecords: true}
	cfg := testConfig(7)
	cfg.Warmups, cfg.Threads = 4, 2
	res := mustRun(t, cfg, workload.Mix{named("a"), named("b")}, o)
	if want := []string{"begin 7 [a b]", "end"}; fmt.Sprint(o.events) != fmt.Sprint(want) {
		t.Errorf("events %v, want %v", o.events, want)
	}
	if o.starts != [2]int{4, 7} || o.ends != [2]int{4, 7} {
		t.Errorf("starts %v, ends %v; want [4 7] each (warmup, timed)", o.starts, o.ends)
	}
	if !o.nilWarmups || !o.timedRecords {
		t.Errorf("warmup records nil: %v; timed records numbered: %v", o.nilWarmups, o.timedRecords)
	}
	if o.end != res {
		t.Errorf("End got another Result")
	}
	if workload.Warmup.String() != "warmup" || workload.Timed.String() != "timed" {
		t.Errorf("phases print as %v, %v", workload.Warmup, workload.Timed)
	}
}

// TestVerboseGC: a run in which the collector ran says so on its end line.
func TestVerboseGC(t *testing.T) {
	var buf bytes.Buffer
	op := &fnOp{name: "gc", fn: func(_ context.Context, _ *workload.Probe, n int64) error {
		if n == 1 { // the second timed run
			runtime.GC()
		}
		return nil
	}}
	cfg := testConfig(3)
	cfg.Random = false
	mustRun(t, cfg, workload.Mix{op}, workload.Verbose(&buf, time.Now()))
	gcLine := regexp.MustCompile(`^\[\d+\.\d{3}s\] Run end 2: .+ \[GC cycles [1-9]\d*, STW \S+, assist \S+\]( \[faults \d+ minor, \d+ major; switches \d+ voluntary, \d+ involuntary; sched waits \d+\])?$`)
	var sawGC bool
	for _, l := range strings.Split(strings.TrimSpace(buf.String()), "\n") {
		switch {
		case strings.HasPrefix(l[strings.Index(l, "]")+2:], "Run end 2:"):
			sawGC = gcLine.MatchString(l)
			if !sawGC {
				t.Errorf("run 2 forced a GC cycle, its line does not say so: %q", l)
			}
		}
	}
	if !sawGC {
		t.Errorf("no end line for run 2:\n%s", buf.String())
	}
}
