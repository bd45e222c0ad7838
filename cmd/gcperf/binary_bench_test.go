package main

// Issue 12, "Measure what users run": benchmarks of the gcperf binary as a
// user runs it, a fresh process per measurement, against a plain Go loop
// and against golang.org/x/benchmarks' gc_latency. They read only gcperf's
// command line and its -json result, as a user's script would, so they hold
// across changes inside the engine.
//
// The machine they run on is shared and noisy: one process can run 20%
// slower than the next for reasons of its own. So each benchmark runs its
// two sides in fresh processes one after the other, alternating which goes
// first, and reports medians over the pairs (and per-pair ratios, where
// both sides share the pair's conditions). They run only under -bench (a
// b.Loop iteration is a whole series of pairs, tens of seconds to minutes);
// GCPERF_BENCH_PAIRS sets the number of pairs of each, and -test.short
// takes fewer.

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gcperf/gcperf/alloc"
	"github.com/gcperf/gcperf/report"
)

// plainListEnv makes this test binary the plain side of
// BenchmarkBinaryListRatio (TestMain): size,base,chunk,warmup,runs.
const plainListEnv = "GCPERF_PLAIN_LIST"

// The list ratio's default shape: the main job's (-size 1024 -chunk 32, at
// 12 to 15 ms a run here) with 150 timed runs after 16 warmups instead of
// 1000 after 64, so that a pair of processes takes about 5 seconds and ten
// pairs under a minute. GCPERF_BENCH_LIST_RUNS=1000 and
// GCPERF_BENCH_LIST_WARMUP=64 measure the main job itself.
const (
	listRuns   = 150
	listWarmup = 16
)

// The noop marginal's two run counts: the marginal cost of a run is the
// difference of the two processes' wall times over noopExtra.
const (
	noopRuns  = 100_000
	noopExtra = 1_000_000
)

// runPlainList is the plain side of BenchmarkBinaryListRatio, in a fresh
// process: alloc.list's Setup, then Step in a loop, the warmups untimed.
// It prints the wall time of the timed steps as "elapsed-ns N".
func runPlainList(spec string) int {
	var v [5]int
	f := strings.Split(spec, ",")
	if len(f) != len(v) {
		fmt.Fprintf(os.Stderr, "%s=%q: want size,base,chunk,warmup,runs\n", plainListEnv, spec)
		return 2
	}
	for i := range v {
		n, err := strconv.Atoi(f[i])
		if err != nil {
			fmt.Fprintf(os.Stderr, "%s: %v\n", plainListEnv, err)
			return 2
		}
		v[i] = n
	}
	l, err := alloc.NewList(v[0], v[1], v[2])
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", plainListEnv, err)
		return 2
	}
	_ = l.Setup(context.Background())
	for range v[3] {
		l.Step()
	}
	start := time.Now()
	for range v[4] {
		l.Step()
	}
	fmt.Printf("elapsed-ns %d\n", time.Since(start).Nanoseconds())
	return 0
}

