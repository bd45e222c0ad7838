package report

import (
	"errors"
	"fmt"
	"io"
	"path"
	"regexp"
	"slices"
	"strings"
	"time"

	"golang.org/x/perf/benchfmt"

	"github.com/gcperf/gcperf/internal/figure"
	"github.com/gcperf/gcperf/internal/quote"
)

// ErrNoDistribution is returned by the writers of a latency distribution
// (HGRM) for the result of a command (gcperf exec), which has none.
var ErrNoDistribution = errors.New("a command's result has no latency distribution (gcperf exec measures its time, memory and GC, not the latency of operations)")

// mib is a size the trace prints in MiB, in bytes.
func mib(n uint64) uint64 { return n << 20 }

// execSettings are the settings of the command as the config lines of the
// Go benchmark format say them: Go's defaults when unset (GOGC 100,
// GOMEMLIMIT off), as gcperf's own results say them.
func execSettings(e *Exec) (gogc, memlimit string) {
	gogc, memlimit = e.Settings.GOGC, e.Settings.GOMEMLIMIT
	if gogc == "" {
		gogc = "100"
	}
	if memlimit == "" {
		memlimit = "off"
	}
	return gogc, memlimit
}

// execProgram is the base name of the command's program, as a benchmark
// name can hold it: "/tmp/alloc.test" → "alloc.test" (a space, a slash
// or a character benchfmt would split on become "_").
func execProgram(e *Exec) string {
	if len(e.Command) == 0 {
		return "unknown"
	}
	base := path.Base(e.Command[0])
	return strings.Map(func(r rune) rune {
		if r <= ' ' || r == '/' || r == 0x7f {
			return '_'
		}
		return r
	}, base)
}

// goArch is the GOARCH of a machine's architecture as uname names it.
func goArch(arch string) string {
	switch arch {
	case "x86_64":
		return "amd64"
	case "aarch64", "arm64":
		return "arm64"
	case "i386", "i686":
		return "386"
	case "ppc64le", "s390x", "riscv64", "loong64", "mips64", "mips64le", "ppc64":
		return arch
	case "armv7l", "armv6l":
		return "arm"
	}
	return arch
}

// procsSuffix is the -N suffix of a Go benchmark's name.
var procsSuffix = regexp.MustCompile(`-[0-9]+$`)

// execBenchName is the name of a benchmark the command printed with
// params (a sweep point's settings, "gogc=100 memlimit=off") added as
// its last elements, before its -N suffix, which noProcs drops:
// "Workloads/list-2" → "Workloads/list/gogc=100/memlimit=off-2".
func execBenchName(name, params string, noProcs bool) string {
	suffix := procsSuffix.FindString(name)
	base := strings.TrimSuffix(name, suffix)
	for _, p := range strings.Fields(params) {
		base += "/" + p
	}
	if noProcs {
		return base
	}
	return base + suffix
}

// execBenchLines are the benchmarks of a command's result, as Bench
// writes them: the command's own figures as benchmark Exec/cmd=PROGRAM,
// one iteration (the one run), then every result line of the benchmarks
// it printed, each value in its tidied unit (sec/op), one iteration
// each (the command's iteration counts are not kept). params and noProcs
// change the names as execBenchName says.
func execBenchLines(d *Document, params string, noProcs bool) []benchLine {
	e := d.Exec
	prog := "cmd=" + execProgram(e)
	all := strings.TrimSpace(params + " " + prog)
	own := benchLine{op: "exec", params: prog, name: benchName("exec", all, 1), iters: 1, values: execValues(e)}
	lines := []benchLine{own}
	for _, b := range e.Benchmarks {
		n := 0
		for _, m := range b.Metrics {
			n = max(n, len(m.Values))
		}
		name := execBenchName(b.Name, params, noProcs)
		for i := range n {
			l := benchLine{op: b.Name, params: b.Pkg, name: name, iters: 1}
			for _, m := range b.Metrics {
				if i < len(m.Values) {
					l.values = append(l.values, benchfmt.Value{Value: m.Values[i], Unit: m.Unit})
				}
			}
			lines = append(lines, l)
		}
	}
	return lines
}

