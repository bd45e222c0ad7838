package benchout_test

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gcperf/gcperf/target/benchout"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// fixtures returns the name and contents of every fixture
// (testdata/*.txt).
func fixtures(tb testing.TB) map[string][]byte {
	files, err := filepath.Glob("testdata/*.txt")
	if err != nil || len(files) == 0 {
		tb.Fatalf("no fixtures: %v", err)
	}
	all := make(map[string][]byte)
	for _, file := range files {
		b, err := os.ReadFile(file)
		if err != nil {
			tb.Fatal(err)
		}
		all[file] = b
	}
	return all
}

// collect writes in to a new Collector in the pieces split gives (all
// of it at once if split is nil), closes it and describes what it read.
func collect(tb testing.TB, in []byte, split func([]byte) [][]byte) string {
	c := benchout.NewCollector()
	pieces := [][]byte{in}
	if split != nil {
		pieces = split(in)
	}
	for _, p := range pieces {
		if n, err := c.Write(p); n != len(p) || err != nil {
			tb.Fatalf("Write(%q) = %d, %v; want %d, nil", p, n, err, len(p))
		}
	}
	if err := c.Close(); err != nil {
		tb.Fatalf("Close: %v", err)
	}
	return describe(c)
}

// describe says what c read: its benchmarks and their metrics, its
// counts.
func describe(c *benchout.Collector) string {
	var b strings.Builder
	for _, bm := range c.Benchmarks() {
		fmt.Fprintf(&b, "benchmark pkg %q name %q\n", bm.Pkg, bm.Name)
		for _, m := range bm.Metrics {
			fmt.Fprintf(&b, "\t%q %v median %g", m.Unit, m.Values, m.Median())
			if m.Dropped > 0 {
				fmt.Fprintf(&b, " dropped %d", m.Dropped)
			}
			b.WriteString("\n")
		}
	}
	d := c.Dropped()
	fmt.Fprintf(&b, "skipped %d; dropped lines %d, results %d, values %d\n", c.Skipped(), d.Lines, d.Results, d.Values)
	return b.String()
}

// lineDiff shows the first lines where want and got differ.
func lineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < max(len(w), len(g)); i++ {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl {
			return fmt.Sprintf("line %d:\nwant %s\ngot  %s", i+1, wl, gl)
		}
	}
	return "(same lines)"
}
