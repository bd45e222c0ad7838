package report

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/gcperf/gcperf/internal/figure"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/gcperf/gcperf/latency"
	"golang.org/x/perf/benchfmt"
	"golang.org/x/perf/benchunit"

	"github.com/gcperf/gcperf/internal/quote"
)

// Units of the metrics a gcperf result gives a comparison.
const (
	UnitRuntime = "ns/op"  // the mean runtime without the -outliers: one sample per process
	UnitP99     = "p99-ns" // the P99 runtime of every successful run: one sample per process
)

// Kinds of the files a comparison reads.
const (
	KindResult = "gcperf result"
	KindBench  = "Go benchmark format"
)

// ErrNoCommon is returned by Compare when the two sides share no metric.
var ErrNoCommon = errors.New("no operation in common")

// Samples are the metrics read from one side of a comparison: a gcperf
// result or a file in the Go benchmark format.
type Samples struct {
	File  string // as named on the command line
	Kind  string // KindResult or KindBench
	About string // what the file holds, in a few words

	Metrics []Metric // in the order first seen
	Notes   []string // what the file lacks, for the reader
}

// Metric is one operation's (or benchmark's) values in one unit.
type Metric struct {
	Name   string
	Unit   string
	Params string // a gcperf operation's parameters
	// Bench is a gcperf operation's benchmark name, as its -bench line
	// names it ("AllocList/size=8/base=32/chunk=32-2"): a result compares
	// with a bench file by it.
	Bench  string
	Values []float64
}

// add appends v to the values of name in unit, a metric it adds if new.
func (s *Samples) add(l benchLine, unit string, v float64) {
	i := slices.IndexFunc(s.Metrics, func(m Metric) bool { return m.Name == l.op && m.Unit == unit })
	if i < 0 {
		i = len(s.Metrics)
		s.Metrics = append(s.Metrics, Metric{Name: l.op, Unit: unit, Params: l.params, Bench: l.name})
	}
	s.Metrics[i].Values = append(s.Metrics[i].Values, v)
}

// benchNamed is s with its metrics named as in a bench file, by their
// benchmark names, when s is read from a gcperf result; else s.
func (s *Samples) benchNamed() *Samples {
	if s.Kind != KindResult {
		return s
	}
	c := *s
	c.Metrics = slices.Clone(s.Metrics)
	for i := range c.Metrics {
		c.Metrics[i].Name, c.Metrics[i].Params = c.Metrics[i].Bench, ""
	}
	return &c
}

// ReadSamples reads a gcperf JSON result (its content starts with '{'), a
// Set of several (gcperf -count), or a file in the Go benchmark format
// (golang.org/x/perf/benchfmt). file names it in the Samples and in notes.
func ReadSamples(r io.Reader, file string) (*Samples, error) {
	return readSamples(context.Background(), r, file)
}

// readSamples is ReadSamples stopping at ctx's end, with its error, in a
// file in the Go benchmark format (a JSON document is read whole).
func readSamples(ctx context.Context, r io.Reader, file string) (*Samples, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	if t := bytes.TrimLeft(data, " \t\r\n"); len(t) > 0 && t[0] == '{' {
		var head struct {
			Schema string `json:"schema"`
		}
		if json.Unmarshal(data, &head) == nil && head.Schema == SetSchema {
			s, err := ReadSet(bytes.NewReader(data))
			if err != nil {
				return nil, err
			}
			return SamplesOfSet(s, file), nil
		}
		d, err := ReadJSON(bytes.NewReader(data))
		if err != nil {
			return nil, err
		}
		return SamplesOf(d, file), nil
	}
	return readBenchContext(ctx, bytes.NewReader(data), file)
}

