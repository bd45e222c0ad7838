package report

import (
	"bytes"
	"encoding/csv"
	"github.com/gcperf/gcperf/internal/quote"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestCSVGolden(t *testing.T) {
	for _, name := range fixtures {
		t.Run(name, func(t *testing.T) {
			d, _ := readFixture(t, name)
			var b bytes.Buffer
			if err := CSV(&b, d); err != nil {
				t.Fatal(err)
			}
			golden(t, filepath.Join("testdata", strings.TrimSuffix(name, ".json")+".csv"), b.Bytes())
		})
	}
}

// csvFile is a CSV report read back: the summary's header and row, and each
// titled block's rows (the title row left out).
type csvFile struct {
	head, summary []string
	blocks        map[string][][]string
	order         []string
}

// readCSV parses a CSV report with encoding/csv, as a spreadsheet or a
// script would, and splits it into its blocks.
func readCSV(t *testing.T, data []byte) *csvFile {
	t.Helper()
	// Blocks are separated by exactly one empty line, and every block
	// starts with its title.
	if !bytes.HasSuffix(data, []byte("\n")) || bytes.Contains(data, []byte("\n\n\n")) {
		t.Errorf("blocks must be separated by exactly one empty line")
	}
	for i, para := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n\n")[1:] {
		first, _, _ := strings.Cut(para, "\n")
		if first == "" || strings.Contains(first, ",") {
			t.Errorf("block %d starts with %q, want a one-cell title row", i+1, first)
		}
	}
	r := csv.NewReader(bytes.NewReader(data))
	r.FieldsPerRecord = -1
	recs, err := r.ReadAll()
	if err != nil {
		t.Fatalf("encoding/csv: %v", err)
	}
	if len(recs) < 2 {
		t.Fatalf("%d records, want the summary's header and row at least", len(recs))
	}
	f := &csvFile{head: recs[0], summary: recs[1], blocks: map[string][][]string{}}
	title := ""
	for _, rec := range recs[2:] {
		if len(rec) == 1 {
			title = rec[0]
			if _, dup := f.blocks[title]; dup {
				t.Errorf("block %q appears twice", title)
			}
			f.blocks[title] = [][]string{}
			f.order = append(f.order, title)
			continue
		}
		if title == "" {
			t.Fatalf("row %q outside any block", rec)
		}
		f.blocks[title] = append(f.blocks[title], rec)
	}
	return f
}

// table returns a tabular block's rows as maps from column name to cell.
func (f *csvFile) table(t *testing.T, title string) []map[string]string {
	t.Helper()
	rows, ok := f.blocks[title]
	if !ok || len(rows) == 0 {
		t.Fatalf("no %q block with a header row", title)
	}
	head := rows[0]
	var out []map[string]string
	for i, row := range rows[1:] {
		if len(row) != len(head) {
			t.Errorf("%s row %d has %d cells, the header %d", title, i+1, len(row), len(head))
		}
		m := map[string]string{}
		for j, h := range head {
			if j < len(row) {
				m[h] = row[j]
			}
		}
		out = append(out, m)
	}
	return out
}

// settings returns a key,value block as a map.
func (f *csvFile) settings(t *testing.T, title string) map[string]string {
	t.Helper()
	rows, ok := f.blocks[title]
	if !ok {
		t.Fatalf("no %q block", title)
	}
	m := map[string]string{}
	for _, row := range rows {
		if len(row) != 2 {
			t.Errorf("%s: row %q has %d cells, want key,value", title, row, len(row))
			continue
		}
		m[row[0]] = row[1]
	}
	return m
}

func csvSeconds(t *testing.T, cell string) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(cell, 64)
	if err != nil {
		t.Fatalf("cell %q: %v", cell, err)
	}
	if strings.ContainsAny(cell, "eE") {
		t.Errorf("cell %q has an exponent, want a decimal", cell)
	}
	return v
}

func csvNsToSeconds(d time.Duration) float64 { return float64(d) / 1e9 }