// BenchmarkBinaryListRatio measures what gcperf's harness costs the main
// job as users run it: `gcperf -q -size 1024 -chunk 32 -runs R -warmup W
// -json FILE` beside a plain loop of the same alloc.list steps (this test
// binary with GCPERF_PLAIN_LIST), each in a fresh process. Both sides time
// the same thing, the wall time of the timed runs (gcperf's from its JSON,
// timing.elapsed_ns), not process start; each process's whole wall time and
// peak RSS are reported beside. gcperf/plain is the plain side's time over
// gcperf's, a throughput ratio: 1 means the binary costs nothing.
func BenchmarkBinaryListRatio(b *testing.B) {
	bin := buildGCPerf(b)
	runs := envInt(b, "GCPERF_BENCH_LIST_RUNS", listRuns)
	warmup := envInt(b, "GCPERF_BENCH_LIST_WARMUP", listWarmup)
	pairs := benchPairs(b, 10, 3)
	out := filepath.Join(b.TempDir(), "list.json")
	spec := fmt.Sprintf("%d,%d,%d,%d,%d", alloc.DefaultSize, alloc.DefaultBase, alloc.DefaultChunk, warmup, runs)
	plainEnv := append(os.Environ(), plainListEnv+"="+spec)
	args := []string{"-q", "-size", fmt.Sprint(alloc.DefaultSize), "-chunk", fmt.Sprint(alloc.DefaultChunk),
		"-runs", fmt.Sprint(runs), "-warmup", fmt.Sprint(warmup), "-json", out}

	var ratios []float64
	m := samples{}
	plain := func() time.Duration {
		p := runProc(b, plainEnv, os.Args[0], "-test.run=^$")
		m.add("plain-proc-ns", float64(p.wall))
		m.addRSS("plain-maxrss-KiB", p.rssKiB)
		ns, ok := strings.CutPrefix(strings.TrimSpace(string(p.stdout)), "elapsed-ns ")
		d, err := strconv.ParseInt(ns, 10, 64)
		if !ok || err != nil {
			b.Fatalf("plain side printed %q, want elapsed-ns N", p.stdout)
		}
		return time.Duration(d)
	}
	gcperf := func() time.Duration {
		p := runProc(b, nil, bin, args...)
		m.add("gcperf-proc-ns", float64(p.wall))
		m.addRSS("gcperf-maxrss-KiB", p.rssKiB)
		doc := readResult(b, out)
		if doc.Timing.Done != runs {
			b.Fatalf("gcperf did %d timed runs, want %d", doc.Timing.Done, runs)
		}
		return doc.Timing.Elapsed
	}
	n := 0
	for b.Loop() {
		for range pairs {
			var p, g time.Duration
			if n%2 == 0 {
				p, g = plain(), gcperf()
			} else {
				g, p = gcperf(), plain()
			}
			n++
			ratios = append(ratios, float64(p)/float64(g))
			m.add("plain-ns/run", float64(p)/float64(runs))
			m.add("gcperf-ns/run", float64(g)/float64(runs))
		}
	}
	m.report(b)
	b.ReportMetric(median(ratios), "gcperf/plain")
	b.ReportMetric(slices.Min(ratios), "gcperf/plain-min")
	b.ReportMetric(slices.Max(ratios), "gcperf/plain-max")
}

// BenchmarkBinaryNoopMarginal measures what one more run of the noop
// operation costs a user's whole gcperf process, records kept, statistics
// and report included: the wall time of `gcperf run -q -warmup 0 -outliers
// 0 -runs 1100000 noop` less that of -runs 100000, over 1,000,000, each in a
// fresh process, the two alternating in order. It does so with -gcstats
// total (marginal-total-ns/run) and the default -gcstats run
// (marginal-run-ns/run), and divides each by the cost of a time.Now and
// time.Since pair measured in this process between the processes
// (marginal/clockpair: the engine's in-process target is at most 2). The
// peak RSS of each process says what the kept records cost in memory
// (rss-B/run: the difference over 1,000,000).
func BenchmarkBinaryNoopMarginal(b *testing.B) {
	bin := buildGCPerf(b)
	pairs := benchPairs(b, 5, 3)
	m := samples{}
	var pair []float64
	n := 0
	for b.Loop() {
		for range pairs {
			order := []int{noopRuns, noopRuns + noopExtra}
			if n%2 == 1 {
				slices.Reverse(order)
			}
			n++
			for _, mode := range []string{"total", "run"} {
				wall := map[int]time.Duration{}
				rss := map[int]float64{}
				for _, runs := range order {
					p := runProc(b, nil, bin, "run", "-q", "-warmup", "0", "-outliers", "0",
						"-gcstats", mode, "-runs", fmt.Sprint(runs), "noop")
					wall[runs], rss[runs] = p.wall, p.rssKiB
				}
				pair = append(pair, clockPairNs())
				short, long := noopRuns, noopRuns+noopExtra
				m.add("marginal-"+mode+"-ns/run", float64(wall[long]-wall[short])/noopExtra)
				m.add(mode+"-1.1M-proc-ns", float64(wall[long]))
				m.addRSS(mode+"-100k-maxrss-KiB", rss[short])
				m.addRSS(mode+"-1.1M-maxrss-KiB", rss[long])
				if rss[short] > 0 {
					m.add(mode+"-rss-B/run", (rss[long]-rss[short])*1024/noopExtra)
				}
			}
		}
	}
	cp := median(pair)
	b.ReportMetric(cp, "clockpair-ns")
	b.ReportMetric(median(m["marginal-total-ns/run"])/cp, "marginal/clockpair")
	b.ReportMetric(median(m["marginal-run-ns/run"])/cp, "marginal-run/clockpair")
	m.report(b)
}

