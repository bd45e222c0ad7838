package profiles

import (
	"bytes"
	"cmp"
	"compress/gzip"
	"fmt"
	"io"
	"math"
	"slices"

	"github.com/google/pprof/profile"

	"github.com/gcperf/gcperf/internal/safefile"
)

// Summarize reads the pprof profile at path and sums its default sample
// type by function: the type the profile names as its default (alloc_space
// for the allocs profile gcperf writes as its heap profile), else the last
// one (cpu for a CPU profile, delay for block and mutex, time for fgprof).
//
// A function's flat value is the sum over the samples whose innermost frame
// it is (with inlining, the innermost function inlined at the leaf
// location); its cumulative value is the sum over the samples it appears in
// anywhere, each sample counted once however often the function recurses.
// Summarize keeps the n functions with the largest flat (or, with cum,
// cumulative) values, ties in name order; n <= 0 keeps every function with
// a non-zero value. A profile without samples gives a summary with a zero
// Total and no functions.
func Summarize(path string, n int, cum bool) (Summary, error) {
	p, err := readProfile(path)
	if err != nil {
		return Summary{}, err
	}
	return summarize(p, n, cum), nil
}

// readProfile reads and parses a pprof file. Its errors name the path once:
// "x.pprof: no such file or directory", "x.pprof: not a pprof profile: ...".
func readProfile(path string) (*profile.Profile, error) {
	data, err := safefile.Read(path, safefile.ProfileLimit)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, safefile.Cause(err))
	}
	// pprof files are gzipped: inflate within the same limit, so that a
	// small file cannot expand into the whole memory in ParseData.
	if len(data) >= 2 && data[0] == 0x1f && data[1] == 0x8b {
		if data, err = gunzip(data, safefile.ProfileLimit); err != nil {
			return nil, fmt.Errorf("%s: not a pprof profile: decompressing profile: %w", path, err)
		}
	}
	// An execution trace is the one file gcperf writes that pprof cannot
	// read; say so rather than "unrecognized profile format".
	if bytes.HasPrefix(data, []byte("go 1.")) && bytes.Contains(data[:min(len(data), 16)], []byte(" trace\x00")) {
		return nil, fmt.Errorf("%s: not a pprof profile: a Go execution trace (go tool trace reads it)", path)
	}
	p, err := profile.ParseData(data)
	if err != nil {
		return nil, fmt.Errorf("%s: not a pprof profile: %v", path, err)
	}
	if len(p.SampleType) == 0 {
		return nil, fmt.Errorf("%s: not a pprof profile: no sample types", path)
	}
	return p, nil
}

// sampleIndex is the index of p's default sample type.
func sampleIndex(p *profile.Profile) int {
	if p.DefaultSampleType != "" {
		for i, st := range p.SampleType {
			if st.Type == p.DefaultSampleType {
				return i
			}
		}
	}
	return len(p.SampleType) - 1
}

func summarize(p *profile.Profile, n int, cum bool) Summary {
	i := sampleIndex(p)
	s := Summary{SampleType: p.SampleType[i].Type, Unit: p.SampleType[i].Unit}
	funcs := map[string]*Func{}
	get := func(name string) *Func {
		f := funcs[name]
		if f == nil {
			f = &Func{Name: name}
			funcs[name] = f
		}
		return f
	}
	seen := map[string]bool{}
	for _, sm := range p.Sample {
		if i >= len(sm.Value) {
			continue
		}
		v := sm.Value[i]
		s.Total += v
		clear(seen)
		for j, loc := range sm.Location {
			names := frameNames(loc)
			if j == 0 {
				get(names[0]).Flat += v
			}
			for _, name := range names {
				if !seen[name] {
					seen[name] = true
					get(name).Cum += v
				}
			}
		}
	}
	for _, f := range funcs {
		if f.Flat == 0 && f.Cum == 0 {
			continue
		}
		f.FlatPct = pct(f.Flat, s.Total)
		f.CumPct = pct(f.Cum, s.Total)
		s.Funcs = append(s.Funcs, *f)
	}
	key := func(f Func) int64 { return f.Flat }
	if cum {
		key = func(f Func) int64 { return f.Cum }
	}
	slices.SortFunc(s.Funcs, func(a, b Func) int {
		if c := cmp.Compare(key(b), key(a)); c != 0 {
			return c
		}
		return cmp.Compare(a.Name, b.Name)
	})
	if n > 0 && len(s.Funcs) > n {
		s.Funcs = s.Funcs[:n]
	}
	return s
}

