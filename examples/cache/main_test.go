package main

import (
	"bytes"
	"runtime"
	"runtime/metrics"
	"slices"
	"strings"
	"testing"

	"golang.org/x/perf/benchfmt"
)

// small keeps a run in-process short: a 1 MiB cache, 4 KiB per request.
var small = []string{"-live", "1", "-garbage", "4", "-requests", "200"}

func TestRunWritesOneBenchmarkResult(t *testing.T) {
	// The units as written, then as benchfmt tidies them (benchunit.Tidy):
	// the latencies in seconds, so that benchstat scales them as times.
	wantUnits := []string{"ns/op", "p99-ns", "max-ns", "gc-cycles/op", "B/op", "allocs/op"}
	wantTidied := []string{"sec/op", "p99-sec", "max-sec", "gc-cycles/op", "B/op", "allocs/op"}
	tests := []struct {
		name     string
		args     []string
		requests int
		garbage  float64 // at least this many B/op
	}{
		{"defaults but small", small, 200, 4 << 10},
		{"two workers", append(slices.Clone(small), "-workers", "2", "-requests", "301"), 301, 4 << 10},
		{"no garbage, no churn", []string{"-live", "1", "-garbage", "0", "-replace", "0", "-requests", "50"}, 50, 0},
		{"more garbage", []string{"-live", "2", "-garbage", "64", "-requests", "100", "-seed", "7"}, 100, 64 << 10},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			if code := run(tt.args, &stdout, &stderr); code != 0 {
				t.Fatalf("run(%q) = %d, want 0; stderr: %s", tt.args, code, stderr.String())
			}
			if lines := strings.Split(strings.TrimSuffix(stderr.String(), "\n"), "\n"); len(lines) != 1 || !strings.HasPrefix(lines[0], "cache: ") {
				t.Errorf("stderr is not one line starting with \"cache: \":\n%s", stderr.String())
			}

			r := benchfmt.NewReader(&stdout, "stdout")
			var results []*benchfmt.Result
			for r.Scan() {
				switch rec := r.Result().(type) {
				case *benchfmt.Result:
					results = append(results, rec.Clone())
				case *benchfmt.SyntaxError:
					t.Errorf("stdout: %v", rec)
				}
			}
			if err := r.Err(); err != nil {
				t.Fatal(err)
			}
			if len(results) != 1 {
				t.Fatalf("stdout has %d results, want 1:\n%s", len(results), stdout.String())
			}
			res := results[0]
			if base := string(res.Name.Base()); base != "Request" {
				t.Errorf("name %q, base %q, want Request", res.Name, base)
			}
			if res.Iters != tt.requests {
				t.Errorf("iterations %d, want %d", res.Iters, tt.requests)
			}
			var units, tidied []string
			for _, v := range res.Values {
				orig := v.OrigUnit // empty when tidying left the unit as it was
				if orig == "" {
					orig = v.Unit
				}
				units = append(units, orig)
				tidied = append(tidied, v.Unit)
			}
			if !slices.Equal(units, wantUnits) || !slices.Equal(tidied, wantTidied) {
				t.Errorf("units %q (tidied %q), want %q (%q)", units, tidied, wantUnits, wantTidied)
			}
			for _, key := range []string{"goos", "goarch", "pkg", "gogc", "gomemlimit"} {
				if res.GetConfig(key) == "" {
					t.Errorf("no %s: line", key)
				}
			}

			mean, _ := res.Value("sec/op")
			p99, _ := res.Value("p99-sec")
			maxLat, _ := res.Value("max-sec")
			if !(mean > 0 && p99 > 0 && p99 <= maxLat && mean <= maxLat) {
				t.Errorf("mean %g s, P99 %g s, max %g s: want 0 < mean, P99 <= max", mean, p99, maxLat)
			}
			if b, _ := res.Value("B/op"); b < tt.garbage || b > tt.garbage+16<<10 {
				t.Errorf("%g B/op, want %g to %g more (-garbage and the churn)", b, tt.garbage, tt.garbage+16<<10)
			}
		})
	}
}

