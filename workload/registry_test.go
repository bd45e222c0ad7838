package workload_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gcperf/gcperf/workload"
)

// uniqueName returns a registry name no other call returns, so that the
// tests can run with -count > 1 against the global registry.
var specSeq atomic.Int64

func uniqueName(prefix string) string { return fmt.Sprintf("%s-test-%d", prefix, specSeq.Add(1)) }

func TestNewBuiltins(t *testing.T) {
	tests := []struct {
		name     string
		args     map[string]string
		wantName string
		describe string // Describer output, "" when it is none
	}{
		{"noop", nil, "noop", ""},
		{"spin", nil, "spin", "d=100µs"},
		{"spin", map[string]string{"d": "2ms"}, "spin", "d=2ms"},
		{"spin", map[string]string{"d": "0s"}, "spin", "d=0s"},
		{"sleep", nil, "sleep", "d=1ms"},
		{"sleep", map[string]string{"d": "1.5ms"}, "sleep", "d=1.5ms"},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.name, tt.args), func(t *testing.T) {
			op, err := workload.New(tt.name, tt.args)
			if err != nil {
				t.Fatalf("New(%q, %v): %v", tt.name, tt.args, err)
			}
			if op.Name() != tt.wantName {
				t.Errorf("Name() = %q, want %q", op.Name(), tt.wantName)
			}
			got := ""
			if d, ok := op.(workload.Describer); ok {
				got = d.Describe()
			}
			if got != tt.describe {
				t.Errorf("Describe() = %q, want %q", got, tt.describe)
			}
		})
	}
}

func TestNewErrors(t *testing.T) {
	tests := []struct {
		name     string
		args     map[string]string
		want     error
		contains []string
	}{
		{"nope", nil, workload.ErrUnknownOperation, []string{`"nope"`}},
		{"noop", map[string]string{"d": "1ms"}, workload.ErrUnknownParam, []string{`"d"`, "noop", "no parameters"}},
		{"spin", map[string]string{"size": "3"}, workload.ErrUnknownParam, []string{`"size"`, "spin", "takes d"}},
		{"spin", map[string]string{"d": "abc"}, workload.ErrBadParam, []string{"spin", `d="abc"`, "not a duration"}},
		{"spin", map[string]string{"d": "-1s"}, workload.ErrBadParam, []string{`d="-1s"`, "at least 0s"}},
		{"sleep", map[string]string{"d": ""}, workload.ErrBadParam, []string{`d=""`}},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.name, tt.args), func(t *testing.T) {
			op, err := workload.New(tt.name, tt.args)
			if !errors.Is(err, tt.want) || op != nil {
				t.Fatalf("New(%q, %v) = %v, %v; want nil, %v", tt.name, tt.args, op, err, tt.want)
			}
			for _, s := range tt.contains {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("error %q does not contain %q", err, s)
				}
			}
		})
	}
}

// kinds is a spec with a parameter of every kind.
func kinds(name string) workload.Spec {
	return workload.Spec{
		Name: name,
		Params: []workload.Param{
			{Name: "n", Kind: workload.Int, Default: "3", Min: "1"},
			{Name: "f", Kind: workload.Float, Default: "1.5", Min: "0.5"},
			{Name: "d", Kind: workload.Duration, Default: "2ms", Min: "1ms"},
			{Name: "b", Kind: workload.Bool, Default: "true"},
			{Name: "s", Kind: workload.String, Default: "x y"},
		},
		New: func(p workload.Params) (workload.Operation, error) {
			if p.Int("n") == 13 {
				return nil, errors.New("unlucky")
			}
			return named(p.Describe()), nil
		},
	}
}

