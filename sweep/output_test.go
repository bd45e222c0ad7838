package sweep

import (
	"bytes"
	"cmp"
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"

	"golang.org/x/perf/benchfmt"
	"golang.org/x/perf/benchproc"

	"github.com/gcperf/gcperf/report"
)

// fixtureGrid is the grid of fixture: GOGC 50, 100, off × GOMEMLIMIT off,
// 256MiB, three repeats.
var fixtureGrid = Grid{GOGC: gs("50", "100", "off"), MemLimit: mls("off", "256MiB")}

// fixture is a sweep of fixtureGrid, its outcomes in run order:
//
//	0 gogc=50,memlimit=off       P99 3ms, 60MiB           meets p99<=5ms
//	1 gogc=50,memlimit=256MiB    P99 3.5ms, 55MiB         meets it, the least memory: the advice
//	2 gogc=100,memlimit=off      P99 4ms, 80MiB           off the frontier (0 is better on both)
//	3 gogc=100,memlimit=256MiB   P99 4.5ms, 50MiB, rep 2 failed
//	4 gogc=off,memlimit=off      every repeat failed
//	5 gogc=off,memlimit=256MiB   P99 9ms, 48MiB, no GC statistics
func fixture() []Outcome {
	p := fixtureGrid.Points()
	noGC := func(f fig) fig { f.noGC = true; return f }
	return interleave(
		reps(p[0], lat(3*ms, 60*mib), lat(3100*us, 61*mib), lat(2900*us, 59*mib)),
		reps(p[1], lat(3500*us, 55*mib), lat(3600*us, 56*mib), lat(3400*us, 55*mib)),
		reps(p[2], lat(4*ms, 80*mib), lat(4200*us, 81*mib), lat(3900*us, 79*mib)),
		reps(p[3], lat(4500*us, 50*mib), memCap, lat(4600*us, 51*mib)),
		reps(p[4], memCap, memCap, "exit status 2"),
		reps(p[5], noGC(lat(9*ms, 48*mib)), noGC(lat(9500*us, 48*mib)), noGC(lat(8800*us, 49*mib))),
	)
}

// fixtureSummary is the sweep.json of fixture, advised against p99<=5ms.
func fixtureSummary(t *testing.T) *Summary {
	outs := fixture()
	rows := Summarize(outs)
	MarkFrontier(rows)
	slo, err := ParseSLO("p99=5ms")
	if err != nil {
		t.Fatal(err)
	}
	adv := Advise(rows, outs, slo)
	return &Summary{Schema: SummarySchema, Grid: fixtureGrid, Count: 3, Outcomes: outs, Rows: rows, Advice: &adv}
}

func TestTableGolden(t *testing.T) {
	s := fixtureSummary(t)
	if s.Advice.Best == nil || s.Advice.Best.Point.Index != 1 {
		t.Fatalf("fixture's advice: %q", s.Advice.Text)
	}
	var frontier []int
	for _, r := range s.Rows {
		if r.Frontier {
			frontier = append(frontier, r.Point.Index)
		}
	}
	if want := []int{0, 1, 3, 5}; !slices.Equal(frontier, want) {
		t.Errorf("fixture's frontier = %v, want %v", frontier, want)
	}
	var b bytes.Buffer
	if err := Table(&b, s.Rows, s.Advice); err != nil {
		t.Fatal(err)
	}
	golden(t, "table.golden", b.Bytes())
	for i, line := range strings.Split(b.String(), "\n") {
		if strings.TrimRight(line, " ") != line {
			t.Errorf("line %d ends in spaces: %q", i+1, line)
		}
	}

	// With GOMAXPROCS as an axis, and without advice.
	g := Grid{GOGC: gs("100"), MemLimit: mls("off"), GOMAXPROCS: []int{1, 2}}
	p := g.Points()
	outs := interleave(reps(p[0], lat(8*ms, 40*mib)), reps(p[1], lat(5*ms, 42*mib)))
	rows := Summarize(outs)
	MarkFrontier(rows)
	b.Reset()
	if err := Table(&b, rows, nil); err != nil {
		t.Fatal(err)
	}
	golden(t, "table_gomaxprocs.golden", b.Bytes())
}

func TestCSVGolden(t *testing.T) {
	s := fixtureSummary(t)
	var b bytes.Buffer
	if err := CSV(&b, s.Rows); err != nil {
		t.Fatal(err)
	}
	golden(t, "sweep.csv.golden", b.Bytes())
}

// withoutDocs is outs as sweep.json holds them: no documents.
func withoutDocs(outs []Outcome) []Outcome {
	c := slices.Clone(outs)
	for i := range c {
		c[i].Doc = nil
	}
	return c
}

