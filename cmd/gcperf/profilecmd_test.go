package main

import (
	"os"
	"path/filepath"
	"runtime/pprof"
	"strings"
	"testing"

	"github.com/google/pprof/profile"
)

// pprofSample is one sample of a hand-built profile: its stack, leaf first,
// of locations, each its functions innermost first joined by "<" ("hash<work":
// hash inlined into work), and its values.
type pprofSample struct {
	stack  []string
	values []int64
}

// writePprof writes a hand-built profile with the sample types
// ("type/unit") and samples given, and returns its path.
func writePprof(t *testing.T, dir, name string, types []string, def string, samples []pprofSample) string {
	t.Helper()
	p := &profile.Profile{DefaultSampleType: def}
	for _, st := range types {
		typ, unit, _ := strings.Cut(st, "/")
		p.SampleType = append(p.SampleType, &profile.ValueType{Type: typ, Unit: unit})
	}
	funcs := map[string]*profile.Function{}
	locs := map[string]*profile.Location{}
	for _, ps := range samples {
		s := &profile.Sample{Value: ps.values}
		for _, frame := range ps.stack {
			loc := locs[frame]
			if loc == nil {
				loc = &profile.Location{ID: uint64(len(p.Location) + 1), Address: 0x1000 + uint64(len(p.Location))}
				for _, name := range strings.Split(frame, "<") {
					fn := funcs[name]
					if fn == nil {
						fn = &profile.Function{ID: uint64(len(p.Function) + 1), Name: name, SystemName: name}
						funcs[name] = fn
						p.Function = append(p.Function, fn)
					}
					loc.Line = append(loc.Line, profile.Line{Function: fn})
				}
				locs[frame] = loc
				p.Location = append(p.Location, loc)
			}
			s.Location = append(s.Location, loc)
		}
		p.Sample = append(p.Sample, s)
	}
	path := filepath.Join(dir, name)
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Write(f); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

const ms = 1_000_000 // nanoseconds

var (
	cpuTypes  = []string{"samples/count", "cpu/nanoseconds"}
	heapTypes = []string{"alloc_objects/count", "alloc_space/bytes", "inuse_objects/count", "inuse_space/bytes"}
)

// handProfiles writes the hand-built profiles the tests read.
//
// old.pprof, total 2s: flat main.hash 900ms (inlined into main.work),
// main.work 500ms, runtime.memclrNoHeapPointers 300ms, runtime.gcBgMarkWorker
// 250ms, main.fib 50ms (recursing); cum main.main 1.75s, main.work 1.7s,
// main.hash 900ms, runtime.mallocgc and main.alloc 300ms.
//
// new.pprof, total 1s: main.hash 100ms, main.work 500ms, memclr 100ms,
// gcBgMarkWorker 300ms; main.fib is gone. Shares: hash 45% -> 10%, work 25%
// -> 50%, gcBgMarkWorker 12.5% -> 30%, memclr 15% -> 10%, fib 2.5% -> 0%.
//
// heap.pprof: alloc_space 1.5MiB in main.alloc, 512KiB in main.list, 3000B
// in encoding/json.Marshal; the default sample type, alloc_space, is not the
// last.
func handProfiles(t *testing.T) (dir string) {
	t.Helper()
	dir = t.TempDir()
	writePprof(t, dir, "old.pprof", cpuTypes, "", []pprofSample{
		{[]string{"runtime.memclrNoHeapPointers", "runtime.mallocgc", "main.alloc", "main.work", "main.main"}, []int64{30, 300 * ms}},
		{[]string{"main.hash<main.work", "main.main"}, []int64{90, 900 * ms}},
		{[]string{"main.work", "main.main"}, []int64{50, 500 * ms}},
		{[]string{"runtime.gcBgMarkWorker"}, []int64{25, 250 * ms}},
		{[]string{"main.fib", "main.fib", "main.fib", "main.main"}, []int64{5, 50 * ms}},
	})
	writePprof(t, dir, "new.pprof", cpuTypes, "", []pprofSample{
		{[]string{"runtime.memclrNoHeapPointers", "runtime.mallocgc", "main.alloc", "main.work", "main.main"}, []int64{10, 100 * ms}},
		{[]string{"main.hash<main.work", "main.main"}, []int64{10, 100 * ms}},
		{[]string{"main.work", "main.main"}, []int64{50, 500 * ms}},
		{[]string{"runtime.gcBgMarkWorker"}, []int64{30, 300 * ms}},
	})
	writePprof(t, dir, "heap.pprof", heapTypes, "alloc_space", []pprofSample{
		{[]string{"main.alloc", "main.work", "main.main"}, []int64{3, 3 << 19, 1, 1 << 19}},
		{[]string{"main.list", "main.main"}, []int64{8, 512 << 10, 8, 512 << 10}},
		{[]string{"encoding/json.Marshal", "main.main"}, []int64{2, 3000, 0, 0}},
	})
	writePprof(t, dir, "goroutine.pprof", []string{"goroutine/count"}, "", []pprofSample{
		{[]string{"runtime.gopark", "main.worker"}, []int64{12}},
		{[]string{"runtime.gopark", "main.main"}, []int64{1}},
	})
	writePprof(t, dir, "block.pprof", []string{"contentions/count", "delay/nanoseconds"}, "", nil)
	return dir
}

func TestProfileCmd(t *testing.T) {
	dir := handProfiles(t)
	in := func(name string) string { return filepath.Join(dir, name) }
	tests := []struct {
		args   []string
		golden string
	}{
		{[]string{in("old.pprof")}, "profile_top.golden"},
		{[]string{"-cum", "-n", "4", in("old.pprof")}, "profile_cum.golden"},
		{[]string{"-n", "2", in("heap.pprof")}, "profile_heap.golden"},
		{[]string{"-cum", in("goroutine.pprof")}, "profile_count.golden"},
		{[]string{in("block.pprof")}, "profile_empty.golden"},
		{[]string{"-diff", in("old.pprof"), in("new.pprof")}, "profile_diff.golden"},
		{[]string{"-diff", "-n", "2", in("new.pprof"), in("old.pprof")}, "profile_diff_n.golden"},
		{[]string{"-diff", in("old.pprof"), in("old.pprof")}, "profile_diff_same.golden"},
	}
	for _, tt := range tests {
		t.Run(tt.golden, func(t *testing.T) {
			code, stdout, stderr := gcperf(t, nil, append([]string{"profile"}, tt.args...)...)
			if code != 0 || stderr != "" {
				t.Fatalf("exit %d, stderr:\n%s", code, stderr)
			}
			golden(t, tt.golden, stdout)
		})
	}

	// A profile the runtime wrote: gcperf's heap profile is the allocs one.
	path := filepath.Join(t.TempDir(), "allocs.pprof")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := pprof.Lookup("allocs").WriteTo(f, 0); err != nil {
		t.Fatal(err)
	}
	f.Close()
	code, stdout, stderr := gcperf(t, nil, "profile", "-n", "3", path)
	if code != 0 || stderr != "" || !strings.HasPrefix(stdout, "Sample type alloc_space (bytes), total ") ||
		strings.Count(stdout, "\n") != 5 {
		t.Errorf("exit %d, stderr %q, stdout:\n%s", code, stderr, stdout)
	}
}

func TestProfileCmdBadInput(t *testing.T) {
	dir := handProfiles(t)
	in := func(name string) string { return filepath.Join(dir, name) }
	bad := badFiles(t) // gcperf results and benchmark files, no profiles
	notes, adir := filepath.Join(bad, "notes.txt"), filepath.Join(bad, "adir")
	empty := filepath.Join(bad, "empty.json")
	trace := filepath.Join(t.TempDir(), "trace.out")
	if err := os.WriteFile(trace, []byte("go 1.26 trace\x00\x00\x00\x01"), 0o644); err != nil {
		t.Fatal(err)
	}
	old := in("old.pprof")
	tests := []struct {
		args []string
		want string // the whole of stderr
	}{
		{[]string{"nosuch.pprof"}, "gcperf: profile: nosuch.pprof: no such file or directory"},
		{[]string{adir}, "gcperf: profile: " + adir + ": is a directory"},
		{[]string{notes}, "gcperf: profile: " + notes + ": not a pprof profile: parsing profile: unrecognized profile format"},
		{[]string{empty}, "gcperf: profile: " + empty + ": not a pprof profile: parsing profile: empty input file"},
		{[]string{fixture("list.json")}, "gcperf: profile: " + fixture("list.json") + ": not a pprof profile: parsing profile: unrecognized profile format"},
		{[]string{trace}, "gcperf: profile: " + trace + ": not a pprof profile: a Go execution trace (go tool trace reads it)"},
		{[]string{"-n", "0", old}, "gcperf: profile: -n must be at least 1, got 0"},
		{[]string{"-n", "-3", old}, "gcperf: profile: -n must be at least 1, got -3"},
		{[]string{"-n", "x", old}, `gcperf: invalid value "x" for flag -n: parse error (gcperf profile -h lists the flags)`},
		{[]string{"-top", old}, "gcperf: flag provided but not defined: -top (gcperf profile -h lists the flags)"},
		{[]string{}, "gcperf: profile takes one pprof file, FILE; got 0 arguments"},
		{[]string{old, old}, "gcperf: profile takes one pprof file, FILE; got 2 arguments"},
		{[]string{"-diff", old}, "gcperf: profile -diff takes two pprof files, OLD and NEW; got 1 arguments"},
		{[]string{"-diff", old, old, old}, "gcperf: profile -diff takes two pprof files, OLD and NEW; got 3 arguments"},
		{[]string{"-diff", "-n", "0", old, old}, "gcperf: profile: -n must be at least 1, got 0"},
		{[]string{"-diff", "-cum", old, old}, "gcperf: profile: -cum does not go with -diff, which compares flat shares"},
		{[]string{"-diff", old, in("heap.pprof")}, "gcperf: profile: " + old + " holds cpu (nanoseconds) but " + in("heap.pprof") + " holds alloc_space (bytes): different sample types"},
		{[]string{"-diff", "nosuch.pprof", old}, "gcperf: profile: nosuch.pprof: no such file or directory"},
		{[]string{"-diff", old, notes}, "gcperf: profile: " + notes + ": not a pprof profile: parsing profile: unrecognized profile format"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			code, stdout, stderr := gcperf(t, nil, append([]string{"profile"}, tt.args...)...)
			checkBad(t, code, stdout, stderr, tt.want)
		})
	}
}

func TestProfileCmdHelp(t *testing.T) {
	code, stdout, stderr := gcperf(t, nil, "profile", "-h")
	if code != 0 || stderr != "" {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	golden(t, "help_profile_-h.golden", stdout)
}
