package html

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/gcperf/gcperf/report"
)

// TestV1Pages: results gcperf wrote under schema gcperf/v1 (report's
// testdata) still render as the pages they were: testdata/v1_pages.golden
// holds each page's size and SHA-256, or the error refusing it.
func TestV1Pages(t *testing.T) {
	var b bytes.Buffer
	for _, name := range []string{"v1_bench.json", "v1_mix.json", "v1_server.json", "v1_exec.json"} {
		d, err := report.ReadFile(filepath.Join("..", "testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		var page bytes.Buffer
		if err := Report(&page, d); err != nil {
			fmt.Fprintf(&b, "%s: error: %v\n", name, err)
			continue
		}
		fmt.Fprintf(&b, "%s: %d bytes, sha256 %x\n", name, page.Len(), sha256.Sum256(page.Bytes()))
	}
	golden(t, filepath.Join("testdata", "v1_pages.golden"), b.Bytes())
}
