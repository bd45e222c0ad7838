package sweep

import (
	"cmp"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/gcperf/gcperf/internal/setting"
	"github.com/gcperf/gcperf/target/benchout"
)

// An SLO is the service level a setting must meet on every repeat: upper
// bounds on the mix's runtime percentiles and maximum, a lower bound on the
// GCPerfP99 throughput (in the result's unit per second). A zero field is
// no bound.
//
// As text (MarshalText, in sweep.json's advice) it is written as String
// writes it, "p99<=20ms, throughput>=1000/s"; UnmarshalText reads that and
// -slo's spelling, "p99=20ms,throughput=1000".
//
// A sweep over a user's command (gcperf sweep -- CMD) has no latency
// distribution; its bounds are on the command's own figures: Wall and CPU
// (user and system) time and the collector's longest stop-the-world pause,
// PauseMax (from its gctrace), and on the Go benchmark results it printed,
// by unit (Metrics: "sec/op=2ms", "B/op=4096").
type SLO struct {
	P99        time.Duration
	P999       time.Duration
	Max        time.Duration
	Throughput float64

	Wall, CPU, PauseMax time.Duration
	Metrics             []MetricBound
}

// A MetricBound bounds a benchmark metric of a command's output, in the
// unit benchstat shows it in (benchunit.Tidy: ns/op is read as sec/op): at
// most Limit, or at least Limit for a rate (a unit ending in "/s", such as
// MB/s). Every benchmark that reports the unit must meet it.
type MetricBound struct {
	Unit    string
	Limit   float64
	AtLeast bool
	// Key is the unit as -slo spelled it when that is not Unit and the
	// limit is a duration ("p99-ns" for p99-sec), so that String echoes
	// the user's words; "" else.
	Key string
}

// MarshalText writes the SLO as String does.
func (s SLO) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText reads an SLO written by MarshalText, or as -slo takes it
// (ParseSLO).
func (s *SLO) UnmarshalText(b []byte) error {
	text := strings.NewReplacer("<=", "=", ">=", "=").Replace(string(b))
	var items []string
	for item := range strings.SplitSeq(text, ",") {
		item = strings.TrimSpace(item)
		if k, v, ok := strings.Cut(item, "="); ok && strings.TrimSpace(k) == "throughput" {
			item = k + "=" + strings.TrimSuffix(strings.TrimSpace(v), "/s")
		}
		items = append(items, item)
	}
	slo, err := ParseSLO(strings.Join(items, ","))
	if err != nil {
		return err
	}
	*s = slo
	return nil
}

// ParseSLO parses -slo: comma-separated key=value bounds, keys p99, p999
// and max with a positive duration ("p99=20ms", "p999=50ms,max=100ms") and
// throughput with a positive number ("throughput=1000"). An empty value is
// the zero SLO, no bound.
func ParseSLO(s string) (SLO, error) {
	var slo SLO
	if strings.TrimSpace(s) == "" {
		return slo, nil
	}
	seen := map[string]bool{}
	for item := range strings.SplitSeq(s, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			return SLO{}, badFlag("SLO", "%q has an empty item", s)
		}
		key, value, ok := strings.Cut(item, "=")
		key, value = strings.TrimSpace(key), strings.TrimSpace(value)
		switch lower := strings.ToLower(key); {
		case slices.Contains([]string{"p99", "p999", "max", "throughput", "wall", "cpu", "pause-max"}, lower):
			key = lower // as -slo spells it, any case
		case !isUnit(key):
			key = lower
		} // a benchmark unit keeps its case: B/op
		if !ok {
			return SLO{}, badFlag("SLO", "%q is not key=value, such as p99=20ms", item)
		}
		if seen[key] {
			return SLO{}, badFlag("SLO", "%s is given twice", key)
		}
		seen[key] = true
		switch key {
		case "p99", "p999", "max":
			d, err := time.ParseDuration(value)
			if err != nil || d <= 0 {
				return SLO{}, badFlag("SLO", "%s %q is not a positive duration such as 20ms", key, value)
			}
			switch key {
			case "p99":
				slo.P99 = d
			case "p999":
				slo.P999 = d
			default:
				slo.Max = d
			}
		case "throughput":
			v, err := strconv.ParseFloat(value, 64)
			if err != nil || !(v > 0) || math.IsInf(v, 0) {
				return SLO{}, badFlag("SLO", "throughput %q is not a positive number", value)
			}
			slo.Throughput = v
		case "wall", "cpu", "pause-max":
			d, err := time.ParseDuration(value)
			if err != nil || d <= 0 {
				return SLO{}, badFlag("SLO", "%s %q is not a positive duration such as 30s", key, value)
			}
			switch key {
			case "wall":
				slo.Wall = d
			case "cpu":
				slo.CPU = d
			default:
				slo.PauseMax = d
			}
		default:
			if !isUnit(key) {
				return SLO{}, badFlag("SLO", "unknown key %q in %q (want p99, p999, max or throughput; for a command wall, cpu, pause-max or a benchmark unit such as sec/op)", key, item)
			}
			m, err := parseMetricBound(key, value)
			if err != nil {
				return SLO{}, err
			}
			if slices.ContainsFunc(slo.Metrics, func(x MetricBound) bool { return x.Unit == m.Unit }) {
				return SLO{}, badFlag("SLO", "%s is given twice (as %s)", key, m.Unit)
			}
			slo.Metrics = append(slo.Metrics, m)
		}
	}
	return slo, nil
}

