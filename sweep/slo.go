package sweep

import (
	"math"
	"strconv"
	"strings"
	"time"
)

// An SLO is the service level a setting must meet on every repeat: upper
// bounds on the mix's runtime percentiles and maximum, a lower bound on the
// GCPerfP99 throughput (in the result's unit per second). A zero field is
// no bound.
//
// As text (MarshalText, in sweep.json's advice) it is written as String
// writes it, "p99<=20ms, throughput>=1000/s"; UnmarshalText reads that and
// -slo's spelling, "p99=20ms,throughput=1000".
type SLO struct {
	P99        time.Duration
	P999       time.Duration
	Max        time.Duration
	Throughput float64
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
			return SLO{}, badFlag("slo", "%q has an empty item", s)
		}
		key, value, ok := strings.Cut(item, "=")
		key, value = strings.ToLower(strings.TrimSpace(key)), strings.TrimSpace(value)
		if !ok {
			return SLO{}, badFlag("slo", "%q is not key=value, such as p99=20ms", item)
		}
		if seen[key] {
			return SLO{}, badFlag("slo", "%s is given twice", key)
		}
		seen[key] = true
		switch key {
		case "p99", "p999", "max":
			d, err := time.ParseDuration(value)
			if err != nil || d <= 0 {
				return SLO{}, badFlag("slo", "%s %q is not a positive duration such as 20ms", key, value)
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
				return SLO{}, badFlag("slo", "throughput %q is not a positive number", value)
			}
			slo.Throughput = v
		default:
			return SLO{}, badFlag("slo", "unknown key %q in %q (want p99, p999, max or throughput)", key, item)
		}
	}
	return slo, nil
}

// IsZero reports whether the SLO sets no bound.
func (s SLO) IsZero() bool { return s == SLO{} }

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
	key   string        // p99, p999, max, throughput
	label string        // as the table heads it: P99, P99.9, max, throughput
	limit time.Duration // for the latency keys
	min   float64       // for throughput
}

func (b bound) String() string {
	if b.key == "throughput" {
		return "throughput>=" + strconv.FormatFloat(b.min, 'f', -1, 64) + "/s"
	}
	return b.key + "<=" + b.limit.String()
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
