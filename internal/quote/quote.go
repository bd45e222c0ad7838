// Package quote shortens the values that gcperf's error messages quote, so
// that an error stays one readable line whatever the input: a 2MB mix-file
// line or parameter is quoted by its first 80 bytes or so, never whole.
package quote

import "unicode/utf8"

// Max is about the most bytes of a value an error quotes.
const Max = 80

// Clip returns s, or its first Max bytes (cut at a rune boundary) and "…"
// when it is longer.
func Clip(s string) string {
	if len(s) <= Max {
		return s
	}
	i := Max
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return s[:i] + "…"
}