// SamplesOf gives a result's figures, one sample each: a result is one
// process, and the figures are those Bench writes for it, whatever file
// they are read from. Per operation with a successful run, in units
// ns/op (its mean runtime without the -outliers best and worst runs),
// p50-ns, p99-ns, p99.9-ns, max-ns (every successful run), B/op,
// gc-cycles/op, stw-ns/op and its results per second (objects/s: at the
// mean runtime); the hiccup meter's percentiles as operation "hiccup".
func SamplesOf(d *Document, file string) *Samples {
	s := &Samples{File: file, Kind: KindResult}
	s.addResult(d, file)
	if d.Kind() == CommandDocument {
		e := d.Exec
		s.About = fmt.Sprintf("%s: one run of %s (%s), %d %s it printed", KindResult, quote.Line(quote.Shell(e.Command)),
			quote.Line(e.Status), len(e.Benchmarks), figure.Plural(len(e.Benchmarks), "benchmark", "benchmarks"))
		return s
	}
	names := make([]string, len(d.Operations))
	for i, op := range d.Operations {
		names[i] = strings.TrimSpace(op.Name + " " + op.Params)
	}
	s.About = fmt.Sprintf("%s: %d %s of %s, seed %d", KindResult, d.Timing.Done,
		figure.Plural(d.Timing.Done, "run", "runs"), strings.Join(names, ", "), d.Config.Seed)
	return s
}

// addResult adds the figures of one process's result, read from file, to
// s, with notes of what it lacks.
func (s *Samples) addResult(d *Document, file string) {
	lines, _ := benchLines(d)
	for _, l := range lines {
		for _, v := range l.values {
			s.add(l, v.Unit, v.Value)
		}
	}
	if e := d.Exec; d.Kind() == CommandDocument && !e.Success {
		s.Notes = append(s.Notes, fmt.Sprintf("%s: the command did not succeed: %s", file, quote.Line(e.Status)))
	}
	for _, op := range d.Operations {
		if op.Runtime.Count == 0 {
			s.Notes = append(s.Notes, fmt.Sprintf("%s: no successful run of %s", file, op.Name))
		}
	}
	switch {
	case d.Interrupted:
		s.Notes = append(s.Notes, fmt.Sprintf("%s: interrupted: %d of %d runs", file, d.Timing.Done, d.Config.Runs))
	case d.Halted != "":
		s.Notes = append(s.Notes, fmt.Sprintf("%s: halted: %s", file, d.Halted))
	}
}

// ReadBench reads a file in the Go benchmark format: each result line is
// one sample of every unit it holds, under the benchmark's full name
// (without "Benchmark", as benchstat shows it). Values keep the file's own
// units (ns/op, not benchfmt's tidied sec/op). A malformed benchmark line
// is an error; a file without any is not a benchmark file.
func ReadBench(r io.Reader, file string) (*Samples, error) {
	return readBenchContext(context.Background(), r, file)
}

// ctxEvery is how many lines or rows a loop over a file's benchmarks
// handles between two looks at its context.
const ctxEvery = 1024

// readBenchContext is ReadBench stopping at ctx's end, with its error.
func readBenchContext(ctx context.Context, r io.Reader, file string) (*Samples, error) {
	s := &Samples{File: file, Kind: KindBench}
	index := map[[2]string]int{}
	names := map[string]bool{}
	results := 0
	lim := newLineLimit(r, maxBenchLine)
	br := benchfmt.NewReader(lim, file)
	for br.Scan() {
		if lim.long > 0 {
			break
		}
		switch rec := br.Result().(type) {
		case *benchfmt.SyntaxError:
			return nil, fmt.Errorf("line %d: %s", rec.Line, quote.Line(rec.Msg))
		case *benchfmt.Result:
			results++
			if results%ctxEvery == 0 && ctx.Err() != nil {
				return nil, ctx.Err()
			}
			name := rec.Name.String()
			names[name] = true
			for _, v := range rec.Values {
				unit, val := v.Unit, v.Value
				if v.OrigUnit != "" {
					unit, val = v.OrigUnit, v.OrigValue
				}
				if math.IsNaN(val) || math.IsInf(val, 0) {
					// The statistics (benchmath's U test) have no meaning
					// for them, and a NaN makes one loop forever.
					return nil, fmt.Errorf("%s: %v %s is not a finite number", quote.Clip(rec.Name.String()), val, quote.Clip(unit))
				}
				k := [2]string{name, unit}
				i, ok := index[k]
				if !ok {
					i = len(s.Metrics)
					index[k] = i
					s.Metrics = append(s.Metrics, Metric{Name: name, Unit: unit})
				}
				s.Metrics[i].Values = append(s.Metrics[i].Values, val)
			}
		}
	}
	if lim.long > 0 {
		return nil, fmt.Errorf("line %d: longer than %d bytes: not a Go benchmark line", lim.long, maxBenchLine)
	}
	if err := br.Err(); err != nil {
		return nil, err
	}
	if results == 0 {
		return nil, fmt.Errorf("%w nor a Go benchmark file: no benchmark result line", ErrNotResult)
	}
	s.About = fmt.Sprintf("%s: %d %s of %d %s", KindBench, results, figure.Plural(results, "result", "results"),
		len(names), figure.Plural(len(names), "benchmark", "benchmarks"))
	return s, nil
}

