package bench

// FuzzParseRate: -rate's parser of untrusted input. go test runs the
// seeds; go test -run '^$' -fuzz '^FuzzParseRate$' ./bench explores.

import (
	"errors"
	"math"
	"strconv"
	"testing"

	"github.com/gcperf/gcperf/internal/fuzzcheck"
)

func FuzzParseRate(f *testing.F) {
	for _, s := range []string{
		"200/s", "200", "500/s", "500", "fast", "200/m", "-5/s", "NaN", "0", "0/s", "2.5/s", "1e9/s", "Inf",
		"+Inf/s", "1e309", "0x1p4/s", "1_000", " 200/s", "200/s/s", "", "/s", "200 /s", "1e-320/s",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r, err := parseRate(s)
		if err != nil {
			if r != 0 || !errors.As(err, new(*InputError)) {
				t.Errorf("parseRate(%q) = %v, %v (%T): want 0 and an *InputError", s, r, err, err)
			}
			fuzzcheck.ErrText(t, err)
			return
		}
		if !(r >= 0) || math.IsInf(r, 0) {
			t.Fatalf("parseRate(%q) = %v", s, r)
		}
		for _, text := range []string{strconv.FormatFloat(r, 'g', -1, 64), strconv.FormatFloat(r, 'g', -1, 64) + "/s"} {
			if back, err := parseRate(text); err != nil || back != r {
				t.Errorf("parseRate(%q) = %v, but parseRate(%q) = %v, %v", s, r, text, back, err)
			}
		}
	})
}
