package profiles_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/google/pprof/profile"

	"github.com/gcperf/gcperf/profiles"
	"github.com/gcperf/gcperf/workload"
)

// writeCPUProfile writes a small CPU profile by hand: 100ms of samples, of
// which main.work was on the CPU for 60ms (called from main.main), main.alloc
// for 30ms (called from main.work), and main.main itself for 10ms.
func writeCPUProfile(path string) error {
	fns := []*profile.Function{
		{ID: 1, Name: "main.main"}, {ID: 2, Name: "main.work"}, {ID: 3, Name: "main.alloc"},
	}
	locs := make([]*profile.Location, len(fns))
	for i, f := range fns {
		locs[i] = &profile.Location{ID: uint64(i + 1), Line: []profile.Line{{Function: f}}}
	}
	mainLoc, work, alloc := locs[0], locs[1], locs[2]
	ms := int64(1e6)
	p := &profile.Profile{
		SampleType: []*profile.ValueType{{Type: "samples", Unit: "count"}, {Type: "cpu", Unit: "nanoseconds"}},
		PeriodType: &profile.ValueType{Type: "cpu", Unit: "nanoseconds"},
		Period:     10 * ms,
		Sample: []*profile.Sample{ // leaf first
			{Location: []*profile.Location{work, mainLoc}, Value: []int64{6, 60 * ms}},
			{Location: []*profile.Location{alloc, work, mainLoc}, Value: []int64{3, 30 * ms}},
			{Location: []*profile.Location{mainLoc}, Value: []int64{1, 10 * ms}},
		},
		Location: locs,
		Function: fns,
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := p.Write(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// Summarize reads a pprof file back into its top functions, by flat or by
// cumulative value, as gcperf's reports list them.
func ExampleSummarize() {
	dir, err := os.MkdirTemp("", "profiles-example")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, profiles.FileName(profiles.CPU)) // cpu.pprof
	if err := writeCPUProfile(path); err != nil {
		fmt.Println(err)
		return
	}

	flat, err := profiles.Summarize(path, 2, false) // the top 2 by flat value
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%s (%s), total %d\n", flat.SampleType, flat.Unit, flat.Total)
	for _, f := range flat.Funcs {
		fmt.Printf("flat %-10s %3.0f%%\n", f.Name, f.FlatPct)
	}
	cum, _ := profiles.Summarize(path, 0, true) // every function, by cumulative value
	for _, f := range cum.Funcs {
		fmt.Printf("cum  %-10s %3.0f%%\n", f.Name, f.CumPct)
	}

	// Errors name the file.
	_, err = profiles.Summarize(filepath.Join(dir, "missing.pprof"), 10, false)
	fmt.Println(strings.TrimPrefix(err.Error(), dir+string(filepath.Separator)))
	// Output:
	// cpu (nanoseconds), total 100000000
	// flat main.work   60%
	// flat main.alloc  30%
	// cum  main.main  100%
	// cum  main.work   90%
	// cum  main.alloc  30%
	// missing.pprof: no such file or directory
}

// Each kind of profile has a fixed file name under gcperf's -profile DIR.
func ExampleFileName() {
	for _, k := range profiles.Kinds {
		fmt.Println(k, profiles.FileName(k))
	}
	// Output:
	// cpu cpu.pprof
	// heap heap.pprof
	// block block.pprof
	// mutex mutex.pprof
	// trace trace.out
	// fgprof fgprof.pprof
}

// Profile a piece of work: Check before anything runs, Start, Stop. Stop
// writes the files and returns each profile with its top functions. What it
// prints depends on the machine, so this example has no checked output.
func ExampleStart() {
	dir, err := os.MkdirTemp("", "profiles-example")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	reqs := []profiles.Request{
		{Kind: profiles.CPU, Path: filepath.Join(dir, "cpu.pprof")},
		{Kind: profiles.Heap, Path: filepath.Join(dir, "heap.pprof")},
	}
	if err := profiles.Check(reqs, false); err != nil {
		fmt.Println(err) // an existing file, a directory that cannot be written...
		return
	}
	s, err := profiles.Start(reqs)
	if err != nil {
		fmt.Println(err)
		return
	}
	var keep [][]byte
	for start := time.Now(); time.Since(start) < 200*time.Millisecond; {
		keep = append(keep, make([]byte, 4096))
	}
	got, err := s.Stop()
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, p := range got {
		fmt.Printf("%s: %s %s total %d\n", p.File, p.Top.SampleType, p.Top.Unit, p.Top.Total)
		for _, f := range p.Top.Funcs {
			fmt.Printf("  %5.1f%% %s\n", f.FlatPct, f.Name)
		}
	}
	_ = keep
}

// A Profiler is a workload.Observer: it profiles the timed runs of a
// benchmark only, starting as the first one starts. Profilers distort the
// figures they run under; gcperf profiles a separate pass by default.
func ExampleProfiler() {
	dir, err := os.MkdirTemp("", "profiles-example")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	reqs := []profiles.Request{{Kind: profiles.CPU, Path: filepath.Join(dir, "cpu.pprof")}}
	prof := profiles.NewProfiler(reqs)

	cfg := workload.DefaultConfig()
	cfg.Seed = 1
	mix := workload.Mix{workload.Spin{D: 10 * time.Millisecond}}
	if _, err := workload.Run(context.Background(), cfg, mix, prof); err != nil {
		fmt.Println(err)
		return
	}
	got, err := prof.Profiles()
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, p := range got {
		fmt.Println(p.Kind, p.File, p.Duration)
		for _, f := range p.Top.Funcs {
			fmt.Printf("  %5.1f%% %s\n", f.FlatPct, f.Name)
		}
	}
}
