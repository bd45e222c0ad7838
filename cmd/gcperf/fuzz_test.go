package main

// Fuzz targets for the command line's parsers of untrusted input: compare's
// -fail (-rate: bench; the operations and mix files: workload/mixfile). go
// test runs the seeds; go test -run '^$' -fuzz '^FuzzParsePercent$'
// ./cmd/gcperf explores.

import (
	"errors"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/gcperf/gcperf/internal/fuzzcheck"
)

func FuzzParsePercent(f *testing.F) {
	for _, s := range []string{
		"-0", "-0%", // once -0, shown as "-fail -0%"
		"5%", "5", "20%", "60%", "2.5%", "abc", "-5%", "", " 5% ", "5%%", "5 %", "NaN", "Inf", "1e400",
		"0", "0%", "0x10", "1e-400%", "%", "100%",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, err := parsePercent(s)
		if err != nil {
			if v != 0 {
				t.Errorf("parsePercent(%q) = %v and error %v", s, v, err)
			}
			fuzzcheck.ErrText(t, err)
			return
		}
		// The threshold as the regression message writes it: never
		// negative, and it reads back as itself.
		text := strconv.FormatFloat(v, 'g', -1, 64)
		if !(v >= 0) || math.IsInf(v, 0) || strings.HasPrefix(text, "-") {
			t.Fatalf("parsePercent(%q) = %v, shown as -fail %s%%", s, v, text)
		}
		if back, err := parsePercent(text + "%"); err != nil || back != v {
			t.Errorf("parsePercent(%q) = %v, but parsePercent(%q) = %v, %v", s, v, text+"%", back, err)
		}
	})
}

// FuzzParseRate: -rate's parser.
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
			if r != 0 || !errors.As(err, new(*usageError)) {
				t.Errorf("parseRate(%q) = %v, %v (%T): want 0 and a *usageError", s, r, err, err)
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
