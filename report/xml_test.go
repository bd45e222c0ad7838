package report

import (
	"bytes"
	"encoding/xml"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestXMLGolden(t *testing.T) {
	for _, name := range fixtures {
		t.Run(name, func(t *testing.T) {
			d, _ := readFixture(t, name)
			var b bytes.Buffer
			if err := XML(&b, d); err != nil {
				t.Fatal(err)
			}
			golden(t, filepath.Join("testdata", strings.TrimSuffix(name, ".json")+".xml"), b.Bytes())
		})
	}
}

// xmlNode is any element of the XML, read back.
type xmlNode struct {
	XMLName xml.Name
	Attrs   []xml.Attr `xml:",any,attr"`
	Nodes   []xmlNode  `xml:",any"`
}

// attr is the value of the attribute name, and whether there is one.
func (n *xmlNode) attr(name string) (string, bool) {
	for _, a := range n.Attrs {
		if a.Name.Local == name {
			return a.Value, true
		}
	}
	return "", false
}

// get is the value of the attribute name, "" when there is none.
func (n *xmlNode) get(name string) string {
	v, _ := n.attr(name)
	return v
}

// all is the children named name.
func (n *xmlNode) all(name string) []*xmlNode {
	var out []*xmlNode
	for i := range n.Nodes {
		if n.Nodes[i].XMLName.Local == name {
			out = append(out, &n.Nodes[i])
		}
	}
	return out
}

// one is the child named name, nil when there is none.
func (n *xmlNode) one(name string) *xmlNode {
	if c := n.all(name); len(c) > 0 {
		return c[0]
	}
	return nil
}

func readXML(t *testing.T, d *Document) *xmlNode {
	t.Helper()
	var b bytes.Buffer
	if err := XML(&b, d); err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(b.Bytes(), []byte(xml.Header)) {
		t.Errorf("no XML declaration")
	}
	var x xmlNode
	if err := xml.Unmarshal(b.Bytes(), &x); err != nil {
		t.Fatal(err)
	}
	return &x
}

// TestXMLRoundTrip reads every fixture's XML back with xml.Unmarshal and
// checks it against the document.
func TestXMLRoundTrip(t *testing.T) {
	for _, name := range fixtures {
		t.Run(name, func(t *testing.T) {
			d, _ := readFixture(t, name)
			x := readXML(t, d)
			num := func(n *xmlNode, attr string) string {
				if n == nil {
					return "<none>"
				}
				return n.get(attr)
			}
			// Floats read back exactly.
			float := func(n *xmlNode, attr string) float64 {
				f, err := strconv.ParseFloat(n.get(attr), 64)
				if err != nil {
					t.Errorf("<%s %s>: %v", n.XMLName.Local, attr, err)
				}
				return f
			}

			if x.XMLName.Local != "gcperf" || x.get("schema") != xmlSchema {
				t.Errorf("<%s schema=%q>, want <gcperf schema=%q>", x.XMLName.Local, x.get("schema"), xmlSchema)
			}
			props := map[string]string{}
			for _, p := range x.one("configuration").all("property") {
				props[p.get("name")] = p.get("value")
			}
			if props["runs"] != csvInt(d.Config.Runs) || props["seed"] != csvInt(d.Config.Seed) ||
				props["gcstats"] != d.Config.GCStats {
				t.Errorf("configuration runs %q seed %q gcstats %q", props["runs"], props["seed"], props["gcstats"])
			}
			env := x.one("environment")
			if cpu, procs := num(env.one("host"), "cpu_model"), num(env.one("go"), "gomaxprocs"); cpu != d.Env.Host.CPUModel ||
				procs != csvInt(d.Env.Go.GOMAXPROCS) {
				t.Errorf("environment cpu %q gomaxprocs %s", cpu, procs)
			}
			if gc := x.one("gc"); (gc == nil) != (d.GC == nil) || gc != nil && gc.get("cycles") != csvUint(d.GC.Cycles) {
				t.Errorf("gc %v, document %+v", gc, d.GC)
			}

			runs := x.one("runs").all("run")
			if len(runs) != len(d.Runs) {
				t.Fatalf("%d runs, want %d", len(runs), len(d.Runs))
			}
			for i, r := range runs {
				dr := d.Runs[i]
				if r.get("number") != csvInt(dr.Run) || r.get("thread") != csvInt(dr.Thread) ||
					r.get("runtime_ns") != csvInt(dr.Runtime) || r.get("response_ns") != csvInt(dr.Response) ||
					r.get("results") != csvInt(dr.Results) || r.get("errors") != csvInt(dr.Errors) {
					t.Errorf("run %d: %v, document %+v", i, r.Attrs, dr)
				}
				gc := r.one("gc")
				if (gc != nil) != (d.GC != nil && d.GC.Mode == "run") {
					t.Errorf("run %d: gc element %v with -gcstats %s", dr.Run, gc != nil, d.Config.GCStats)
				} else if gc != nil && (gc.get("gc_cycles") != csvUint(dr.Cycles) || gc.get("stw_ns") != csvInt(dr.STW) ||
					gc.get("heap_goal_bytes") != csvUint(dr.HeapGoal)) {
					t.Errorf("run %d: gc %v, document %+v", dr.Run, gc.Attrs, dr.GCDelta)
				}
				ops := r.all("operation")
				switch {
				case len(dr.Ops) > 0:
					if len(ops) != len(dr.Ops) {
						t.Fatalf("run %d: %d operations, want %d", dr.Run, len(ops), len(dr.Ops))
					}
					failed := 0
					for j, o := range ops {
						do := dr.Ops[j]
						if o.get("order") != csvInt(j+1) || o.get("name") != d.Operations[do.Op].Name ||
							o.get("runtime_ns") != csvInt(do.Runtime) || o.get("response_ns") != csvInt(do.Response) ||
							o.get("results") != csvInt(do.Results) || o.get("error") != do.Error {
							t.Errorf("run %d operation %d: %v, document %+v", dr.Run, j, o.Attrs, do)
						}
						if _, ok := o.attr("error"); ok {
							failed++
						}
					}
					if failed != dr.Errors {
						t.Errorf("run %d: %d failed operations, run errors %d", dr.Run, failed, dr.Errors)
					}
				case len(d.Operations) == 1:
					if len(ops) != 1 || ops[0].get("name") != d.Operations[0].Name || ops[0].get("runtime_ns") != csvInt(dr.Runtime) {
						t.Errorf("run %d of a one-operation mix: operations %v, want the run itself", dr.Run, ops)
					}
				}
			}

			st := x.one("statistics")
			all := append(st.all("operation"), st.one("mix"))
			if len(all) != len(d.Operations)+1 {
				t.Fatalf("%d operation statistics, want %d", len(all)-1, len(d.Operations))
			}
			want := append(append([]Operation(nil), d.Operations...), d.Mix.Operation)
			for i, o := range all {
				w := want[i]
				rt := o.one("runtime")
				if o.get("name") != w.Name || o.get("runs") != csvInt(w.Runs) || rt.get("mean_ns") != csvInt(w.Runtime.Mean) ||
					rt.get("p99_ns") != csvInt(w.Runtime.P99) || rt.get("pmax_ns") != csvInt(w.Runtime.Percentiles.Max) ||
					float(rt, "variance_ns2") != w.Runtime.Variance || float(o, "ops_per_sec") != w.OpsPerSecond {
					t.Errorf("statistics %d: %v, document %+v", i, o.Attrs, w)
				}
				errs := o.one("errors")
				if errs.get("total") != csvInt(w.Errors.Total) || len(errs.all("category")) != len(w.Errors.ByCategory) {
					t.Errorf("%s errors %v, document %+v", w.Name, errs, w.Errors)
				}
				for _, c := range errs.all("category") {
					if c.get("count") != csvInt(w.Errors.ByCategory[c.get("name")]) || c.get("first") != w.Errors.First[c.get("name")] {
						t.Errorf("%s errors %v, document %+v", w.Name, c.Attrs, w.Errors)
					}
				}
				if (o.one("actual") != nil) != (w.Actual != nil) {
					t.Errorf("%s actual %v, document %v", w.Name, o.one("actual") != nil, w.Actual != nil)
				}
			}
			mix := st.one("mix")
			if mix.get("ops_per_run") != csvInt(d.Mix.OpsPerRun) || float(mix, "mixes_per_hour") != d.Mix.MixesPerHour {
				t.Errorf("mix ops_per_run %q mixes_per_hour %q", mix.get("ops_per_run"), mix.get("mixes_per_hour"))
			}
			if worst := x.one("gcperfp99").all("worst"); len(worst) != len(d.GCPerfP99.Worst) {
				t.Errorf("%d worst runs, want %d", len(worst), len(d.GCPerfP99.Worst))
			}
		})
	}
}

// A one-operation run that failed names its failure from the operation's
// categories, which is all the document keeps of it.
func TestXMLOneOperationFailure(t *testing.T) {
	d, _ := readFixture(t, "list.json")
	d.Runs = d.Runs[:2]
	d.Runs[1].Errors = 1
	d.Operations[0].Errors.ByCategory = map[string]int64{"timeout": 1}
	runs := readXML(t, d).one("runs").all("run")
	if got := runs[1].one("operation").get("error"); got != "timeout" {
		t.Errorf("failed run's operation error %q, want timeout", got)
	}
	if got, ok := runs[0].one("operation").attr("error"); ok {
		t.Errorf("successful run's operation error %q, want none", got)
	}
	d.Operations[0].Errors.ByCategory = map[string]int64{"timeout": 1, "panic": 1}
	runs = readXML(t, d).one("runs").all("run")
	if got := runs[1].one("operation").get("error"); got != "unknown" {
		t.Errorf("failed run's operation error %q with two categories, want unknown", got)
	}
}

// xmlLeftOut lists the document's fields the XML does not carry, by path
// from the Document (field names, slice elements without an index), with
// the reason. TestXMLHasEveryField checks that every other field reaches
// the XML and that these do not.
var xmlLeftOut = map[string]string{
	"Schema":                         "the XML names its own layout, unchanged since gcperf/v1 (xmlSchema)",
	"Profiling":                      "profiles are files of their own; the JSON lists them",
	"Hiccup.Histogram":               "the XML has percentiles, not histograms",
	"GCPerfP99.P99Figures.Worst":     "the document's own Worst (with the collector's figures) holds the worst runs; the JSON leaves this one out",
	"Operations.Histogram":           "the XML has percentiles, not histograms",
	"Mix.Operation.Histogram":        "the XML has percentiles, not histograms",
	"Operations.Actual.MixesPerHour": "an operation's is always zero: mixes_per_hour is the mix's",
	"Runs.Error":                     "a run's operation names its failure (soleCategory)",
	"Failed":                         "a failed run's reason is for the sweep that reads the JSON; the XML is the benchmark's report",
	// Open-loop figures (-rate) came after the XML and never reached it;
	// adding them changes the XML format.
	"Config.Config.Rate":      "not in the XML yet",
	"Config.Config.GCStats":   "the document's Config.GCStats names it",
	"Config.Config.Halt":      "the document's Config.Halt names it",
	"Config.Config.Pin":       "not in the document: its tail's scope says what -pin did",
	"Config.Config.Hiccup":    "not in the document: its hiccup section says what the meter saw, every Interval",
	"Config.Config.KeepRuns":  "not in the document: its harness's runs_kept says how many runs kept their records",
	"OpenLoop":                "not in the XML yet",
	"Operations.Corrected":    "not in the XML yet",
	"Mix.Operation.Corrected": "not in the XML yet",
}

// TestXMLHasEveryField changes each field of a document, one at a time, and
// checks that the XML changes with it, unless xmlLeftOut lists the field,
// in which case it must not. A field added to the Document fails here until
// the XML writes it or xmlLeftOut says why it does not.
func TestXMLHasEveryField(t *testing.T) {
	d, _ := readFixture(t, "threads.json")
	d.Runs = d.Runs[:2]
	fillDocument(reflect.ValueOf(d).Elem())
	encode := func() []byte {
		var b bytes.Buffer
		if err := XML(&b, d); err != nil {
			t.Fatal(err)
		}
		return b.Bytes()
	}
	base := encode()
	seen := map[string]bool{}
	eachLeaf(reflect.ValueOf(d).Elem(), "", false, func(path string, out bool, change func() (undo func())) {
		seen[path] = true
		undo := change()
		changed := !bytes.Equal(encode(), base)
		undo()
		switch {
		case out && changed:
			t.Errorf("%s reaches the XML: remove it from xmlLeftOut", path)
		case !out && !changed:
			t.Errorf("%s does not reach the XML: write it, or list it in xmlLeftOut with the reason", path)
		}
	})
	for path := range xmlLeftOut {
		if !seen[path] && !seenUnder(seen, path) {
			t.Errorf("xmlLeftOut lists %s, which the Document does not have", path)
		}
	}
}

func seenUnder(seen map[string]bool, path string) bool {
	for p := range seen {
		if strings.HasPrefix(p, path+".") {
			return true
		}
	}
	return false
}

// fillDocument gives every nil pointer a zero value, every empty slice one
// zero element and every empty map one zero entry, so that eachLeaf reaches
// every field.
func fillDocument(v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			v.Set(reflect.New(v.Type().Elem()))
		}
		fillDocument(v.Elem())
	case reflect.Struct:
		if v.Type() == reflect.TypeFor[time.Time]() {
			return
		}
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				fillDocument(v.Field(i))
			}
		}
	case reflect.Slice:
		if v.Len() == 0 {
			v.Set(reflect.Append(v, reflect.Zero(v.Type().Elem())))
		}
		for i := range v.Len() {
			fillDocument(v.Index(i))
		}
	case reflect.Map:
		if v.Len() == 0 {
			if v.IsNil() {
				v.Set(reflect.MakeMap(v.Type()))
			}
			v.SetMapIndex(reflect.ValueOf("timeout"), reflect.Zero(v.Type().Elem()))
		}
	}
}

