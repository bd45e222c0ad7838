package load

import (
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gcperf/gcperf/internal/fuzzcheck"
)

// FuzzParseHeader: -header's parser never panics, its errors are one short
// line, and what it accepts is headers net/http sends as they are: valid
// names, values without CR, NUL or another control character but HTAB,
// which read back the same when written
// as -header spells them.
func FuzzParseHeader(f *testing.F) {
	for _, s := range []string{"", "X-A: 1", `X-A: 1\nX-B: 2`, "Host: example.com\nAccept: */*", "bad", ": v", "K: v\r", "K:\x00", "a b: c", "X-A:\r\nEvil:1", "K: a\x7f", "K\t: v", "K: a\tb"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		defer fuzzcheck.Watchdog(time.Second)()
		h, err := ParseHeader(s)
		fuzzcheck.ErrText(t, err)
		if err != nil {
			return
		}
		var lines []string
		for _, k := range slices.Sorted(maps.Keys(h)) {
			if !isToken(k) {
				t.Fatalf("%q: %q is not a header name", s, k)
			}
			for _, v := range h[k] {
				if strings.IndexFunc(v, isCTL) >= 0 {
					t.Fatalf("%q: the value %q of %q holds a control character", s, v, k)
				}
				lines = append(lines, k+": "+v)
			}
		}
		back, err := ParseHeader(strings.Join(lines, "\n"))
		if err != nil {
			t.Fatalf("%q: its headers written back %q do not parse: %v", s, lines, err)
		}
		for k, v := range h {
			if !slices.Equal(back[k], v) {
				t.Fatalf("%q: %q read back as %q, want %q", s, k, back[k], v)
			}
		}
	})
}
