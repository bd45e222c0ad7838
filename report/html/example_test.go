package html_test

import (
	"bytes"
	"fmt"
	"os"
	"regexp"

	"github.com/gcperf/gcperf/report"
	"github.com/gcperf/gcperf/report/html"
	"github.com/gcperf/gcperf/sweep"
)

// outline prints a page's title, its section headings and how many charts
// it holds.
func outline(page []byte) {
	fmt.Printf("%s\n", regexp.MustCompile(`<title>(.*)</title>`).FindSubmatch(page)[1])
	for _, m := range regexp.MustCompile(`<h2[^>]*>(.*)</h2>`).FindAllSubmatch(page, -1) {
		fmt.Printf("  %s\n", m[1])
	}
	fmt.Println("  charts:", len(regexp.MustCompile(`<svg[\s>]`).FindAll(page, -1)))
}

// Render a result saved with gcperf -json as one page.
func ExampleReport() {
	f, err := os.Open("../testdata/list.json")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer f.Close()
	d, err := report.ReadJSON(f)
	if err != nil {
		fmt.Println(err)
		return
	}
	var page bytes.Buffer
	if err := html.Report(&page, d); err != nil {
		fmt.Println(err)
		return
	}
	outline(page.Bytes())
	// Output:
	// gcperf 0.1.0-dev: alloc.list size=8 base=32 chunk=32
	//   Summary
	//   Settings and environment
	//   Operation statistics
	//   Garbage collector
	//   GCPerfP99 results and the tail
	//   Notes
	//   Charts
	//   charts: 3
}

// Render a sweep's sweep.json as one page: its table, advice and charts.
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
	var page bytes.Buffer
	if err := html.Sweep(&page, s); err != nil {
		fmt.Println(err)
		return
	}
	outline(page.Bytes())
	// Output:
	// gcperf sweep
	//   Points
	//   Advice
	//   Charts
	//   charts: 4
}