// clockPairNs is the cost of a time.Now and time.Since pair, as
// BenchmarkHarnessRatio measures it: the mean over a block of 100,000.
func clockPairNs() float64 {
	const block = 100_000
	var sink time.Duration
	start := time.Now()
	for range block {
		t := time.Now()
		sink += time.Since(t)
	}
	elapsed := time.Since(start)
	runtime.KeepAlive(sink)
	return float64(elapsed.Nanoseconds()) / block
}

// BenchmarkVsGCLatency runs golang.org/x/benchmarks' gc_latency beside
// gcperf on the same workload, to see whether gcperf measures what the Go
// team's benchmark measures. gc_latency -how heap times each of 5,000,000
// stores of a new 1 KiB slice into a ring of 200,000, after 1,000,000
// untimed ones and a forced collection; gcperf runs alloc.ring in that
// shape: -k 200000 -size 1024 -per 1, -warmup 1000000 -runs 5000000, with
// -gcstats total and -outliers 0 so that nothing is added between runs or
// dropped from the mean. (One difference remains: gc_latency starts its
// timed stores on a new, empty ring; alloc.ring's is full from Setup on.)
//
// gc_latency comes from `go install golang.org/x/benchmarks/gc_latency@latest`
// into a temporary GOBIN, or from the binary GCPERF_GC_LATENCY names; the
// benchmark skips when neither gives one. Its GC cycles are counted from
// GODEBUG=gctrace=1's lines after the forced collection (one line per
// cycle, on stderr). Each side's mean, P99, P99.9, GC cycles of the timed
// phase, wall time and peak RSS are reported, with gcperf's over
// gc_latency's for the first four. Two pairs by default.
func BenchmarkVsGCLatency(b *testing.B) {
	gcl := gcLatencyBinary(b)
	bin := buildGCPerf(b)
	pairs := benchPairs(b, 2, 1)
	out := filepath.Join(b.TempDir(), "ring.json")
	glEnv := withGODEBUG(os.Environ(), "gctrace=1")
	args := []string{"run", "-q", "-gcstats", "total", "-outliers", "0", "-warmup", "1000000",
		"-runs", "5000000", "-json", out, "alloc.ring", "-k", "200000", "-size", "1024", "-per", "1"}

	m := samples{}
	gcLatency := func() gcLatencyFigures {
		p := runProc(b, glEnv, gcl, "-how", "heap")
		f := parseGCLatency(b, p.stdout, p.stderr)
		m.add("gclatency-proc-ns", float64(p.wall))
		m.addRSS("gclatency-maxrss-KiB", p.rssKiB)
		return f
	}
	gcperf := func() gcLatencyFigures {
		p := runProc(b, nil, bin, args...)
		m.add("gcperf-proc-ns", float64(p.wall))
		m.addRSS("gcperf-maxrss-KiB", p.rssKiB)
		doc := readResult(b, out)
		if doc.GC == nil {
			b.Fatal("gcperf's result has no gc figures with -gcstats total")
		}
		m.add("gcperf-peak-rss-B", float64(doc.Process.PeakRSSBytes))
		r := doc.Mix.Runtime
		return gcLatencyFigures{mean: r.Mean, p99: r.P99, p999: r.P999, cycles: float64(doc.GC.Cycles)}
	}
	n := 0
	for b.Loop() {
		for range pairs {
			var l, g gcLatencyFigures
			if n%2 == 0 {
				l, g = gcLatency(), gcperf()
			} else {
				g, l = gcperf(), gcLatency()
			}
			n++
			for _, s := range []struct {
				name string
				f    gcLatencyFigures
			}{{"gclatency", l}, {"gcperf", g}} {
				m.add(s.name+"-mean-ns", float64(s.f.mean))
				m.add(s.name+"-p99-ns", float64(s.f.p99))
				m.add(s.name+"-p99.9-ns", float64(s.f.p999))
				m.add(s.name+"-gc-cycles", s.f.cycles)
			}
			m.add("gcperf/gclatency-mean", float64(g.mean)/float64(l.mean))
			m.add("gcperf/gclatency-p99", float64(g.p99)/float64(l.p99))
			m.add("gcperf/gclatency-p99.9", float64(g.p999)/float64(l.p999))
			m.add("gcperf/gclatency-gc-cycles", g.cycles/l.cycles)
		}
	}
	m.report(b)
}

