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
type SLO struct {
	P99        time.Duration `json:"p99_ns,omitempty"`
	P999       time.Duration `json:"p999_ns,omitempty"`
	Max        time.Duration `json:"max_ns,omitempty"`
	Throughput float64       `json:"throughput_per_sec,omitempty"`
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
// without advice or when that SLO bounds no P99. A saved summary keeps the
// SLO as text (Advice.SLO, as SLO.String writes it: "p99<=5ms,
// throughput>=1000/s"); P99Bound reads the bound back from it, and from
// ParseSLO's spelling ("p99=5ms") too.
func (a *Advice) P99Bound() time.Duration {
	if a == nil {
		return 0
	}
	for item := range strings.SplitSeq(a.SLO, ",") {
		key, value, ok := strings.Cut(strings.TrimSpace(item), "=")
		if !ok || strings.TrimSuffix(strings.TrimSpace(key), "<") != "p99" {
			continue
		}
		if d, err := time.ParseDuration(strings.TrimSpace(value)); err == nil && d > 0 {
			return d
		}
	}
	return 0
}
