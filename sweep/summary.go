package sweep

import (
	"cmp"
	"fmt"
	"github.com/gcperf/gcperf/internal/figure"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gcperf/gcperf/env"
	"github.com/gcperf/gcperf/latency"
	"github.com/gcperf/gcperf/report"
	"golang.org/x/perf/benchunit"
)

// A Row is one point of the sweep: every figure is the median over the
// point's successful repeats (zero when none succeeded). The latencies are
// the mix's runtime distribution (for a one-operation mix, the operation's).
type Row struct {
	Point    Point    `json:"point"`
	Reps     int      `json:"reps"`   // repeats run
	Failed   int      `json:"failed"` // of which failed
	Failures []string `json:"failures,omitempty"`

	Mean       time.Duration `json:"mean_ns"`
	P50        time.Duration `json:"p50_ns"`
	P99        time.Duration `json:"p99_ns"`
	P999       time.Duration `json:"p999_ns"`
	Max        time.Duration `json:"max_ns"`
	Throughput float64       `json:"throughput_per_sec"` // GCPerfP99's, in Unit per second
	Unit       string        `json:"unit"`

	// The collector's figures, from the repeats that measured them
	// (-gcstats run or total); HasGC is false when none did.
	HasGC    bool          `json:"has_gc"`
	GCCycles float64       `json:"gc_cycles"`
	GCCPU    float64       `json:"gc_cpu_pct"` // percent of the CPU available to Go
	MaxSTW   time.Duration `json:"max_stw_ns"`
	HeapGoal uint64        `json:"heap_goal_bytes"`

	PeakRSS  uint64 `json:"peak_rss_bytes"`
	Frontier bool   `json:"frontier"`

	// A user's command's figures (gcperf sweep -- CMD), with Command set:
	// its wall and CPU time, the P99 of its stop-the-world pauses (MaxSTW
	// is their maximum, GCCycles and GCCPU the trace's, HeapGoal the last
	// cycle's goal, PeakRSS its process tree's) and the medians of the
	// benchmark results it printed. The latencies and throughput above are
	// then zero: a command has no distribution of runs.
	Command bool `json:"command,omitempty"`
	// Server is set for a server under load (gcperf sweep OP... --
	// SERVER): the latencies are the client's (corrected for coordinated
	// omission with -rate), the throughput the rate achieved with -rate,
	// PeakRSS and the GC figures the server's.
	Server   bool          `json:"server,omitempty"`
	Wall     time.Duration `json:"wall_ns,omitempty"`
	CPU      time.Duration `json:"cpu_ns,omitempty"`
	PauseP99 time.Duration `json:"pause_p99_ns,omitempty"`
	Metrics  []RowMetric   `json:"metrics,omitempty"`
}

// A RowMetric is one unit of one benchmark a command printed: the median
// over the point's successful repeats of each repeat's median.
type RowMetric struct {
	Benchmark string  `json:"benchmark"` // "pkg name", or the name without a pkg line
	Unit      string  `json:"unit"`      // as benchstat shows it: sec/op, B/op
	Value     float64 `json:"value"`
}

// Time is the figure the frontier weighs against memory: the P99 of
// gcperf's benchmark; for a command, the first benchmark's sec/op when it
// printed one, else its wall time. Rows compare by TimeIn(TimeLabel(rows))
// instead, one figure for all.
func (r *Row) Time() time.Duration {
	if !r.Command {
		return r.P99
	}
	if _, ok := r.metric("sec/op"); ok {
		return r.TimeIn("sec/op")
	}
	return r.Wall
}

// TimeIn is the row's figure named label (TimeLabel's): "sec/op" its
// first benchmark's, "wall" its wall time, else the P99.
func (r *Row) TimeIn(label string) time.Duration {
	switch label {
	case "sec/op":
		m, _ := r.metric("sec/op")
		return time.Duration(m * 1e9)
	case "wall":
		return r.Wall
	}
	return r.P99
}

// TimeLabel names the figure the rows are weighed by: "P99" for gcperf's
// benchmark or a server; for a command, "sec/op" when every successful
// point printed a benchmark in sec/op, else "wall" (one figure for all:
// a sec/op and a wall time do not compare).
func TimeLabel(rows []Row) string {
	command, sec := false, true
	for _, r := range rows {
		if !r.Command {
			continue
		}
		command = true
		if _, ok := r.metric("sec/op"); r.OK() > 0 && !ok {
			sec = false
		}
	}
	switch {
	case !command:
		return "P99"
	case sec && slices.ContainsFunc(rows, func(r Row) bool { return r.OK() > 0 }):
		return "sec/op"
	}
	return "wall"
}

