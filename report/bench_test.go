package report

import (
	"bytes"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/perf/benchfmt"
	"golang.org/x/perf/benchmath"
	"golang.org/x/perf/benchproc"
)

func TestBenchGolden(t *testing.T) {
	for _, name := range fixtures {
		t.Run(name, func(t *testing.T) {
			d, _ := readFixture(t, name)
			var b bytes.Buffer
			if err := Bench(&b, d); err != nil {
				t.Fatal(err)
			}
			golden(t, filepath.Join("testdata", strings.TrimSuffix(name, ".json")+".bench"), b.Bytes())
		})
	}
}

// readBench reads the output back with benchfmt.Reader, as benchstat does,
// failing on any syntax error.
func readBench(t *testing.T, data []byte) ([]*benchfmt.Result, benchfmt.UnitMetadataMap) {
	t.Helper()
	r := benchfmt.NewReader(bytes.NewReader(data), "gcperf.bench")
	var out []*benchfmt.Result
	for r.Scan() {
		switch rec := r.Result().(type) {
		case *benchfmt.SyntaxError:
			t.Errorf("benchfmt: %v", rec)
		case *benchfmt.Result:
			out = append(out, rec.Clone())
		}
	}
	if err := r.Err(); err != nil {
		t.Fatal(err)
	}
	return out, r.Units()
}

// benchValue returns the value of unit as written (benchfmt tidies ns into sec).
func benchValue(r *benchfmt.Result, unit string) (float64, bool) {
	for _, v := range r.Values {
		if v.OrigUnit == unit {
			return v.OrigValue, true
		}
		if v.OrigUnit == "" && v.Unit == unit {
			return v.Value, true
		}
	}
	return 0, false
}

func benchUnits(r *benchfmt.Result) []string {
	var out []string
	for _, v := range r.Values {
		u := v.Unit
		if v.OrigUnit != "" {
			u = v.OrigUnit
		}
		out = append(out, u)
	}
	return out
}