// gcLatencyFigures are the figures compared between gc_latency and gcperf.
type gcLatencyFigures struct {
	mean, p99, p999 time.Duration
	cycles          float64 // GC cycles during the timed phase
}

// gcLatencyBinary returns gc_latency's binary: GCPERF_GC_LATENCY's, or one
// installed from the module proxy into a temporary GOBIN (not through
// go.mod: it is no dependency of gcperf). It skips b when neither works.
func gcLatencyBinary(b *testing.B) string {
	if p := os.Getenv("GCPERF_GC_LATENCY"); p != "" {
		return p
	}
	dir := b.TempDir()
	cmd := exec.Command(goCommand(b), "install", "golang.org/x/benchmarks/gc_latency@latest")
	cmd.Dir, cmd.Env = dir, append(os.Environ(), "GOBIN="+dir)
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Skipf("gc_latency cannot be built (set GCPERF_GC_LATENCY to a gc_latency binary): go install: %v\n%s", err, tail(out))
	}
	return filepath.Join(dir, "gc_latency"+exeSuffix())
}

// parseGCLatency reads gc_latency's report ("Average allocation latency:
// 993ns", "99% allocation latency: ...") and counts the gctrace lines after
// the forced collection that ends its warmup.
func parseGCLatency(b *testing.B, stdout, stderr []byte) gcLatencyFigures {
	var f gcLatencyFigures
	want := map[string]*time.Duration{
		"Average allocation latency": &f.mean,
		"99% allocation latency":     &f.p99,
		"99.9% allocation latency":   &f.p999,
	}
	for line := range strings.Lines(string(stdout)) {
		k, v, ok := strings.Cut(strings.TrimSpace(line), ": ")
		if p := want[k]; ok && p != nil {
			d, err := time.ParseDuration(v)
			if err != nil {
				b.Fatalf("gc_latency: %q: %v", line, err)
			}
			*p = d
			delete(want, k)
		}
	}
	if len(want) > 0 {
		b.Fatalf("gc_latency printed no %v:\n%s", slices.Collect(maps.Keys(want)), stdout)
	}
	forced := false
	sc := bufio.NewScanner(bytes.NewReader(stderr))
	for sc.Scan() {
		switch line := sc.Text(); {
		case !strings.HasPrefix(line, "gc "):
		case strings.HasSuffix(line, "(forced)"):
			forced, f.cycles = true, 0
		default:
			f.cycles++
		}
	}
	if !forced {
		b.Fatalf("gc_latency's stderr has no forced collection (GODEBUG=gctrace=1):\n%s", tail(stderr))
	}
	return f
}

// withGODEBUG returns env with setting added to GODEBUG.
func withGODEBUG(env []string, setting string) []string {
	out := []string{}
	godebug := setting
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "GODEBUG="); ok {
			if v != "" {
				godebug = v + "," + setting
			}
			continue
		}
		out = append(out, kv)
	}
	return append(out, "GODEBUG="+godebug)
}

// result holds what the benchmarks read of gcperf's -json result.
type result struct {
	Timing  report.Timing
	GC      *report.GC
	Process report.Process
	Mix     report.Mix
}

