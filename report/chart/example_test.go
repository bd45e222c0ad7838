package chart_test

import (
	"bytes"
	"fmt"
	"os"
	"regexp"
	"strings"

	"github.com/gcperf/gcperf/report"
	"github.com/gcperf/gcperf/report/chart"
	"github.com/gcperf/gcperf/sweep"
)

// Draw the Pareto chart of a saved sweep (its sweep.json) as SVG: every
// point labelled with its GOGC, the frontier, the recommended setting and
// the P99 bound of the advice's SLO.
func ExampleSweep() {
	f, err := os.Open("../testdata/sweep.json")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer f.Close()
	s, err := sweep.ReadSummary(f)
	if err != nil {
		fmt.Println(err)
		return
	}
	var svg bytes.Buffer
	if err := chart.Sweep(&svg, s, chart.KindPareto, chart.SVG); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("advice's SLO:", s.Advice.SLO)
	for _, label := range []string{"Pareto frontier", "recommended", "GOGC=200", chart.SLOLabel(s.Advice.P99Bound())} {
		fmt.Printf("%q drawn: %v\n", label, bytes.Contains(svg.Bytes(), []byte(strings.ReplaceAll(label, "<", "&lt;"))))
	}
	// Output:
	// advice's SLO: p99<=5ms
	// "Pareto frontier" drawn: true
	// "recommended" drawn: true
	// "GOGC=200" drawn: true
	// "SLO p99 <= 5ms" drawn: true
}

// Overlay the percentile spectra of two results, the legend naming each
// line by its file and operation.
func ExampleSpectrum() {
	var docs []*report.Document
	for _, name := range []string{"list", "threads"} {
		f, err := os.Open("../testdata/" + name + ".json")
		if err != nil {
			fmt.Println(err)
			return
		}
		d, err := report.ReadJSON(f)
		f.Close()
		if err != nil {
			fmt.Println(err)
			return
		}
		docs = append(docs, d)
	}
	var svg bytes.Buffer
	if err := chart.Spectrum(&svg, docs, []string{"before", "after"}, chart.SVG); err != nil {
		fmt.Println(err)
		return
	}
	for _, m := range regexp.MustCompile(`>((before|after):[^<]+)<`).FindAllSubmatch(svg.Bytes(), -1) {
		fmt.Println(string(m[1]))
	}
	// Output:
	// before:alloc.list
	// after:noop
	// after:spin
}

// Read a chart's kind and format as gcperf plot does from -kind and -o.
func ExampleParseKind() {
	for _, name := range []string{"pareto", "hist", "pie"} {
		k, err := chart.ParseKind(name)
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Printf("%s: of a sweep %v\n", k, k.OfSweep())
	}
	for _, path := range []string{"p99.PNG", "p99.pdf"} {
		f, err := chart.FormatOf(path)
		fmt.Println(f, err)
	}
	// Output:
	// pareto: of a sweep true
	// hist: of a sweep false
	// chart: unknown kind "pie" (spectrum, hist, timeline, causes, sweep-p99, sweep-rss, sweep-throughput, pareto)
	// png <nil>
	// Format(0) chart: p99.pdf: not an .svg or .png file
}