// execValues are a command's own figures as benchmark values: its wall
// time as ns/op (one run), CPU, peak RSS and, with a trace, its collector.
func execValues(e *Exec) []benchfmt.Value {
	v := []benchfmt.Value{
		{Value: float64(e.Wall), Unit: "ns/op"},
		{Value: float64(e.UserCPU + e.SystemCPU), Unit: "cpu-ns/op"},
		{Value: float64(e.UserCPU), Unit: "user-ns/op"},
		{Value: float64(e.SystemCPU), Unit: "sys-ns/op"},
		{Value: float64(e.PeakRSS()), Unit: "peak-RSS-B"},
	}
	if g := e.GC; g != nil {
		v = append(v,
			benchfmt.Value{Value: float64(g.Cycles), Unit: "gc-cycles"},
			benchfmt.Value{Value: float64(g.CPU), Unit: "gc-cpu-ns"},
			benchfmt.Value{Value: float64(g.Pauses.Total), Unit: "pause-total-ns"},
			benchfmt.Value{Value: float64(g.Pauses.P99), Unit: "pause-p99-ns"},
			benchfmt.Value{Value: float64(g.Pauses.Max), Unit: "pause-max-ns"},
			benchfmt.Value{Value: float64(mib(g.PeakHeapMiB)), Unit: "peak-heap-B"},
		)
	}
	return v
}

// execBenchDefinitions is the comment line that says what the figures of
// a command's result are.
func execBenchDefinitions() string {
	return "# Exec/cmd=PROGRAM: one run of the command (1 iteration): ns/op its wall time, cpu-ns/op user-ns/op sys-ns/op its CPU time, " +
		"peak-RSS-B the peak resident set of its process tree; from its gctrace: gc-cycles, gc-cpu-ns, " +
		"pause-total-ns pause-p99-ns pause-max-ns (stop-the-world pauses), peak-heap-B (MiB, rounded down). " +
		"The other benchmarks are the command's own, one line per result it printed (its iteration counts not kept)"
}

// execBench writes a command's result in the Go benchmark format (Bench),
// its names changed as execBenchLines says.
func execBench(w io.Writer, d *Document, params string, noProcs bool) error {
	e := d.Exec
	bw := newBenchWriter(w)
	gogc, memlimit := execSettings(e)
	var base []benchfmt.Config
	cfg := func(key, value string) {
		if value != "" {
			base = append(base, benchfmt.Config{Key: key, Value: []byte(value), File: true})
		}
	}
	cfg("goos", d.Env.Host.OS)
	cfg("goarch", goArch(d.Env.Host.Arch))
	cfg("cpu", d.Env.Host.CPUModel)
	var head strings.Builder
	fmt.Fprintf(&head, "# gcperf %s exec: %s (%s)\n", d.Tool.Version, quote.Line(quote.Shell(e.Command)), quote.Line(e.Status))
	head.WriteString(settingsComment([][2]string{{"gogc", gogc}, {"gomemlimit", memlimit}})) // as Bench's
	if !e.Success {
		fmt.Fprintf(&head, "# the command did not succeed: %s\n", quote.Line(e.Status))
	}
	if e.SkippedBenchmarkLines > 0 {
		fmt.Fprintf(&head, "# %d benchmark %s of the command's stdout could not be read\n", e.SkippedBenchmarkLines,
			figure.Plural(e.SkippedBenchmarkLines, "line", "lines"))
	}
	head.WriteString(execBenchDefinitions() + "\n")
	if _, err := io.WriteString(w, head.String()); err != nil {
		return err
	}
	lines := execBenchLines(d, params, noProcs)
	var units []string
	for i, l := range lines {
		res := &benchfmt.Result{Config: base, Name: benchfmt.Name(l.name), Iters: l.iters, Values: l.values}
		if i > 0 && l.params != "" {
			res.Config = append(append([]benchfmt.Config(nil), base...), benchfmt.Config{Key: "pkg", Value: []byte(l.params), File: true})
		}
		for _, v := range l.values {
			if !slices.Contains(units, v.Unit) {
				units = append(units, v.Unit)
			}
		}
		if err := bw.Write(res); err != nil {
			return err
		}
	}
	return writeUnitLines(bw, units)
}

// csvExec writes the CSV of a command's result (CSV).
func (c *csvDoc) exec() {
	c.execBlocks(c.d.Exec, "")
	c.environment()
}