// Comparison is the comparison of two Samples.
type Comparison struct {
	Old, New *Samples
	Alpha    float64
	// Rows compare each metric found on both sides, in the old side's order.
	Rows []latency.Comparison
	// Notes say what one side lacks: operations or units found on one side
	// only, differing parameters, failed operations.
	Notes []string
	// FailPct, when set, is the -fail threshold in percent: Regressions
	// are the rows worse than that.
	FailPct *float64
}

// Compare compares every metric of old and new found on both sides, by
// name and unit (a result's operations by their benchmark names when the
// other side is a bench file), at significance level alpha. It returns ErrNoCommon when
// there is none.
func Compare(old, new *Samples, alpha float64) (*Comparison, error) {
	return CompareContext(context.Background(), old, new, alpha)
}

// CompareContext is Compare stopping at ctx's end (an interrupt), with
// ctx's error: its time grows with the number of metrics, 300,000
// benchmarks taking seconds.
func CompareContext(ctx context.Context, old, new *Samples, alpha float64) (*Comparison, error) {
	if old.Kind != new.Kind {
		// A result against a bench file: by the benchmark names.
		old, new = old.benchNamed(), new.benchNamed()
	}
	c := &Comparison{Old: old, New: new, Alpha: alpha}
	c.Notes = append(c.Notes, old.Notes...)
	c.Notes = append(c.Notes, new.Notes...)
	type key struct{ name, unit string }
	newIndex := map[key]int{}
	newNames := map[string]int{}
	for i, m := range new.Metrics {
		newIndex[key{m.Name, m.Unit}] = i
		if _, ok := newNames[m.Name]; !ok {
			newNames[m.Name] = i
		}
	}
	oldNames := map[string]bool{}
	oldUnits := map[key]bool{}
	var onlyOld, onlyNew []string
	for _, m := range old.Metrics {
		oldUnits[key{m.Name, m.Unit}] = true
		if !oldNames[m.Name] {
			oldNames[m.Name] = true
			if j, ok := newNames[m.Name]; !ok {
				onlyOld = append(onlyOld, m.Name)
			} else if p := new.Metrics[j].Params; p != m.Params {
				c.Notes = append(c.Notes, fmt.Sprintf("%s: parameters differ: %q in %s, %q in %s",
					m.Name, m.Params, old.File, p, new.File))
			}
		}
		j, ok := newIndex[key{m.Name, m.Unit}]
		if !ok {
			if _, named := newNames[m.Name]; named {
				c.Notes = append(c.Notes, fmt.Sprintf("%s: %s only in %s", m.Name, m.Unit, old.File))
			}
			continue
		}
		if len(c.Rows)%ctxEvery == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		c.Rows = append(c.Rows, latency.Compare(m.Name, m.Unit, m.Values, new.Metrics[j].Values, alpha))
	}
	seen := map[string]bool{}
	for _, m := range new.Metrics {
		switch {
		case !oldNames[m.Name]:
			if !seen[m.Name] {
				onlyNew = append(onlyNew, m.Name)
				seen[m.Name] = true
			}
		case !oldUnits[key{m.Name, m.Unit}]:
			c.Notes = append(c.Notes, fmt.Sprintf("%s: %s only in %s", m.Name, m.Unit, new.File))
		}
	}
	if len(onlyOld) > 0 {
		c.Notes = append(c.Notes, fmt.Sprintf("only in %s: %s", old.File, strings.Join(onlyOld, ", ")))
	}
	if len(onlyNew) > 0 {
		c.Notes = append(c.Notes, fmt.Sprintf("only in %s: %s", new.File, strings.Join(onlyNew, ", ")))
	}
	if len(c.Rows) == 0 {
		return nil, fmt.Errorf("%s and %s have %w", old.File, new.File, ErrNoCommon)
	}
	var notes []string // without repeats: a file compared with itself says it once
	said := make(map[string]bool, len(c.Notes))
	for _, n := range c.Notes {
		if !said[n] {
			said[n] = true
			notes = append(notes, n)
		}
	}
	c.Notes = notes
	return c, nil
}

