package sweep

import (
	"math"
	"reflect"
	"testing"
	"time"
)

const us = time.Microsecond

// reps makes the repeats of p, numbered from 1: a fig is a success, a
// string a failure with that reason.
func reps(p Point, items ...any) []Outcome {
	var outs []Outcome
	for i, x := range items {
		switch x := x.(type) {
		case fig:
			outs = append(outs, okRep(p, i+1, x))
		case string:
			outs = append(outs, badRep(p, i+1, x))
		}
	}
	return outs
}

// interleave orders the outcomes as a sweep runs them: repeat 1 of every
// point, then repeat 2...
func interleave(groups ...[]Outcome) []Outcome {
	var outs []Outcome
	for rep := 0; ; rep++ {
		n := len(outs)
		for _, g := range groups {
			if rep < len(g) {
				outs = append(outs, g[rep])
			}
		}
		if len(outs) == n {
			return outs
		}
	}
}

const memCap = "exceeded the memory cap (RSS 19.6GiB > 19.5GiB)"

func TestSummarize(t *testing.T) {
	p0, p1, p2, p3 := gridPoint(0, "50", "off"), gridPoint(1, "100", "off"), gridPoint(2, "off", "off"), gridPoint(3, "off", "1GiB")
	outs := interleave(
		reps(p0,
			fig{mean: 2 * ms, p50: 1 * ms, p99: 5 * ms, p999: 8 * ms, max: 20 * ms, tput: 1000,
				cycles: 10, cpu: 0.125, stw: 100 * us, rss: 60 * mib, goal: 40 * mib},
			fig{mean: 3 * ms, p50: 2 * ms, p99: 4 * ms, p999: 9 * ms, max: 30 * ms, tput: 1200,
				cycles: 12, cpu: 0.25, stw: 300 * us, rss: 50 * mib, goal: 44 * mib},
			fig{mean: 1 * ms, p50: 3 * ms, p99: 6 * ms, p999: 7 * ms, max: 10 * ms, tput: 900,
				cycles: 11, cpu: 0.5, stw: 200 * us, rss: 70 * mib, goal: 42 * mib}),
		reps(p1,
			fig{mean: 3 * ms, p50: 2 * ms, p99: 7 * ms, p999: 10 * ms, max: 15 * ms, tput: 800,
				cycles: 5, cpu: 0.25, stw: 1 * ms, rss: 100 * mib, goal: 80 * mib},
			memCap,
			fig{mean: 4 * ms, p50: 3 * ms, p99: 8 * ms, p999: 11 * ms, max: 16 * ms, tput: 900,
				cycles: 6, cpu: 0.5, stw: 2 * ms, rss: 101 * mib, goal: 81 * mib}),
		reps(p2, "exit status 2", "exit status 2", "timed out after 1m0s"),
		reps(p3, fig{mean: 1 * ms, p50: 1 * ms, p99: 2 * ms, p999: 3 * ms, max: 4 * ms, tput: 5000, rss: 30 * mib, noGC: true}),
	)
	want := []Row{
		// Odd count: the middle value of each figure on its own.
		{Point: p0, Reps: 3, Mean: 2 * ms, P50: 2 * ms, P99: 5 * ms, P999: 8 * ms, Max: 20 * ms,
			Throughput: 1000, Unit: "objects", HasGC: true, GCCycles: 11, GCCPU: 25, MaxSTW: 200 * us,
			HeapGoal: 42 * mib, PeakRSS: 60 * mib},
		// Two successes: the mean of the two.
		{Point: p1, Reps: 3, Failed: 1, Failures: []string{"rep 2: " + memCap},
			Mean: 3500 * us, P50: 2500 * us, P99: 7500 * us, P999: 10500 * us, Max: 15500 * us,
			Throughput: 850, Unit: "objects", HasGC: true, GCCycles: 5.5, GCCPU: 37.5, MaxSTW: 1500 * us,
			HeapGoal: 80*mib + mib/2, PeakRSS: 100*mib + mib/2},
		// No success: no figure.
		{Point: p2, Reps: 3, Failed: 3, Failures: []string{"rep 1: exit status 2", "rep 2: exit status 2", "rep 3: timed out after 1m0s"}},
		// No GC statistics (-gcstats off): no GC figure.
		{Point: p3, Reps: 1, Mean: 1 * ms, P50: 1 * ms, P99: 2 * ms, P999: 3 * ms, Max: 4 * ms,
			Throughput: 5000, Unit: "objects", PeakRSS: 30 * mib},
	}
	got := Summarize(outs)
	if len(got) != len(want) {
		t.Fatalf("Summarize made %d rows, want %d", len(got), len(want))
	}
	for i := range want {
		if !reflect.DeepEqual(got[i], want[i]) {
			t.Errorf("row %d:\n got %+v\nwant %+v", i, got[i], want[i])
		}
	}
	// An outcome that did not fail but whose result was not loaded counts
	// as failed.
	o := okRep(p0, 1, lat(ms, mib))
	o.Doc = nil
	r := Summarize([]Outcome{o})
	if r[0].Failed != 1 || !reflect.DeepEqual(r[0].Failures, []string{"rep 1: no result loaded"}) {
		t.Errorf("outcome without a document: %+v", r[0])
	}
}

