// Package setting reads the values of gcperf's settings that more than
// one package takes: a size in GOMEMLIMIT's syntax, a count of processes
// (-count, whose error names the flag).
package setting

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// MaxCount is the most repeats of a point (-count) a sweep, or gcperf
// -count, runs: the parent keeps every repeat's result for its report and
// checks the files of every repeat before the first starts, so a count of
// a billion would exhaust the memory before anything ran.
const MaxCount = 10000

// CheckCount refuses a count of repeats below 1 or above MaxCount, in
// words that name no flag: the caller names the count ("-count must be
// at least 1, got 0").
func CheckCount(n int) error {
	switch {
	case n < 1:
		return fmt.Errorf("must be at least 1, got %d", n)
	case n > MaxCount:
		return fmt.Errorf("must be at most %d, got %d (every process's result is kept for the report)", MaxCount, n)
	}
	return nil
}

// byteUnits are the units the runtime accepts in GOMEMLIMIT
// (runtime.parseByteCount), with their sizes, longest first.
var byteUnits = []struct {
	suffix string
	size   int64
}{{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}, {"TiB", 1 << 40}, {"B", 1}}

// ParseByteCount parses a size as the runtime reads GOMEMLIMIT: an integer
// with an optional unit B, KiB, MiB, GiB or TiB, case-sensitive, no space,
// no fraction. It is stricter than the runtime in one way only: the number
// is digits, where the runtime's strconv.ParseInt would also take a sign
// ("+1GiB", "-0"). tooLarge is set for a well-formed size above 2⁶³-1 bytes.
func ParseByteCount(s string) (n int64, ok, tooLarge bool) {
	num, size := s, int64(1)
	for _, u := range byteUnits {
		if strings.HasSuffix(s, u.suffix) {
			num, size = strings.TrimSuffix(s, u.suffix), u.size
			break
		}
	}
	if !Digits(num) {
		return 0, false, false
	}
	v, err := strconv.ParseInt(num, 10, 64)
	if err != nil || v > math.MaxInt64/size {
		return 0, false, true
	}
	return v * size, true, false
}

// MemLimitBytes is the limit a GOMEMLIMIT value sets, in bytes; false for
// "off" and for a value ParseByteCount refuses.
func MemLimitBytes(s string) (int64, bool) {
	n, ok, _ := ParseByteCount(s)
	return n, ok
}

// Digits reports whether s is a non-empty run of ASCII digits: no sign, no
// space, no underscore.
func Digits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
