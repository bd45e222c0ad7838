package report

import (
	"cmp"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"golang.org/x/perf/benchunit"

	"github.com/gcperf/gcperf/env"
	"github.com/gcperf/gcperf/internal/figure"
	"github.com/gcperf/gcperf/internal/quote"
	"github.com/gcperf/gcperf/latency"
)

// isExecSet reports whether the set's processes are runs of a command
// (gcperf exec -count N).
func isExecSet(s *Set) bool {
	if docs := s.Results(); len(docs) > 0 {
		return docs[0].Kind() == CommandDocument
	}
	// No run finished (an interrupt during the first): the set's own
	// command line says whose it is.
	return len(s.Tool.Command) > 1 && s.Tool.Command[1] == "exec"
}

// execArgv is the command of gcperf exec's command line: what follows --.
func execArgv(cmd []string) []string {
	for i, a := range cmd {
		if a == "--" {
			return cmd[i+1:]
		}
	}
	return cmd
}

// execSetText writes the report of a command run N times (gcperf exec
// -count N): a line per run (its status, wall and CPU time, peak RSS, GC
// cycles and longest pause), the median of the successful runs and their
// spread (min–max), then per benchmark the command printed, the median of
// each metric's values over the successful runs and their spread.
func execSetText(w io.Writer, s *Set) error {
	p := &printer{w: w}
	docs := s.Results()
	if len(docs) == 0 {
		p.execSetNone(s)
		return p.err
	}
	e := docs[0].Exec
	p.f("gcperf %s exec: %s, run %d %s (-count %d), one after another, each a fresh process\n",
		s.Tool.Version, quote.Line(quote.Shell(e.Command)), s.Count, figure.Plural(s.Count, "time", "times"), s.Count)
	unset := func(v string) string { return cmp.Or(v, "unset") }
	p.f("Settings: GOGC %s, GOMEMLIMIT %s, GODEBUG %s\n", unset(e.Settings.GOGC), unset(e.Settings.GOMEMLIMIT), unset(e.Settings.GODEBUG))

	var ok []*Exec // the successful runs
	for _, d := range docs {
		if d.Exec.Success {
			ok = append(ok, d.Exec)
		}
	}
	p.f("\nRuns (%d of %d finished, %d succeeded):\n", len(s.Processes), s.Count, len(ok))
	p.execRuns(s, ok)
	if len(ok) > 1 {
		p.f("(median and spread of the %d successful runs)\n", len(ok))
	}
	for _, pr := range s.Processes {
		if pr.Result == nil {
			p.f("Run %d gave no result: %s\n", pr.N, quote.Line(pr.Failed))
		}
	}
	if s.Interrupted {
		p.f("Interrupted: %d of the %d runs finished; the one stopped is not kept.\n", len(s.Processes), s.Count)
	}
	p.execSetBenchmarks(ok)
	return p.err
}

// execSetNone writes the report of a set in which no run finished.
func (p *printer) execSetNone(s *Set) {
	p.f("gcperf %s exec: %s, asked %d %s (-count %d): no run finished", s.Tool.Version,
		quote.Line(quote.Shell(execArgv(s.Tool.Command))), s.Count, figure.Plural(s.Count, "time", "times"), s.Count)
	if s.Interrupted {
		p.f(" (interrupted)")
	}
	p.f(".\n")
	for _, pr := range s.Processes {
		if pr.Failed != "" {
			p.f("   run %d: %s\n", pr.N, quote.Line(pr.Failed))
		}
	}
}

// execRuns writes the table of the runs, a line each, then with more
// than one successful run their median and spread.
func (p *printer) execRuns(s *Set, ok []*Exec) {
	tw := tabwriter.NewWriter(p.w, 0, 0, 2, ' ', 0)
	line := func(cells ...string) {
		if p.err == nil {
			_, p.err = io.WriteString(tw, "  "+strings.Join(cells, "\t")+"\n")
		}
	}
	line("run", "status", "wall", "CPU", "peak RSS", "GC cycles", "pause max")
	for _, pr := range s.Processes {
		x := execOf(pr.Result)
		if x == nil {
			line(strconv.Itoa(pr.N), "no result", "-", "-", "-", "-", "-")
			continue
		}
		cycles, pause := "-", "-"
		if x.GC != nil {
			cycles, pause = strconv.Itoa(x.GC.Cycles), dur(x.GC.Pauses.Max)
		}
		status := x.Status
		if x.Interrupted {
			status += " (interrupted)"
		}
		line(strconv.Itoa(pr.N), status, dur(x.Wall), dur(x.CPU()), env.Bytes(x.PeakRSS()), cycles, pause)
	}
	if len(ok) > 1 {
		med, spr := execSpread(ok)
		line(med...)
		line(spr...)
	}
	if p.err == nil {
		p.err = tw.Flush()
	}
}

