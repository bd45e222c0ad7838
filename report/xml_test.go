package report

import (
	"bytes"
	"encoding/xml"
	"path/filepath"
	"reflect"
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

// TestXMLRoundTrip reads every fixture's XML back with xml.Unmarshal and
// checks it against the document.
func TestXMLRoundTrip(t *testing.T) {
	for _, name := range fixtures {
		t.Run(name, func(t *testing.T) {
			d, _ := readFixture(t, name)
			var b bytes.Buffer
			if err := XML(&b, d); err != nil {
				t.Fatal(err)
			}
			if !bytes.HasPrefix(b.Bytes(), []byte(xml.Header)) {
				t.Errorf("no XML declaration")
			}
			var x xmlDoc
			if err := xml.Unmarshal(b.Bytes(), &x); err != nil {
				t.Fatal(err)
			}
			// Everything written reads back unchanged: written again, it
			// is the same text.
			var again bytes.Buffer
			if err := writeXML(&again, &x); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(again.Bytes(), b.Bytes()) {
				t.Errorf("XML(xml.Unmarshal(XML(d))) differs from XML(d)")
			}

			if x.Schema != Schema {
				t.Errorf("schema %q, want %q", x.Schema, Schema)
			}
			props := map[string]string{}
			for _, p := range x.Configuration {
				props[p.Name] = p.Value
			}
			if props["runs"] != csvInt(d.Config.Runs) || props["seed"] != csvInt(d.Config.Seed) ||
				props["gcstats"] != d.Config.GCStats {
				t.Errorf("configuration runs %q seed %q gcstats %q", props["runs"], props["seed"], props["gcstats"])
			}
			if x.Environment.Host.CPUModel != d.Env.Host.CPUModel || x.Environment.Go.GOMAXPROCS != d.Env.Go.GOMAXPROCS {
				t.Errorf("environment cpu %q gomaxprocs %d", x.Environment.Host.CPUModel, x.Environment.Go.GOMAXPROCS)
			}
			if (x.GC == nil) != (d.GC == nil) || x.GC != nil && x.GC.Cycles != d.GC.Cycles {
				t.Errorf("gc %+v, document %+v", x.GC, d.GC)
			}

			if len(x.Runs) != len(d.Runs) {
				t.Fatalf("%d runs, want %d", len(x.Runs), len(d.Runs))
			}
			for i, r := range x.Runs {
				dr := d.Runs[i]
				if r.Number != dr.Run || r.Thread != dr.Thread || r.Runtime != dr.Runtime ||
					r.Response != dr.Response || r.Results != dr.Results || r.Errors != dr.Errors {
					t.Errorf("run %d: %+v, document %+v", i, r, dr)
				}
				if (r.GC != nil) != (d.GC != nil && d.GC.Mode == "run") {
					t.Errorf("run %d: gc element %v with -gcstats %s", dr.Run, r.GC != nil, d.Config.GCStats)
				} else if r.GC != nil && (r.GC.Cycles != dr.Cycles || r.GC.STW != dr.STW || r.GC.HeapGoal != dr.HeapGoal) {
					t.Errorf("run %d: gc %+v, document %+v", dr.Run, *r.GC, dr.GCDelta)
				}
				switch {
				case len(dr.Ops) > 0:
					if len(r.Ops) != len(dr.Ops) {
						t.Fatalf("run %d: %d operations, want %d", dr.Run, len(r.Ops), len(dr.Ops))
					}
					failed := 0
					for j, o := range r.Ops {
						do := dr.Ops[j]
						if o.Order != j+1 || o.Name != d.Operations[do.Op].Name || o.Runtime != do.Runtime ||
							o.Response != do.Response || o.Results != do.Results || o.Error != do.Error {
							t.Errorf("run %d operation %d: %+v, document %+v", dr.Run, j, o, do)
						}
						if o.Error != "" {
							failed++
						}
					}
					if failed != dr.Errors {
						t.Errorf("run %d: %d failed operations, run errors %d", dr.Run, failed, dr.Errors)
					}
				case len(d.Operations) == 1:
					if len(r.Ops) != 1 || r.Ops[0].Name != d.Operations[0].Name || r.Ops[0].Runtime != dr.Runtime {
						t.Errorf("run %d of a one-operation mix: operations %+v, want the run itself", dr.Run, r.Ops)
					}
				}
			}

			st := x.Statistics
			if len(st.Operations) != len(d.Operations) {
				t.Fatalf("%d operation statistics, want %d", len(st.Operations), len(d.Operations))
			}
			all := append(st.Operations, st.Mix)
			want := append(append([]Operation(nil), d.Operations...), d.Mix.Operation)
			for i, o := range all {
				w := want[i]
				if o.Name != w.Name || o.Runs != w.Runs || o.Runtime.Mean != w.Runtime.Mean ||
					o.Runtime.P99 != w.Runtime.P99 || o.Runtime.PMax != w.Runtime.PMax ||
					float64(o.Runtime.Variance) != w.Runtime.Variance || float64(o.OpsPerSecond) != w.OpsPerSecond {
					t.Errorf("statistics %d: %+v, document %+v", i, o, w)
				}
				if o.Errors.Total != w.Errors.Total || len(o.Errors.Categories) != len(w.Errors.ByCategory) {
					t.Errorf("%s errors %+v, document %+v", o.Name, o.Errors, w.Errors)
				}
				for _, c := range o.Errors.Categories {
					if c.Count != w.Errors.ByCategory[c.Name] || c.First != w.Errors.First[c.Name] {
						t.Errorf("%s errors %+v, document %+v", o.Name, c, w.Errors)
					}
				}
				if (o.Actual != nil) != (w.Actual != nil) {
					t.Errorf("%s actual %v, document %v", o.Name, o.Actual != nil, w.Actual != nil)
				}
			}
			if st.Mix.OpsPerRun == nil || *st.Mix.OpsPerRun != d.Mix.OpsPerRun ||
				st.Mix.MixesPerHour == nil || float64(*st.Mix.MixesPerHour) != d.Mix.MixesPerHour {
				t.Errorf("mix ops_per_run %v mixes_per_hour %v", st.Mix.OpsPerRun, st.Mix.MixesPerHour)
			}
			if len(x.GCPerfP99.Worst) != len(d.GCPerfP99.Worst) {
				t.Errorf("%d worst runs, want %d", len(x.GCPerfP99.Worst), len(d.GCPerfP99.Worst))
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
	x := newXMLDoc(d)
	if got := x.Runs[1].Ops[0].Error; got != "timeout" {
		t.Errorf("failed run's operation error %q, want timeout", got)
	}
	if got := x.Runs[0].Ops[0].Error; got != "" {
		t.Errorf("successful run's operation error %q, want none", got)
	}
	d.Operations[0].Errors.ByCategory = map[string]int64{"timeout": 1, "panic": 1}
	if got := newXMLDoc(d).Runs[1].Ops[0].Error; got != "unknown" {
		t.Errorf("failed run's operation error %q with two categories, want unknown", got)
	}
}

// xmlLeftOut lists the document's fields the XML does not carry, by path
// from the Document (field names, slice elements without an index), with
// the reason. TestXMLHasEveryField checks that every other field reaches
// the XML and that these do not.
var xmlLeftOut = map[string]string{
	"Profiling":                      "profiles are files of their own; the JSON lists them",
	"Hiccup.Histogram":               "the XML has percentiles, not histograms",
	"Operations.Histogram":           "the XML has percentiles, not histograms",
	"Mix.Operation.Histogram":        "the XML has percentiles, not histograms",
	"Operations.Actual.MixesPerHour": "an operation's is always zero: mixes_per_hour is the mix's",
	"Runs.Error":                     "a run's operation names its failure (soleCategory)",
	// Open-loop figures (-rate) came after the XML and never reached it;
	// adding them changes the XML format.
	"Config.Rate":             "not in the XML yet",
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
