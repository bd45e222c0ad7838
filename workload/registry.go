package workload

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gcperf/gcperf/internal/quote"
)

// Kind is the type of an operation parameter.
type Kind int

const (
	Int      Kind = iota // a decimal integer
	Float                // a decimal number
	Duration             // a Go duration: 100us, 1.5ms
	Bool                 // true or false
	String               // any text
)

func (k Kind) String() string {
	switch k {
	case Int:
		return "int"
	case Float:
		return "float"
	case Duration:
		return "duration"
	case Bool:
		return "bool"
	}
	return "string"
}

// A Param describes one parameter of a registered operation. Min, when
// non-empty, is the smallest accepted value (Int, Float and Duration only).
type Param struct {
	Name    string
	Kind    Kind
	Default string
	Min     string
	Doc     string
	// Repeat lets a String parameter be given more than once (-header
	// 'A: 1' -header 'B: 2'): its values are joined with a newline, in
	// the order given. Any other parameter given twice is an error.
	Repeat bool
}

// A Spec describes a named operation: its parameters and how to build it.
type Spec struct {
	Name   string
	Doc    string
	Params []Param
	New    func(Params) (Operation, error)
}

// Params holds parsed parameter values, each of its declared Kind.
type Params struct {
	values map[string]any
	order  []string
}

// Int returns the value of an Int parameter.
func (p Params) Int(name string) int64 { v, _ := p.values[name].(int64); return v }

// Float returns the value of a Float parameter.
func (p Params) Float(name string) float64 { v, _ := p.values[name].(float64); return v }

// Duration returns the value of a Duration parameter.
func (p Params) Duration(name string) time.Duration { v, _ := p.values[name].(time.Duration); return v }

// Bool returns the value of a Bool parameter.
func (p Params) Bool(name string) bool { v, _ := p.values[name].(bool); return v }

// String returns the value of a String parameter.
func (p Params) String(name string) string { v, _ := p.values[name].(string); return v }

// Describe lists every parameter as key=value, in declaration order.
func (p Params) Describe() string {
	var b strings.Builder
	for i, name := range p.order {
		if i > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprintf(&b, "%s=%v", name, p.values[name])
	}
	return b.String()
}

// Errors from the registry, for errors.Is.
var (
	ErrUnknownOperation = errors.New("unknown operation")
	ErrUnknownParam     = errors.New("unknown parameter")
	ErrBadParam         = errors.New("bad parameter value")
)

// A Registry names operations, so that they can be built from text (gcperf
// run's arguments, mix files). Its methods are safe for concurrent use. The
// package functions Register, MustRegister, Lookup, Specs and New use the
// default registry ([DefaultRegistry]), which alloc and load fill as they
// are initialised; a test or a program that wants operations of its own
// without adding them to every user's list uses a registry of its own,
// NewRegistry or a Clone of the default.
type Registry struct {
	mu    sync.RWMutex
	specs map[string]Spec
}

// NewRegistry returns an empty registry.
func NewRegistry() *Registry { return &Registry{specs: map[string]Spec{}} }

var defaultRegistry = NewRegistry()

// DefaultRegistry returns the registry the package functions use.
func DefaultRegistry() *Registry { return defaultRegistry }

// Clone returns a registry holding the operations r holds now; what is
// registered in either afterwards is not in the other.
func (r *Registry) Clone() *Registry {
	r.mu.RLock()
	defer r.mu.RUnlock()
	c := NewRegistry()
	for name, s := range r.specs {
		c.specs[name] = s
	}
	return c
}

// Register adds a named operation to the default registry (see
// Registry.Register).
func Register(s Spec) error { return defaultRegistry.Register(s) }

// MustRegister is Register for package initialisation: it panics on error.
func MustRegister(s Spec) { defaultRegistry.MustRegister(s) }

// Lookup returns the operation called name in the default registry.
func Lookup(name string) (Spec, bool) { return defaultRegistry.Lookup(name) }

// Specs returns every operation of the default registry, sorted by name.
func Specs() []Spec { return defaultRegistry.Specs() }

// New builds the operation called name of the default registry (see
// Registry.New).
func New(name string, args map[string]string) (Operation, error) {
	return defaultRegistry.New(name, args)
}