// metricOf is the row's median of k's benchmark and unit.
func (r *Row) metricOf(k RowMetric) (float64, bool) {
	i := slices.IndexFunc(r.Metrics, func(m RowMetric) bool { return m.Benchmark == k.Benchmark && m.Unit == k.Unit })
	if i < 0 {
		return 0, false
	}
	return r.Metrics[i].Value, true
}

// metric is the first benchmark's median in unit.
func (r *Row) metric(unit string) (float64, bool) {
	for _, m := range r.Metrics {
		if m.Unit == unit {
			return m.Value, true
		}
	}
	return 0, false
}

// benchName names a benchmark of a command's output in a row.
func benchName(b report.ExecBenchmark) string {
	if b.Pkg == "" {
		return b.Name
	}
	return b.Pkg + " " + b.Name
}

// OK is the number of successful repeats.
func (r *Row) OK() int { return r.Reps - r.Failed }

// succeeded reports whether the outcome holds a result.
func succeeded(o *Outcome) bool { return o.Failed.IsZero() && o.Doc != nil }

// failureText is why an outcome failed.
func failureText(o *Outcome) string {
	if !o.Failed.IsZero() {
		return o.Failed.Text
	}
	return "no result loaded"
}

// byPoint groups the outcomes by point index, each group in repeat order,
// the groups in point order.
func byPoint(outs []Outcome) [][]*Outcome {
	idx := map[int]int{}
	var groups [][]*Outcome
	for i := range outs {
		o := &outs[i]
		g, ok := idx[o.Point.Index]
		if !ok {
			g = len(groups)
			idx[o.Point.Index] = g
			groups = append(groups, nil)
		}
		groups[g] = append(groups[g], o)
	}
	for _, g := range groups {
		slices.SortStableFunc(g, func(a, b *Outcome) int { return cmp.Compare(a.Rep, b.Rep) })
	}
	slices.SortFunc(groups, func(a, b []*Outcome) int { return cmp.Compare(a[0].Point.Index, b[0].Point.Index) })
	return groups
}

// Summarize makes one row per point, in point order, each figure the median
// over the point's successful repeats. A point with no successful repeat
// has zero figures and Failed == Reps.
func Summarize(outs []Outcome) []Row {
	var rows []Row
	for _, g := range byPoint(outs) {
		r := Row{Point: g[0].Point, Reps: len(g)}
		var cmd commandFigures
		var (
			mean, p50, p99, p999, pmax, stw []time.Duration
			rss, goal                       []uint64
			tput, cycles, cpu               []float64
		)
		for _, o := range g {
			if !succeeded(o) {
				r.Failed++
				r.Failures = append(r.Failures, fmt.Sprintf("rep %d: %s", o.Rep, failureText(o)))
				continue
			}
			d := o.Doc
			if x := d.Exec; d.Kind() == report.CommandDocument {
				r.Command = true
				cmd.add(x)
				rss = append(rss, uint64(x.PeakRSS()))
				continue
			}
			rt := d.Mix.Runtime
			mean, p50, p99 = append(mean, rt.Mean), append(p50, rt.P50), append(p99, rt.P99)
			p999, pmax = append(p999, rt.P999), append(pmax, rt.Percentiles.Max)
			tput = append(tput, d.GCPerfP99.Throughput)
			if r.Unit == "" {
				r.Unit = d.GCPerfP99.Unit
			}
			if sv := d.Server; d.Kind() == report.ServerDocument {
				// A server under load: the client's latency, corrected for
				// coordinated omission when open loop, against the
				// server's memory and collector.
				r.Server = true
				if ol := d.OpenLoop; ol != nil {
					// The rate the server was served at, not GCPerfP99's.
					tput[len(tput)-1] = ol.Achieved
				}
				if c := d.CorrectedLatency(); c != nil {
					p50[len(p50)-1], p99[len(p99)-1], p999[len(p999)-1], pmax[len(pmax)-1] = c.P50, c.P99, c.P999, c.Max
				}
				rss = append(rss, uint64(sv.PeakRSS()))
				if g := sv.GC; g != nil {
					cycles = append(cycles, float64(g.Cycles))
					cpu = append(cpu, float64(g.CPUPercent))
					stw = append(stw, time.Duration(g.Pauses.Max))
					if n := len(g.Goal); n > 0 {
						goal = append(goal, g.Goal[n-1].GoalMiB<<20)
					}
				}
				continue
			}
			rss = append(rss, d.Process.PeakRSSBytes)
			if gc := d.GC; gc != nil {
				cycles = append(cycles, float64(gc.Cycles))
				cpu = append(cpu, 100*gc.CPUFraction)
				stw = append(stw, gc.STWMax)
				goal = append(goal, gc.HeapGoal)
			}
		}
		r.Mean, r.P50, r.P99, r.P999, r.Max = median(mean), median(p50), median(p99), median(p999), median(pmax)
		r.Throughput, r.PeakRSS = medianFloat(tput), median(rss)
		if len(cycles) > 0 {
			r.HasGC = true
			r.GCCycles, r.GCCPU, r.MaxSTW, r.HeapGoal = medianFloat(cycles), medianFloat(cpu), median(stw), median(goal)
		}
		if r.Command {
			cmd.row(&r)
		}
		rows = append(rows, r)
	}
	return rows
}