func TestRunRefusesBadFlags(t *testing.T) {
	tests := []struct {
		args []string
		want []string // in the one line of stderr
	}{
		{[]string{"-live", "0"}, []string{"-live", "0"}},
		{[]string{"-live", "big"}, []string{"-live", "big"}},
		{[]string{"-live", "2000000"}, []string{"-live", "2000000"}},
		{[]string{"-requests", "-5"}, []string{"-requests", "-5"}},
		{[]string{"-garbage", "-1"}, []string{"-garbage", "-1"}},
		{[]string{"-workers", "0"}, []string{"-workers", "0"}},
		{[]string{"-lookups", "0"}, []string{"-lookups", "0"}},
		{[]string{"-seed", "-1"}, []string{"-seed", "-1"}},
		{[]string{"-nosuch"}, []string{"-nosuch"}},
		{[]string{"extra"}, []string{"extra"}},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			if code := run(tt.args, &stdout, &stderr); code != 2 {
				t.Errorf("exit status %d, want 2", code)
			}
			if stdout.Len() != 0 {
				t.Errorf("stdout: %q, want nothing", stdout.String())
			}
			line, ok := strings.CutSuffix(stderr.String(), "\n")
			if !ok || strings.Contains(line, "\n") {
				t.Fatalf("stderr is not one line: %q", stderr.String())
			}
			for _, w := range tt.want {
				if !strings.Contains(line, w) {
					t.Errorf("stderr %q does not name %q", line, w)
				}
			}
		})
	}
}

func TestRunHelp(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := run([]string{"-h"}, &stdout, &stderr); code != 0 {
		t.Errorf("-h: exit status %d, want 0", code)
	}
	if stdout.Len() != 0 || !strings.Contains(stderr.String(), "-live MiB") {
		t.Errorf("-h: stdout %q, stderr %q: want the usage on stderr only", stdout.String(), stderr.String())
	}
}

// TestLiveHeap checks that the cache holds about -live MiB, filled and
// after churn.
func TestLiveHeap(t *testing.T) {
	for _, liveMiB := range []int{4, 16} {
		base := liveHeap()
		c := newCache(liveMiB, 8, 1)
		check := func(when string) {
			t.Helper()
			got := float64(liveHeap()-base) / (1 << 20)
			t.Logf("-live %d, %s: live heap %.2f MiB", liveMiB, when, got)
			if got < 0.8*float64(liveMiB) || got > 1.25*float64(liveMiB) {
				t.Errorf("-live %d, %s: live heap %.1f MiB, want within 0.8× to 1.25×", liveMiB, when, got)
			}
		}
		check("filled")
		w := newWorker(c, config{seed: 1, lookups: 8, replace: 4, garbageKiB: 4}, 0)
		for range c.n / 4 { // a quarter of the entries replaced on average
			w.request()
		}
		w.last = nil
		check("after churn")
		runtime.KeepAlive(c)
	}
}

// liveHeap collects and returns the live heap's size.
func liveHeap() uint64 {
	runtime.GC()
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

func TestRank(t *testing.T) {
	tests := []struct {
		q    float64
		n    int
		want int
	}{
		{0.99, 1, 0},
		{0.99, 100, 98},
		{0.99, 101, 99},
		{0.99, 20000, 19799},
		{0.5, 4, 1},
		{1, 10, 9},
	}
	for _, tt := range tests {
		if got := rank(tt.q, tt.n); got != tt.want {
			t.Errorf("rank(%g, %d) = %d, want %d", tt.q, tt.n, got, tt.want)
		}
	}
}

func TestBytesText(t *testing.T) {
	for n, want := range map[uint64]string{
		256 << 20: "256MiB", 1 << 30: "1GiB", 3 << 10: "3KiB", 1000: "1000B", 1<<20 + 1: "1048577B",
	} {
		if got := bytesText(n); got != want {
			t.Errorf("bytesText(%d) = %q, want %q", n, got, want)
		}
	}
}
