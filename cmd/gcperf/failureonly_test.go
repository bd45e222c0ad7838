package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/gcperf/gcperf/report"
)

// A result that holds only its failure (a server that failed before the
// runs) has nothing to show: report, compare and plot refuse it in one
// line naming its reason, as README says.
func TestFailureOnlyRefused(t *testing.T) {
	f := filepath.Join(t.TempDir(), "f.json")
	w, err := os.Create(f)
	if err != nil {
		t.Fatal(err)
	}
	if err := report.FailureJSON(w, report.Tool{Name: "gcperf"}, report.Failure{Reason: "server not ready", Text: "server: not ready within 1s"}); err != nil {
		t.Fatal(err)
	}
	w.Close()
	tail := ": " + f + ": a run that failed before it measured anything (server not ready): server: not ready within 1s"
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"report", f}, "gcperf: report" + tail},
		{[]string{"compare", f, f}, "gcperf: compare" + tail},
		{[]string{"plot", "-o", filepath.Join(t.TempDir(), "p.svg"), f}, "gcperf: plot" + tail},
	} {
		code, stdout, stderr := gcperf(t, nil, tt.args...)
		checkBad(t, code, stdout, stderr, tt.want)
	}
}