// isUnit says whether an SLO key that is none of the known keys is a
// benchmark unit: one with a "/" (sec/op, B/op, MB/s) or a "-" (p99-ns,
// testing.B.ReportMetric's custom units) between a letter or digit at
// each end, printable, without space or a separator of -slo's own, at most
// 64 bytes.
func isUnit(key string) bool {
	if len(key) < 3 || len(key) > 64 || !strings.ContainsAny(key, "/-") || strings.ContainsAny(key, "=,<>") ||
		strings.IndexFunc(key, func(r rune) bool { return !unicode.IsPrint(r) || unicode.IsSpace(r) }) >= 0 {
		return false
	}
	alnum := func(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' }
	return alnum(key[0]) && alnum(key[len(key)-1])
}

// isSeconds says whether a tidied benchmark unit counts seconds: sec/op,
// p99-sec, p99-sec/op.
func isSeconds(unit string) bool {
	return strings.HasPrefix(unit, "sec/") || unit == "sec" || strings.Contains(unit, "-sec")
}

// parseMetricBound reads a bound on a benchmark unit: a duration for a unit
// of seconds ("sec/op=2ms", "ns/op=2ms"), a size for one of bytes
// ("B/op=64KiB"), or a number in the unit as given ("ns/op=2000000",
// "allocs/op=10").
func parseMetricBound(unit, value string) (MetricBound, error) {
	factor, tidied := benchout.TidyUnit(unit) // as the command's results are read
	m := MetricBound{Unit: tidied, AtLeast: strings.HasSuffix(tidied, "/s")}
	if unit != tidied && isSeconds(tidied) { // a duration reads the same in either
		m.Key = unit
	}
	v, err := strconv.ParseFloat(value, 64)
	switch {
	case err == nil:
		v *= factor
	case isSeconds(tidied):
		d, derr := time.ParseDuration(value)
		if derr != nil {
			return m, badFlag("SLO", "%s %q is not a positive duration such as 2ms, or a number of %s", unit, value, unit)
		}
		v = d.Seconds()
	case strings.HasPrefix(tidied, "B/"):
		n, ok := setting.MemLimitBytes(value)
		if !ok {
			return m, badFlag("SLO", "%s %q is not a positive size such as 64KiB, or a number of bytes", unit, value)
		}
		v = float64(n)
	default:
		return m, badFlag("SLO", "%s %q is not a positive number", unit, value)
	}
	if !(v > 0) || math.IsInf(v, 0) {
		return m, badFlag("SLO", "%s %q is not a positive number", unit, value)
	}
	m.Limit = v
	return m, nil
}

// IsZero reports whether the SLO sets no bound.
func (s SLO) IsZero() bool { return len(s.bounds()) == 0 }

// ForCommand says which of the SLO's bounds a sweep over a user's command
// cannot judge (a command has no latency distribution), nil when none.
func (s SLO) ForCommand() error {
	for _, b := range s.bounds() {
		if !b.command {
			return badFlag("SLO", "%s: a command's run has no latency distribution; bound wall, cpu, pause-max or a benchmark unit it prints, such as sec/op", b.key)
		}
	}
	return nil
}

// ForBenchmark says which of the SLO's bounds a sweep over gcperf's own
// benchmark cannot judge (they are a command's), nil when none.
func (s SLO) ForBenchmark() error {
	for _, b := range s.bounds() {
		if b.command {
			return badFlag("SLO", "%s bounds a command's run (gcperf sweep [flags] -- CMD); gcperf's benchmark takes p99, p999, max and throughput", b.key)
		}
	}
	return nil
}

// String lists the bounds: "p99<=20ms, max<=100ms, throughput>=1000/s";
// "" for the zero SLO.
func (s SLO) String() string {
	var b []string
	for _, x := range s.bounds() {
		b = append(b, x.String())
	}
	return strings.Join(b, ", ")
}

// A bound is one of an SLO's limits.
type bound struct {
	key   string        // p99, p999, max, throughput; wall, cpu, pause-max or a unit
	label string        // as the table heads it: P99, P99.9, max, throughput, wall, CPU, pause max, the unit
	limit time.Duration // for the latency keys and a command's times
	min   float64       // for throughput
	// metric is set for a bound on a benchmark unit; command for every
	// bound of a command's run.
	metric  *MetricBound
	command bool
}

func (b bound) String() string {
	switch {
	case b.key == "throughput":
		return "throughput>=" + strconv.FormatFloat(b.min, 'f', -1, 64) + "/s"
	case b.metric != nil:
		return cmp.Or(b.metric.Key, b.key) + b.metric.relation() + b.metric.value()
	}
	return b.key + "<=" + b.limit.String()
}

func (m *MetricBound) relation() string {
	if m.AtLeast {
		return ">="
	}
	return "<="
}

// value writes the limit as ParseSLO reads it back: a duration for a unit
// of seconds, else the number.
func (m *MetricBound) value() string {
	if isSeconds(m.Unit) {
		if d := time.Duration(math.Round(m.Limit * 1e9)); float64(d)/1e9 == m.Limit {
			return d.String()
		}
	}
	return strconv.FormatFloat(m.Limit, 'g', -1, 64)
}

func (s SLO) bounds() []bound {
	var out []bound
	if s.P99 > 0 {
		out = append(out, bound{key: "p99", label: "P99", limit: s.P99})
	}
	if s.P999 > 0 {
		out = append(out, bound{key: "p999", label: "P99.9", limit: s.P999})
	}
	if s.Max > 0 {
		out = append(out, bound{key: "max", label: "max", limit: s.Max})
	}
	if s.Throughput > 0 {
		out = append(out, bound{key: "throughput", label: "throughput", min: s.Throughput})
	}
	if s.Wall > 0 {
		out = append(out, bound{key: "wall", label: "wall", limit: s.Wall, command: true})
	}
	if s.CPU > 0 {
		out = append(out, bound{key: "cpu", label: "CPU", limit: s.CPU, command: true})
	}
	if s.PauseMax > 0 {
		out = append(out, bound{key: "pause-max", label: "pause max", limit: s.PauseMax, command: true})
	}
	for i := range s.Metrics {
		m := &s.Metrics[i]
		out = append(out, bound{key: m.Unit, label: m.Unit, metric: m, command: true})
	}
	return out
}

// P99Bound is the P99 bound of the SLO the advice was given against, 0
// without advice or when that SLO bounds no P99.
func (a *Advice) P99Bound() time.Duration {
	if a == nil {
		return 0
	}
	return a.SLO.P99
}