func TestMedian(t *testing.T) {
	for _, c := range []struct {
		in   []uint64
		want uint64
	}{
		{nil, 0},
		{[]uint64{7}, 7},
		{[]uint64{3, 1, 2}, 2},
		{[]uint64{4, 1}, 2}, // 2.5 rounded down
		{[]uint64{1, 2}, 1},
		{[]uint64{math.MaxUint64, math.MaxUint64 - 2}, math.MaxUint64 - 1}, // no overflow
		{[]uint64{5, 1, 9, 3}, 4},
	} {
		if got := median(c.in); got != c.want {
			t.Errorf("median(%v) = %d, want %d", c.in, got, c.want)
		}
	}
	if got := medianFloat([]float64{1, 4, 2, 10}); got != 3 {
		t.Errorf("medianFloat = %v, want 3", got)
	}
}

func TestMarkFrontier(t *testing.T) {
	type r struct {
		p99 time.Duration
		rss uint64
		ok  bool
	}
	for _, c := range []struct {
		name string
		rows []r
		want []bool
	}{
		{"five", []r{
			{10 * ms, 100 * mib, true}, // A: the least memory
			{5 * ms, 200 * mib, true},  // B
			{12 * ms, 100 * mib, true}, // C: as much memory as A, slower
			{6 * ms, 250 * mib, true},  // D: B is faster with less memory
			{4 * ms, 300 * mib, true},  // E: the fastest
		}, []bool{true, true, false, false, true}},
		{"failed rows are never on it", []r{
			{10 * ms, 100 * mib, true},
			{0, 0, false}, // zero figures would dominate every row
			{5 * ms, 200 * mib, true},
			{4 * ms, 50 * mib, true},
			{20 * ms, 500 * mib, true},
		}, []bool{false, false, false, true, false}},
		{"equal rows are both on it", []r{
			{5 * ms, 100 * mib, true},
			{5 * ms, 100 * mib, true},
			{5 * ms, 101 * mib, true},
			{4 * ms, 200 * mib, true},
			{4 * ms, 200 * mib, false},
		}, []bool{true, true, false, true, false}},
	} {
		rows := make([]Row, len(c.rows))
		for i, x := range c.rows {
			rows[i] = Row{Point: gridPoint(i, "100", "off"), Reps: 3, P99: x.p99, PeakRSS: x.rss}
			if !x.ok {
				rows[i].Failed = 3
			}
			rows[i].Frontier = !c.want[i] // MarkFrontier must reset it
		}
		MarkFrontier(rows)
		for i := range rows {
			if rows[i].Frontier != c.want[i] {
				t.Errorf("%s: row %d Frontier = %t, want %t", c.name, i, rows[i].Frontier, c.want[i])
			}
		}
	}
}

