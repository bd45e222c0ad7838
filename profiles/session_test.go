package profiles

import (
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"runtime/trace"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/pprof/profile"
)

var churnSink uint64

// churn allocates and hashes: the CPU and heap profiles' workload, about
// 50µs a round (200ms for 4000). The hashing is its own code, so that its
// time is flat in churn rather than in a library's function.
//
//go:noinline
func churn(rounds int) {
	h := uint64(14695981039346656037)
	var keep [][]byte
	for r := range rounds {
		b := make([]byte, 16<<10)
		for i := range b {
			h ^= uint64(i)
			h *= 1099511628211
			b[i] = byte(h >> 32)
		}
		if r%64 == 0 {
			keep = append(keep, b)
		}
	}
	churnSink += h + uint64(len(keep))
}

// pingPong passes a value back and forth n times over unbuffered channels:
// every round trip blocks one of the two goroutines, whatever the schedule.
func pingPong(n int) {
	ping, pong := make(chan int), make(chan int)
	go func() {
		for v := range ping {
			pong <- v
		}
		close(pong)
	}()
	for i := range n {
		ping <- i
		<-pong
	}
	close(ping)
	for range pong {
	}
}

// contend has goroutines take one mutex n times each, yielding while they
// hold it, so that the others wait for it.
func contend(goroutines, n int) {
	var mu sync.Mutex
	var wg sync.WaitGroup
	for range goroutines {
		wg.Go(func() {
			for range n {
				mu.Lock()
				runtime.Gosched()
				mu.Unlock()
			}
		})
	}
	wg.Wait()
}

// raceEnabled reports whether the test runs with the race detector.
func raceEnabled() bool {
	bi, ok := debug.ReadBuildInfo()
	return ok && slices.ContainsFunc(bi.Settings, func(s debug.BuildSetting) bool { return s.Key == "-race" && s.Value == "true" })
}

// blockEvents is the number of blocking events the block profile holds.
func blockEvents() int64 {
	n, _ := runtime.BlockProfile(nil)
	recs := make([]runtime.BlockProfileRecord, n+50)
	n, _ = runtime.BlockProfile(recs)
	var sum int64
	for _, r := range recs[:n] {
		sum += r.Count
	}
	return sum
}

func allRequests(dir string) []Request {
	var reqs []Request
	for _, k := range Kinds {
		reqs = append(reqs, Request{k, filepath.Join(dir, FileName(k))})
	}
	return reqs
}

// dirNames lists a directory.
func dirNames(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		out = append(out, e.Name())
	}
	return out
}

// TestSession profiles a small workload with every kind and reads the
// files back, with this package and with the go command's tools.
func TestSession(t *testing.T) {
	dir := t.TempDir()
	reqs := allRequests(dir)
	// Requests in another order: the profiles still come in Kinds order.
	slices.Reverse(reqs)
	if err := Check(reqs, false); err != nil {
		t.Fatal(err)
	}
	before := runtime.SetMutexProfileFraction(3)
	defer runtime.SetMutexProfileFraction(before)

	s, err := Start(reqs)
	if err != nil {
		t.Fatal(err)
	}
	other := t.TempDir()
	if s2, err := Start([]Request{{Heap, filepath.Join(other, "heap.pprof")}}); !errors.Is(err, ErrRunning) {
		t.Errorf("a second Start: %v, %v; want ErrRunning", s2, err)
	}
	if got := dirNames(t, other); len(got) != 0 {
		t.Errorf("the refused Start left %v", got)
	}

	churn(4000)
	pingPong(1000)
	contend(4, 500)

	ps, err := s.Stop()
	if err != nil {
		t.Fatal(err)
	}
	// The rates are back: the mutex fraction as it was, block profiling off.
	if f := runtime.SetMutexProfileFraction(-1); f != 3 {
		t.Errorf("mutex profile fraction %d after Stop, want 3 as before Start", f)
	}
	n := blockEvents()
	pingPong(100)
	if m := blockEvents(); m != n {
		t.Errorf("%d blocking events recorded after Stop: the block profile rate is not 0", m-n)
	}
	if _, err := s.Stop(); err == nil {
		t.Error("a second Stop did not fail")
	}

	want := []string{"block.pprof", "cpu.pprof", "fgprof.pprof", "heap.pprof", "mutex.pprof", "trace.out"}
	if got := dirNames(t, dir); !slices.Equal(got, want) {
		t.Errorf("%s holds %v, want %v (no temporary)", dir, got, want)
	}
	if len(ps) != len(Kinds) {
		t.Fatalf("%d profiles, want %d", len(ps), len(Kinds))
	}
	sampleTypes := map[Kind]string{CPU: "cpu", Heap: "alloc_space", Block: "delay", Mutex: "delay", FGProf: "time"}
	for i, p := range ps {
		if p.Kind != Kinds[i] || p.File != filepath.Join(dir, FileName(p.Kind)) || p.Duration <= 0 {
			t.Errorf("profile %d: %s %s %v, want %s in %s", i, p.Kind, p.File, p.Duration, Kinds[i], dir)
		}
		if p.Kind == Trace {
			if p.Top.SampleType != "" || len(p.Top.Funcs) != 0 {
				t.Errorf("trace has a top: %+v", p.Top)
			}
			continue
		}
		if p.Top.SampleType != sampleTypes[p.Kind] {
			t.Errorf("%s: sample type %s, want %s", p.Kind, p.Top.SampleType, sampleTypes[p.Kind])
		}
		if len(p.Top.Funcs) == 0 || len(p.Top.Funcs) > 10 || p.Top.Total <= 0 {
			t.Errorf("%s: %d functions in the top, total %d", p.Kind, len(p.Top.Funcs), p.Top.Total)
		}
		data, err := os.ReadFile(p.File)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := profile.ParseData(data); err != nil {
			t.Errorf("%s: %v", p.File, err)
		}
	}
	// churn's hashing is its own time, except under the race detector,
	// which moves it into its instrumentation: then churn is in the top by
	// cumulative time.
	top := ps[0].Top
	if raceEnabled() {
		if top, err = Summarize(ps[0].File, 10, true); err != nil {
			t.Fatal(err)
		}
	}
	if !slices.ContainsFunc(top.Funcs, func(f Func) bool { return f.Name == "github.com/gcperf/gcperf/profiles.churn" }) {
		t.Errorf("churn is not in the CPU profile's top:\n%+v", top.Funcs)
	}

	// The go command's tools read every file. go tool -n names each tool's
	// binary, to run it without the go command's start-up for every file.
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command to read the files with")
	}
	tool := map[string]string{}
	for _, name := range []string{"pprof", "trace"} {
		out, err := exec.Command("go", "tool", "-n", name).Output()
		if err != nil {
			t.Fatalf("go tool -n %s: %v", name, err)
		}
		tool[name] = strings.TrimSpace(string(out))
	}
	for _, p := range ps {
		args := []string{"pprof", "-top", p.File}
		if p.Kind == Trace {
			args = []string{"trace", "-pprof=sched", p.File}
		}
		var stderr bytes.Buffer
		cmd := exec.Command(tool[args[0]], args[1:]...)
		cmd.Stdout, cmd.Stderr = io.Discard, &stderr
		if err := cmd.Run(); err != nil {
			t.Errorf("go tool %s: %v\n%s", strings.Join(args, " "), err, stderr.Bytes())
		}
	}
}

