package report

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/gcperf/gcperf/env"
	"github.com/gcperf/gcperf/internal/figure"
	"github.com/gcperf/gcperf/internal/jsondoc"
	"github.com/gcperf/gcperf/internal/quote"
	"github.com/gcperf/gcperf/latency"
)

// SetSchema identifies the JSON layout of a Set. Each process's result in
// it is a whole document (Schema, or gcperf/v1 in a set written before
// gcperf/v2, read converted): the layout of one result is
// unchanged, and a reader of one result refuses a Set rather than take its
// first process for all of them.
const SetSchema = "gcperf-count/v1"

// A Set is one benchmark run in several fresh processes, one after
// another (gcperf -count N), so that each figure has independent samples:
// one per process, for benchstat and gcperf compare. It holds every
// process's result whole.
type Set struct {
	Schema string `json:"schema"`
	// Tool is the parent's: its version and command line.
	Tool Tool `json:"tool"`
	// Count is the number of processes asked for; Processes those that
	// ran, in the order they ran (fewer when interrupted).
	Count     int             `json:"count"`
	Processes []ProcessResult `json:"processes"`
	// Interrupted is set when the processes were stopped before the last.
	Interrupted bool `json:"interrupted"`
}

// ProcessResult is one process of a Set: its result, or why it has none.
type ProcessResult struct {
	N int `json:"process"` // 1-based
	// File is its result in the output directory (-out), relative to it:
	// "process-2.json"; "" when it was not kept.
	File string        `json:"file,omitempty"`
	Wall time.Duration `json:"wall_ns"` // the whole process, start to exit
	// Failed says why it gave no result (a crash, an exit status); "" when
	// it did. StderrTail is then the last lines it wrote on stderr.
	Failed     string   `json:"failed,omitempty"`
	StderrTail []string `json:"stderr_tail,omitempty"`
	// Result is its result, nil when it failed.
	Result *Document `json:"result,omitempty"`
}

// Results are the results of the processes that gave one, in the order
// they ran.
func (s *Set) Results() []*Document {
	var docs []*Document
	for _, p := range s.Processes {
		if p.Result != nil {
			docs = append(docs, p.Result)
		}
	}
	return docs
}

// Failed is the number of processes without a result.
func (s *Set) Failed() int {
	return len(s.Processes) - len(s.Results())
}

