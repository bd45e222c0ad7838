package redact_test

import (
	"slices"
	"testing"

	"github.com/gcperf/gcperf/internal/redact"
)

func TestURL(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"http://user:pw@host/", "http://user:xxxxx@host/"},
		{"https://u:p@w@host:8080/p?q=1", "https://u:xxxxx@host:8080/p?q=1"},
		{"http://user@host/", "http://user@host/"},
		{"http://host/a@b", "http://host/a@b"},
		{"http://user:pw@host/%zz", "http://user:xxxxx@host/%zz"},
		{"-url=http://user:pw@host/", "-url=http://user:xxxxx@host/"},
		{"plain", "plain"},
		{"a@b", "a@b"},
	} {
		if got := redact.URL(tc.in); got != tc.want {
			t.Errorf("URL(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	in := []string{"gcperf", "run", "http", "-url", "http://u:secret@h/"}
	got := redact.Args(in)
	if want := []string{"gcperf", "run", "http", "-url", "http://u:xxxxx@h/"}; !slices.Equal(got, want) || in[4] != "http://u:secret@h/" {
		t.Errorf("Args = %q (the argument %q), want %q and the argument unchanged", got, in[4], want)
	}
}
