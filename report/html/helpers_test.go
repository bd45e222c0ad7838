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

	"github.com/gcperf/gcperf/report"
	"github.com/gcperf/gcperf/sweep"
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

// readSweep reads report/testdata/sweep.json, the hand-made sweep of
// report/chart's tests: GOGC 50..400 and off, with and without a memory
// limit, one failed point, the advice picking GOGC=200 against p99<=5ms.
func readSweep(t testing.TB) *sweep.Summary {
	t.Helper()
	f, err := os.Open(filepath.Join("..", "testdata", "sweep.json"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	s, err := sweep.ReadSummary(f)
	if err != nil {
		t.Fatal(err)
	}
	return s
}
