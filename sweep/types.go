package sweep

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/gcperf/gcperf/internal/quote"
	"github.com/gcperf/gcperf/internal/setting"
	"github.com/gcperf/gcperf/report"
)

// A Point is one setting of the grid: its GOGC and GOMEMLIMIT as numbers
// (each with the spelling that names it), GOMAXPROCS 0 when it is not an
// axis of the grid (the child inherits the parent's).
type Point struct {
	Index      int      `json:"index"` // position in the grid, for -shard
	GOGC       GOGC     `json:"gogc"`
	MemLimit   MemLimit `json:"memlimit"`
	GOMAXPROCS int      `json:"gomaxprocs,omitempty"`
}

// A GOGC is a point's GOGC: off, or a percentage from 0 (collect
// continuously) to 2³¹-1. The zero value is no setting (Inherited's).
// It is written as GOGC reads it: "off" or the percentage in decimal.
type GOGC struct {
	pct int32 // the percentage; -1 for off
	set bool
}

// GOGCOff is GOGC=off.
var GOGCOff = GOGC{pct: -1, set: true}

// GOGCPercent is GOGC=n, for 0 <= n <= 2³¹-1 (a negative n is off).
func GOGCPercent(n int) GOGC {
	if n < 0 {
		return GOGCOff
	}
	return GOGC{pct: int32(min(n, math.MaxInt32)), set: true}
}

// Percent is the percentage; false for off or no setting.
func (g GOGC) Percent() (int, bool) { return int(g.pct), g.set && g.pct >= 0 }

// Off reports whether g is GOGC=off.
func (g GOGC) Off() bool { return g.set && g.pct < 0 }

// IsZero reports whether g is no setting.
func (g GOGC) IsZero() bool { return !g.set }

// runtimeValue is g as runtime/metrics reports it (env.Go.GOGC): -1 for off.
func (g GOGC) runtimeValue() int { return int(g.pct) }

// String is "off", the percentage, or "" for no setting.
func (g GOGC) String() string {
	switch {
	case !g.set:
		return ""
	case g.pct < 0:
		return "off"
	}
	return strconv.Itoa(int(g.pct))
}

func (g GOGC) MarshalText() ([]byte, error) { return []byte(g.String()), nil }

func (g *GOGC) UnmarshalText(b []byte) error {
	if len(b) == 0 {
		*g = GOGC{}
		return nil
	}
	v, err := parseGOGCItem(string(b))
	if err != nil {
		return fmt.Errorf("sweep: GOGC %q is not off or a percentage", quote.Clip(string(b)))
	}
	*g = v
	return nil
}

// parseGOGCItem parses one GOGC value: off in any case, or digits.
func parseGOGCItem(s string) (GOGC, error) {
	if strings.EqualFold(s, "off") {
		return GOGCOff, nil
	}
	n, err := strconv.ParseInt(s, 10, 32)
	if !setting.Digits(s) || err != nil {
		return GOGC{}, strconv.ErrSyntax
	}
	return GOGCPercent(int(n)), nil
}

// A MemLimit is a point's GOMEMLIMIT: off, or a limit in bytes, with the
// spelling the user gave it ("512MiB"), which names the point. The zero
// value is no setting (Inherited's).
type MemLimit struct {
	bytes int64 // the limit; -1 for off
	text  string
}

// MemLimitOff is GOMEMLIMIT=off.
var MemLimitOff = MemLimit{bytes: -1, text: "off"}

// MemLimitOf is a GOMEMLIMIT of n bytes, spelled in bytes; a negative n
// is off.
func MemLimitOf(n int64) MemLimit {
	if n < 0 {
		return MemLimitOff
	}
	return MemLimit{bytes: n, text: strconv.FormatInt(n, 10)}
}

// Bytes is the limit in bytes; false for off or no setting.
func (m MemLimit) Bytes() (int64, bool) { return m.bytes, m.text != "" && m.bytes >= 0 }

// Off reports whether m is GOMEMLIMIT=off.
func (m MemLimit) Off() bool { return m.text != "" && m.bytes < 0 }

// IsZero reports whether m is no setting.
func (m MemLimit) IsZero() bool { return m.text == "" }

// runtimeValue is m as runtime/metrics reports it (env.Go.GOMEMLIMIT):
// math.MaxInt64 for off.
func (m MemLimit) runtimeValue() int64 {
	if m.bytes < 0 {
		return math.MaxInt64
	}
	return m.bytes
}

// String is the limit as given ("512MiB", "off"), or "" for no setting.
func (m MemLimit) String() string { return m.text }

func (m MemLimit) MarshalText() ([]byte, error) { return []byte(m.text), nil }

func (m *MemLimit) UnmarshalText(b []byte) error {
	if len(b) == 0 {
		*m = MemLimit{}
		return nil
	}
	v, err := parseMemLimitItem(string(b))
	if err != nil {
		return fmt.Errorf("sweep: GOMEMLIMIT %q is not off or a size", quote.Clip(string(b)))
	}
	*m = v
	return nil
}

// errTooLarge is parseMemLimitItem's error for a well-formed size above
// 2⁶³-1 bytes.
var errTooLarge = strconv.ErrRange

// parseMemLimitItem parses one GOMEMLIMIT value: off in any case, or a
// size in the runtime's syntax, its spelling kept.
func parseMemLimitItem(s string) (MemLimit, error) {
	if strings.EqualFold(s, "off") {
		return MemLimitOff, nil
	}
	n, ok, tooLarge := setting.ParseByteCount(s)
	switch {
	case tooLarge:
		return MemLimit{}, errTooLarge
	case !ok:
		return MemLimit{}, strconv.ErrSyntax
	}
	return MemLimit{bytes: n, text: s}, nil
}

// An Outcome is one repeat of one point: its result file and document, or
// why it failed.
type Outcome struct {
	Point  Point         `json:"point"`
	Rep    int           `json:"rep"`  // 1-based
	File   string        `json:"file"` // the child's JSON result, relative to the sweep's directory
	Wall   time.Duration `json:"wall_ns"`
	Failed Failure       `json:"failed,omitzero"` // why the point failed; zero when it did not
	// LogError says why the child's log could not be written (a full
	// disk), for a point that succeeded nonetheless.
	LogError string `json:"log_error,omitempty"`
	// StderrTail holds the last lines the child wrote on stderr, for a
	// failed point.
	StderrTail []string         `json:"stderr_tail,omitempty"`
	Doc        *report.Document `json:"-"` // the child's result, when it did not fail
}
