package mixfile

import (
	"errors"
	"strings"

	"github.com/gcperf/gcperf/internal/quote"
	"github.com/gcperf/gcperf/workload"
)

// errDashDash is a "--" among the operations: gcperf run starts no program.
var errDashDash = invalidf("--: gcperf run starts no program after --; operations follow the flags: OP key=value ... (gcperf list shows them)")

// Args reads operations given as arguments, OP [params] OP [params]...,
// into a mix; it needs one at least.
func (r Reader) Args(args []string) (workload.Mix, error) {
	if len(args) == 0 {
		return nil, invalidf("run needs at least one operation (gcperf list shows them)")
	}
	var mix workload.Mix
	for len(args) > 0 {
		name := args[0]
		if name == "--" {
			return nil, errDashDash
		}
		if strings.HasPrefix(name, "-") {
			return nil, invalidf("flag %s after the operations: flags go before the first operation", quote.Word(name))
		}
		if _, ok := r.registry().Lookup(name); !ok {
			return nil, invalidf("unknown operation %q (gcperf list shows them)", quote.Clip(name))
		}
		ot, n, err := scanOp(r.registry(), args)
		if err != nil {
			return nil, err
		}
		args = args[n:]
		op, err := r.registry().New(name, ot.params)
		if errors.Is(err, workload.ErrUnknownParam) {
			if key := r.engineFlag(ot); key != "" {
				return nil, invalidf("flag -%s after the operations: flags go before the first operation", key)
			}
		}
		if err != nil {
			return nil, err
		}
		mix = append(mix, op)
	}
	return mix, nil
}

// opText is one operation as text: its name and its parameters.
type opText struct {
	name   string
	keys   []string // the parameters in the order given
	params map[string]string
}

// args returns the operation as command-line arguments, name key=value...,
// which Args reads back into the same operation.
func (o opText) args() []string {
	out := []string{o.name}
	for _, k := range o.keys {
		out = append(out, k+"="+o.params[k])
	}
	return out
}

// engineFlag returns the first of the operation's parameters that is a
// flag of the command (Reader.IsFlag), or "".
func (r Reader) engineFlag(o opText) string {
	for _, k := range o.keys {
		if r.isFlag(k) {
			return k
		}
	}
	return ""
}

// scanOp reads one operation from args: its name, args[0], then its
// parameters, as -param value, -param=value or param=value, up to the next
// argument that is none of these (the next operation's name). It returns
// how many arguments it read.
func scanOp(reg *workload.Registry, args []string) (opText, int, error) {
	name := args[0]
	ot := opText{name: name, params: map[string]string{}}
	i := 1
	for i < len(args) {
		a := args[i]
		if a == "--" {
			return opText{}, 0, errDashDash
		}
		key, val, hasEq := strings.Cut(strings.TrimLeft(a, "-"), "=")
		dashed := strings.HasPrefix(a, "-")
		if !dashed && !hasEq {
			break // the next operation
		}
		i++
		if dashed && !hasEq {
			if i == len(args) {
				return opText{}, 0, invalidf("%s: parameter %s needs a value", name, quote.Word(a))
			}
			val = args[i]
			i++
		}
		if key == "" {
			return opText{}, 0, invalidf("%s: %s is not a parameter: key=value or -key value", name, quote.Word(a))
		}
		if prev, dup := ot.params[key]; dup {
			if spec, ok := reg.Lookup(name); ok {
				if p, ok := spec.Param(key); ok && p.Repeat && p.Kind == workload.String {
					ot.params[key] = prev + "\n" + val
					continue
				}
			}
			return opText{}, 0, invalidf("%s: parameter %s given twice", name, quote.Word(key))
		}
		ot.params[key] = val
		ot.keys = append(ot.keys, key)
	}
	return ot, i, nil
}