// commandFigures gathers a point's repeats of a command.
type commandFigures struct {
	wall, cpu, p99, pmax []time.Duration
	cycles, gcCPU        []float64
	goal                 []uint64
	keys                 []RowMetric // benchmark and unit, in order of first appearance
	values               map[[2]string][]float64
}

func (c *commandFigures) add(x *report.Exec) {
	c.wall, c.cpu = append(c.wall, x.Wall), append(c.cpu, x.CPU())
	if g := x.GC; g != nil {
		c.cycles, c.gcCPU = append(c.cycles, float64(g.Cycles)), append(c.gcCPU, float64(g.CPUPercent))
		c.p99, c.pmax = append(c.p99, time.Duration(g.Pauses.P99)), append(c.pmax, time.Duration(g.Pauses.Max))
		if n := len(g.Goal); n > 0 {
			c.goal = append(c.goal, g.Goal[n-1].GoalMiB<<20)
		}
	}
	if c.values == nil {
		c.values = map[[2]string][]float64{}
	}
	for _, b := range x.Benchmarks {
		for _, m := range b.Metrics {
			k := [2]string{benchName(b), m.Unit}
			if _, ok := c.values[k]; !ok {
				c.keys = append(c.keys, RowMetric{Benchmark: k[0], Unit: k[1]})
			}
			c.values[k] = append(c.values[k], m.Median)
		}
	}
}

func (c *commandFigures) row(r *Row) {
	r.Wall, r.CPU = median(c.wall), median(c.cpu)
	if len(c.cycles) > 0 {
		r.HasGC = true
		r.GCCycles, r.GCCPU = medianFloat(c.cycles), medianFloat(c.gcCPU)
		r.PauseP99, r.MaxSTW, r.HeapGoal = median(c.p99), median(c.pmax), median(c.goal)
	}
	for _, k := range c.keys {
		k.Value = medianFloat(c.values[[2]string{k.Benchmark, k.Unit}])
		r.Metrics = append(r.Metrics, k)
	}
}

// markCommand marks every row of a sweep over a user's command (argv not
// nil), also those whose every repeat failed, which Summarize cannot tell.
func markCommand(rows []Row, argv []string) {
	if argv == nil {
		return
	}
	for i := range rows {
		rows[i].Command = true
	}
}

// median is the middle value, or the mean of the two middle ones rounded
// down; 0 for no value. The values must not be negative.
func median[T ~int64 | ~uint64](xs []T) T {
	return middle(xs, func(a, b T) T { return a/2 + b/2 + (a%2+b%2)/2 }) // (a+b)/2 without overflow
}

func medianFloat(xs []float64) float64 {
	return middle(xs, func(a, b float64) float64 { return (a + b) / 2 })
}

// middle is the middle value of xs in order, or mean of the two middle
// ones; the zero value for no value.
func middle[T cmp.Ordered](xs []T, mean func(a, b T) T) T {
	if len(xs) == 0 {
		var zero T
		return zero
	}
	s := slices.Sorted(slices.Values(xs))
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return mean(s[n/2-1], s[n/2])
}