// TestCSVReadBack reads every fixture's CSV back with encoding/csv and checks
// the blocks and the figures against the document.
func TestCSVReadBack(t *testing.T) {
	for _, name := range fixtures {
		t.Run(name, func(t *testing.T) {
			d, _ := readFixture(t, name)
			var b bytes.Buffer
			if err := CSV(&b, d); err != nil {
				t.Fatal(err)
			}
			f := readCSV(t, b.Bytes())
			want := []string{csvOptions, csvRuns, csvOperations, csvEnv, csvTiming, csvGCPerf, csvWorst}
			if d.Tail != nil && len(d.Tail.Causes) > 0 {
				want = append(want, csvCauses)
			}
			if !slices.Equal(f.order, want) {
				t.Errorf("blocks %q, want %q", f.order, want)
			}
			if len(f.head) != len(f.summary) {
				t.Errorf("summary header has %d cells, its row %d", len(f.head), len(f.summary))
			}
			sum := map[string]string{}
			for i, h := range f.head {
				sum[h] = f.summary[i]
			}
			if d.Mix.Runtime.Count > 0 {
				if got, want := csvSeconds(t, sum["Average Runtime (Arithmetic)"]), csvNsToSeconds(d.Mix.Runtime.Mean); got != want {
					t.Errorf("summary mean runtime %v s, want %v", got, want)
				}
			} else if sum["Average Runtime (Arithmetic)"] != "" {
				t.Errorf("summary mean runtime %q without a successful run, want empty", sum["Average Runtime (Arithmetic)"])
			}
			_, hasActual := sum["Actual Runtime"]
			if hasActual != (d.Mix.Actual != nil) {
				t.Errorf("Actual Runtime column present %v, document has actual figures %v", hasActual, d.Mix.Actual != nil)
			}
			if _, ok := sum["GC Cycles"]; ok != (d.GC != nil) {
				t.Errorf("GC columns present %v, document gc %v", ok, d.GC != nil)
			} else if ok && sum["GC Cycles"] != strconv.FormatUint(d.GC.Cycles, 10) {
				t.Errorf("GC Cycles %q, want %d", sum["GC Cycles"], d.GC.Cycles)
			}

			opts := f.settings(t, csvOptions)
			if opts["Runs"] != strconv.Itoa(d.Config.Runs) || opts["Seed"] != strconv.FormatInt(d.Config.Seed, 10) {
				t.Errorf("options Runs %q Seed %q, want %d %d", opts["Runs"], opts["Seed"], d.Config.Runs, d.Config.Seed)
			}
			envs := f.settings(t, csvEnv)
			for _, k := range []string{"Host", "CPU Model", "Logical CPUs", "Memory Total Bytes", "Cgroup CPU Max",
				"Cgroup Memory Max Bytes", "Go Version", "GOGC", "GOMEMLIMIT", "GOMAXPROCS", "GODEBUG",
				"Build Revision", "Command"} {
				if _, ok := envs[k]; !ok {
					t.Errorf("Environment has no %q", k)
				}
			}
			if envs["CPU Model"] != d.Env.Host.CPUModel || envs["GOMAXPROCS"] != strconv.Itoa(d.Env.Go.GOMAXPROCS) {
				t.Errorf("Environment CPU Model %q GOMAXPROCS %q", envs["CPU Model"], envs["GOMAXPROCS"])
			}
			f.settings(t, csvTiming)
			f.settings(t, csvGCPerf)
			if worst := f.table(t, csvWorst); len(worst) != len(d.GCPerfP99.Worst) {
				t.Errorf("%d worst runs, want %d", len(worst), len(d.GCPerfP99.Worst))
			}

			runs := f.table(t, csvRuns)
			if len(runs) != len(d.Runs) {
				t.Fatalf("Run Summary has %d rows, want one per run (%d)", len(runs), len(d.Runs))
			}
			for i, row := range runs {
				r := d.Runs[i]
				if row["Run"] != strconv.Itoa(r.Run) {
					t.Errorf("run row %d is run %q, want %d", i, row["Run"], r.Run)
				}
				if got, want := csvSeconds(t, row["Total Runtime"]), csvNsToSeconds(r.Runtime); got != want {
					t.Errorf("run %d runtime %v s, want %v (runtime_ns/1e9)", r.Run, got, want)
				}
				if got, want := csvSeconds(t, row["Total Response Time"]), csvNsToSeconds(r.Response); got != want {
					t.Errorf("run %d response %v s, want %v", r.Run, got, want)
				}
				if _, ok := row["GC Cycles"]; ok != (d.GC != nil && d.GC.Mode == "run") {
					t.Errorf("run GC columns present %v with -gcstats %s", ok, d.Config.GCStats)
				} else if ok && row["GC Cycles"] != strconv.FormatUint(r.Cycles, 10) {
					t.Errorf("run %d GC Cycles %q, want %d", r.Run, row["GC Cycles"], r.Cycles)
				}
			}

			ops := f.table(t, csvOperations)
			if len(ops) != len(d.Operations)+1 {
				t.Fatalf("Operation Summary has %d rows, want %d operations and the mix", len(ops), len(d.Operations))
			}
			all := append(slices.Clone(d.Operations), d.Mix.Operation)
			for i, row := range ops {
				o := all[i]
				if row["Operation"] != o.Name || row["Parameters"] != o.Params {
					t.Errorf("row %d is %q %q, want %q %q", i, row["Operation"], row["Parameters"], o.Name, o.Params)
				}
				if row["Total Runs"] != strconv.FormatInt(o.Runs, 10) || row["Total Errors"] != strconv.FormatInt(o.Errors.Total, 10) {
					t.Errorf("%s: runs %q errors %q, want %d %d", o.Name, row["Total Runs"], row["Total Errors"], o.Runs, o.Errors.Total)
				}
				for cat, n := range o.Errors.ByCategory {
					if row["Errors ("+cat+")"] != strconv.FormatInt(n, 10) {
						t.Errorf("%s: %s errors %q, want %d", o.Name, cat, row["Errors ("+cat+")"], n)
					}
				}
				if o.Runtime.Count == 0 {
					if row["Average Runtime (Arithmetic)"] != "" || row["P99 Runtime"] != "" {
						t.Errorf("%s: runtime cells %q %q without a successful run, want empty",
							o.Name, row["Average Runtime (Arithmetic)"], row["P99 Runtime"])
					}
					continue
				}
				if got, want := csvSeconds(t, row["Average Runtime (Arithmetic)"]), csvNsToSeconds(o.Runtime.Mean); got != want {
					t.Errorf("%s: mean runtime %v s, want %v (mean_ns/1e9)", o.Name, got, want)
				}
				if got, want := csvSeconds(t, row["P99 Runtime"]), csvNsToSeconds(o.Runtime.P99); got != want {
					t.Errorf("%s: P99 %v s, want %v", o.Name, got, want)
				}
				if got, want := csvSeconds(t, row["Variance"]), o.Runtime.Variance/1e18; got != want {
					t.Errorf("%s: variance %v s², want %v", o.Name, got, want)
				}
			}
		})
	}
}

