package report

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"golang.org/x/perf/benchfmt"
	"golang.org/x/perf/benchunit"

	"github.com/gcperf/gcperf/internal/gobench"
)

// Bench writes the document in the Go benchmark format
// (golang.org/x/perf/benchfmt), so that benchstat can compare gcperf runs:
//
//	# gcperf 0.1.0 -seed 3
//	goos: linux
//	goarch: amd64
//	cpu: AMD EPYC
//	gogc: 100
//	gomemlimit: off
//	gomaxprocs: 2
//	go: go1.26.8
//	runs: 200
//
//	BenchmarkAllocList/size=8/base=32/chunk=32-2 200 320139 ns/op 153599 p50-ns ... 99956 objects/s
//
// One line per operation with a successful run, named from the operation
// and its parameters ("alloc.list" "size=8 base=32" →
// AllocList/size=8/base=32), with GOMAXPROCS as the -N suffix (none when
// 1, as go test does). The iterations are the operation's successful runs;
// the values:
//
//	ns/op          the mean runtime, without the -outliers at each end
//	p50-ns p99-ns p99.9-ns max-ns
//	               runtime percentiles and maximum, every successful run
//	B/op           the heap allocated per operation (-gcstats run or
//	               total, one operation per run only: else the allocation
//	               cannot be told apart between operations)
//	gc-cycles/op stw-ns/op
//	               the GC cycles and stop-the-world time of the whole
//	               benchmark per operation executed (-gcstats run or total)
//	<unit>/s       the operation's throughput in its own unit, objects/s,
//	               when it counts results
//
// Operations without a successful run have no line (benchfmt has no way to
// say "no value"); a comment line names them, which benchfmt readers skip.
// The mix gets no line of its own: see the report of the encoders' design.
func Bench(w io.Writer, d *Document) error {
	bw := benchfmt.NewWriter(w)
	res := &benchfmt.Result{}
	g := d.Env.Go
	cfg := func(key, value string) {
		if value != "" {
			res.Config = append(res.Config, benchfmt.Config{Key: key, Value: []byte(value), File: true})
		}
	}
	cfg("goos", g.GOOS)
	cfg("goarch", g.GOARCH)
	cfg("cpu", d.Env.Host.CPUModel)
	cfg("gogc", g.GOGCString())
	cfg("gomemlimit", gomemlimit(g))
	cfg("gomaxprocs", strconv.Itoa(g.GOMAXPROCS))
	cfg("go", g.Version)
	cfg("runs", strconv.Itoa(d.Config.Runs))
	// The seed is a comment, not a key: benchstat compares only results
	// whose keys all agree, and gcperf picks a new seed on every run.
	if _, err := fmt.Fprintf(w, "# gcperf %s -seed %d\n", d.Tool.Version, d.Config.Seed); err != nil {
		return err
	}

	// Every operation executed, failed ones included: the GC figures are
	// the whole benchmark's, spread over all of them.
	var executed int64
	for _, o := range d.Operations {
		executed += o.Runs
	}
	var units []string // in order of first use, for the Unit lines
	var skipped []string
	for i := range d.Operations {
		o := &d.Operations[i]
		if o.Runtime.Count == 0 {
			skipped = append(skipped, fmt.Sprintf("# %s: no successful run (%d of %d failed)",
				strings.TrimSpace(o.Name+" "+o.Params), o.Errors.Total, o.Runs))
			continue
		}
		res.Name = benchfmt.Name(benchName(o.Name, o.Params, g.GOMAXPROCS))
		res.Iters = int(o.Runtime.Count)
		x := o.Runtime
		res.Values = []benchfmt.Value{
			{Value: float64(x.Mean), Unit: "ns/op"},
			{Value: float64(x.P50), Unit: "p50-ns"},
			{Value: float64(x.P99), Unit: "p99-ns"},
			{Value: float64(x.P999), Unit: "p99.9-ns"},
			{Value: float64(x.PMax), Unit: "max-ns"},
		}
		if gc := d.GC; gc != nil {
			if d.Mix.OpsPerRun == 1 && len(d.Operations) == 1 {
				res.Values = append(res.Values, benchfmt.Value{Value: gc.AllocBytesPerOp, Unit: "B/op"})
			}
			if executed > 0 {
				res.Values = append(res.Values,
					benchfmt.Value{Value: float64(gc.Cycles) / float64(executed), Unit: "gc-cycles/op"},
					benchfmt.Value{Value: float64(gc.STW) / float64(executed), Unit: "stw-ns/op"})
			}
		}
		if o.Unit != "results" || o.Results > 0 {
			res.Values = append(res.Values,
				benchfmt.Value{Value: o.AvgResults * o.OpsPerSecond, Unit: gobench.Unit(o.Unit) + "/s"})
		}
		for _, v := range res.Values {
			if !slices.Contains(units, v.Unit) {
				units = append(units, v.Unit)
			}
		}
		if err := bw.Write(res); err != nil {
			return err
		}
	}
	// The hiccup meter, as a benchmark of its own: its lateness per wake-up.
	if h := d.Hiccup; h != nil && h.Count > 0 {
		res.Name = benchfmt.Name(benchName("hiccup", "interval="+h.Interval.String(), g.GOMAXPROCS))
		res.Iters = int(h.Count)
		res.Values = []benchfmt.Value{
			{Value: float64(h.P50), Unit: "p50-ns"},
			{Value: float64(h.P99), Unit: "p99-ns"},
			{Value: float64(h.P999), Unit: "p99.9-ns"},
			{Value: float64(h.Max), Unit: "max-ns"},
		}
		for _, v := range res.Values {
			if !slices.Contains(units, v.Unit) {
				units = append(units, v.Unit)
			}
		}
		if err := bw.Write(res); err != nil {
			return err
		}
	}
	// Which way is better, for the units benchfmt has no default for.
	for _, u := range units {
		better := "lower"
		if strings.HasSuffix(u, "/s") {
			better = "higher"
		}
		if u == "ns/op" || u == "B/op" {
			continue
		}
		_, tidy := benchunit.Tidy(1, u)
		m := &benchfmt.UnitMetadata{UnitMetadataKey: benchfmt.UnitMetadataKey{Unit: tidy, Key: "better"},
			OrigUnit: u, Value: better}
		if err := bw.Write(m); err != nil {
			return err
		}
	}
	for _, s := range skipped {
		if _, err := io.WriteString(w, s+"\n"); err != nil {
			return err
		}
	}
	return nil
}

// benchName is the benchmark name of an operation, without the "Benchmark"
// prefix: "alloc.list", "size=8 base=32", 2 → "AllocList/size=8/base=32-2".
func benchName(name, params string, gomaxprocs int) string {
	var b strings.Builder
	upper := true
	for _, r := range name {
		switch {
		case r == '.' || r == '_' || r == '-' || unicode.IsSpace(r):
			upper = true
		case upper:
			b.WriteRune(unicode.ToUpper(r))
			upper = false
		default:
			b.WriteRune(r)
		}
	}
	for _, p := range strings.Fields(params) {
		b.WriteByte('/')
		b.WriteString(p)
	}
	if gomaxprocs > 1 {
		fmt.Fprintf(&b, "-%d", gomaxprocs)
	}
	return b.String()
}