func TestBenchReadBack(t *testing.T) {
	wantNames := map[string][]string{
		"list.json":    {"AllocList/size=8/base=32/chunk=32-2"},
		"threads.json": {"Noop-2", "Spin/d=20µs-2"},
		"errors.json":  {"Sleep/d=1ms-2"}, // sleep#2 never succeeded
		"tail.json":    {"AllocList/size=64/base=32/chunk=32-2"},
		"gogcoff.json": {"AllocList/size=16/base=32/chunk=32-2"},
	}
	for _, name := range fixtures {
		t.Run(name, func(t *testing.T) {
			d, _ := readFixture(t, name)
			var b bytes.Buffer
			if err := Bench(&b, d); err != nil {
				t.Fatal(err)
			}
			results, meta := readBench(t, b.Bytes())
			var names []string
			for _, r := range results {
				names = append(names, r.Name.String())
			}
			if !slices.Equal(names, wantNames[name]) {
				t.Fatalf("benchmarks %q, want %q", names, wantNames[name])
			}
			var executed int64
			for _, o := range d.Operations {
				executed += o.Runs
			}
			var ops []*Operation
			for i := range d.Operations {
				if d.Operations[i].Runtime.Count > 0 {
					ops = append(ops, &d.Operations[i])
				}
			}
			for i, r := range results {
				o := ops[i]
				// The configuration keys are go test's; the settings are a
				// comment, so that benchstat compares files that differ in them.
				for key, want := range map[string]string{"goos": "linux", "goarch": "amd64", "cpu": d.Env.Host.CPUModel,
					"gogc": "", "gomemlimit": "", "gomaxprocs": "", "go": "", "runs": "", "seed": ""} {
					if got := r.GetConfig(key); got != want {
						t.Errorf("%s: config %s = %q, want %q", r.Name, key, got, want)
					}
				}
				settings := fmt.Sprintf("\n# gogc=%s gomemlimit=off gomaxprocs=2 go=%s runs=%d\n", d.Env.Go.GOGCString(), d.Env.Go.Version, d.Config.Runs)
				if !strings.Contains(b.String(), settings) {
					t.Errorf("no settings line %q in\n%s", settings, b.String())
				}
				if r.Iters != int(o.Runtime.Count) {
					t.Errorf("%s: %d iterations, want the %d successful runs", r.Name, r.Iters, o.Runtime.Count)
				}
				want := []string{"ns/op", "p50-ns", "p99-ns", "p99.9-ns", "max-ns"}
				if d.GC != nil {
					if len(d.Operations) == 1 && d.Mix.OpsPerRun == 1 {
						want = append(want, "B/op")
					}
					want = append(want, "gc-cycles/op", "stw-ns/op")
				}
				if o.Unit != "results" || o.Results > 0 {
					want = append(want, o.Unit+"/s")
				}
				if got := benchUnits(r); !slices.Equal(got, want) {
					t.Errorf("%s: units %q, want %q", r.Name, got, want)
				}
				check := func(unit string, want float64) {
					t.Helper()
					// As go test prints it: whole from 1000 up, else four
					// significant figures.
					if got, ok := benchValue(r, unit); !ok || math.Abs(got-want) > max(0.5, math.Abs(want)*5e-4) {
						t.Errorf("%s: %s = %v, want %v", r.Name, unit, got, want)
					}
				}
				check("ns/op", float64(o.Runtime.Mean))
				check("p50-ns", float64(o.Runtime.P50))
				check("p99-ns", float64(o.Runtime.P99))
				check("p99.9-ns", float64(o.Runtime.P999))
				check("max-ns", float64(o.Runtime.Percentiles.Max))
				if sec, _ := r.Value("sec/op"); sec != math.Round(float64(o.Runtime.Mean))*1e-9 {
					t.Errorf("%s: benchfmt reads %v sec/op, want %v", r.Name, sec, float64(o.Runtime.Mean)*1e-9)
				}
				if g := d.GC; g != nil {
					if slices.Contains(want, "B/op") {
						check("B/op", g.AllocBytesPerOp)
					}
					check("gc-cycles/op", float64(g.Cycles)/float64(executed))
					check("stw-ns/op", float64(g.STW)/float64(executed))
				}
				if o.Unit != "results" || o.Results > 0 {
					check(o.Unit+"/s", o.AvgResults*o.OpsPerSecond)
					if m := meta.Get(o.Unit+"/s", "better"); m == nil || m.Value != "higher" {
						t.Errorf("%s/s: better metadata %v, want higher", o.Unit, m)
					}
				}
				if m := meta.Get("p99-ns", "better"); m == nil || m.Value != "lower" {
					t.Errorf("p99-ns: better metadata %v, want lower", m)
				}
			}
			for _, o := range d.Operations {
				if o.Runtime.Count == 0 && !strings.Contains(b.String(), "# "+o.Name+" "+o.Params+": no successful run") {
					t.Errorf("no comment line for %s, which never succeeded", o.Name)
				}
			}
		})
	}
}

