package report

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

// A result that holds only its failure is read with its failure, for a
// sweep, and refused as a measurement, for everyone else; one with runs
// and a failure (a server that ended during them) is a measurement.
func TestFailureOnly(t *testing.T) {
	var buf bytes.Buffer
	f := Failure{Reason: "server not ready", Text: "server: not ready within 1s"}
	if err := FailureJSON(&buf, Tool{Name: "gcperf"}, f); err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{`"gc"`, `"runs"`, `"operations"`, `"env"`} {
		if strings.Contains(buf.String(), key) {
			t.Errorf("a failure's result has %s, a figure it never measured:\n%s", key, buf.String())
		}
	}
	d, err := ReadJSON(bytes.NewReader(buf.Bytes()))
	var fe *FailedRunError
	if !errors.As(err, &fe) || fe.Failure != f || d == nil || *d.Failed != f {
		t.Fatalf("ReadJSON = %v, %v; want the document and a FailedRunError of %+v", d, err, f)
	}
	if !strings.Contains(err.Error(), "(server not ready): server: not ready within 1s") {
		t.Errorf("error %q names neither the reason nor the text", err)
	}

	measured := &Document{Schema: Schema, Operations: []Operation{{}}, Failed: &f}
	buf.Reset()
	if err := JSON(&buf, measured); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadJSON(&buf); err != nil {
		t.Errorf("a result with runs and a failure: %v, want it read", err)
	}
}
