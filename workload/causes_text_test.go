package workload

import (
	"encoding"
	"testing"
)

// A cause's and a verdict's names read back as the values that wrote them,
// and a name neither knows is an error.
func TestCauseVerdictText(t *testing.T) {
	var values []encoding.TextMarshaler
	for c := range NumCauses {
		values = append(values, c)
	}
	for v := VerdictNone; int(v) < len(verdictNames); v++ {
		values = append(values, v)
	}
	for _, v := range values {
		b, err := v.MarshalText()
		if err != nil {
			t.Fatal(err)
		}
		var back encoding.TextUnmarshaler
		switch v.(type) {
		case Cause:
			back = new(Cause)
		case Verdict:
			back = new(Verdict)
		}
		if err := back.UnmarshalText(b); err != nil {
			t.Errorf("%q: %v", b, err)
		} else if got := back.(interface{ String() string }).String(); got != string(b) {
			t.Errorf("%q read back as %q", b, got)
		}
	}
	for _, u := range []encoding.TextUnmarshaler{new(Cause), new(Verdict)} {
		if err := u.UnmarshalText([]byte("cosmic_rays")); err == nil {
			t.Errorf("%T read an unknown name", u)
		}
	}
}
