package html

import (
	"bytes"
	"crypto/sha256"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/gcperf/gcperf/report"
	"github.com/gcperf/gcperf/report/chart"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

func golden(t *testing.T, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test -update creates it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs (go test -update rewrites it):\n--- got\n%s\n--- want\n%s", path, got, want)
	}
}

// The fixtures are report's, results saved by gcperf -json
// (report/testdata): one operation (alloc.list), two operations on two
// threads, and a mix whose every run failed.
var fixtures = []string{"list", "threads", "errors"}

func readFixture(t *testing.T, name string) (*report.Document, []byte) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	d, err := report.ReadJSON(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return d, data
}

// embeddedFont is a font vgsvg embeds in an SVG, as base64.
var embeddedFont = regexp.MustCompile(`base64,[A-Za-z0-9+/=]+`)

// normalizeSVG replaces each embedded font (tens of kilobytes of base64)
// by its length and SHA-256, so that the golden file stays readable while
// any change to the font still shows.
func normalizeSVG(svg []byte) []byte {
	return embeddedFont.ReplaceAllFunc(svg, func(b []byte) []byte {
		return fmt.Appendf(nil, "base64,<%d bytes, sha256 %x>", len(b)-len("base64,"), sha256.Sum256(b))
	})
}

// sweepPoints is the hand-made sweep of report/chart's tests: GOGC 50..400
// and off, with and without a memory limit, one failed point.
func sweepPoints() []chart.SweepPoint {
	ms := time.Millisecond
	return []chart.SweepPoint{
		{GOGC: "off", MemLimit: "", P99: 1 * ms, P999: 2 * ms, PeakRSS: 900 << 20, Throughput: 1500},
		{GOGC: "50", MemLimit: "", P99: 8 * ms, P999: 20 * ms, PeakRSS: 60 << 20, Throughput: 700, Frontier: true},
		{GOGC: "100", MemLimit: "", P99: 5 * ms, P999: 12 * ms, PeakRSS: 80 << 20, Throughput: 900, Frontier: true},
		{GOGC: "200", MemLimit: "", P99: 3 * ms, P999: 7 * ms, PeakRSS: 140 << 20, Throughput: 1100, Frontier: true, Recommended: true},
		{GOGC: "400", MemLimit: "", P99: 2 * ms, P999: 5 * ms, PeakRSS: 260 << 20, Throughput: 1300, Frontier: true},
		{GOGC: "50", MemLimit: "256MiB", P99: 9 * ms, P999: 22 * ms, PeakRSS: 62 << 20, Throughput: 680},
		{GOGC: "100", MemLimit: "256MiB", P99: 5500 * time.Microsecond, P999: 13 * ms, PeakRSS: 82 << 20, Throughput: 880},
		{GOGC: "200", MemLimit: "256MiB", P99: 0, PeakRSS: 0}, // failed
		{GOGC: "400", MemLimit: "256MiB", P99: 2500 * time.Microsecond, P999: 6 * ms, PeakRSS: 250 << 20, Throughput: 1250},
		{GOGC: "off", MemLimit: "256MiB", P99: 2 * ms, P999: 9 * ms, PeakRSS: 255 << 20, Throughput: 1200, Frontier: true},
	}
}