func TestAdvise(t *testing.T) {
	p := func(i int, gogc string) Point { return gridPoint(i, gogc, "off") }
	p99 := func(d time.Duration, rss uint64) fig { return lat(d, rss) }
	tput := func(v float64, rss uint64) fig { f := lat(4*ms, rss); f.tput = v; return f }
	slo := func(s string) SLO {
		v, err := ParseSLO(s)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	for _, c := range []struct {
		name          string
		slo           SLO
		outs          []Outcome
		best, closest int // point index, -1 for none
		bound         string
		over          float64
		text          string
	}{
		{"best is the lowest peak RSS that meets it", slo("p99=5ms"), interleave(
			reps(p(0, "50"), p99(3*ms, 100*mib), p99(3*ms, 100*mib), p99(3*ms, 100*mib)),
			reps(p(1, "100"), p99(4*ms, 60*mib), p99(5*ms, 61*mib), p99(4*ms, 60*mib)), // 5ms meets p99<=5ms
			reps(p(2, "200"), p99(6*ms, 40*mib), p99(6*ms, 40*mib), p99(6*ms, 40*mib)),
		), 1, -1, "", 0,
			"GOGC=100 GOMEMLIMIT=off meets p99<=5ms on all 3 repeats with the lowest peak RSS, 60MiB (P99 4.00ms)."},
		{"ties: the lower P99, then the earlier point", slo("p99=5ms"), interleave(
			reps(p(0, "50"), p99(4*ms, 50*mib), p99(4*ms, 50*mib), p99(4*ms, 50*mib)),
			reps(p(1, "100"), p99(3*ms, 50*mib), p99(3*ms, 50*mib), p99(3*ms, 50*mib)),
			reps(p(2, "200"), p99(3*ms, 50*mib), p99(3*ms, 50*mib), p99(3*ms, 50*mib)),
		), 1, -1, "", 0,
			"GOGC=100 GOMEMLIMIT=off meets p99<=5ms on all 3 repeats with the lowest peak RSS, 50MiB (P99 3.00ms)."},
		{"meeting it on 2 of 3 repeats is not meeting it", slo("p99=5ms"), interleave(
			reps(p(0, "50"), p99(4*ms, 40*mib), p99(4*ms, 40*mib), p99(6*ms, 40*mib)), // median 4ms
			reps(p(1, "100"), p99(4*ms, 60*mib), p99(4*ms, 60*mib), p99(4*ms, 60*mib)),
		), 1, -1, "", 0,
			"GOGC=100 GOMEMLIMIT=off meets p99<=5ms on all 3 repeats with the lowest peak RSS, 60MiB (P99 4.00ms)."},
		{"a failed repeat disqualifies", slo("p99=5ms"), interleave(
			reps(p(0, "50"), p99(3*ms, 40*mib), memCap, p99(3*ms, 40*mib)),
			reps(p(1, "100"), p99(4*ms, 80*mib), p99(4*ms, 80*mib), p99(4*ms, 80*mib)),
		), 1, -1, "", 0,
			"GOGC=100 GOMEMLIMIT=off meets p99<=5ms on all 3 repeats with the lowest peak RSS, 80MiB (P99 4.00ms)."},
		{"none meets: the closest worst repeat", slo("p99=5ms"), interleave(
			reps(p(0, "100"), p99(6*ms, 40*mib), p99(7*ms, 40*mib), p99(6*ms, 40*mib)),          // 40% over
			reps(p(1, "400"), p99(5600*us, 90*mib), p99(5200*us, 90*mib), p99(5400*us, 90*mib)), // 12% over
			reps(p(2, "800"), p99(5100*us, 99*mib), memCap, p99(5100*us, 99*mib)),               // 2% over, but a failure
		), -1, 1, "p99", 0.12,
			"No setting meets p99<=5ms on every repeat; closest: GOGC=400 GOMEMLIMIT=off, P99 5.60ms on its worst repeat (12% over)."},
		{"none meets: the bound missed most", slo("p99=5ms,max=20ms"), interleave(
			reps(p(0, "100"), fig{p99: 5500 * us, max: 20 * ms, rss: mib}), // p99 10% over
			reps(p(1, "200"), fig{p99: 4 * ms, max: 24 * ms, rss: mib}),    // max 20% over
		), -1, 0, "p99", 0.1,
			"No setting meets p99<=5ms, max<=20ms on every repeat; closest: GOGC=100 GOMEMLIMIT=off, P99 5.50ms on its only repeat (10% over)."},
		{"none meets: max", slo("p99=5ms,max=20ms"), interleave(
			reps(p(0, "100"), fig{p99: 6 * ms, max: 20 * ms, rss: mib}, fig{p99: 5 * ms, max: 20 * ms, rss: mib}), // p99 20% over
			reps(p(1, "200"), fig{p99: 4 * ms, max: 23 * ms, rss: mib}, fig{p99: 5 * ms, max: 22 * ms, rss: mib}), // max 15% over
		), -1, 1, "max", 0.15,
			"No setting meets p99<=5ms, max<=20ms on every repeat; closest: GOGC=200 GOMEMLIMIT=off, max 23.0ms on its worst repeat (15% over)."},
		{"none meets: only points with failures", slo("p99=5ms"), interleave(
			reps(p(0, "100"), "exit status 2", "exit status 2"),
			reps(p(1, "200"), p99(4*ms, mib), memCap, p99(4*ms, mib)),
			reps(p(2, "400"), p99(6*ms, mib), memCap, memCap),
		), -1, 1, "", 0,
			"No setting meets p99<=5ms on every repeat; closest: GOGC=200 GOMEMLIMIT=off, which meets it on its 2 successful repeats but 1 of 3 failed."},
		{"none meets: over and failed", slo("p99=5ms"), interleave(
			reps(p(0, "100"), p99(6*ms, mib), memCap, p99(5*ms, mib)),
		), -1, 0, "p99", 0.2,
			"No setting meets p99<=5ms on every repeat; closest: GOGC=100 GOMEMLIMIT=off, P99 6.00ms on its worst repeat (20% over), and 1 of 3 repeats failed."},
		{"every repeat failed", slo("p99=5ms"), interleave(
			reps(p(0, "100"), "exit status 2"),
			reps(p(1, "200"), memCap),
		), -1, -1, "", 0,
			"No setting meets p99<=5ms on every repeat; every repeat failed."},
		{"throughput: higher is better", slo("throughput=1000"), interleave(
			reps(p(0, "50"), tput(1200, 80*mib), tput(1100, 80*mib), tput(1000, 80*mib)), // 1000 meets >=1000
			reps(p(1, "100"), tput(1500, 40*mib), tput(1500, 40*mib), tput(900, 40*mib)),
			reps(p(2, "200"), tput(2000, 100*mib), tput(2000, 100*mib), tput(2000, 100*mib)),
		), 0, -1, "", 0,
			"GOGC=50 GOMEMLIMIT=off meets throughput>=1000/s on all 3 repeats with the lowest peak RSS, 80MiB (throughput 1100 objects/s)."},
		{"throughput: none meets", slo("throughput=1000"), interleave(
			reps(p(0, "50"), tput(900, mib), tput(950, mib), tput(1000, mib)), // 10% under
			reps(p(1, "100"), tput(800, mib), tput(2000, mib), tput(2000, mib)),
		), -1, 0, "throughput", 0.1,
			"No setting meets throughput>=1000/s on every repeat; closest: GOGC=50 GOMEMLIMIT=off, throughput 900 objects/s on its worst repeat (10% under)."},
		{"several bounds: their medians", slo("p99=5ms,throughput=1000"), interleave(
			reps(p(0, "50"), tput(1500, 10*mib)),
		), 0, -1, "", 0,
			"GOGC=50 GOMEMLIMIT=off meets p99<=5ms, throughput>=1000/s on its one repeat with the lowest peak RSS, 10MiB (P99 4.00ms, throughput 1500 objects/s)."},
		{"no SLO", SLO{}, interleave(
			reps(p(0, "50"), p99(3*ms, 50*mib), memCap),
			reps(p(1, "100"), p99(4*ms, 60*mib), p99(4*ms, 60*mib)),
			reps(p(2, "200"), p99(9*ms, 70*mib), p99(9*ms, 70*mib)),
		), 1, -1, "", 0,
			"No SLO given: GOGC=100 GOMEMLIMIT=off has the lowest peak RSS of the settings without a failed repeat, 60MiB (P99 4.00ms)."},
	} {
		rows := Summarize(c.outs)
		MarkFrontier(rows)
		a := Advise(rows, c.outs, c.slo)
		index := func(r *Row) int {
			if r == nil {
				return -1
			}
			return r.Point.Index
		}
		if got := index(a.Best); got != c.best {
			t.Errorf("%s: Best = point %d, want %d", c.name, got, c.best)
		}
		if got := index(a.Closest); got != c.closest {
			t.Errorf("%s: Closest = point %d, want %d", c.name, got, c.closest)
		}
		if a.Met != (c.best >= 0) || !reflect.DeepEqual(a.SLO, c.slo) {
			t.Errorf("%s: Met %t, SLO %q", c.name, a.Met, a.SLO)
		}
		if a.Bound != c.bound || math.Abs(a.Over-c.over) > 1e-9 {
			t.Errorf("%s: Bound %q, Over %v; want %q, %v", c.name, a.Bound, a.Over, c.bound, c.over)
		}
		if a.Text != c.text {
			t.Errorf("%s:\n got %q\nwant %q", c.name, a.Text, c.text)
		}
	}
}