// eachLeaf calls f with the path of every scalar field under v (of the
// first element of a slice, of the first key of a map; none under a nil
// pointer or an empty slice or map), whether xmlLeftOut
// lists it or a field above it, and a function that changes its value and
// returns the undoing of the change.
func eachLeaf(v reflect.Value, path string, out bool, f func(path string, out bool, change func() (undo func()))) {
	_, listed := xmlLeftOut[path]
	out = out || listed
	switch {
	case v.Type() == reflect.TypeFor[time.Time]():
		f(path, out, func() func() {
			old := v.Interface().(time.Time)
			v.Set(reflect.ValueOf(old.Add(time.Second)))
			return func() { v.Set(reflect.ValueOf(old)) }
		})
	case v.Kind() == reflect.Pointer:
		if !v.IsNil() {
			eachLeaf(v.Elem(), path, out, f)
		}
	case v.Kind() == reflect.Chan:
		// a control (workload.Config.Stop), not a figure
	case v.Kind() == reflect.Struct:
		for i := range v.NumField() {
			if sf := v.Type().Field(i); sf.IsExported() {
				eachLeaf(v.Field(i), strings.TrimPrefix(path+"."+sf.Name, "."), out, f)
			}
		}
	case v.Kind() == reflect.Slice:
		if v.Len() > 0 {
			eachLeaf(v.Index(0), path, out, f)
		}
	case v.Kind() == reflect.Map:
		if v.Len() == 0 {
			return
		}
		k := v.MapKeys()[0]
		for _, key := range v.MapKeys() {
			if key.String() < k.String() {
				k = key
			}
		}
		f(path, out, func() func() {
			old := v.MapIndex(k)
			x := reflect.New(old.Type()).Elem()
			x.Set(old)
			bump(x)
			v.SetMapIndex(k, x)
			return func() { v.SetMapIndex(k, old) }
		})
	default:
		f(path, out, func() func() {
			old := reflect.New(v.Type()).Elem()
			old.Set(v)
			bump(v)
			return func() { v.Set(old) }
		})
	}
}

// bump changes a scalar to another value of its type.
func bump(v reflect.Value) {
	switch v.Kind() {
	case reflect.Bool:
		v.SetBool(!v.Bool())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(v.Int() ^ 1)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(v.Uint() ^ 1)
	case reflect.Float32, reflect.Float64:
		v.SetFloat(v.Float() + 1)
	case reflect.String:
		v.SetString(v.String() + "x")
	default:
		panic("bump: " + v.Type().String())
	}
}