// SetJSON writes the set as indented JSON, its Schema set to SetSchema.
func SetJSON(w io.Writer, s *Set) error {
	c := *s
	c.Schema = SetSchema
	if c.Processes == nil {
		c.Processes = []ProcessResult{} // none finished: [], not null
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(&c)
}

// ErrSet is wrapped by ReadJSON's error for a Set, with ErrNotResult: a
// reader of one result cannot take the processes of several for one.
var ErrSet = errors.New("a result of several processes (gcperf -count)")

// setError is ReadJSON's error for a Set.
type setError struct{}

func (setError) Error() string {
	return ErrSet.Error() + ": read one process's result, process-N.json in its -out directory"
}
func (setError) Unwrap() []error { return []error{ErrSet, ErrNotResult} }

// ReadSet reads a set written by SetJSON. It refuses anything else,
// wrapping ErrNotResult or ErrSchema as ReadJSON does, and a process whose
// result is not a document of Schema (or gcperf/v1, converted).
func ReadSet(r io.Reader) (*Set, error) {
	var s Set
	if err := jsondoc.Decode(r, &s, func() string { return s.Schema }, "gcperf-count/", SetSchema, ErrNotResult); err != nil {
		return nil, err
	}
	if s.Count < 1 || len(s.Processes) > s.Count {
		return nil, fmt.Errorf("%w: %d processes of a count of %d", ErrNotResult, len(s.Processes), s.Count)
	}
	for _, p := range s.Processes {
		if d := p.Result; d != nil && d.Schema != Schema {
			return nil, fmt.Errorf("%w %q in process %d: this gcperf reads %q", ErrSchema, quote.Clip(d.Schema), p.N, Schema)
		}
	}
	return &s, nil
}

// SetBench writes the result of every process in the Go benchmark format
// (benchJoin), each labelled "process N": a benchmark's lines are its
// samples, one per process, for benchstat and gcperf compare. A process
// without a result is a comment line.
func SetBench(w io.Writer, s *Set) error {
	// A command's run that did not succeed (gcperf exec -count) is not a
	// sample: its time is that of a failure.
	failed := func(p ProcessResult) bool {
		return p.Result != nil && p.Result.Kind() == CommandDocument && !p.Result.Exec.Success
	}
	var parts []benchPart
	for _, p := range s.Processes {
		if p.Result != nil && !failed(p) {
			parts = append(parts, benchPart{Doc: p.Result, Label: "process " + strconv.Itoa(p.N)})
		}
	}
	if err := benchJoin(w, parts); err != nil {
		return err
	}
	for _, p := range s.Processes {
		why := p.Failed
		switch {
		case failed(p):
			why = "the command did not succeed: " + p.Result.Exec.Status
		case p.Result != nil:
			continue
		}
		if _, err := fmt.Fprintf(w, "# process %d: no result: %s\n", p.N, quote.Line(why)); err != nil {
			return err
		}
	}
	return nil
}

// SamplesOfSet gives the figures of every process's result (SamplesOf),
// one sample per process.
func SamplesOfSet(s *Set, file string) *Samples {
	out := &Samples{File: file, Kind: KindResult}
	docs := s.Results()
	for _, p := range s.Processes {
		if p.Result == nil {
			out.Notes = append(out.Notes, fmt.Sprintf("%s: process %d gave no result: %s", file, p.N, quote.Line(p.Failed)))
			continue
		}
		out.addResult(p.Result, fmt.Sprintf("%s process %d", file, p.N))
	}
	about := "no result"
	if len(docs) > 0 && docs[0].Kind() == CommandDocument {
		about = "runs of " + quote.Line(quote.Shell(docs[0].Exec.Command))
	} else if len(docs) > 0 {
		d := docs[0]
		names := make([]string, len(d.Operations))
		for i, op := range d.Operations {
			names[i] = strings.TrimSpace(op.Name + " " + op.Params)
		}
		about = fmt.Sprintf("%d runs each of %s", d.Config.Runs, strings.Join(names, ", "))
	}
	out.About = fmt.Sprintf("%s of %d %s (-count %d): %s", KindResult, len(docs),
		figure.Plural(len(docs), "process", "processes"), s.Count, about)
	if s.Interrupted {
		out.Notes = append(out.Notes, fmt.Sprintf("%s: interrupted after %d of %d processes", file, len(s.Processes), s.Count))
	}
	return out
}

// SetText writes the report of a set: the settings and environment, a
// line per process (its seed, timed runs, GC, peak RSS, the load it
// started under, GCPerfP99's throughput), then per benchmark the figures
// of its -bench lines, one row per process with their median and spread,
// and what varies between the processes. Each process's own report is its
// result's (gcperf report).
//
// The set of a command's runs (gcperf exec -count N) has a report of its
// own: see execSetText.
func SetText(w io.Writer, s *Set) error {
	if isExecSet(s) {
		return execSetText(w, s)
	}
	p := &printer{w: w}
	docs := s.Results()
	procs := figure.Plural(s.Count, "process", "processes")
	if len(docs) == 0 {
		p.f("gcperf %s: %d %s (-count %d), none with a result\n", s.Tool.Version, len(s.Processes), procs, s.Count)
		p.processes(s)
		return p.err
	}
	d := docs[0]
	names := make([]string, len(d.Operations))
	for i, op := range d.Operations {
		names[i] = strings.TrimSpace(op.Name + " " + op.Params)
	}
	p.f("gcperf %s: %s, in %d %s (-count %d), one after another, each a fresh process\n",
		s.Tool.Version, strings.Join(names, ", "), s.Count, procs, s.Count)
	seed := strconv.FormatInt(d.Config.Seed, 10)
	if !sameSeed(docs) {
		seed = "one per process (below)"
	}
	p.settings(d.Config, seed)
	p.machine(d.Env)
	p.processes(s)
	spreads := p.figures(s)
	p.varies(s, docs, spreads)
	return p.err
}

// sameSeed reports whether every document has the seed of the first.
func sameSeed(docs []*Document) bool {
	for _, d := range docs {
		if d.Config.Seed != docs[0].Config.Seed {
			return false
		}
	}
	return true
}

// processes prints a line per process: what it ran and under what load,
// or why it gave no result.
func (p *printer) processes(s *Set) {
	p.f("\nProcesses (%d of %d with a result):\n", len(s.Results()), s.Count)
	tw := tabwriter.NewWriter(p.w, 0, 0, 2, ' ', 0)
	line := func(cells ...string) {
		if p.err == nil {
			_, p.err = io.WriteString(tw, "  "+strings.Join(cells, "\t")+"\n")
		}
	}
	unit := "results"
	if docs := s.Results(); len(docs) > 0 {
		unit = docs[0].GCPerfP99.Unit
	}
	line("process", "seed", "timed runs", "took", "GC cycles", "GC CPU", "peak RSS", "load at start", "GCPerfP99 "+unit+"/s (best 99%)")
	for _, pr := range s.Processes {
		d := pr.Result
		if d == nil {
			line(strconv.Itoa(pr.N), "failed", "-", "-", "-", "-", "-", "-", "-")
			continue
		}
		cycles, cpu := "-", "-"
		if g := d.GC; g != nil {
			cycles, cpu = strconv.FormatUint(g.Cycles, 10), figure.Percent(g.CPUFraction)
		}
		tput := "-"
		if d.GCPerfP99.Kept > 0 {
			tput = figure.Num(d.GCPerfP99.Throughput)
		}
		line(strconv.Itoa(pr.N), strconv.FormatInt(d.Config.Seed, 10), strconv.Itoa(d.Timing.Done), dur(d.Timing.Elapsed),
			cycles, cpu, env.Bytes(int64(d.Process.PeakRSSBytes)), fmt.Sprintf("%.2f", d.Env.Host.Load1), tput)
	}
	if p.err == nil {
		p.err = tw.Flush()
	}
	for _, pr := range s.Processes {
		if pr.Result == nil {
			p.f("Process %d gave no result: %s", pr.N, quote.Line(pr.Failed))
			if n := len(pr.StderrTail); n > 0 {
				p.f(" (its last line: %s)", quote.Line(pr.StderrTail[n-1]))
			}
			p.f("\n")
		}
	}
	if s.Interrupted {
		p.f("Interrupted: %d of the %d processes finished; the one stopped is not kept.\n", len(s.Processes), s.Count)
	}
}

// spread is how far one figure of one benchmark varies between processes.
type spread struct {
	name, unit string
	spread     float64
}

// setBench is one benchmark of a set: the figures of its -bench lines,
// one per process.
type setBench struct {
	label  string // the operation and its parameters
	op     string
	units  []string
	values map[string][]float64 // per unit, one per process in rows' order
	rows   []int                // the processes that ran the benchmark
}

// setBenches gathers the -bench lines of every process of s by benchmark,
// in the order they first appear.
func setBenches(s *Set) []*setBench {
	var benches []*setBench
	for _, pr := range s.Processes {
		if pr.Result == nil {
			continue
		}
		lines, _ := benchLines(pr.Result)
		for _, l := range lines {
			label := strings.TrimSpace(l.op + " " + l.params)
			i := slices.IndexFunc(benches, func(b *setBench) bool { return b.label == label })
			if i < 0 {
				i = len(benches)
				benches = append(benches, &setBench{label: label, op: l.op, values: map[string][]float64{}})
			}
			b := benches[i]
			b.rows = append(b.rows, pr.N)
			for _, v := range l.values {
				if !slices.Contains(b.units, v.Unit) {
					b.units = append(b.units, v.Unit)
				}
				// A unit missing in an earlier process is NaN there.
				for len(b.values[v.Unit]) < len(b.rows)-1 {
					b.values[v.Unit] = append(b.values[v.Unit], math.NaN())
				}
				b.values[v.Unit] = append(b.values[v.Unit], v.Value)
			}
		}
	}
	return benches
}

// figures prints, per benchmark, the figures of its -bench lines, a row
// per process with their median (with its confidence interval) and
// spread, and returns the spreads.
func (p *printer) figures(s *Set) []spread {
	var spreads []spread
	medians := false
	for _, b := range setBenches(s) {
		note := "ns/op: the mean runtime without the -outliers"
		for _, u := range b.units {
			if strings.HasSuffix(u, "/s") {
				note += "; " + u + " at that mean"
			}
		}
		p.f("\n%s: the figures of -bench, one sample per process (%s)\n", b.label, note)
		sp, ok := p.benchTable(b)
		spreads = append(spreads, sp...)
		medians = medians || ok
	}
	if medians {
		p.f("(median: ± the half-width of its 95%% confidence interval, from 6 processes on; spread: (max-min)/median)\n")
	}
	return spreads
}

// benchTable prints one benchmark's table: a row per process, then with
// two or more their median and spread (reporting true), and returns the
// spreads.
func (p *printer) benchTable(b *setBench) (spreads []spread, medians bool) {
	tw := tabwriter.NewWriter(p.w, 0, 0, 2, ' ', tabwriter.AlignRight)
	line := func(cells ...string) {
		if p.err == nil {
			_, p.err = io.WriteString(tw, "  "+strings.Join(cells, "\t")+"\t\n")
		}
	}
	defer func() {
		if p.err == nil {
			p.err = tw.Flush()
		}
	}()
	line(append([]string{"process"}, b.units...)...)
	for i, n := range b.rows {
		cells := []string{strconv.Itoa(n)}
		for _, u := range b.units {
			c := "-"
			if vals := b.values[u]; i < len(vals) && !math.IsNaN(vals[i]) {
				c = value(vals[i], u)
			}
			cells = append(cells, c)
		}
		line(cells...)
	}
	if len(b.rows) < 2 {
		return nil, false // no median or spread of one sample
	}
	med, spr := []string{"median"}, []string{"spread"}
	for _, u := range b.units {
		vals := slices.DeleteFunc(slices.Clone(b.values[u]), math.IsNaN)
		e := latency.Median(vals)
		m := value(e.Center, u)
		if !math.IsInf(e.Lo, 0) && !math.IsInf(e.Hi, 0) {
			m += " ± " + pctRange(e)
		}
		med = append(med, m)
		sp := latency.Spread(vals)
		spr = append(spr, figure.Percent(sp))
		if len(vals) > 1 {
			spreads = append(spreads, spread{b.op, u, sp})
		}
	}
	line(med...)
	line(spr...)
	return spreads, true
}

// varies says what differs between the processes: their seeds, the load
// they started under, and how far their figures spread.
func (p *printer) varies(s *Set, docs []*Document, spreads []spread) {
	var parts []string
	if !sameSeed(docs) {
		parts = append(parts, "each drew its own seed (-seed N gives every process the same orders and delays)")
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, d := range docs {
		lo, hi = min(lo, d.Env.Host.Load1), max(hi, d.Env.Host.Load1)
	}
	if len(docs) > 1 && hi > lo {
		parts = append(parts, fmt.Sprintf("the machine's load at their start went from %.2f to %.2f", lo, hi))
	}
	if len(spreads) > 0 {
		most := slices.MaxFunc(spreads, func(a, b spread) int { return cmp.Compare(a.spread, b.spread) })
		var ns []string
		for _, sp := range spreads {
			if sp.unit == UnitRuntime {
				verb := " spread"
				if len(ns) > 0 {
					verb = ""
				}
				ns = append(ns, fmt.Sprintf("of %s%s by %s", sp.name, verb, figure.Percent(sp.spread)))
			}
		}
		what := fmt.Sprintf("their figures spread by up to %s (%s %s)", figure.Percent(most.spread), most.name, most.unit)
		if len(ns) > 0 {
			what = fmt.Sprintf("the ns/op %s, and all their figures by up to %s (%s %s)", strings.Join(ns, ", "),
				figure.Percent(most.spread), most.name, most.unit)
		}
		parts = append(parts, what+": a change of that size is within what a fresh process varies, and gcperf compare needs more processes to tell it from noise")
	}
	if len(parts) == 0 {
		return
	}
	p.f("\nBetween the processes: %s.\n", strings.Join(parts, "; "))
}
