package jsondoc_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/gcperf/gcperf/internal/jsondoc"
)

var errNotIt = errors.New("not a test document")

// TestDecode: one document, of the family and version asked, and nothing
// after it but whitespace.
func TestDecode(t *testing.T) {
	for _, tc := range []struct {
		in      string
		notIt   bool
		schema  bool
		wantErr string
	}{
		{in: `{"schema":"t/v1"}`},
		{in: "{\"schema\":\"t/v1\"}\n\t \n"},
		{in: `{"schema":"t/v1"}{"schema":"t/v1"}`, notIt: true, wantErr: "after the document"},
		{in: "{\"schema\":\"t/v1\"}\n{\"schema\":\"t/v1\"}\n", notIt: true, wantErr: "after the document"},
		{in: `{"schema":"t/v1"} garbage`, notIt: true, wantErr: "after the document"},
		{in: `{"schema":"t/v1"}]`, notIt: true, wantErr: "after the document"},
		{in: `{"schema":"t/v1"}` + "\x00", notIt: true, wantErr: "after the document"},
		{in: `{"schema":"t/v1"`, notIt: true, wantErr: "truncated"},
		{in: ``, notIt: true, wantErr: "truncated"},
		{in: `{}`, notIt: true, wantErr: "no \"schema\""},
		{in: `{"schema":"u/v1"}`, notIt: true},
		{in: `{"schema":"t/v9"}`, schema: true},
	} {
		var v struct{ Schema string }
		err := jsondoc.Decode(strings.NewReader(tc.in), &v, func() string { return v.Schema }, "t/", "t/v1", errNotIt)
		if got := errors.Is(err, errNotIt); got != tc.notIt {
			t.Errorf("Decode(%q) = %v, want errors.Is(notIt) %v", tc.in, err, tc.notIt)
		}
		if got := errors.Is(err, jsondoc.ErrSchema); got != tc.schema {
			t.Errorf("Decode(%q) = %v, want errors.Is(ErrSchema) %v", tc.in, err, tc.schema)
		}
		if err != nil && !strings.Contains(err.Error(), tc.wantErr) {
			t.Errorf("Decode(%q) = %v, want it to say %q", tc.in, err, tc.wantErr)
		}
	}
}