// readResult reads the top-level keys of gcperf's JSON result that the
// benchmarks need and stops there: a result of 5,000,000 runs is near a
// gigabyte, nearly all of it the "runs" array after these keys. It removes
// the file, for the next process to write.
func readResult(b *testing.B, path string) result {
	f, err := os.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer os.Remove(path)
	defer f.Close()
	var r result
	var schema string
	want := map[string]any{"schema": &schema, "timing": &r.Timing, "gc": &r.GC, "process": &r.Process, "mix": &r.Mix}
	dec := json.NewDecoder(bufio.NewReaderSize(f, 1<<20))
	if _, err := dec.Token(); err != nil {
		b.Fatalf("%s: %v", path, err)
	}
	for len(want) > 0 && dec.More() {
		key, err := dec.Token()
		if err != nil {
			b.Fatalf("%s: %v", path, err)
		}
		var v any = new(json.RawMessage)
		if p, ok := want[key.(string)]; ok {
			v = p
			delete(want, key.(string))
		}
		if err := dec.Decode(v); err != nil {
			b.Fatalf("%s: %q: %v", path, key, err)
		}
	}
	switch {
	case len(want) > 0:
		b.Fatalf("%s: no %v", path, slices.Collect(maps.Keys(want)))
	case schema != report.Schema:
		b.Fatalf("%s: schema %q, want %q", path, schema, report.Schema)
	}
	return r
}

// buildGCPerf builds this package's binary, as a user's go build would.
func buildGCPerf(b *testing.B) string {
	bin := filepath.Join(b.TempDir(), "gcperf"+exeSuffix())
	if out, err := exec.Command(goCommand(b), "build", "-o", bin, ".").CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// goCommand is the go command on PATH, where go test puts the go command
// that runs it (its GOROOT/bin first), or skips b.
func goCommand(b *testing.B) string {
	p, err := exec.LookPath("go")
	if err != nil {
		b.Skip("no go command to build with")
	}
	return p
}

func exeSuffix() string {
	if runtime.GOOS == "windows" {
		return ".exe"
	}
	return ""
}

// proc is a child process that ran to success.
type proc struct {
	wall           time.Duration // from before its start to after its exit
	rssKiB         float64       // its peak RSS (0 where the system does not say)
	stdout, stderr []byte
}

// runProc runs name with args in a fresh process (env nil: this process's
// environment) and fails b unless it exits 0.
func runProc(b *testing.B, env []string, name string, args ...string) proc {
	cmd := exec.Command(name, args...)
	cmd.Env = env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err := cmd.Run()
	wall := time.Since(start)
	if err != nil {
		b.Fatalf("%s %s: %v\n%s", filepath.Base(name), strings.Join(args, " "), err, tail(stderr.Bytes()))
	}
	return proc{wall: wall, rssKiB: maxRSSKiB(cmd.ProcessState), stdout: stdout.Bytes(), stderr: stderr.Bytes()}
}

// tail is the end of a child's output, for a failure's message.
func tail(out []byte) []byte {
	const most = 4096
	if len(out) > most {
		return out[len(out)-most:]
	}
	return out
}

// envInt is the integer in environment variable name, or def.
func envInt(b *testing.B, name string, def int) int {
	v := os.Getenv(name)
	if v == "" {
		return def
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 {
		b.Fatalf("%s=%q: want a positive integer", name, v)
	}
	return n
}

// benchPairs is the number of pairs a benchmark runs in one iteration:
// GCPERF_BENCH_PAIRS, else short with -test.short, else def.
func benchPairs(b *testing.B, def, short int) int {
	if testing.Short() {
		def = short
	}
	return envInt(b, "GCPERF_BENCH_PAIRS", def)
}

// samples are a benchmark's figures, one per pair, by metric unit.
type samples map[string][]float64

func (s samples) add(unit string, v float64) { s[unit] = append(s[unit], v) }

// addRSS adds a peak RSS, unless the system did not say it (0).
func (s samples) addRSS(unit string, kib float64) {
	if kib > 0 {
		s.add(unit, kib)
	}
}

// report reports each unit's median.
func (s samples) report(b *testing.B) {
	for unit, vs := range s {
		b.ReportMetric(median(vs), unit)
	}
}

// median is the median of vs (the mean of the middle two for an even count).
func median(vs []float64) float64 {
	s := slices.Sorted(slices.Values(vs))
	if len(s) == 0 {
		return 0
	}
	if len(s)%2 == 0 {
		return (s[len(s)/2-1] + s[len(s)/2]) / 2
	}
	return s[len(s)/2]
}