// Register adds a named operation to r. It fails when the name is taken or
// a parameter's default does not parse.
func (r *Registry) Register(s Spec) error {
	if s.Name == "" || s.New == nil {
		return fmt.Errorf("workload: register: a spec needs a name and a New function")
	}
	for _, p := range s.Params {
		if p.Min == "" || p.Kind == Bool || p.Kind == String {
			continue
		}
		if _, err := (Param{Name: p.Name, Kind: p.Kind}).parse(p.Min); err != nil {
			return fmt.Errorf("workload: register %s: minimum of %w", s.Name, err)
		}
	}
	if _, err := s.Parse(nil); err != nil {
		return fmt.Errorf("workload: register %s: default %w", s.Name, err)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, dup := r.specs[s.Name]; dup {
		return fmt.Errorf("workload: register: operation %q is already registered", s.Name)
	}
	r.specs[s.Name] = s
	return nil
}

// MustRegister is Register for package initialisation: it panics on error.
func (r *Registry) MustRegister(s Spec) {
	if err := r.Register(s); err != nil {
		panic(err)
	}
}

// Lookup returns the operation of r called name.
func (r *Registry) Lookup(name string) (Spec, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	s, ok := r.specs[name]
	return s, ok
}

// Specs returns every operation of r, sorted by name.
func (r *Registry) Specs() []Spec {
	r.mu.RLock()
	defer r.mu.RUnlock()
	out := make([]Spec, 0, len(r.specs))
	for _, s := range r.specs {
		out = append(out, s)
	}
	slices.SortFunc(out, func(a, b Spec) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// New builds the operation of r called name with the given parameter
// values (as text, keyed by parameter name); missing ones take their default.
func (r *Registry) New(name string, args map[string]string) (Operation, error) {
	s, ok := r.Lookup(name)
	if !ok {
		return nil, fmt.Errorf("%w %q (gcperf list shows them)", ErrUnknownOperation, name)
	}
	p, err := s.Parse(args)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	op, err := s.New(p)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return op, nil
}

// Param returns the parameter called name.
func (s Spec) Param(name string) (Param, bool) {
	for _, p := range s.Params {
		if p.Name == name {
			return p, true
		}
	}
	return Param{}, false
}

// Parse checks and converts args against the spec's parameters, filling in
// defaults. Errors name the parameter and the value.
func (s Spec) Parse(args map[string]string) (Params, error) {
	for k := range args {
		if _, ok := s.Param(k); !ok {
			return Params{}, fmt.Errorf("%w %q (%s takes %s)", ErrUnknownParam, quote.Clip(k), s.Name, s.paramNames())
		}
	}
	p := Params{values: make(map[string]any, len(s.Params))}
	for _, d := range s.Params {
		text, given := args[d.Name]
		if !given {
			text = d.Default
		}
		v, err := d.parse(text)
		if err != nil {
			return Params{}, err
		}
		p.values[d.Name] = v
		p.order = append(p.order, d.Name)
	}
	return p, nil
}

func (s Spec) paramNames() string {
	if len(s.Params) == 0 {
		return "no parameters"
	}
	names := make([]string, len(s.Params))
	for i, p := range s.Params {
		names[i] = p.Name
	}
	return strings.Join(names, ", ")
}

func (d Param) parse(text string) (any, error) {
	bad := func(why string) error {
		return fmt.Errorf("%w: %s=%q: %s", ErrBadParam, d.Name, quote.Clip(text), why)
	}
	switch d.Kind {
	case Int:
		v, err := strconv.ParseInt(text, 10, 64)
		if err != nil {
			return nil, bad("not an integer")
		}
		if d.Min != "" {
			if m, _ := strconv.ParseInt(d.Min, 10, 64); v < m {
				return nil, bad("must be at least " + d.Min)
			}
		}
		return v, nil
	case Float:
		v, err := strconv.ParseFloat(text, 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, bad("not a number")
		}
		if d.Min != "" {
			if m, _ := strconv.ParseFloat(d.Min, 64); v < m {
				return nil, bad("must be at least " + d.Min)
			}
		}
		return v, nil
	case Duration:
		v, err := time.ParseDuration(text)
		if err != nil {
			return nil, bad("not a duration (such as 100us or 1.5ms)")
		}
		if d.Min != "" {
			if m, _ := time.ParseDuration(d.Min); v < m {
				return nil, bad("must be at least " + d.Min)
			}
		}
		return v, nil
	case Bool:
		v, err := strconv.ParseBool(text)
		if err != nil {
			return nil, bad("not true or false")
		}
		return v, nil
	}
	return text, nil
}
