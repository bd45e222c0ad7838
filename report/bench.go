package report

import (
	"bytes"
	"fmt"
	"github.com/gcperf/gcperf/internal/reportparts"
	"io"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"golang.org/x/perf/benchfmt"
	"golang.org/x/perf/benchunit"

	"github.com/gcperf/gcperf/internal/figure"
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
//
// The result of a command (gcperf exec) has one line for the command's own
// figures and a line per result of the benchmarks it printed: see
// execBenchLines.
func Bench(w io.Writer, d *Document) error {
	if d.Kind() == CommandDocument {
		return execBench(w, d, "", false)
	}
	bw := newBenchWriter(w)
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
	runs := d.Config.Runs
	if d.Config.Duration > 0 {
		runs = d.Timing.Done // bounded by time: the runs made, not the most asked (0: no limit)
	}
	// The seed and the settings are comments, not configuration keys:
	// benchstat compares only results whose keys all agree, gcperf picks
	// a new seed on every run, and two files that differ in GOGC,
	// GOMEMLIMIT or Go are what a user compares (benchstat old.txt
	// new.txt). The keys are those of a sweep's names (/gogc=100).
	settings := settingsComment([][2]string{{"gogc", g.GOGCString()}, {"gomemlimit", gomemlimit(g)},
		{"gomaxprocs", strconv.Itoa(g.GOMAXPROCS)}, {"go", g.Version}, {"runs", strconv.Itoa(runs)}})
	if _, err := fmt.Fprintf(w, "# gcperf %s -seed %d\n%s", d.Tool.Version, d.Config.Seed, settings); err != nil {
		return err
	}
	lines, skipped := benchLines(d)
	if _, err := io.WriteString(w, benchDefinitions(d, lines)+"\n"); err != nil {
		return err
	}
	var units []string // in order of first use, for the Unit lines
	for _, l := range lines {
		res.Name = benchfmt.Name(l.name)
		res.Iters = l.iters
		res.Values = l.values
		for _, v := range res.Values {
			if !slices.Contains(units, v.Unit) {
				units = append(units, v.Unit)
			}
		}
		if err := bw.Write(res); err != nil {
			return err
		}
	}
	if err := writeUnitLines(bw, units); err != nil {
		return err
	}
	if ol := d.OpenLoop; ol != nil && ol.SkippedStarts > 0 {
		skipped = append(skipped, fmt.Sprintf("# open loop: %d starts due within the %s of -duration never started (the timed runs end at the duration)",
			ol.SkippedStarts, dur(d.Config.Duration)))
	}
	for _, s := range skipped {
		if _, err := io.WriteString(w, s+"\n"); err != nil {
			return err
		}
	}
	return nil
}

// settingsComment is the comment line of a benchmark file that holds the
// settings its results ran with, "# gogc=100 gomemlimit=off ...\n" (the
// keys with a value), or "" when none has one.
func settingsComment(kv [][2]string) string {
	var b strings.Builder
	for _, p := range kv {
		if p[1] != "" {
			b.WriteString(" " + p[0] + "=" + p[1])
		}
	}
	if b.Len() == 0 {
		return ""
	}
	return "#" + b.String() + "\n"
}

// serverWall is the unit of a server's whole wall time, from its start to
// its exit: its shutdown (a drain on SIGTERM) is in it, so it is neither a
// latency nor better either way, and compare -fail does not judge it.
const serverWall = "wall-sec"

// serverValues are the figures of the server under test: a command's
// (execValues), but for its whole run, not per operation, so that none is
// compared with a client's latency: its wall time in serverWall, its CPU
// times in cpu-ns, user-ns and sys-ns.
func serverValues(e *Exec) []benchfmt.Value {
	v := execValues(e)
	for i := range v {
		switch v[i].Unit {
		case "ns/op":
			v[i] = benchfmt.Value{Value: e.Wall.Seconds(), Unit: serverWall}
		case "cpu-ns/op", "user-ns/op", "sys-ns/op":
			v[i].Unit = strings.TrimSuffix(v[i].Unit, "/op")
		}
	}
	return v
}

// serverLine is the server under load as a benchmark of its own: its
// run's figures (serverValues), its settings in its name (a sweep's points
// apart, as benchstat -col /gogc wants them).
func serverLine(sv *Exec) benchLine {
	params := "cmd=" + execProgram(sv)
	if m := sv.Settings.GOMEMLIMIT; m != "" {
		params = "memlimit=" + m + " " + params
	}
	if g := sv.Settings.GOGC; g != "" {
		params = "gogc=" + g + " " + params
	}
	return benchLine{op: "server", params: params, name: benchName("server", params, 1), iters: 1, values: serverValues(sv)}
}

// serverDefinitions says what the server line's figures are.
const serverDefinitions = "; Server/cmd=PROGRAM: the server under test, one run (1 iteration): " + serverWall +
	" its whole wall time, start to exit (its shutdown included: not a latency), cpu-ns user-ns sys-ns its CPU time, " +
	"peak-RSS-B the peak resident set of its process tree; from its gctrace: gc-cycles, gc-cpu-ns, " +
	"pause-total-ns pause-p99-ns pause-max-ns, peak-heap-B"

// writeUnitLines writes the Unit lines that say which way is better, for the
// units benchfmt has no default for.
func writeUnitLines(bw *benchfmt.Writer, units []string) error {
	for _, u := range units {
		better := "lower"
		if strings.HasSuffix(u, "/s") {
			better = "higher"
		}
		if u == "ns/op" || u == "B/op" || u == serverWall {
			continue
		}
		_, tidy := benchunit.Tidy(1, u)
		m := &benchfmt.UnitMetadata{UnitMetadataKey: benchfmt.UnitMetadataKey{Unit: tidy, Key: "better"},
			OrigUnit: u, Value: better}
		if err := bw.Write(m); err != nil {
			return err
		}
	}
	return nil
}

// benchDefinitions is the comment line that says what the figures of a
// document's bench lines are computed from, so that none is taken for
// another of the same unit: "# ns/op: the mean runtime without the best
// and worst 1 runs (-outliers 1); objects/s: the results per second at
// that mean, not GCPerfP99's throughput (its best 99% of runs); p50-ns
// p99-ns p99.9-ns max-ns: every successful run".
func benchDefinitions(d *Document, lines []benchLine) string {
	if d.Kind() == CommandDocument {
		return execBenchDefinitions()
	}
	var rate string
	for _, l := range lines {
		for _, v := range l.values {
			if strings.HasSuffix(v.Unit, "/s") && rate == "" {
				rate = v.Unit
			}
		}
	}
	n := d.Config.Outliers
	s := "# ns/op: the mean runtime of every successful run (-outliers 0)"
	if n > 0 {
		s = fmt.Sprintf("# ns/op: the mean runtime without the best and worst %d %s (-outliers %d)", n, figure.Plural(n, "run", "runs"), n)
	}
	if rate != "" {
		s += "; " + rate + ": the results per second at that mean, not GCPerfP99's throughput (its best 99% of runs)"
	}
	s += "; p50-ns p99-ns p99.9-ns max-ns: every successful run"
	if d.Kind() == ServerDocument {
		s += serverDefinitions
	}
	return s
}

// benchLine is one benchmark of a document, a result line of Bench: an
// operation with a successful run, or the hiccup meter.
type benchLine struct {
	op, params string // the operation and its parameters: "alloc.list", "size=8 base=32"
	name       string // the benchmark's name, without "Benchmark": "AllocList/size=8/base=32-2"
	iters      int
	values     []benchfmt.Value
}

// benchLines are the document's benchmarks with their figures, as Bench
// writes them and SamplesOf compares them, and the comment lines that name
// the operations without a successful run.
func benchLines(d *Document) (lines []benchLine, skipped []string) {
	lines, skipped = documentBenchLines(d)
	// The values as the file holds them (newBenchWriter), so that a
	// result and its bench file give the same samples.
	for _, l := range lines {
		for i := range l.values {
			l.values[i].Value = benchRound(l.values[i].Value)
		}
	}
	return lines, skipped
}

// documentBenchLines are benchLines with their values as computed.
func documentBenchLines(d *Document) (lines []benchLine, skipped []string) {
	if d.Kind() == CommandDocument {
		return execBenchLines(d, "", false), nil
	}
	g := d.Env.Go
	// Every operation executed, failed ones included: the GC figures are
	// the whole benchmark's, spread over all of them.
	var executed int64
	for _, o := range d.Operations {
		executed += o.Runs
	}
	for i := range d.Operations {
		o := &d.Operations[i]
		if o.Runtime.Count == 0 {
			skipped = append(skipped, fmt.Sprintf("# %s: no successful run (%d of %d failed)",
				strings.TrimSpace(o.Name+" "+o.Params), o.Errors.Total, o.Runs))
			continue
		}
		x := o.Runtime
		l := benchLine{op: o.Name, params: o.Params, name: benchName(o.Name, o.Params, g.GOMAXPROCS), iters: int(x.Count),
			values: []benchfmt.Value{
				{Value: float64(x.Mean), Unit: "ns/op"},
				{Value: float64(x.P50), Unit: "p50-ns"},
				{Value: float64(x.P99), Unit: "p99-ns"},
				{Value: float64(x.P999), Unit: "p99.9-ns"},
				{Value: float64(x.Percentiles.Max), Unit: "max-ns"},
			}}
		if gc := d.GC; gc != nil {
			if d.Mix.OpsPerRun == 1 && len(d.Operations) == 1 {
				l.values = append(l.values, benchfmt.Value{Value: gc.AllocBytesPerOp, Unit: "B/op"})
			}
			if executed > 0 {
				l.values = append(l.values,
					benchfmt.Value{Value: float64(gc.Cycles) / float64(executed), Unit: "gc-cycles/op"},
					benchfmt.Value{Value: float64(gc.STW) / float64(executed), Unit: "stw-ns/op"})
			}
		}
		if o.Unit != "results" || o.Results > 0 {
			l.values = append(l.values,
				benchfmt.Value{Value: o.AvgResults * o.OpsPerSecond, Unit: gobench.Unit(o.Unit) + "/s"})
		}
		if c := o.Corrected; c != nil && c.Count > 0 {
			// Open loop: the latency from each intended start too.
			l.values = append(l.values,
				benchfmt.Value{Value: float64(c.P50), Unit: "p50-corrected-ns"},
				benchfmt.Value{Value: float64(c.P99), Unit: "p99-corrected-ns"},
				benchfmt.Value{Value: float64(c.P999), Unit: "p99.9-corrected-ns"},
				benchfmt.Value{Value: float64(c.Max), Unit: "max-corrected-ns"})
		}
		lines = append(lines, l)
	}
	if d.Kind() == ServerDocument {
		lines = append(lines, serverLine(d.Server))
	}
	// The hiccup meter, as a benchmark of its own: its lateness per wake-up.
	if h := d.Hiccup; h != nil && h.Count > 0 {
		params := "interval=" + h.Interval.String()
		lines = append(lines, benchLine{op: "hiccup", params: params, name: benchName("hiccup", params, g.GOMAXPROCS),
			iters: int(h.Count), values: []benchfmt.Value{
				{Value: float64(h.P50), Unit: "p50-ns"},
				{Value: float64(h.P99), Unit: "p99-ns"},
				{Value: float64(h.P999), Unit: "p99.9-ns"},
				{Value: float64(h.Max), Unit: "max-ns"},
			}})
	}
	return lines, skipped
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
		// A "/" in a value (a URL) would split it into sub-benchmarks.
		b.WriteByte('/')
		b.WriteString(strings.ReplaceAll(p, "/", "%2F"))
	}
	if gomaxprocs > 1 {
		fmt.Fprintf(&b, "-%d", gomaxprocs)
	}
	return b.String()
}

