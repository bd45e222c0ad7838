package chart

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/gcperf/gcperf/report"
)

// TestV1Plots: results gcperf wrote under schema gcperf/v1 (report's
// testdata) still plot, through gcperf plot's path (ReadPlot, then Draw),
// as they did: testdata/v1_plots.golden holds each chart's size and
// SHA-256 (its embedded fonts normalised), or the error refusing it.
func TestV1Plots(t *testing.T) {
	var b bytes.Buffer
	for _, name := range []string{"v1_bench.json", "v1_mix.json", "v1_server.json", "v1_exec.json"} {
		file := filepath.Join("..", "testdata", name)
		for _, kind := range []Kind{KindSpectrum, KindHistogram, KindTimeline, KindCauses} {
			fmt.Fprintf(&b, "%s %v: ", name, kind)
			p, err := ReadPlot(kind, []string{file})
			if err != nil {
				fmt.Fprintf(&b, "error: %v\n", err)
				continue
			}
			var svg bytes.Buffer
			if err := p.Draw(&svg, SVG); err != nil {
				fmt.Fprintf(&b, "error: %v\n", err)
				continue
			}
			s := normalizeSVG(svg.Bytes())
			fmt.Fprintf(&b, "%d bytes, sha256 %x\n", len(s), sha256.Sum256(s))
		}
		d, err := report.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct {
			name string
			draw func(*bytes.Buffer, *report.Document, Format) error
		}{
			{"exec-rss", func(w *bytes.Buffer, d *report.Document, f Format) error { return ExecRSS(w, d, f) }},
			{"exec-goal", func(w *bytes.Buffer, d *report.Document, f Format) error { return ExecGoal(w, d, f) }},
		} {
			fmt.Fprintf(&b, "%s %s: ", name, c.name)
			var svg bytes.Buffer
			if err := c.draw(&svg, d, SVG); err != nil {
				fmt.Fprintf(&b, "error: %v\n", err)
				continue
			}
			s := normalizeSVG(svg.Bytes())
			fmt.Fprintf(&b, "%d bytes, sha256 %x\n", len(s), sha256.Sum256(s))
		}
	}
	golden(t, filepath.Join("testdata", "v1_plots.golden"), b.Bytes())
}
