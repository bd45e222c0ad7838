package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The v1 fixtures are results gcperf wrote under schema gcperf/v1 (before
// the document embedded the engine's types): a benchmark with -gcstats run
// and the hiccup meter, a mix of two operations, a benchmark against a
// server (gcperf run http -- SERVER), a command's run (gcperf exec), and
// a -count set of each kind. Whatever the current schema, they must open
// and render as they did when written: their goldens were made by that
// gcperf.
var (
	v1Docs = []string{"v1_bench.json", "v1_mix.json", "v1_server.json", "v1_exec.json"}
	v1Sets = []string{"v1_count.json", "v1_exec_count.json"}
)

// renderV1 writes every rendering of a document that report offers, each
// under a heading, an error in place of one that fails.
func renderV1(w io.Writer, d *Document, name string) {
	for _, f := range []struct {
		name  string
		write func(io.Writer, *Document) error
	}{
		{"text", Text}, {"csv", CSV}, {"xml", XML}, {"bench", Bench}, {"hgrm", HGRM},
	} {
		fmt.Fprintf(w, "=== %s\n", f.name)
		if err := f.write(w, d); err != nil {
			fmt.Fprintf(w, "error: %v\n", err)
		}
	}
	s := SamplesOf(d, name)
	c, err := Compare(s, s, 0.05)
	fmt.Fprintf(w, "=== compare with itself\n")
	if err != nil {
		fmt.Fprintf(w, "error: %v\n", err)
		return
	}
	if err := CompareText(w, c); err != nil {
		fmt.Fprintf(w, "error: %v\n", err)
	}
}

func TestV1Documents(t *testing.T) {
	for _, name := range v1Docs {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join("testdata", name)
			d, err := ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			var b bytes.Buffer
			renderV1(&b, d, name)
			if _, err := ReadSamplesFile(path); err != nil {
				t.Errorf("ReadSamplesFile: %v", err)
			}
			golden(t, filepath.Join("testdata", strings.TrimSuffix(name, ".json")+".golden"), b.Bytes())
		})
	}
}

func TestV1Sets(t *testing.T) {
	for _, name := range v1Sets {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join("testdata", name)
			s, err := ReadSetFile(path)
			if err != nil {
				t.Fatal(err)
			}
			var b bytes.Buffer
			fmt.Fprintf(&b, "=== text\n")
			if err := SetText(&b, s); err != nil {
				fmt.Fprintf(&b, "error: %v\n", err)
			}
			fmt.Fprintf(&b, "=== bench\n")
			if err := SetBench(&b, s); err != nil {
				fmt.Fprintf(&b, "error: %v\n", err)
			}
			old, err := ReadSamplesFile(path)
			if err != nil {
				t.Fatal(err)
			}
			c, err := Compare(old, old, 0.05)
			fmt.Fprintf(&b, "=== compare with itself\n")
			if err != nil {
				fmt.Fprintf(&b, "error: %v\n", err)
			} else if err := CompareText(&b, c); err != nil {
				fmt.Fprintf(&b, "error: %v\n", err)
			}
			for _, p := range s.Processes {
				if p.Result != nil {
					fmt.Fprintf(&b, "=== process %d\n", p.N)
					renderV1(&b, p.Result, fmt.Sprintf("%s#%d", name, p.N))
				}
			}
			golden(t, filepath.Join("testdata", strings.TrimSuffix(name, ".json")+".golden"), b.Bytes())
		})
	}
}

// TestV1Conversion: a gcperf/v1 document reads as the current schema, its
// renamed figures under their new keys, and writes back as one.
func TestV1Conversion(t *testing.T) {
	for _, name := range v1Docs {
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join("testdata", name))
			if err != nil {
				t.Fatal(err)
			}
			var v1 map[string]any
			if err := json.Unmarshal(data, &v1); err != nil {
				t.Fatal(err)
			}
			d, err := ReadJSON(bytes.NewReader(data))
			if err != nil {
				t.Fatal(err)
			}
			var b bytes.Buffer
			if err := JSON(&b, d); err != nil {
				t.Fatal(err)
			}
			var v2 map[string]any
			if err := json.Unmarshal(b.Bytes(), &v2); err != nil {
				t.Fatal(err)
			}
			if v1["schema"] != "gcperf/v1" || v2["schema"] != Schema {
				t.Errorf("schema %v, converted %v, want gcperf/v1 and %s", v1["schema"], v2["schema"], Schema)
			}
			for _, k := range []struct{ section, v1, v2 string }{{"gc", "cycles", "gc_cycles"}, {"hiccup", "max_ns", "pmax_ns"}} {
				old, _ := v1[k.section].(map[string]any)
				cur, _ := v2[k.section].(map[string]any)
				if (old == nil) != (cur == nil) {
					t.Fatalf("%s: %v, converted %v", k.section, old, cur)
				}
				if old == nil {
					continue
				}
				if _, ok := cur[k.v1]; ok || old[k.v1] == nil || cur[k.v2] != old[k.v1] {
					t.Errorf("%s: %s %v, converted %s %v (and %s %v)", k.section, k.v1, old[k.v1], k.v2, cur[k.v2], k.v1, cur[k.v1])
				}
			}
			again, err := ReadJSON(bytes.NewReader(b.Bytes()))
			if err != nil {
				t.Fatal(err)
			}
			var b2 bytes.Buffer
			if err := JSON(&b2, again); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(b.Bytes(), b2.Bytes()) {
				t.Errorf("the converted document does not read back as written")
			}
		})
	}
}