// TestCSVList pins the figures the brief names for the one-operation fixture.
func TestCSVList(t *testing.T) {
	d, _ := readFixture(t, "list.json")
	var b bytes.Buffer
	if err := CSV(&b, d); err != nil {
		t.Fatal(err)
	}
	f := readCSV(t, b.Bytes())
	runs := f.table(t, csvRuns)
	if len(runs) != len(d.Runs) || len(runs) != d.Config.Runs {
		t.Fatalf("%d run rows, want %d", len(runs), d.Config.Runs)
	}
	for i, row := range runs {
		if got, want := csvSeconds(t, row["Total Runtime"]), float64(d.Runs[i].Runtime)/1e9; got != want {
			t.Errorf("run %d: %v s, want %v", i+1, got, want)
		}
	}
	ops := f.table(t, csvOperations)
	if got, want := csvSeconds(t, ops[0]["Average Runtime (Arithmetic)"]), float64(d.Operations[0].Runtime.Mean)/1e9; got != want {
		t.Errorf("alloc.list mean %v s, want %v", got, want)
	}
	if ops[0]["Operation"] != "alloc.list" || ops[1]["Operation"] != "mix" {
		t.Errorf("operation rows %q, %q; want alloc.list, mix", ops[0]["Operation"], ops[1]["Operation"])
	}
}

func TestShellJoin(t *testing.T) {
	got := quote.Shell([]string{"gcperf", "-d", "20µs", "it's", "", "a b", "-size=8"})
	want := `gcperf -d '20µs' 'it'\''s' '' 'a b' -size=8`
	if got != want {
		t.Errorf("shellJoin = %s, want %s", got, want)
	}
}

// csvLeftOut lists the fields of the engine's types that the CSV leaves
// out, with the reason.
var csvLeftOut = map[string]string{
	"GCDelta.DedicatedCPU": "a run's row has its assist and GC CPU; the other CPU figures are the summary's",
	"GCDelta.IdleCPU":      "a run's row has its assist and GC CPU; the other CPU figures are the summary's",
	"GCDelta.PauseCPU":     "a run's row has its assist and GC CPU; the other CPU figures are the summary's",
	"GCDelta.TotalCPU":     "a run's row has its assist and GC CPU; the other CPU figures are the summary's",
}

// TestCSVHasEveryField: the CSV of these types follows from their fields
// (csvFields), so each field has a csv tag, or csv:"-" where the CSV
// leaves it out or writes it in a block of its own, or its layout names
// its column: a figure added to one of them is in the CSV unless it says
// why not.
func TestCSVHasEveryField(t *testing.T) {
	var check func(rt reflect.Type, l layout)
	check = func(rt reflect.Type, l layout) {
		for i := range rt.NumField() {
			f := rt.Field(i)
			_, ok := f.Tag.Lookup("csv")
			switch {
			case f.Anonymous && !ok && f.Type.Kind() == reflect.Struct:
				check(f.Type, l) // its fields in its place
			case f.Anonymous && !ok && f.Type.Kind() == reflect.Pointer:
				check(f.Type.Elem(), l)
			case f.IsExported() && !ok && !slices.ContainsFunc(l, func(e laidOut) bool { return e.field == f.Name && e.csv != "" }) &&
				csvLeftOut[rt.Name()+"."+f.Name] == "":
				t.Errorf("%s.%s has no csv tag", rt.Name(), f.Name)
			}
		}
	}
	for _, v := range []struct {
		v any
		l layout
	}{{GC{}, gcLayout}, {P99{}, nil}, {Worst{}, nil}, {Cause{}, nil}, {Hiccup{}, nil}, {Run{}, runLayout}, {Timing{}, nil}, {Harness{}, nil}, {Tail{}, nil}, {Config{}, optionsLayout}} {
		check(reflect.TypeOf(v.v), v.l)
	}
}
