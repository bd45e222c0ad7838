package report

import (
	"bytes"
	"fmt"
	"io"
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