// TestBenchConsumers: benchproc projects the results as benchstat does, and
// benchmath summarises the ns/op values. Two gcperf runs with different
// seeds land in the same table (.config), so that benchstat compares them.
func TestBenchConsumers(t *testing.T) {
	d, _ := readFixture(t, "threads.json")
	var b bytes.Buffer
	if err := Bench(&b, d); err != nil {
		t.Fatal(err)
	}
	other := *d
	other.Config.Seed++
	for range 5 {
		if err := Bench(&b, &other); err != nil {
			t.Fatal(err)
		}
	}
	results, _ := readBench(t, b.Bytes())
	if len(results) != 12 {
		t.Fatalf("%d results, want 12", len(results))
	}

	var parser benchproc.ProjectionParser
	table, err := parser.Parse(".config", nil)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := parser.Parse(".name", nil)
	if err != nil {
		t.Fatal(err)
	}
	params, err := parser.Parse("/d", nil)
	if err != nil {
		t.Fatal(err)
	}
	tables := map[benchproc.Key]bool{}
	samples := map[string][]float64{}
	for _, r := range results {
		tables[table.Project(r)] = true
		name := rows.Project(r).StringValues()
		sec, ok := r.Value("sec/op")
		if !ok {
			t.Fatalf("%s: no sec/op", r.Name)
		}
		samples[name] = append(samples[name], sec)
		if name == "Spin" {
			if got := params.Project(r).StringValues(); got != "20µs" {
				t.Errorf("Spin's /d = %q, want 20µs", got)
			}
		}
	}
	if len(tables) != 1 {
		t.Errorf("results fall into %d benchstat tables, want 1 (the seed must not be a key)", len(tables))
	}
	if len(samples) != 2 || len(samples["Noop"]) != 6 || len(samples["Spin"]) != 6 {
		t.Fatalf("samples %v, want 6 of Noop and of Spin", samples)
	}
	for name, values := range samples {
		s := benchmath.NewSample(values, &benchmath.DefaultThresholds)
		sum := benchmath.AssumeNothing.Summary(s, 0.95)
		want := float64(d.Operations[0].Runtime.Mean) * 1e-9
		if name == "Spin" {
			want = float64(d.Operations[1].Runtime.Mean) * 1e-9
		}
		if sum.Center != want {
			t.Errorf("%s: benchmath median %v, want %v", name, sum.Center, want)
		}
	}
}

func TestBenchName(t *testing.T) {
	tests := []struct {
		name, params string
		procs        int
		want         string
	}{
		{"alloc.list", "size=1024 base=32 chunk=32", 2, "AllocList/size=1024/base=32/chunk=32-2"},
		{"noop", "", 2, "Noop-2"},
		{"spin", "d=20µs", 8, "Spin/d=20µs-8"},
		{"spin", "", 1, "Spin"},
		{"sleep#2", "d=5ms", 4, "Sleep#2/d=5ms-4"},
		{"alloc.map_grow", "n=8", 2, "AllocMapGrow/n=8-2"},
	}
	for _, tt := range tests {
		if got := benchName(tt.name, tt.params, tt.procs); got != tt.want {
			t.Errorf("benchName(%q, %q, %d) = %q, want %q", tt.name, tt.params, tt.procs, got, tt.want)
		}
	}
}

// Two results that differ only in their settings (GOGC, GOMEMLIMIT,
// GOMAXPROCS's key, Go, runs) have the same file configuration, so that
// benchstat, which makes a table per configuration (-table .config), puts
// them in one table with a delta column: benchstat old.txt new.txt.
func TestBenchSettingsNotConfiguration(t *testing.T) {
	config := func(edit func(d *Document)) string {
		d, _ := readFixture(t, "list.json")
		edit(d)
		var b bytes.Buffer
		if err := Bench(&b, d); err != nil {
			t.Fatal(err)
		}
		results, _ := readBench(t, b.Bytes())
		var cfg []string
		for _, c := range results[0].Config {
			if c.File {
				cfg = append(cfg, c.Key+"="+string(c.Value))
			}
		}
		return strings.Join(cfg, " ")
	}
	base := config(func(*Document) {})
	for name, edit := range map[string]func(d *Document){
		"gogc":       func(d *Document) { d.Env.Go.GOGC = 200 },
		"gomemlimit": func(d *Document) { d.Env.Go.GOMEMLIMIT = 1 << 30 },
		"go":         func(d *Document) { d.Env.Go.Version = "go1.27.3" },
		"runs":       func(d *Document) { d.Config.Runs = 7 },
	} {
		if got := config(edit); got != base {
			t.Errorf("%s changed: configuration %q, want %q", name, got, base)
		}
	}
}
