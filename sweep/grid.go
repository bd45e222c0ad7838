package sweep

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/gcperf/gcperf/internal/quote"
	"github.com/gcperf/gcperf/internal/setting"
	"github.com/gcperf/gcperf/report"
)

// ErrUsage is wrapped by every error about bad input to a sweep found
// before anything runs: a ValueError, a UsageError.
var ErrUsage = errors.New("sweep: bad usage")

// A ValueError is a value that a parser of this package refuses
// (ParseGOGC, ParseMemLimit, ParseGOMAXPROCS, ParseShard, ParseSLO,
// ParseMemCap): the Field it would set (of a Grid, a Session, its Runner)
// and why, the value quoted in Reason: `"fast" is not off or a percentage`.
// It wraps ErrUsage.
type ValueError struct {
	Field  string // "GOGC", "MemLimit", "GOMAXPROCS", "Shard", "SLO", "MemCap"
	Reason string
}

func (e *ValueError) Error() string { return "sweep: " + e.Field + ": " + e.Reason }
func (e *ValueError) Unwrap() error { return ErrUsage }

// badFlag is a ValueError of field, its reason formatted, each string
// argument clipped to about 80 bytes.
func badFlag(field, format string, args ...any) error {
	for i, a := range args {
		if s, ok := a.(string); ok {
			args[i] = quote.Clip(s)
		}
	}
	return &ValueError{Field: field, Reason: fmt.Sprintf(format, args...)}
}

// A Grid is the settings a sweep crosses: every GOGC with every GOMEMLIMIT
// (with every GOMAXPROCS when that is an axis).
type Grid struct {
	GOGC       []GOGC     `json:"gogc"`
	MemLimit   []MemLimit `json:"memlimit"`
	GOMAXPROCS []int      `json:"gomaxprocs,omitempty"`
}

// Points lists the grid's points, GOGC outermost, then GOMEMLIMIT, then
// GOMAXPROCS, each point's Index its position in the list. An empty GOGC
// axis is {100} and an empty MemLimit axis {off}, the runtime's
// defaults: every child is given both explicitly, so that the parent's
// environment never leaks into it. An empty GOMAXPROCS axis is no axis.
func (g Grid) Points() []Point {
	gogc, mem, procs := g.GOGC, g.MemLimit, g.GOMAXPROCS
	if len(gogc) == 0 {
		gogc = []GOGC{GOGCPercent(100)}
	}
	if len(mem) == 0 {
		mem = []MemLimit{MemLimitOff}
	}
	if len(procs) == 0 {
		procs = []int{0}
	}
	pts := make([]Point, 0, len(gogc)*len(mem)*len(procs))
	for _, gc := range gogc {
		for _, m := range mem {
			for _, n := range procs {
				pts = append(pts, Point{Index: len(pts), GOGC: gc, MemLimit: m, GOMAXPROCS: n})
			}
		}
	}
	return pts
}

// items splits a comma-separated flag value into trimmed items, refusing
// an empty value or an empty item.
func items(flag, s string) ([]string, error) {
	if strings.TrimSpace(s) == "" {
		return nil, badFlag(flag, "no value")
	}
	parts := strings.Split(s, ",")
	for i, p := range parts {
		parts[i] = strings.TrimSpace(p)
		if parts[i] == "" {
			return nil, badFlag(flag, "%q has an empty item", s)
		}
	}
	return parts, nil
}

// duplicate is the error for an item whose setting an earlier item already
// gave.
func duplicate(flag, item, earlier string) error {
	if item == earlier {
		return badFlag(flag, "%q is given twice", item)
	}
	return badFlag(flag, "%q is the same as %q", item, earlier)
}

// ParseGOGC parses -gogc: comma-separated values, each "off" (in any case)
// or a percentage, an integer from 0 (collect continuously) to the
// runtime's limit of 2³¹-1. Values come back normalised ("OFF" → "off",
// "0100" → "100"), so that two spellings of one setting are refused as a
// duplicate.
func ParseGOGC(s string) ([]GOGC, error) {
	parts, err := items("GOGC", s)
	if err != nil {
		return nil, err
	}
	out := make([]GOGC, 0, len(parts))
	seen := map[GOGC]string{} // setting → as given
	for _, p := range parts {
		v, err := parseGOGCItem(p)
		if err != nil {
			return nil, badFlag("GOGC", "%q is not off or a percentage", p)
		}
		if first, ok := seen[v]; ok {
			return nil, duplicate("GOGC", p, first)
		}
		seen[v] = p
		out = append(out, v)
	}
	return out, nil
}

