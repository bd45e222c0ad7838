package main

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// -rate runs open loop: the report shows corrected and uncorrected latency
// (with -v, the open loop's own table too).
func TestRate(t *testing.T) {
	for _, rate := range []string{"500/s", "500"} {
		code, stdout, stderr := gcperf(t, nil, "run", "-v", "-rate", rate, "-runs", "50", "-warmup", "2", "noop")
		if code != 0 {
			t.Fatalf("-rate %s: exit %d; stderr:\n%s", rate, code, stderr)
		}
		for _, want := range []string{"rate 500/s (open loop)", "Open loop: asked 500/s (one start every 2.00ms), achieved ",
			"corrected", "uncorrected", "P99.99"} {
			if !strings.Contains(stdout, want) {
				t.Errorf("-rate %s: the report lacks %q:\n%s", rate, want, stdout)
			}
		}
	}
	// The default report: the corrected latency is the first row of the
	// percentiles, labelled so, the service time beside it; one
	// throughput, achieved against asked; no GCPerfP99 line.
	code, stdout, stderr := gcperf(t, nil, "run", "-rate", "500/s", "-runs", "50", "-warmup", "2", "noop")
	if code != 0 {
		t.Fatalf("exit %d; stderr:\n%s", code, stderr)
	}
	lines := strings.Split(stdout, "\n")
	head := slices.IndexFunc(lines, func(l string) bool { return strings.Contains(l, "P99") })
	if head < 0 || head+2 >= len(lines) || !strings.Contains(lines[head], "Latency (open loop)") ||
		!strings.HasPrefix(strings.TrimSpace(lines[head+1]), "noop: corrected, from the intended start ") ||
		!strings.HasPrefix(strings.TrimSpace(lines[head+2]), "noop: uncorrected (service time) ") {
		t.Errorf("the first P99 is not the corrected latency's:\n%s", stdout)
	}
	if n := strings.Count(stdout, "Throughput"); n != 1 || !strings.Contains(stdout, "/s achieved of 500/s asked") {
		t.Errorf("%d throughputs, want one, achieved against asked:\n%s", n, stdout)
	}
	if strings.Contains(stdout, "GCPerfP99") {
		t.Errorf("open loop, the default report has GCPerfP99's figures:\n%s", stdout)
	}
	code, stdout, stderr = gcperf(t, nil, "run", "-rate", "500/s", "-runs", "50", "-json", "-", "noop", "spin", "-d", "1us")
	if code != 0 {
		t.Fatalf("exit %d; stderr:\n%s", code, stderr)
	}
	var doc map[string]any
	if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"open_loop.rate", "open_loop.achieved_rate", "open_loop.max_lateness_ns", "open_loop.late_starts",
		"open_loop.kept_up", "config.rate", "operations.0.corrected.p50_ns", "operations.1.corrected.p9999_ns",
		"operations.1.corrected.pmax_ns", "operations.1.runtime.p99_ns"} {
		if _, ok := lookup(doc, key); !ok {
			t.Errorf("no key %s", key)
		}
	}
	if v, _ := lookup(doc, "open_loop.rate"); v != 500.0 {
		t.Errorf("open_loop.rate = %v, want 500", v)
	}
	if v, _ := lookup(doc, "operations.1.corrected.count"); v != 50.0 {
		t.Errorf("operations.1.corrected.count = %v, want 50", v)
	}
}

// Closed loop, the JSON has open_loop null and no corrected figures.
func TestNoRate(t *testing.T) {
	code, stdout, stderr := gcperf(t, nil, "run", "-runs", "5", "-json", "-", "noop")
	if code != 0 {
		t.Fatalf("exit %d; stderr:\n%s", code, stderr)
	}
	var doc map[string]any
	if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
		t.Fatal(err)
	}
	if v, ok := doc["open_loop"]; !ok || v != nil {
		t.Errorf("open_loop = %v (present %v), want null", v, ok)
	}
	if _, ok := lookup(doc, "operations.0.corrected"); ok {
		t.Error("operations.0.corrected present closed loop")
	}
	if strings.Contains(stderr, "Open loop") {
		t.Errorf("closed loop, the report speaks of an open loop:\n%s", stderr)
	}
}