// A benchPart is one document of a benchmark file that holds several
// (benchJoin): a process of gcperf -count, a point and repeat of a sweep.
type benchPart = reportparts.BenchPart[Document]

// writeBenchPart writes the part's document as Bench does, with its Params.
func writeBenchPart(w io.Writer, p *benchPart) error {
	if p.Doc.Kind() == CommandDocument {
		return execBench(w, p.Doc, p.Params, slices.Contains(p.Drop, "gomaxprocs"))
	}
	return Bench(w, p.Doc)
}

// benchJoin writes several documents as one file in the Go benchmark
// format, each as Bench writes it, so that benchstat and gcperf compare
// read the lines of one benchmark as its samples: the configuration lines
// once, and again only where they change; the Unit lines once, at the
// end; each document's comment lines prefixed with its label, except the
// definitions of the figures, written once where they first appear.
func benchJoin(w io.Writer, parts []benchPart) error {
	bw := newBenchWriter(w)
	var units []*benchfmt.UnitMetadata
	seen := map[benchfmt.UnitMetadataKey]bool{}
	defined := map[string]bool{}
	var buf bytes.Buffer
	for _, part := range parts {
		buf.Reset()
		if err := writeBenchPart(&buf, &part); err != nil {
			return fmt.Errorf("%s: %w", part.Label, err)
		}
		// The comments first: benchfmt's reader skips them.
		lines, _ := benchLines(part.Doc)
		defs := benchDefinitions(part.Doc, lines) + "\n"
		for line := range strings.Lines(buf.String()) {
			c, ok := strings.CutPrefix(line, "# ")
			switch {
			case !ok:
			case line == defs && defined[defs]:
			case line == defs:
				defined[defs] = true
				if _, err := io.WriteString(w, line); err != nil {
					return err
				}
			default:
				if _, err := io.WriteString(w, "# "+part.Label+": "+c); err != nil {
					return err
				}
			}
		}
		r := benchfmt.NewReader(bytes.NewReader(buf.Bytes()), part.Label)
		for r.Scan() {
			switch rec := r.Result().(type) {
			case *benchfmt.Result:
				res := &benchfmt.Result{Name: rec.Name, Iters: rec.Iters, Values: rec.Values}
				for _, c := range rec.Config {
					if !slices.Contains(part.Drop, c.Key) {
						res.Config = append(res.Config, c)
					}
				}
				if err := bw.Write(res); err != nil {
					return err
				}
			case *benchfmt.UnitMetadata:
				if !seen[rec.UnitMetadataKey] {
					seen[rec.UnitMetadataKey] = true
					units = append(units, rec)
				}
			case *benchfmt.SyntaxError:
				return fmt.Errorf("%s: %w", part.Label, rec)
			}
		}
		if err := r.Err(); err != nil {
			return err
		}
	}
	for _, u := range units {
		if err := bw.Write(u); err != nil {
			return err
		}
	}
	return nil
}