// MarkFrontier sets Frontier on the rows with a successful repeat that are
// Pareto-optimal for time and memory: no other such row has a Time (the
// P99; a command's sec/op or wall time) and a peak RSS both lower or
// equal, one of them strictly lower. Rows with equal figures are both on
// the frontier.
func MarkFrontier(rows []Row) {
	label := TimeLabel(rows)
	for i := range rows {
		r := &rows[i]
		r.Frontier = r.OK() > 0
		for j := range rows {
			o := &rows[j]
			if r.Frontier && j != i && o.OK() > 0 && o.TimeIn(label) <= r.TimeIn(label) && o.PeakRSS <= r.PeakRSS &&
				(o.TimeIn(label) < r.TimeIn(label) || o.PeakRSS < r.PeakRSS) {
				r.Frontier = false
			}
		}
	}
}

// Advice says which setting to run with to meet an SLO.
type Advice struct {
	SLO SLO  `json:"slo"` // as text: SLO.MarshalText
	Met bool `json:"met"` // some setting meets it on every repeat
	// Best is the setting with the lowest peak RSS among those that meet
	// the SLO on every repeat, none failed (ties: the lower P99, then the
	// earlier point). Best and Closest point into the rows given to Advise.
	Best *Row `json:"best,omitempty"`
	// Closest is, when no setting meets the SLO, the one whose worst
	// successful repeat misses it by the smallest relative margin (settings
	// with a failed repeat come after those without); Bound is the SLO key
	// it misses most (p99, p999, max, throughput), Over by how much (0.12
	// for 12% over a latency bound or under the throughput bound), Value
	// the worst repeat's figure for it (nanoseconds for a latency).
	Closest *Row    `json:"closest,omitempty"`
	Bound   string  `json:"bound,omitempty"`
	Over    float64 `json:"over,omitempty"`
	Value   float64 `json:"value,omitempty"`
	Text    string  `json:"text"` // the advice as a sentence
}

// miss is how far one repeat is from a bound, relative to the bound:
// positive when it misses it, zero or negative when it meets it. value is
// the repeat's figure (nanoseconds for a latency).
func (b bound) miss(d *report.Document) (miss, value float64) {
	if x := d.Exec; d.Kind() == report.CommandDocument {
		return b.missCommand(x)
	}
	rt := d.Mix.Runtime
	if c := d.CorrectedLatency(); d.Kind() == report.ServerDocument && c != nil {
		// A server's rows weigh the client's corrected latency: so does
		// its SLO.
		rt.P99, rt.P999, rt.Percentiles.Max = c.P99, c.P999, c.Max
	}
	switch b.key {
	case "throughput":
		v := d.GCPerfP99.Throughput
		return (b.min - v) / b.min, v
	case "p99":
		return b.over(rt.P99), float64(rt.P99)
	case "p999":
		return b.over(rt.P999), float64(rt.P999)
	case "max":
		return b.over(rt.Percentiles.Max), float64(rt.Percentiles.Max)
	}
	// A command's bound on a benchmark's result (ForBenchmark refuses
	// it): not met, not judged.
	return math.Inf(1), math.NaN()
}

func (b bound) over(v time.Duration) float64 { return float64(v-b.limit) / float64(b.limit) }

// missCommand is miss for a command's run. A bound it cannot judge (no
// trace for pause-max, no benchmark in the unit) is missed, infinitely:
// value is then NaN.
func (b bound) missCommand(x *report.Exec) (miss, value float64) {
	switch {
	case b.key == "wall":
		return b.over(x.Wall), float64(x.Wall)
	case b.key == "cpu":
		return b.over(x.CPU()), float64(x.CPU())
	case b.key == "pause-max":
		if x.GC == nil {
			return math.Inf(1), math.NaN()
		}
		return b.over(time.Duration(x.GC.Pauses.Max)), float64(x.GC.Pauses.Max)
	case b.metric != nil:
		miss, value = math.Inf(-1), math.NaN()
		for i := range x.Benchmarks {
			m, ok := x.Benchmarks[i].Metric(b.metric.Unit)
			if !ok {
				continue
			}
			v := m.Median
			over := (v - b.metric.Limit) / b.metric.Limit
			if b.metric.AtLeast {
				over = (b.metric.Limit - v) / b.metric.Limit
			}
			if over > miss {
				miss, value = over, v
			}
		}
		if math.IsNaN(value) {
			return math.Inf(1), value
		}
		return miss, value
	}
	return math.Inf(1), math.NaN()
}