// execSpread is the median and the spread (min–max) of the successful
// runs' figures, as rows of the table of runs.
func execSpread(ok []*Exec) (med, spr []string) {
	type fig struct {
		get    func(*Exec) float64
		format func(float64) string
		gc     bool
	}
	asDur := func(v float64) string { return dur(time.Duration(math.Round(v))) }
	figs := []fig{
		{func(x *Exec) float64 { return float64(x.Wall) }, asDur, false},
		{func(x *Exec) float64 { return float64(x.CPU()) }, asDur, false},
		{func(x *Exec) float64 { return float64(x.PeakRSS()) }, func(v float64) string { return env.Bytes(int64(v)) }, false},
		{func(x *Exec) float64 { return float64(x.GC.Cycles) }, func(v float64) string { return figure.Num(v) }, true},
		{func(x *Exec) float64 { return float64(x.GC.Pauses.Max) }, asDur, true},
	}
	med, spr = []string{"median", ""}, []string{"spread", "(min–max)"}
	for _, f := range figs {
		var vals []float64
		for _, x := range ok {
			if !f.gc || x.GC != nil {
				vals = append(vals, f.get(x))
			}
		}
		if len(vals) == 0 {
			med, spr = append(med, "-"), append(spr, "-")
			continue
		}
		med = append(med, f.format(latency.Median(vals).Center))
		spr = append(spr, f.format(slices.Min(vals))+"–"+f.format(slices.Max(vals)))
	}
	return med, spr
}

// execOf is the Exec section of d, nil when d is.
func execOf(d *Document) *Exec {
	if d == nil {
		return nil
	}
	return d.Exec
}

// execSetBenchmarks prints, per benchmark the command printed, the median
// of each metric's values over the runs, and their spread.
func (p *printer) execSetBenchmarks(runs []*Exec) {
	type metric struct {
		unit string
		vals []float64
	}
	type bench struct {
		name    string
		metrics []*metric
		runs    int
	}
	var benches []*bench
	for _, x := range runs {
		for _, b := range x.Benchmarks {
			name := strings.TrimSpace(b.Pkg + " " + b.Name)
			i := slices.IndexFunc(benches, func(c *bench) bool { return c.name == name })
			if i < 0 {
				i = len(benches)
				benches = append(benches, &bench{name: name})
			}
			c := benches[i]
			c.runs++
			for _, m := range b.Metrics {
				j := slices.IndexFunc(c.metrics, func(cm *metric) bool { return cm.unit == m.Unit })
				if j < 0 {
					j = len(c.metrics)
					c.metrics = append(c.metrics, &metric{unit: m.Unit})
				}
				c.metrics[j].vals = append(c.metrics[j].vals, m.Values...)
			}
		}
	}
	if len(benches) == 0 {
		return
	}
	p.f("\nBenchmarks printed by the command (median of every value of the successful runs, as benchstat shows them; min–max):\n")
	for _, b := range benches {
		var ms []string
		n := 0
		for _, m := range b.metrics {
			if len(m.vals) == 0 {
				continue
			}
			class := benchunit.ClassOf(m.unit)
			sc := func(v float64) string { return benchunit.Scale(v, class) }
			ms = append(ms, fmt.Sprintf("%s %s (%s–%s)", sc(latency.Median(m.vals).Center), m.unit, sc(slices.Min(m.vals)), sc(slices.Max(m.vals))))
			n = max(n, len(m.vals))
		}
		p.f("   %s: %s; %d %s from %d %s\n", quote.Line(b.name), quote.Line(strings.Join(ms, ", ")), n,
			figure.Plural(n, "value", "values"), b.runs, figure.Plural(b.runs, "run", "runs"))
	}
}
