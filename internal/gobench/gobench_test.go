package gobench

import (
	"testing"
	"unicode/utf8"
)

func TestUnit(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"", "results"},
		{"objects", "objects"},
		{"key value/pairs", "key-value-pairs"},
		{"a*b\tc", "a-b-c"},
		{"\xffok", "\uFFFDok"},
	} {
		got := Unit(c.in)
		if got != c.want || !utf8.ValidString(got) {
			t.Errorf("Unit(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
