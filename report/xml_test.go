package report

import (
	"bytes"
	"encoding/xml"
	"path/filepath"
	"strings"
	"testing"
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