// frameNames are the functions of one location, innermost (inlined) first.
// A location without symbols is named by its address.
func frameNames(loc *profile.Location) []string {
	var names []string
	for _, l := range loc.Line {
		if l.Function != nil && l.Function.Name != "" {
			names = append(names, l.Function.Name)
		}
	}
	if len(names) == 0 {
		names = append(names, fmt.Sprintf("0x%x", loc.Address))
	}
	return names
}

func pct(v, total int64) float64 {
	if total == 0 {
		return 0
	}
	return 100 * float64(v) / float64(total)
}

// A Change is how one function's flat share of a profile's total changed
// from one profile to another, in percentage points (Delta = NewPct - OldPct).
type Change struct {
	Name           string
	OldPct, NewPct float64
	Delta          float64
}

// Diff compares the flat shares of the functions of two profiles of the
// same sample type (their default ones, as Summarize chooses) and returns
// the n whose shares changed most, by |Delta|, ties in name order; n <= 0
// returns every change. Functions whose share did not change are left out.
// Shares, not values, are compared, so that two profiles of different
// lengths compare.
func Diff(oldPath, newPath string, n int) ([]Change, error) {
	c, err := Compare(oldPath, newPath, n)
	return c.Changes, err
}

// A Comparison is what Compare finds in two profiles: the summary of each,
// with every function by flat value, and the changes in flat share.
type Comparison struct {
	Old, New Summary
	Changes  []Change
}

// Compare reads two profiles and compares them as Diff does, keeping their
// summaries, whose totals WriteDiff prints. Its errors are Diff's: the
// old file's, then the new one's, then different sample types.
func Compare(oldPath, newPath string, n int) (Comparison, error) {
	var sums [2]Summary
	for k, path := range []string{oldPath, newPath} {
		p, err := readProfile(path)
		if err != nil {
			return Comparison{}, err
		}
		sums[k] = summarize(p, 0, false)
	}
	o, w := sums[0], sums[1]
	if o.SampleType != w.SampleType || o.Unit != w.Unit {
		return Comparison{}, fmt.Errorf("%s holds %s (%s) but %s holds %s (%s): different sample types",
			oldPath, o.SampleType, o.Unit, newPath, w.SampleType, w.Unit)
	}
	byName := map[string]*Change{}
	for k, s := range sums {
		for _, f := range s.Funcs {
			c := byName[f.Name]
			if c == nil {
				c = &Change{Name: f.Name}
				byName[f.Name] = c
			}
			if k == 0 {
				c.OldPct = f.FlatPct
			} else {
				c.NewPct = f.FlatPct
			}
		}
	}
	var changes []Change
	for _, c := range byName {
		c.Delta = c.NewPct - c.OldPct
		if c.Delta != 0 {
			changes = append(changes, *c)
		}
	}
	slices.SortFunc(changes, func(a, b Change) int {
		if c := cmp.Compare(math.Abs(b.Delta), math.Abs(a.Delta)); c != 0 {
			return c
		}
		return cmp.Compare(a.Name, b.Name)
	})
	if n > 0 && len(changes) > n {
		changes = changes[:n]
	}
	return Comparison{Old: o, New: w, Changes: changes}, nil
}

// gunzip inflates data, refusing more than limit bytes of output.
func gunzip(data []byte, limit int64) ([]byte, error) {
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	out, err := io.ReadAll(io.LimitReader(zr, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(out)) > limit {
		return nil, fmt.Errorf("more than %dMiB once decompressed, the most gcperf reads of a profile", limit>>20)
	}
	return out, nil
}
