// Package gobench holds what gcperf's two writers of the Go benchmark format
// must agree on, report.Bench (gcperf -bench) and workload/gotest.Benchmark
// (go test -bench), so that benchstat pairs their figures.
package gobench

import (
	"strings"
	"unicode"
)

// Unit makes the unit an operation's results count in fit a benchmark unit
// (golang.org/x/perf/benchfmt, testing.B.ReportMetric): a space, "/" (which
// would make it a ratio) or "*" becomes "-", and an empty unit is
// "results". The result is valid UTF-8: strings.Map writes each invalid
// byte as U+FFFD.
func Unit(u string) string {
	u = strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) || r == '/' || r == '*' {
			return '-'
		}
		return r
	}, u)
	if u == "" {
		return "results"
	}
	return u
}