// ParseMemLimit parses -memlimit: comma-separated values, each "off" (in
// any case) or a size in GOMEMLIMIT's syntax ("512MiB", "1GiB", "1073741824",
// "4096B"; not "1GB", "1.5GiB" or "1 GiB"). Sizes keep the user's spelling,
// which names the points; "off" is normalised. Two spellings of one size
// ("1GiB", "1024MiB") are refused as a duplicate.
func ParseMemLimit(s string) ([]MemLimit, error) {
	parts, err := items("MemLimit", s)
	if err != nil {
		return nil, err
	}
	out := make([]MemLimit, 0, len(parts))
	seen := map[int64]string{} // bytes (-1 for off) → as given
	for _, p := range parts {
		v, err := parseMemLimitItem(p)
		switch {
		case errors.Is(err, errTooLarge):
			return nil, badFlag("MemLimit", "%q is too large: the limit is 8EiB", p)
		case err != nil:
			return nil, badFlag("MemLimit", "%q is not off or a size such as 512MiB", p)
		}
		if first, ok := seen[v.bytes]; ok {
			return nil, duplicate("MemLimit", p, first)
		}
		seen[v.bytes] = p
		out = append(out, v)
	}
	return out, nil
}

// MaxGOMAXPROCS bounds -gomaxprocs. The runtime takes any positive int32,
// but its cost grows with the number of Ps faster than linearly: measured on
// 2 cores, a child running 100 noops takes 0.1s at 1024, 3.9s and 466MB at
// 16384, and does not finish at 100000.
const MaxGOMAXPROCS = 1024

// ParseGOMAXPROCS parses -gomaxprocs: comma-separated positive integers,
// at most MaxGOMAXPROCS.
func ParseGOMAXPROCS(s string) ([]int, error) {
	parts, err := items("GOMAXPROCS", s)
	if err != nil {
		return nil, err
	}
	out := make([]int, 0, len(parts))
	seen := map[int64]string{}
	for _, p := range parts {
		n, err := strconv.ParseInt(p, 10, 32)
		if !setting.Digits(p) || err != nil && !errors.Is(err, strconv.ErrRange) || n < 1 {
			return nil, badFlag("GOMAXPROCS", "%q is not a positive integer", quote.Clip(p))
		}
		if err != nil || n > MaxGOMAXPROCS {
			return nil, badFlag("GOMAXPROCS", "%s is more than %d, the most a sweep runs (the runtime's cost grows faster than the Ps)", quote.Clip(p), MaxGOMAXPROCS)
		}
		if first, ok := seen[n]; ok {
			return nil, duplicate("GOMAXPROCS", p, first)
		}
		seen[n] = p
		out = append(out, int(n))
	}
	return out, nil
}

// ParseShard parses -shard "i/n": this process runs the points whose Index
// is i modulo n, 0 <= i < n.
func ParseShard(s string) (i, n int, err error) {
	bad := badFlag("Shard", "%q is not i/n with 0 <= i < n, such as 0/2", s)
	a, b, ok := strings.Cut(strings.TrimSpace(s), "/")
	if !ok || !setting.Digits(a) || !setting.Digits(b) {
		return 0, 0, bad
	}
	i, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if err1 != nil || err2 != nil || n < 1 || i >= n {
		return 0, 0, bad
	}
	return i, n, nil
}

// InShard reports whether shard i of n runs the point.
func (p Point) InShard(i, n int) bool { return p.Index%n == i }

// Inherited is the point of a benchmark repeated without a grid, as
// gcperf -count N runs it: its children are given no setting, inheriting
// GOGC, GOMEMLIMIT and GOMAXPROCS from the Runner's Env, and its repeats
// are the processes process-1, process-2...
var Inherited = Point{}

// inherits reports whether p is Inherited.
func (p Point) inherits() bool { return p.GOGC.IsZero() && p.MemLimit.IsZero() && p.GOMAXPROCS == 0 }