// execBlocks writes a command's run: its row of figures, then its blocks
// (benchmarks, RSS and heap goal over time), their titles prefixed with
// prefix ("Server ").
func (c *csvDoc) execBlocks(e *Exec, prefix string) {
	g := e.GC
	gc := func(get func(*ExecGC) string) string {
		if g == nil {
			return ""
		}
		return get(g)
	}
	ns := func(n time.Duration) string { return figure.Decimal(float64(n) / 1e9) }
	cols := [][2]string{
		{"Command", quote.Shell(e.Command)},
		{"Status", e.Status},
		{"Exit Code", csvInt(e.ExitCode)},
		{"Success", csvBool(e.Success)},
		{"Interrupted", csvBool(e.Interrupted)},
		{"Stopped", e.Stopped},
		{"Wall", ns(e.Wall)},
		{"User CPU", ns(e.UserCPU)},
		{"System CPU", ns(e.SystemCPU)},
		{"Max RSS Bytes", csvInt(e.MaxRSSBytes)},
		{"Peak RSS Bytes", csvIf(e.RSS.Samples > 0, func() string { return csvInt(e.PeakRSSBytes) })},
		{"RSS Samples", csvInt(e.RSS.Samples)},
		{"GOGC", e.Settings.GOGC},
		{"GOMEMLIMIT", e.Settings.GOMEMLIMIT},
		{"GODEBUG", e.Settings.GODEBUG},
		{"GC Cycles", gc(func(g *ExecGC) string { return csvInt(g.Cycles) })},
		{"GC Forced", gc(func(g *ExecGC) string { return csvInt(g.Forced) })},
		{"STW Pauses", gc(func(g *ExecGC) string { return csvInt(g.Pauses.Count) })},
		{"STW Total", gc(func(g *ExecGC) string { return ns(g.Pauses.Total) })},
		{"STW P50", gc(func(g *ExecGC) string { return ns(g.Pauses.P50) })},
		{"STW P90", gc(func(g *ExecGC) string { return ns(g.Pauses.P90) })},
		{"STW P99", gc(func(g *ExecGC) string { return ns(g.Pauses.P99) })},
		{"STW Max", gc(func(g *ExecGC) string { return ns(g.Pauses.Max) })},
		{"GC Mark Wall", gc(func(g *ExecGC) string { return ns(g.MarkWall) })},
		{"GC CPU", gc(func(g *ExecGC) string { return ns(g.CPU) })},
		{"GC CPU Percent", gc(func(g *ExecGC) string { return csvInt(g.CPUPercent) })},
		{"Peak Heap Bytes", gc(func(g *ExecGC) string { return csvUint(mib(g.PeakHeapMiB)) })},
		{"Peak Live Heap Bytes", gc(func(g *ExecGC) string { return csvUint(mib(g.PeakLiveMiB)) })},
		{"GC Unavailable", e.GCUnavailable},
		{"Trace Lines", csvInt(e.TraceLines)},
		{"Unread Trace Lines", csvInt(e.UnreadTraceLines)},
		{"Skipped Benchmark Lines", csvInt(e.SkippedBenchmarkLines)},
	}
	head, vals := make([]string, len(cols)), make([]string, len(cols))
	for i, col := range cols {
		head[i], vals[i] = col[0], col[1]
	}
	c.row(head...)
	c.row(vals...)
	if len(e.Benchmarks) > 0 {
		c.block(prefix + csvBenchmarks)
		c.row("Benchmark", "Package", "Unit", "Median", "Values", "Dropped", "Value...")
		for _, b := range e.Benchmarks {
			for _, m := range b.Metrics {
				cells := []string{b.Name, b.Pkg, m.Unit, figure.Decimal(m.Median), csvInt(len(m.Values)), csvInt(m.Dropped)}
				for _, v := range m.Values {
					cells = append(cells, figure.Decimal(v))
				}
				c.row(cells...)
			}
		}
	}
	c.block(prefix + csvRSS)
	c.row("At", "RSS Bytes", "Processes")
	for _, p := range e.RSS.Points {
		c.row(ns(p.At), csvInt(p.RSSBytes), csvInt(p.Processes))
	}
	if g != nil {
		c.block(prefix + csvGoal)
		c.row("At", "Heap Goal Bytes")
		for _, p := range g.Goal {
			c.row(ns(p.At), csvUint(mib(p.GoalMiB)))
		}
	}
}

// The titles of the CSV blocks of a command's result.
const (
	csvBenchmarks = "Benchmarks"
	csvRSS        = "RSS over Time"
	csvGoal       = "Heap Goal over Time"
)
