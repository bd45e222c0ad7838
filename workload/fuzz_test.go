package workload

// Fuzz targets for the parsers of untrusted input: -gcstats, and the
// parameters of an operation (Spec.Parse, Param.parse), which the command
// line and mix files give as text. go test runs the seeds;
// go test -run '^$' -fuzz '^FuzzSpecParse$' ./workload explores.

import (
	"errors"
	"math"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gcperf/gcperf/internal/fuzzcheck"
)

func FuzzParseGCStats(f *testing.F) {
	for _, s := range []string{"run", "total", "off", "", "RUN", "Off", " run", "total\n", "on", "GCStats(3)"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		g, err := ParseGCStats(s)
		if err != nil {
			var ce *ConfigError
			if g != 0 || !errors.As(err, &ce) || ce.Field != "gcstats" || !errors.Is(err, ErrConfig) {
				t.Errorf("ParseGCStats(%q) = %v, %v (%T): want 0 and a ConfigError of gcstats", s, g, err, err)
			}
			fuzzcheck.ErrText(t, err)
			return
		}
		if g > GCStatsOff || g.String() != s {
			t.Errorf("ParseGCStats(%q) = %v", s, g)
		}
		if (Config{Runs: 1, Threads: 1, GCStats: g}).Validate(1) != nil {
			t.Errorf("ParseGCStats(%q) = %v, which Validate refuses", s, g)
		}
	})
}

// fuzzSpec has a parameter of every kind, with and without a minimum.
var fuzzSpec = Spec{
	Name: "fuzz",
	Params: []Param{
		{Name: "n", Kind: Int, Default: "3", Min: "1"},
		{Name: "i", Kind: Int, Default: "-3"},
		{Name: "f", Kind: Float, Default: "1.5", Min: "0.5"},
		{Name: "g", Kind: Float, Default: "0"},
		{Name: "d", Kind: Duration, Default: "2ms", Min: "1ms"},
		{Name: "e", Kind: Duration, Default: "0s"},
		{Name: "b", Kind: Bool, Default: "true"},
		{Name: "s", Kind: String, Default: "x y"},
	},
	New: func(Params) (Operation, error) { return nil, errors.New("not built") },
}

// fuzzArgs reads "key=value key=value ..." into Parse's arguments: an item
// without = is a key with an empty value, the last of a key counts.
func fuzzArgs(s string) map[string]string {
	if s == "" {
		return nil
	}
	args := map[string]string{}
	for item := range strings.SplitSeq(s, " ") {
		k, v, _ := strings.Cut(item, "=")
		args[k] = v
	}
	return args
}

// fuzzFormat writes a parsed value as text that parses back to it.
func fuzzFormat(v any) string {
	switch v := v.(type) {
	case int64:
		return strconv.FormatInt(v, 10)
	case float64:
		return strconv.FormatFloat(v, 'g', -1, 64)
	case time.Duration:
		return v.String()
	case bool:
		return strconv.FormatBool(v)
	case string:
		return v
	}
	return "?"
}

// fuzzSame reports whether two parsed values are the same; NaN is NaN.
func fuzzSame(a, b any) bool {
	x, ok1 := a.(float64)
	y, ok2 := b.(float64)
	if ok1 && ok2 && math.IsNaN(x) && math.IsNaN(y) {
		return true
	}
	return a == b
}

func FuzzSpecParse(f *testing.F) {
	for _, s := range []string{
		"f=NaN", "f=NAN", "f=-Inf", // once accepted past f's minimum (NaN < 0.5 is false)
		"", "n=7 b=false s=", "n=1 f=0.5 d=1ms", "n=0", "n=2.5", "f=0.25", "f=lots", "d=999us", "b=maybe",
		"n=42 f=2.25 d=1.5s b=false s=hello", "size=3", "d=abc", "d=-1s", "d=", "n=9223372036854775807",
		"n=9223372036854775808", "i=-9223372036854775808", "g=NaN", "f=+Inf", "g=-Inf", "f=1e309", "f=0x1p-1",
		"d=2562047h47m16.854775807s", "d=1µs", "e=-2562047h47m16.854775808s", "b=1", "b=T", "n=+5", "n= 5",
		"s=a=b", "=x", "n", "n=1_000", "f=1_000.5", "d=1h1m1s1ms1us1ns",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		args := fuzzArgs(s)
		p, err := fuzzSpec.Parse(args)
		if err != nil {
			if !errors.Is(err, ErrBadParam) && !errors.Is(err, ErrUnknownParam) {
				t.Errorf("Parse(%q): error %q wraps neither ErrBadParam nor ErrUnknownParam", args, err)
			}
			fuzzcheck.ErrText(t, err)
			return
		}
		if len(p.order) != len(fuzzSpec.Params) {
			t.Fatalf("Parse(%q) gave %d parameters, want %d", args, len(p.order), len(fuzzSpec.Params))
		}
		again := map[string]string{}
		for i, d := range fuzzSpec.Params {
			v := p.values[d.Name]
			if p.order[i] != d.Name {
				t.Errorf("Parse(%q): parameter %d is %q, want %q", args, i, p.order[i], d.Name)
			}
			// Each value of its kind, at least its minimum.
			switch d.Kind {
			case Int:
				x, ok := v.(int64)
				if m, _ := strconv.ParseInt(d.Min, 10, 64); !ok || (d.Min != "" && x < m) {
					t.Errorf("Parse(%q): %s = %#v, want an int64 of at least %q", args, d.Name, v, d.Min)
				}
			case Float:
				x, ok := v.(float64)
				if m, _ := strconv.ParseFloat(d.Min, 64); !ok || (d.Min != "" && !(x >= m)) {
					t.Errorf("Parse(%q): %s = %#v, want a float64 of at least %q", args, d.Name, v, d.Min)
				}
			case Duration:
				x, ok := v.(time.Duration)
				if m, _ := time.ParseDuration(d.Min); !ok || (d.Min != "" && x < m) {
					t.Errorf("Parse(%q): %s = %#v, want a duration of at least %q", args, d.Name, v, d.Min)
				}
			case Bool:
				if _, ok := v.(bool); !ok {
					t.Errorf("Parse(%q): %s = %#v, want a bool", args, d.Name, v)
				}
			case String:
				if want, given := args[d.Name]; v != want && (given || v != d.Default) {
					t.Errorf("Parse(%q): %s = %#v, want %q", args, d.Name, v, want)
				}
			}
			again[d.Name] = fuzzFormat(v)
		}
		// The values, written back as text, parse back the same.
		p2, err := fuzzSpec.Parse(again)
		if err != nil {
			t.Fatalf("Parse(%q) succeeded, but not its values written back, %q: %v", args, again, err)
		}
		for _, d := range fuzzSpec.Params {
			if a, b := p.values[d.Name], p2.values[d.Name]; !fuzzSame(a, b) {
				t.Errorf("%s: %#v, written back as %q, parses as %#v", d.Name, a, again[d.Name], b)
			}
		}
		if p.Describe() != p2.Describe() {
			t.Errorf("Describe %q, then %q", p.Describe(), p2.Describe())
		}
		// The built-in operations take the same text.
		for _, name := range []string{"noop", "spin", "sleep"} {
			spec, ok := Lookup(name)
			if !ok {
				t.Fatalf("no built-in %s", name)
			}
			_, err := spec.Parse(args)
			fuzzcheck.ErrText(t, err)
		}
	})
}