// Name names the point, in file names and listings:
// "gogc=100,memlimit=off", with ",gomaxprocs=2" when GOMAXPROCS is an axis;
// "process" for Inherited.
func (p Point) Name() string {
	if p.inherits() {
		return "process"
	}
	s := "gogc=" + p.GOGC.String() + ",memlimit=" + p.MemLimit.String()
	if p.GOMAXPROCS > 0 {
		s += ",gomaxprocs=" + strconv.Itoa(p.GOMAXPROCS)
	}
	return s
}

// FileName is the name of a repeat's result file: Name()+",rep=N.json";
// "process-N.json" for Inherited.
func (p Point) FileName(rep int) string {
	if p.inherits() {
		return "process-" + strconv.Itoa(rep) + ".json"
	}
	return p.Name() + ",rep=" + strconv.Itoa(rep) + ".json"
}

// Env is the point's settings as environment variables for the child:
// GOGC and GOMEMLIMIT always, GOMAXPROCS when it is an axis; none for
// Inherited.
func (p Point) Env() []string {
	if p.inherits() {
		return nil
	}
	e := []string{"GOGC=" + p.GOGC.String(), "GOMEMLIMIT=" + p.MemLimit.String()}
	if p.GOMAXPROCS > 0 {
		e = append(e, "GOMAXPROCS="+strconv.Itoa(p.GOMAXPROCS))
	}
	return e
}

// Settings is the point as a person reads it: "GOGC=100 GOMEMLIMIT=off",
// with " GOMAXPROCS=2" when GOMAXPROCS is an axis.
func (p Point) Settings() string { return strings.Join(p.Env(), " ") }

// CheckApplied compares the runtime settings the child reports (read back
// from runtime/metrics) with what the point asked for, and says every
// difference: "asked GOGC=50 but the child ran with GOGC=100". Inherited
// asks for nothing.
func CheckApplied(p Point, d *report.Document) error {
	if d == nil {
		return errors.New("no result to check the settings against")
	}
	if p.inherits() {
		return nil
	}
	x := d.Exec
	if x == nil {
		x = d.Server
	}
	if x != nil {
		// A command's or a server's runtime is not read back: what it ran
		// with is its environment, which gcperf set, and the GOGC its heap
		// goals imply.
		var diffs []string
		if x.Settings.GOGC != p.GOGC.String() {
			diffs = append(diffs, fmt.Sprintf("asked GOGC=%s but the command ran with GOGC=%s", p.GOGC, quote.Clip(x.Settings.GOGC)))
		}
		if x.Settings.GOMEMLIMIT != p.MemLimit.String() {
			diffs = append(diffs, fmt.Sprintf("asked GOMEMLIMIT=%s but the command ran with GOMEMLIMIT=%s", p.MemLimit, quote.Clip(x.Settings.GOMEMLIMIT)))
		}
		if why := x.GOGCNotApplied(); why != "" {
			diffs = append(diffs, why)
		}
		if len(diffs) > 0 {
			return errors.New(strings.Join(diffs, "; "))
		}
		return nil
	}
	g := d.Env.Go
	var diffs []string
	if g.GOGC != p.GOGC.runtimeValue() {
		diffs = append(diffs, fmt.Sprintf("asked GOGC=%s but the child ran with GOGC=%s", p.GOGC, g.GOGCString()))
	}
	if g.GOMEMLIMIT != p.MemLimit.runtimeValue() {
		got := g.GOMEMLIMITString() // "off" or "1GiB"; exact bytes when no unit divides it
		if strings.Contains(got, ".") {
			got = strconv.FormatInt(g.GOMEMLIMIT, 10)
		}
		diffs = append(diffs, fmt.Sprintf("asked GOMEMLIMIT=%s but the child ran with GOMEMLIMIT=%s", p.MemLimit, got))
	}
	if p.GOMAXPROCS > 0 && g.GOMAXPROCS != p.GOMAXPROCS {
		diffs = append(diffs, fmt.Sprintf("asked GOMAXPROCS=%d but the child ran with GOMAXPROCS=%d", p.GOMAXPROCS, g.GOMAXPROCS))
	}
	if len(diffs) > 0 {
		return errors.New(strings.Join(diffs, "; "))
	}
	return nil
}