// worst is the largest miss of a point's successful repeats over the
// SLO's bounds, with its bound and value; -Inf when the SLO sets no bound.
func worst(g []*Outcome, bs []bound) (miss float64, b bound, value float64) {
	miss = math.Inf(-1)
	for _, o := range g {
		if !succeeded(o) {
			continue
		}
		for _, x := range bs {
			if m, v := x.miss(o.Doc); m > miss {
				miss, b, value = m, x, v
			}
		}
	}
	return miss, b, value
}

// Advise picks the setting to run with: the lowest peak RSS among the
// points that meet the SLO on every repeat, checked on each repeat's own
// result rather than on the medians, and with no failed repeat. When none
// does, it names the closest. rows are Summarize's (with MarkFrontier or
// not), outs the outcomes they summarise. With the zero SLO, every point
// without a failed repeat qualifies.
func Advise(rows []Row, outs []Outcome, slo SLO) Advice {
	a := Advice{SLO: slo}
	bs := slo.bounds()
	groups := map[int][]*Outcome{}
	for _, g := range byPoint(outs) {
		groups[g[0].Point.Index] = g
	}
	if a.Best = bestRow(rows, groups, bs); a.Best != nil {
		a.Met = true
		a.Text = metText(a.Best, slo, bs)
		return a
	}
	var c closest
	a.Closest, c = closestRow(rows, groups, bs)
	none := "No setting meets " + a.SLO.String() + " on every repeat"
	if slo.IsZero() {
		none = "No setting ran without a failed repeat"
	}
	r := a.Closest
	switch {
	case r == nil:
		a.Text = none + "; every repeat failed."
	case c.miss <= 0: // met on the successful repeats, but some failed
		a.Text = fmt.Sprintf("%s; closest: %s, which meets it on its %d successful %s but %d of %d failed.",
			none, r.Point.Settings(), r.OK(), figure.Plural(r.OK(), "repeat", "repeats"), r.Failed, r.Reps)
		if slo.IsZero() {
			a.Text = fmt.Sprintf("%s; closest: %s, %d of %d repeats failed.", none, r.Point.Settings(), r.Failed, r.Reps)
		}
	case math.IsNaN(c.value):
		// Infinity and NaN are not JSON: no Over, no Value.
		a.Bound = c.b.key
		what := "no gctrace lines, so no pause to bound"
		if c.b.metric != nil {
			what = "no benchmark result in " + c.b.metric.Unit
		}
		a.Text = fmt.Sprintf("%s: the command printed %s (closest: %s).", none, what, r.Point.Settings())
	default:
		a.Bound, a.Over, a.Value = c.b.key, c.miss, c.value
		a.Text = missText(none, r, c)
	}
	return a
}

// bestRow is the row with the lowest peak RSS (then the lowest time)
// whose every repeat, none failed, meets the bounds bs; nil if none does.
// groups are the rows' outcomes by point index.
func bestRow(rows []Row, groups map[int][]*Outcome, bs []bound) *Row {
	var best *Row
	for i := range rows {
		r := &rows[i]
		g := groups[r.Point.Index]
		if r.Failed > 0 || r.OK() == 0 || len(g) != r.Reps { // len(g): rows and outs must agree
			continue
		}
		if m, _, _ := worst(g, bs); m > 0 {
			continue
		}
		if best == nil || r.PeakRSS < best.PeakRSS || r.PeakRSS == best.PeakRSS && r.Time() < best.Time() {
			best = r
		}
	}
	return best
}

// metText is the advice's text when r meets the SLO.
func metText(r *Row, slo SLO, bs []bound) string {
	if slo.IsZero() {
		return fmt.Sprintf("No SLO given: %s has the lowest peak RSS of the settings without a failed repeat, %s (%s).",
			r.Point.Settings(), env.Bytes(int64(r.PeakRSS)), figures(r, bs))
	}
	reps := "on all " + strconv.Itoa(r.Reps) + " repeats"
	if r.Reps == 1 {
		reps = "on its one repeat"
	}
	return fmt.Sprintf("%s meets %s %s with the lowest peak RSS, %s (%s).",
		r.Point.Settings(), slo.String(), reps, env.Bytes(int64(r.PeakRSS)), figures(r, bs))
}

