package main

// Fuzz targets for the command line's parsers of untrusted input: compare's
// -fail (-rate: bench; the operations and mix files: workload/mixfile). go
// test runs the seeds; go test -run '^$' -fuzz '^FuzzParsePercent$'
// ./cmd/gcperf explores.

import (
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
