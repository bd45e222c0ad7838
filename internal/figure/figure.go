// Package figure formats the numbers of gcperf's reports, tables and
// messages, the same way everywhere: figures to four significant digits,
// percentages to three, CSV decimals exactly, and plurals. Durations are
// latency.FormatDuration's and sizes env.Bytes'.
package figure

import (
	"math"
	"strconv"
	"strings"
)

// Num formats a figure with at least four significant digits and no
// exponent: 29412345.6 → "29412346", 12.3456 → "12.35", 0.01234 →
// "0.01234"; whole numbers print without decimals.
func Num(v float64) string {
	if v == math.Trunc(v) || math.IsNaN(v) || math.IsInf(v, 0) {
		return strconv.FormatFloat(v, 'f', 0, 64)
	}
	digits := int(math.Floor(math.Log10(math.Abs(v)))) + 1
	return strconv.FormatFloat(v, 'f', max(4-digits, 0), 64)
}

// Pct formats a percentage with three significant digits at most and no
// exponent: 12.345 → "12.3%", 3.14159 → "3.14%", 1234.6 → "1235%" (an exact
// half rounds to even: 1234.5 → "1234%").
func Pct(v float64) string {
	s := strconv.FormatFloat(v, 'g', 3, 64)
	if strings.Contains(s, "e") {
		s = strconv.FormatFloat(v, 'f', 0, 64)
	}
	return s + "%"
}

// Percent formats a fraction as Pct does its percentage: 0.3126 → "31.3%".
func Percent(f float64) string { return Pct(f * 100) }

// Decimal formats a figure as the shortest decimal that reads back
// exactly, never with an exponent; NaN and infinities are "" (an empty
// CSV cell).
func Decimal(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return ""
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}

// Plural is one when n is 1, else many.
func Plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