// TestStopAtOnce stops a session as soon as it starts: every file is still
// a valid profile, mostly without samples.
func TestStopAtOnce(t *testing.T) {
	dir := t.TempDir()
	s, err := Start(allRequests(dir))
	if err != nil {
		t.Fatal(err)
	}
	ps, err := s.Stop()
	if err != nil {
		t.Fatal(err)
	}
	if len(ps) != len(Kinds) || len(dirNames(t, dir)) != len(Kinds) {
		t.Errorf("%d profiles, files %v", len(ps), dirNames(t, dir))
	}
	// fgprof stopped before its first tick divides by zero; stopFGProf
	// writes its profile, without samples, instead.
	var buf bytes.Buffer
	err = stopFGProf(func() error { var hz int; return errors.New(string(rune(99 / hz))) }, &buf, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	p, err := profile.ParseData(buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if len(p.SampleType) != 2 || p.SampleType[1].Type != "time" || len(p.Sample) != 0 {
		t.Errorf("fgprof's stand-in profile:\n%v", p)
	}
	// An empty session is no error either.
	s, err = Start(nil)
	if err != nil {
		t.Fatal(err)
	}
	if ps, err := s.Stop(); len(ps) != 0 || err != nil {
		t.Errorf("an empty session: %v, %v", ps, err)
	}
}

// TestStartFails: a Start that fails half-way stops what it started and
// leaves no temporary file.
func TestStartFails(t *testing.T) {
	if err := pprof.StartCPUProfile(io.Discard); err != nil {
		t.Skipf("the CPU profiler is in use (go test -cpuprofile?): %v", err)
	}
	pprof.StopCPUProfile()
	if trace.IsEnabled() {
		t.Skip("the tracer is in use (go test -trace?)")
	}
	dir := t.TempDir()
	in := func(name string) string { return filepath.Join(dir, name) }
	missing := filepath.Join(dir, "no", "trace.out")
	tests := []struct {
		name   string
		reqs   []Request
		before func() // takes what Start needs
		after  func()
		want   string
	}{
		{"no directory", []Request{{CPU, in("cpu.pprof")}, {Heap, in("heap.pprof")}, {Trace, missing}},
			nil, nil, missing + ": cannot write there: no such file or directory"},
		{"the CPU profiler taken", []Request{{Block, in("block.pprof")}, {CPU, in("cpu.pprof")}, {Trace, in("trace.out")}},
			func() { pprof.StartCPUProfile(io.Discard) }, pprof.StopCPUProfile,
			in("cpu.pprof") + ": cpu profiling already in use"},
		{"the tracer taken", []Request{{CPU, in("cpu.pprof")}, {Trace, in("trace.out")}, {Mutex, in("mutex.pprof")}},
			func() { trace.Start(io.Discard) }, trace.Stop,
			in("trace.out") + ": execution tracer already enabled"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.before != nil {
				tt.before()
			}
			s, err := Start(tt.reqs)
			if tt.after != nil {
				tt.after()
			}
			if s != nil || err == nil || err.Error() != tt.want {
				t.Fatalf("Start: %v, %v; want the error %s", s, err, tt.want)
			}
			if got := dirNames(t, dir); len(got) != 0 {
				t.Errorf("%s holds %v", dir, got)
			}
			// Start stopped the CPU profiler and the tracer it had started.
			if err := pprof.StartCPUProfile(io.Discard); err != nil {
				t.Errorf("the CPU profiler is still running: %v", err)
			} else {
				pprof.StopCPUProfile()
			}
			if trace.IsEnabled() {
				t.Error("the tracer is still running")
				trace.Stop()
			}
			// and let another session start.
			s, err = Start([]Request{{Mutex, in("mutex.pprof")}})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := s.Stop(); err != nil {
				t.Fatal(err)
			}
			os.Remove(in("mutex.pprof"))
		})
	}
}