// Better tells which way a unit improves: -1 when lower is better (ns/op,
// sec/op, units ending in -ns or -ns/op, B/op, allocs/op, gc-cycles/op),
// +1 when higher is better (units ending in /s), 0 when unknown.
func Better(unit string) int {
	switch {
	case strings.HasSuffix(unit, "/s"):
		return 1
	case unit == "ns/op", unit == "sec/op", strings.HasSuffix(unit, "-ns"), strings.HasSuffix(unit, "-ns/op"),
		strings.HasSuffix(unit, "B/op"), strings.HasSuffix(unit, "allocs/op"), strings.HasSuffix(unit, "gc-cycles/op"):
		return -1
	}
	return 0
}

// Worse is how much worse a row got, as a fraction: its Delta signed so
// that positive is worse (for a unit whose better direction is known), 0
// for a row that is not significant or whose unit has no known direction.
func Worse(r latency.Comparison) float64 {
	b := Better(r.Unit)
	if !r.Significant || b == 0 {
		return 0
	}
	return -float64(b) * r.Delta
}

// Regressions are the rows that got significantly worse by more than pct
// percent.
func (c *Comparison) Regressions(pct float64) []latency.Comparison {
	var out []latency.Comparison
	for _, r := range c.Rows {
		if Worse(r)*100 > pct {
			out = append(out, r)
		}
	}
	return out
}

// Undecided are the rows with too few samples for the test to find a
// difference at the comparison's alpha (latency.Comparison.Decidable):
// -fail cannot judge them.
func (c *Comparison) Undecided() []latency.Comparison {
	var out []latency.Comparison
	for _, r := range c.Rows {
		if !r.Decidable {
			out = append(out, r)
		}
	}
	return out
}

// OneSampleEach reports whether every row has one sample per side: two
// gcperf results, or two benchmark files of one line per benchmark.
func (c *Comparison) OneSampleEach() bool {
	for _, r := range c.Rows {
		if r.Old.N != 1 || r.New.N != 1 {
			return false
		}
	}
	return len(c.Rows) > 0
}