// closest is how the closest row misses the SLO: whether it has a failed
// repeat, its worst miss, the bound it misses and its value there.
type closest struct {
	failed bool
	miss   float64
	b      bound
	value  float64
}

// closestRow is the row closest to meeting the bounds bs: no failed repeat
// first, then the smallest worst miss, then the earlier point.
func closestRow(rows []Row, groups map[int][]*Outcome, bs []bound) (*Row, closest) {
	var row *Row
	var best closest
	for i := range rows {
		r := &rows[i]
		g := groups[r.Point.Index]
		if r.OK() == 0 || len(g) != r.Reps {
			continue
		}
		m, b, v := worst(g, bs)
		f := r.Failed > 0
		if row == nil || !f && best.failed || f == best.failed && m < best.miss {
			row = r
			best = closest{f, m, b, v}
		}
	}
	return row, best
}

// missText is the advice's text when r, the closest row, misses the SLO
// by c; none says that no setting meets it.
func missText(none string, r *Row, c closest) string {
	dir, value := "over", latency.FormatDuration(time.Duration(c.value))
	switch {
	case c.b.key == "throughput":
		dir, value = "under", throughput(c.value, r.Unit)
	case c.b.metric != nil:
		value = metricValue(c.value, c.b.metric.Unit)
		if !isSeconds(c.b.metric.Unit) {
			value += " " + c.b.metric.Unit
		}
		if c.b.metric.AtLeast {
			dir = "under"
		}
	}
	which := "worst repeat"
	if r.Reps == 1 {
		which = "only repeat"
	}
	text := fmt.Sprintf("%s; closest: %s, %s %s on its %s (%s %s)", none, r.Point.Settings(),
		c.b.label, value, which, figure.Pct(100*c.miss), dir)
	if r.Failed > 0 {
		text += fmt.Sprintf(", and %d of %d repeats failed", r.Failed, r.Reps)
	}
	return text + "."
}

// figures is a row's medians for the SLO's bounds, the P99 when it sets
// none: "P99 4.10ms", "P99 4.10ms, throughput 1234 objects/s".
func figures(r *Row, bs []bound) string {
	if len(bs) == 0 && r.Command {
		if _, ok := r.metric("sec/op"); ok {
			bs = []bound{{key: "sec/op", label: "sec/op", metric: &MetricBound{Unit: "sec/op"}}}
		} else {
			bs = []bound{{key: "wall", label: "wall"}}
		}
	}
	if len(bs) == 0 {
		bs = []bound{{key: "p99", label: "P99"}}
	}
	var out []string
	for _, b := range bs {
		var v string
		switch b.key {
		case "wall":
			v = latency.FormatDuration(r.Wall)
		case "cpu":
			v = latency.FormatDuration(r.CPU)
		case "pause-max":
			v = latency.FormatDuration(r.MaxSTW)
		case "p99":
			v = latency.FormatDuration(r.P99)
		case "p999":
			v = latency.FormatDuration(r.P999)
		case "max":
			v = latency.FormatDuration(r.Max)
		case "throughput":
			v = throughput(r.Throughput, r.Unit)
		default:
			m, ok := r.metric(b.metric.Unit)
			if !ok {
				continue
			}
			v = metricValue(m, b.metric.Unit)
		}
		out = append(out, b.label+" "+v)
	}
	return strings.Join(out, ", ")
}

// metricValue formats a benchmark's value, without its unit, which the
// caller names: a duration for a unit of seconds ("2.50ms" for sec/op or
// p99-sec), else benchunit's scaled figure as benchstat shows it
// ("37.81Ki" B/op).
func metricValue(v float64, unit string) string {
	if isSeconds(unit) {
		return latency.FormatDuration(time.Duration(v * 1e9))
	}
	return benchunit.Scale(v, benchunit.ClassOf(unit))
}

// throughput formats a rate in a unit per second: "1234 objects/s".
func throughput(v float64, unit string) string {
	if unit == "" {
		return figure.Num(v) + "/s"
	}
	return figure.Num(v) + " " + unit + "/s"
}