func TestSummaryRoundTrip(t *testing.T) {
	s := fixtureSummary(t)
	s.Shard = "1/2"
	var b bytes.Buffer
	if err := WriteJSON(&b, s); err != nil {
		t.Fatal(err)
	}
	got, err := ReadSummary(&b)
	if err != nil {
		t.Fatal(err)
	}
	want := *s
	want.Outcomes = withoutDocs(s.Outcomes)
	if !reflect.DeepEqual(got, &want) {
		t.Errorf("round trip:\n got %+v\nwant %+v", got, &want)
	}

	// Schema is set whatever the caller left in it; an empty sweep has
	// empty lists, not null.
	b.Reset()
	if err := WriteJSON(&b, &Summary{Grid: fixtureGrid, Count: 1}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"schema": "gcperf-sweep/v1"`, `"outcomes": []`, `"rows": []`, `"advice": null`} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("empty summary lacks %s:\n%s", want, b.String())
		}
	}
}

func TestReadSummaryRefuses(t *testing.T) {
	for _, c := range []struct {
		in, want string
		is       error
	}{
		{`{"schema": "gcperf/v1", "operations": []}`, `not a gcperf sweep summary: schema "gcperf/v1"`, ErrNotSweep},
		{`{"schema": "gcperf-sweep/v2"}`, `unsupported schema "gcperf-sweep/v2": this gcperf reads "gcperf-sweep/v1"`, report.ErrSchema},
		{`{"count": 3}`, `not a gcperf sweep summary: no "schema" key`, ErrNotSweep},
		{`{"schema": "gcperf-sweep/v1", `, `not a gcperf sweep summary: truncated JSON`, ErrNotSweep},
		{``, `not a gcperf sweep summary: truncated JSON`, ErrNotSweep},
		{`BenchmarkX 1 2 ns/op`, `not a gcperf sweep summary: invalid character 'B' looking for beginning of value`, ErrNotSweep},
	} {
		_, err := ReadSummary(strings.NewReader(c.in))
		if err == nil || err.Error() != c.want || !errors.Is(err, c.is) {
			t.Errorf("ReadSummary(%q) = %v, want %q wrapping %v", c.in, err, c.want, c.is)
		}
	}
}

// readBench reads Bench's output back as benchstat would.
func readBench(t *testing.T, text string) (results []*benchfmt.Result, units []*benchfmt.UnitMetadata) {
	t.Helper()
	r := benchfmt.NewReader(strings.NewReader(text), "bench.txt")
	for r.Scan() {
		switch rec := r.Result().(type) {
		case *benchfmt.Result:
			results = append(results, rec.Clone())
		case *benchfmt.UnitMetadata:
			units = append(units, rec)
		case *benchfmt.SyntaxError:
			t.Errorf("benchfmt: %v", rec)
		}
	}
	if err := r.Err(); err != nil {
		t.Fatal(err)
	}
	return results, units
}

// project groups the results as `benchstat -col COL` does: tables by
// .config, rows by .fullname, columns by COL, from one parser so that COL
// is taken out of the others. It returns the tables' keys and each
// result's row and column.
func project(t *testing.T, results []*benchfmt.Result, col string) (tables []string, rows, cols []string) {
	t.Helper()
	var parser benchproc.ProjectionParser
	tp, err := parser.Parse(".config", nil)
	if err != nil {
		t.Fatal(err)
	}
	rp, err := parser.Parse(".fullname", nil)
	if err != nil {
		t.Fatal(err)
	}
	cp, err := parser.Parse(col, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, res := range results {
		if k := tp.Project(res).String(); !slices.Contains(tables, k) {
			tables = append(tables, k)
		}
		rows = append(rows, rp.Project(res).StringValues())
		cols = append(cols, cp.Project(res).StringValues())
	}
	return tables, rows, cols
}

// origValue is a result's value in a unit as written (benchfmt's reader
// tidies p99-ns into p99-sec).
func origValue(res *benchfmt.Result, unit string) float64 {
	for _, v := range res.Values {
		if v.OrigUnit == unit || v.OrigUnit == "" && v.Unit == unit {
			return cmp.Or(v.OrigValue, v.Value)
		}
	}
	return -1
}

func TestBench(t *testing.T) {
	outs := fixture()
	var b bytes.Buffer
	if err := Bench(&b, outs); err != nil {
		t.Fatal(err)
	}
	golden(t, "bench.golden", b.Bytes())
	text := b.String()

	results, units := readBench(t, text)
	// One result per successful repeat, in point order then repeat order.
	var names []string
	for _, res := range results {
		names = append(names, res.Name.String())
		for _, c := range res.Config {
			if c.Key == "gogc" || c.Key == "gomemlimit" {
				t.Errorf("%s has the configuration key %s: benchstat would make a table of each point", res.Name, c.Key)
			}
		}
		if res.GetConfig("goos") != "linux" || res.GetConfig("gomaxprocs") != "" {
			t.Errorf("%s: configuration %v", res.Name, res.Config)
		}
	}
	x3 := func(s string) []string { return []string{s, s, s} }
	want := slices.Concat(
		x3("AllocList/gogc=50/memlimit=off/size=64-4"),
		x3("AllocList/gogc=50/memlimit=256MiB/size=64-4"),
		x3("AllocList/gogc=100/memlimit=off/size=64-4"),
		x3("AllocList/gogc=100/memlimit=256MiB/size=64-4")[:2],
		x3("AllocList/gogc=off/memlimit=256MiB/size=64-4"),
	)
	if !slices.Equal(names, want) {
		t.Errorf("names:\n got %q\nwant %q", names, want)
	}
	// A repeat's own figures, not the medians.
	if v := origValue(results[1], "p99-ns"); v != 3.1e6 {
		t.Errorf("%s rep 2: p99 %v ns, want 3.1e6", results[1].Name, v)
	}
	// Written once: the configuration, each unit's direction.
	if n := strings.Count(text, "goos: linux\n"); n != 1 {
		t.Errorf("goos written %d times, want once", n)
	}
	if n := strings.Count(text, "\nUnit "); n != len(units) || n != 7 {
		t.Errorf("%d Unit lines for %d units, want 7, once each", n, len(units))
	}
	// Each repeat's comment, named.
	if !strings.Contains(text, "# gogc=off,memlimit=256MiB rep 3: gcperf 0.1.0 -seed 7\n") {
		t.Errorf("no comment for gogc=off,memlimit=256MiB rep 3:\n%s", text)
	}

	// benchstat -col /gogc: one table, the settings as columns, the rest
	// as rows.
	tables, rows, cols := project(t, results, "/gogc")
	if len(tables) != 1 {
		t.Errorf("-col /gogc makes %d tables, want 1: %q", len(tables), tables)
	}
	if got, want := slices.Compact(slices.Clone(cols)), []string{"50", "100", "off"}; !slices.Equal(got, want) {
		t.Errorf("-col /gogc: columns %q, want %q", got, want)
	}
	if rows[0] != "AllocList/memlimit=off/size=64-4" || rows[3] != "AllocList/memlimit=256MiB/size=64-4" {
		t.Errorf("-col /gogc: rows %q", rows)
	}
	_, rows, cols = project(t, results, "/memlimit")
	if cols[0] != "off" || cols[3] != "256MiB" || rows[0] != "AllocList/gogc=50/size=64-4" {
		t.Errorf("-col /memlimit: rows %q, columns %q", rows, cols)
	}
}

func TestBenchGOMAXPROCS(t *testing.T) {
	g := Grid{GOGC: gs("100"), MemLimit: mls("off"), GOMAXPROCS: []int{1, 2}}
	p := g.Points()
	outs := interleave(reps(p[0], lat(8*ms, 40*mib)), reps(p[1], lat(5*ms, 42*mib)))
	var b bytes.Buffer
	if err := Bench(&b, outs); err != nil {
		t.Fatal(err)
	}
	results, _ := readBench(t, b.String())
	var names []string
	for _, res := range results {
		names = append(names, res.Name.String())
		if res.GetConfig("gomaxprocs") != "" {
			t.Errorf("%s: gomaxprocs is both an axis and a configuration line", res.Name)
		}
	}
	want := []string{"AllocList/gogc=100/memlimit=off/gomaxprocs=1/size=64", "AllocList/gogc=100/memlimit=off/gomaxprocs=2/size=64"}
	if !slices.Equal(names, want) {
		t.Errorf("names %q, want %q", names, want)
	}
	tables, rows, cols := project(t, results, "/gomaxprocs")
	if len(tables) != 1 || !slices.Equal(cols, []string{"1", "2"}) || rows[0] != rows[1] {
		t.Errorf("-col /gomaxprocs: tables %q, rows %q, columns %q", tables, rows, cols)
	}
	// The document itself is not changed.
	if outs[0].Doc.Operations[0].Params != "size=64" || outs[0].Doc.Env.Go.GOMAXPROCS != 1 || outs[1].Doc.Env.Go.GOMAXPROCS != 2 {
		t.Errorf("Bench changed the outcomes' documents")
	}
}

// TestTableDropsEmptyColumns: a column that is "-" in every row (a server
// sweep's mean) is not printed (issue 25); one with a figure anywhere is,
// and a table whose every point failed keeps its head.
func TestTableDropsEmptyColumns(t *testing.T) {
	server := func(rows []Row) []Row {
		for i := range rows {
			rows[i].Server = true
		}
		return rows
	}
	failed := interleave(reps(fixtureGrid.Points()[4], memCap))
	for _, c := range []struct {
		name string
		rows []Row
		mean bool // the head has a mean column
	}{
		{"benchmark", Summarize(fixture()), true},
		{"server", server(Summarize(fixture())), false},
		{"every point failed", Summarize(failed), true},
	} {
		t.Run(c.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := Table(&b, c.rows, nil); err != nil {
				t.Fatal(err)
			}
			head, _, _ := strings.Cut(b.String(), "\n")
			if got := slices.Contains(strings.Fields(head), "mean"); got != c.mean {
				t.Errorf("mean column %v, want %v; table:\n%s", got, c.mean, b.String())
			}
			if !strings.Contains(head, "P99") {
				t.Errorf("no P99 column; table:\n%s", b.String())
			}
		})
	}
}