// CompareText writes the comparison as a table per unit, like benchstat's:
// each metric's old and new medians with their confidence intervals, the
// delta ("~" when the samples do not differ significantly), the p-value and
// the sample sizes; warnings as numbered notes below.
func CompareText(w io.Writer, c *Comparison) error {
	p := &printer{w: w}
	p.f("old: %s (%s)\n", c.Old.File, c.Old.About)
	p.f("new: %s (%s)\n", c.New.File, c.New.About)
	p.f("Medians with %s confidence intervals; p-values of the Mann-Whitney U test, alpha %s (~: no significant difference).\n",
		figure.Percent(latency.Confidence), strconv.FormatFloat(c.Alpha, 'g', -1, 64))
	if c.OneSampleEach() {
		p.f("One sample per side (a gcperf result, or one line per benchmark, is one process): no test can judge a difference from one sample each, whatever the delta: gcperf -count N (N >= %d) repeats the benchmark in N processes, N samples.\n",
			latency.SamplesNeeded(c.Alpha))
	}
	var footnotes []string
	note := func(warnings []string) string {
		var refs []string
		for _, w := range warnings {
			if w == latency.NoTest {
				continue
			}
			i := slices.Index(footnotes, w)
			if i < 0 {
				footnotes = append(footnotes, w)
				i = len(footnotes) - 1
			}
			refs = append(refs, strconv.Itoa(i+1))
		}
		if len(refs) == 0 {
			return ""
		}
		return "[" + strings.Join(refs, ",") + "]"
	}
	var units []string
	for _, r := range c.Rows {
		if !slices.Contains(units, r.Unit) {
			units = append(units, r.Unit)
		}
	}
	for _, unit := range units {
		p.f("\n")
		tw := tabwriter.NewWriter(p.w, 0, 0, 2, ' ', 0)
		line := func(cells ...string) {
			for len(cells) > 0 && cells[len(cells)-1] == "" {
				cells = cells[:len(cells)-1] // no padding at the end of a line
			}
			if p.err == nil {
				_, p.err = io.WriteString(tw, strings.Join(cells, "\t")+"\n")
			}
		}
		line(unit, "old", "new", "delta", "p", "n", "")
		for _, r := range c.Rows {
			if r.Unit != unit {
				continue
			}
			pv, n := "", ""
			switch {
			case r.Tested:
				pv, n = strconv.FormatFloat(r.P, 'f', 3, 64), sizes(r.Old.N, r.New.N)
			case slices.Contains(r.Warnings, latency.NoTest):
				pv = latency.NoTest
			}
			line(r.Name, estimate(r.Old, unit), estimate(r.New, unit), deltaText(r), pv, n, note(r.Warnings))
		}
		if p.err == nil {
			p.err = tw.Flush()
		}
	}
	if len(footnotes) > 0 || len(c.Notes) > 0 {
		p.f("\n")
	}
	for i, f := range footnotes {
		p.f("[%d] %s\n", i+1, f)
	}
	for _, n := range c.Notes {
		p.f("Note: %s\n", n)
	}
	return p.err
}

func sizes(a, b int) string {
	if a == b {
		return strconv.Itoa(a)
	}
	return strconv.Itoa(a) + "+" + strconv.Itoa(b)
}

// estimate formats a center with its confidence interval as benchstat does:
// "1.234ms ± 2%", "∞" for an interval too wide to know, none for one value.
func estimate(e latency.Estimate, unit string) string {
	s := value(e.Center, unit)
	if e.N < 2 {
		return s
	}
	return s + " ± " + pctRange(e)
}

// pctRange is the half-width of the interval relative to the center, as
// benchmath.Summary.PctRangeString gives it.
func pctRange(e latency.Estimate) string {
	switch {
	case math.IsInf(e.Lo, 0) || math.IsInf(e.Hi, 0):
		return "∞"
	case e.Center == 0 && e.Lo == 0 && e.Hi == 0:
		return "0%"
	case math.Signbit(e.Center) != math.Signbit(e.Lo) || math.Signbit(e.Center) != math.Signbit(e.Hi) || e.Center == 0:
		return "?"
	}
	v := math.Max(e.Hi/e.Center-1, 1-e.Lo/e.Center)
	return fmt.Sprintf("%.0f%%", 100*v)
}

func deltaText(r latency.Comparison) string {
	switch {
	case r.Tested && !r.Significant:
		return "~"
	case r.Old.N == 0 || r.New.N == 0:
		return ""
	case math.IsInf(r.Delta, 0):
		return "?"
	case r.Delta == 0:
		return "0.00%"
	}
	return fmt.Sprintf("%+.2f%%", r.Delta*100)
}