func TestParse(t *testing.T) {
	s := kinds("kinds")
	tests := []struct {
		args     map[string]string
		describe string
		bad      string // the parameter named in the error, "" when valid
	}{
		{nil, "n=3 f=1.5 d=2ms b=true s=x y", ""},
		{map[string]string{"n": "7", "b": "false", "s": ""}, "n=7 f=1.5 d=2ms b=false s=", ""},
		{map[string]string{"n": "1", "f": "0.5", "d": "1ms"}, "n=1 f=0.5 d=1ms b=true s=x y", ""},
		{map[string]string{"n": "0"}, "", `n="0"`},
		{map[string]string{"n": "2.5"}, "", `n="2.5"`},
		{map[string]string{"f": "0.25"}, "", `f="0.25"`},
		{map[string]string{"f": "lots"}, "", `f="lots"`},
		{map[string]string{"d": "999us"}, "", `d="999us"`},
		{map[string]string{"b": "maybe"}, "", `b="maybe"`},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.args), func(t *testing.T) {
			p, err := s.Parse(tt.args)
			if tt.bad != "" {
				if !errors.Is(err, workload.ErrBadParam) || !strings.Contains(err.Error(), tt.bad) {
					t.Errorf("Parse(%v) = %v, want ErrBadParam naming %s", tt.args, err, tt.bad)
				}
				return
			}
			if err != nil {
				t.Fatalf("Parse(%v): %v", tt.args, err)
			}
			if got := p.Describe(); got != tt.describe {
				t.Errorf("Describe() = %q, want %q", got, tt.describe)
			}
		})
	}
	p, err := s.Parse(map[string]string{"n": "42", "f": "2.25", "d": "1.5s", "b": "false", "s": "hello"})
	if err != nil {
		t.Fatal(err)
	}
	if p.Int("n") != 42 || p.Float("f") != 2.25 || p.Duration("d") != 1500*time.Millisecond || p.Bool("b") || p.String("s") != "hello" {
		t.Errorf("values %d %v %v %v %q", p.Int("n"), p.Float("f"), p.Duration("d"), p.Bool("b"), p.String("s"))
	}
	// Asking for the wrong kind or an unknown name gives the zero value.
	if p.Int("f") != 0 || p.String("n") != "" || p.Duration("missing") != 0 {
		t.Errorf("mismatched kinds do not give zero values")
	}
	if k, ok := s.Param("d"); !ok || k.Kind != workload.Duration || k.Kind.String() != "duration" {
		t.Errorf("Param(d) = %+v, %v", k, ok)
	}
	if _, ok := s.Param("zz"); ok {
		t.Errorf("Param(zz) found")
	}
}

func TestKindString(t *testing.T) {
	want := map[workload.Kind]string{workload.Int: "int", workload.Float: "float", workload.Duration: "duration", workload.Bool: "bool", workload.String: "string"}
	for k, s := range want {
		if k.String() != s {
			t.Errorf("%d.String() = %q, want %q", int(k), k.String(), s)
		}
	}
}

