// Package setting reads the values of gcperf's settings that more than
// one package takes from a flag: a GOGC or GOMEMLIMIT given once (gcperf
// exec -gogc, -server-memlimit), a size in GOMEMLIMIT's syntax, a count of
// processes (-count). Its errors name the flag and wrap ErrUsage.
package setting

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/gcperf/gcperf/internal/quote"
)

// ErrUsage is wrapped by every error about a flag's value, so that the
// command can tell bad usage from a failed run.
var ErrUsage = errors.New("bad flag value")

// A FlagError names the flag whose value is wrong and says why:
// `-gogc: "fast" is not off or a percentage`.
type FlagError struct {
	Flag string // without the dash: "gogc"
	Msg  string
}

func (e *FlagError) Error() string { return "-" + e.Flag + ": " + e.Msg }
func (e *FlagError) Unwrap() error { return ErrUsage }

// usageError is an error about a flag that is not a FlagError's form.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }
func (e *usageError) Unwrap() error { return ErrUsage }

// ParseOne reads the one setting that a flag other than a grid's gives
// (gcperf exec -gogc, gcperf run -server-memlimit) with a grid's parser
// (sweep.ParseGOGC, sweep.ParseMemLimit): "" for none. Its errors name
// flag.
func ParseOne[T fmt.Stringer](flag, value string, parse func(string) ([]T, error)) (string, error) {
	if value == "" {
		return "", nil
	}
	v, err := parse(value)
	var fe *FlagError
	switch {
	case errors.As(err, &fe):
		return "", &FlagError{Flag: flag, Msg: fe.Msg}
	case err != nil:
		return "", err
	case len(v) != 1:
		return "", &usageError{fmt.Sprintf("-%s takes one value, got %q", flag, quote.Clip(value))}
	}
	return v[0].String(), nil
}

// MaxCount is the most repeats of a point (-count) a sweep, or gcperf
// -count, runs: the parent keeps every repeat's result for its report and
// checks the files of every repeat before the first starts, so a count of
// a billion would exhaust the memory before anything ran.
const MaxCount = 10000

// CheckCount refuses a count of repeats (-count) below 1 or above
// MaxCount, in words that name the flag.
func CheckCount(n int) error {
	switch {
	case n < 1:
		return fmt.Errorf("-count must be at least 1, got %d", n)
	case n > MaxCount:
		return fmt.Errorf("-count must be at most %d, got %d (every process's result is kept for the report)", MaxCount, n)
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