// isTime reports whether a unit holds nanoseconds (or seconds).
func isTime(unit string) (scale float64, ok bool) {
	switch {
	case unit == "ns/op", unit == "ns", strings.HasSuffix(unit, "-ns"), strings.HasSuffix(unit, "-ns/op"):
		return 1e-9, true
	case unit == "sec/op", strings.HasSuffix(unit, "-sec"):
		return 1, true
	}
	return 0, false
}

// value formats a value of unit with four significant digits and an SI (or,
// for bytes, binary) prefix, as benchstat does; times in seconds: 1.234ms.
func value(v float64, unit string) string {
	if scale, ok := isTime(unit); ok {
		return benchunit.Scale(v*scale, benchunit.Decimal) + "s"
	}
	return benchunit.Scale(v, benchunit.ClassOf(unit))
}

// CompareJSON writes the comparison as JSON. Infinite bounds (an interval
// too wide to know) and deltas (from 0) are null.
func CompareJSON(w io.Writer, c *Comparison) error {
	type side struct {
		File  string `json:"file"`
		Kind  string `json:"kind"`
		About string `json:"about"`
		// Always false since a gcperf result gives one sample of each
		// figure (a process), not its runs: kept for gcperf-compare/v1's
		// readers.
		WithinProcess bool `json:"runs_within_one_process"`
	}
	type est struct {
		Center float64  `json:"center"`
		Lo     *float64 `json:"lo"`
		Hi     *float64 `json:"hi"`
		N      int      `json:"n"`
	}
	type row struct {
		Name        string   `json:"name"`
		Unit        string   `json:"unit"`
		Better      int      `json:"better"` // -1 lower, +1 higher, 0 unknown
		Old         est      `json:"old"`
		New         est      `json:"new"`
		Delta       *float64 `json:"delta"` // (new-old)/old
		Tested      bool     `json:"tested"`
		P           *float64 `json:"p"` // null when untested
		Significant bool     `json:"significant"`
		Decidable   bool     `json:"decidable"` // enough samples for the test to find a difference at alpha
		Regression  bool     `json:"regression"`
		Warnings    []string `json:"warnings"`
	}
	finite := func(v float64) *float64 {
		if math.IsInf(v, 0) || math.IsNaN(v) {
			return nil
		}
		return &v
	}
	toEst := func(e latency.Estimate) est {
		return est{Center: e.Center, Lo: finite(e.Lo), Hi: finite(e.Hi), N: e.N}
	}
	out := struct {
		Schema     string   `json:"schema"`
		Old        side     `json:"old"`
		New        side     `json:"new"`
		Alpha      float64  `json:"alpha"`
		Confidence float64  `json:"confidence"`
		FailPct    *float64 `json:"fail_pct,omitempty"`
		Rows       []row    `json:"comparisons"`
		Notes      []string `json:"notes"`
	}{
		Schema:     "gcperf-compare/v1",
		Old:        side{c.Old.File, c.Old.Kind, c.Old.About, false},
		New:        side{c.New.File, c.New.Kind, c.New.About, false},
		Alpha:      c.Alpha,
		Confidence: latency.Confidence,
		FailPct:    c.FailPct,
		Rows:       []row{},
		Notes:      append([]string{}, c.Notes...),
	}
	for _, r := range c.Rows {
		x := row{Name: r.Name, Unit: r.Unit, Better: Better(r.Unit), Old: toEst(r.Old), New: toEst(r.New),
			Tested: r.Tested, Significant: r.Significant, Decidable: r.Decidable, Warnings: append([]string{}, r.Warnings...)}
		if r.Old.N > 0 && r.New.N > 0 {
			x.Delta = finite(r.Delta)
		}
		if r.Tested {
			x.P = finite(r.P)
		}
		if c.FailPct != nil {
			x.Regression = Worse(r)*100 > *c.FailPct
		}
		out.Rows = append(out.Rows, x)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}