// TestRegister registers in a registry of its own, a copy of the default
// (for the built-in noop), so that no other test sees what it registers.
func TestRegister(t *testing.T) {
	name := uniqueName("kinds")
	reg := workload.DefaultRegistry().Clone()
	if err := reg.Register(kinds(name)); err != nil {
		t.Fatalf("Register: %v", err)
	}
	if err := reg.Register(kinds(name)); err == nil || !strings.Contains(err.Error(), "already registered") {
		t.Errorf("registering %q twice: %v, want an error", name, err)
	}
	if err := reg.Register(kinds("noop")); err == nil {
		t.Errorf("registering over the built-in noop succeeded")
	}
	if _, ok := reg.Lookup(name); !ok {
		t.Errorf("Lookup(%q) found nothing", name)
	}
	op, err := reg.New(name, map[string]string{"s": "z"})
	if err != nil || op.Name() != "n=3 f=1.5 d=2ms b=true s=z" {
		t.Errorf("New(%q) = %v, %v", name, op, err)
	}
	if _, err := reg.New(name, map[string]string{"n": "13"}); err == nil || !strings.Contains(err.Error(), "unlucky") || !strings.Contains(err.Error(), name) {
		t.Errorf("New failing in Spec.New: %v, want the error with the operation's name", err)
	}

	bad := []struct {
		why  string
		spec workload.Spec
	}{
		{"no name", workload.Spec{New: kinds("").New}},
		{"no New", workload.Spec{Name: uniqueName("nonew")}},
		{"bad default", workload.Spec{Name: uniqueName("baddefault"), New: kinds("").New,
			Params: []workload.Param{{Name: "n", Kind: workload.Int, Default: "three"}}}},
		{"default below min", workload.Spec{Name: uniqueName("belowmin"), New: kinds("").New,
			Params: []workload.Param{{Name: "d", Kind: workload.Duration, Default: "1ms", Min: "2ms"}}}},
	}
	for _, b := range bad {
		if err := reg.Register(b.spec); err == nil {
			t.Errorf("Register with %s succeeded", b.why)
		} else if _, ok := reg.Lookup(b.spec.Name); ok && b.spec.Name != "" {
			t.Errorf("Register with %s failed but registered %q", b.why, b.spec.Name)
		}
	}

	func() {
		defer func() {
			if recover() == nil {
				t.Errorf("MustRegister of a duplicate did not panic")
			}
		}()
		reg.MustRegister(kinds(name))
	}()

	if _, ok := workload.Lookup(name); ok {
		t.Errorf("%q, registered in a clone, is in the default registry", name)
	}
	if _, ok := workload.NewRegistry().Lookup("noop"); ok {
		t.Errorf("a new registry holds noop")
	}
}

func TestSpecs(t *testing.T) {
	specs := workload.Specs()
	names := make([]string, len(specs))
	for i, s := range specs {
		names[i] = s.Name
	}
	if !slices.IsSorted(names) {
		t.Errorf("Specs not sorted by name: %v", names)
	}
	for _, b := range []string{"noop", "sleep", "spin"} {
		if !slices.Contains(names, b) {
			t.Errorf("built-in %q missing from %v", b, names)
		}
	}
	for _, s := range specs {
		if s.Name == "spin" {
			p, ok := s.Param("d")
			if !ok || p.Kind != workload.Duration || p.Default != "100us" || p.Min != "0s" {
				t.Errorf("spin's d = %+v", p)
			}
		}
	}
}

// The built-in operations do what they say, and spin and sleep honour their
// context.
func TestBuiltinsRun(t *testing.T) {
	spin, _ := workload.New("spin", map[string]string{"d": "200us"})
	sleep, _ := workload.New("sleep", map[string]string{"d": "1ms"})
	long, _ := workload.New("sleep", map[string]string{"d": "10s"})
	longSpin, _ := workload.New("spin", map[string]string{"d": "10s"})
	cfg := testConfig(3)
	cfg.Random = false
	res := mustRun(t, cfg, workload.Mix{spin, sleep})
	for _, x := range res.Executions {
		if min := []time.Duration{200 * time.Microsecond, time.Millisecond}[x.Op]; x.Runtime < min || x.Failed() {
			t.Errorf("%s ran %v (failed %v), want at least %v", res.Operations[x.Op].Name, x.Runtime, x.Failed(), min)
		}
	}
	// An operation that honours its context returns its error when the
	// timeout closes it; one that does not returns nil when its 10s are up,
	// and the engine says it ran past the timeout without noticing.
	cfg.Timeout = 2 * time.Millisecond
	res = mustRun(t, cfg, workload.Mix{long, longSpin})
	for _, op := range res.Operations {
		if n := op.Stats.ErrorsByCategory["timeout"]; n != 3 {
			t.Errorf("%s of 10s with a 2ms timeout: %d timeouts in 3 runs (%v)", op.Name, n, op.Stats.ErrorsByCategory)
		}
		if msg := op.FirstError["timeout"]; msg != context.DeadlineExceeded.Error() {
			t.Errorf("%s of 10s with a 2ms timeout failed with %q, want %q: it did not honour its context", op.Name, msg, context.DeadlineExceeded)
		}
	}
}
