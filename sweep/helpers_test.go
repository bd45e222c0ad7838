package sweep

import (
	"bytes"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/gcperf/gcperf/env"
	"github.com/gcperf/gcperf/latency"
	"github.com/gcperf/gcperf/report"
	"github.com/gcperf/gcperf/runstats"
	"github.com/gcperf/gcperf/workload"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// golden compares got with testdata/name, or rewrites it with -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test -update creates it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs (go test -update rewrites it):\n--- got\n%s\n--- want\n%s", path, got, want)
	}
}

const ms = time.Millisecond
const mib = 1 << 20

// fig is what one repeat measured: the fields of a Document the sweep
// reads. noGC leaves the document's GC null (-gcstats off).
type fig struct {
	mean, p50, p99, p999, max time.Duration
	tput                      float64
	cycles                    uint64
	cpu                       float64 // fraction
	stw                       time.Duration
	rss, goal                 uint64
	noGC                      bool
}

// lat is a fig with only the latencies and peak RSS that Advise and
// MarkFrontier look at; the others are derived from them.
func lat(p99 time.Duration, rss uint64) fig {
	return fig{mean: p99 / 4, p50: p99 / 5, p99: p99, p999: 2 * p99, max: 3 * p99, tput: 1000,
		cycles: 10, cpu: 0.05, stw: 100 * time.Microsecond, rss: rss, goal: rss / 2}
}

// testDoc makes the Document of one repeat of point p: one operation,
// alloc.list size=64, whose figures are the mix's, with the runtime settings
// p asked for.
func testDoc(p Point, f fig) *report.Document {
	g := env.Go{Version: "go1.26.0", GOOS: "linux", GOARCH: "amd64", GOMAXPROCS: 4, NumCPU: 4,
		GOGC: -1, GOMEMLIMIT: math.MaxInt64}
	if n, ok := p.GOGC.Percent(); ok {
		g.GOGC = n
	}
	if n, ok := p.MemLimit.Bytes(); ok {
		g.GOMEMLIMIT = n
	}
	if p.GOMAXPROCS > 0 {
		g.GOMAXPROCS = p.GOMAXPROCS
	}
	rt := report.Distribution{Count: 100, Kept: 100, Mean: f.mean, Max: f.max,
		Percentiles: latency.Percentiles{P50: f.p50, P99: f.p99, P999: f.p999, Max: f.max}}
	op := report.Operation{Name: "alloc.list", Params: "size=64", Unit: "objects", Runs: 100,
		Results: 100 * 64, AvgResults: 64, Runtime: rt, OpsPerSecond: f.tput / 64}
	d := &report.Document{
		Schema:     report.Schema,
		Tool:       report.Tool{Name: "gcperf", Version: "0.1.0"},
		Env:        env.Env{Host: env.Host{CPUModel: "Test CPU"}, Go: g},
		Config:     report.Config{Runs: 100, Seed: 7},
		Process:    report.Process{PeakRSSBytes: f.rss},
		Operations: []report.Operation{op},
		Mix:        report.Mix{Operation: op, OpsPerRun: 1},
		GCPerfP99:  report.P99{Unit: "objects", P99Figures: latency.P99Figures{Throughput: f.tput}},
	}
	d.Mix.Name, d.Mix.Params = "mix", ""
	if !f.noGC {
		d.GC = &report.GC{Mode: "total", GCSummary: workload.GCSummary{
			GCDelta:     runstats.GCDelta{Cycles: f.cycles, STWMax: f.stw, STW: 4 * f.stw, HeapGoal: f.goal},
			CPUFraction: f.cpu, AllocBytesPerOp: 4096}}
	}
	return d
}

// okRep is a successful repeat of p.
func okRep(p Point, rep int, f fig) Outcome {
	return Outcome{Point: p, Rep: rep, File: p.FileName(rep), Wall: time.Second, Doc: testDoc(p, f)}
}

// badRep is a failed repeat of p.
func badRep(p Point, rep int, why string) Outcome {
	return Outcome{Point: p, Rep: rep, File: p.FileName(rep), Wall: time.Second, Failed: Failure{Other, why},
		StderrTail: []string{"fatal error: out of memory"}}
}

// gridPoint is point i of a grid without a GOMAXPROCS axis.
func gridPoint(i int, gogc, mem string) Point {
	return Point{Index: i, GOGC: G(gogc), MemLimit: M(mem)}
}

// G is the GOGC s spells, M the GOMEMLIMIT; gs and mls their lists.
func G(s string) GOGC {
	var g GOGC
	if err := g.UnmarshalText([]byte(s)); err != nil {
		panic(err)
	}
	return g
}

func M(s string) MemLimit {
	var m MemLimit
	if err := m.UnmarshalText([]byte(s)); err != nil {
		panic(err)
	}
	return m
}

func gs(s ...string) []GOGC {
	out := make([]GOGC, len(s))
	for i, v := range s {
		out[i] = G(v)
	}
	return out
}

func mls(s ...string) []MemLimit {
	out := make([]MemLimit, len(s))
	for i, v := range s {
		out[i] = M(v)
	}
	return out
}

// strs is vs as strings.
func strs[T fmt.Stringer](vs []T) []string {
	if vs == nil {
		return nil
	}
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = v.String()
	}
	return out
}
