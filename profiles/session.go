package profiles

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"reflect"
	"runtime"
	"runtime/pprof"
	"runtime/trace"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/felixge/fgprof"
	"github.com/google/pprof/profile"

	"github.com/gcperf/gcperf/internal/safefile"
)

// A Session is the profilers of one set of requests, running from Start
// to Stop. Only one runs at a time: the CPU profiler, the tracer and the
// profiling rates belong to the whole process.
type Session struct {
	files       []*outFile // in the order of Kinds
	start       time.Time
	stopFGProf  func() error
	mutexBefore int // the mutex profile fraction Start replaced
	stopped     bool
}

// outFile is one requested profile, written to a temporary file beside its
// path until Stop renames it into place.
type outFile struct {
	Request
	tmp     *safefile.Temp
	started bool             // its profiler, or its rate, was started
	base    *profile.Profile // a cumulative profile at Start, which Stop subtracts
}

// cumulative names the runtime/pprof profiles that count from the start of
// the process, which Stop writes as what they gained during the session.
var cumulative = map[Kind]string{Heap: "allocs", Block: "block", Mutex: "mutex"}

var (
	runningMu sync.Mutex
	running   bool
)

// ErrRunning is Start's error while another session runs.
var ErrRunning = errors.New("a profiling session is already running")

// Start starts the profilers the requests ask for, each writing to a
// temporary file beside its path: the CPU profiler, the execution tracer
// and fgprof start, block profiling records every blocking event
// (runtime.SetBlockProfileRate(1)) and mutex profiling every contention
// (runtime.SetMutexProfileFraction(1)). The heap profile needs nothing
// started: runtime.MemProfileRate stays as it is. The heap, block and mutex
// profiles count from the start of the process, so Start takes a snapshot
// of each one requested (the heap one after a garbage collection, as Stop
// takes it), for Stop to subtract. Start does not check for existing files
// (Check does); Stop replaces them.
//
// When Start fails, it stops what it started and removes its temporary
// files.
func Start(reqs []Request) (_ *Session, err error) {
	if err := validate(reqs); err != nil {
		return nil, err
	}
	runningMu.Lock()
	defer runningMu.Unlock()
	if running {
		return nil, ErrRunning
	}
	s := &Session{}
	defer func() {
		if err != nil {
			s.stopProfilers()
			s.removeTemps()
		}
	}()
	for _, k := range Kinds {
		i := slices.IndexFunc(reqs, func(r Request) bool { return r.Kind == k })
		if i < 0 {
			continue
		}
		f := &outFile{Request: reqs[i]}
		// The session owns them: Stop commits them, and an error or
		// an abandoned session removes them (removeTemps).
		f.tmp, err = safefile.CreateTemp(f.Path, true)
		if err != nil {
			return nil, err
		}
		s.files = append(s.files, f)
	}
	// The snapshots come before the profilers start, so that the CPU
	// profile and the trace leave them out.
	for _, f := range s.files {
		name := cumulative[f.Kind]
		if name == "" {
			continue
		}
		if f.Kind == Heap {
			runtime.GC() // publishes every allocation so far, as Stop's does
		}
		if f.base, err = snapshot(name); err != nil {
			return nil, fmt.Errorf("%s: %v", f.Path, err)
		}
	}
	s.start = time.Now()
	for _, f := range s.files {
		switch f.Kind {
		case CPU:
			if err := pprof.StartCPUProfile(f.tmp); err != nil {
				return nil, fmt.Errorf("%s: %v", f.Path, err)
			}
		case Trace:
			if err := trace.Start(f.tmp); err != nil {
				return nil, fmt.Errorf("%s: %v", f.Path, err)
			}
		case FGProf:
			s.stopFGProf = fgprof.Start(f.tmp, fgprof.FormatPprof)
		case Block:
			runtime.SetBlockProfileRate(1)
		case Mutex:
			s.mutexBefore = runtime.SetMutexProfileFraction(1)
		}
		f.started = true
	}
	running = true
	return s, nil
}

// Stop stops the profilers, writes the heap (after a garbage collection,
// as go test -memprofile does), block and mutex profiles, syncs every file
// and renames it into place, and restores the block profile rate (to 0)
// and the mutex profile fraction. It returns one Profile per request, in
// the order of Kinds, each with the 10 functions with the largest flat
// values (none for the trace).
//
// Every profile covers the session only, like the delta profiles
// net/http/pprof serves for ?seconds=N: the heap, block and mutex profiles,
// which the runtime counts from the start of the process, are written as
// the profile at Stop less the snapshot Start took, samples that did not
// change left out, with the session's start as their time and its length
// as their duration. The heap profile is the "allocs" profile, whose
// default sample type is alloc_space: its alloc_objects and alloc_space
// are what the session allocated. Its inuse_objects and inuse_space are
// not counts but levels, and are not subtracted: they are the heap live at
// Stop, after its garbage collection, whenever it was allocated, as in the
// profile go test -memprofile writes. Allocations of gcperf's own
// snapshots are left out of the heap profile.
func (s *Session) Stop() ([]Profile, error) {
	runningMu.Lock()
	defer runningMu.Unlock()
	if s.stopped {
		return nil, errors.New("the profiling session was stopped already")
	}
	s.stopped = true
	running = false
	d := time.Since(s.start)
	err := s.stopProfilers()
	if err == nil {
		runtime.GC() // up-to-date in-use figures, as go test -memprofile writes them
		for _, f := range s.files {
			name := cumulative[f.Kind]
			if name == "" {
				continue
			}
			if err = writeDelta(f.tmp, name, f.base, s.start, d); err != nil {
				err = fmt.Errorf("%s: %v", f.Path, err)
				break
			}
		}
	}
	for _, f := range s.files {
		if err != nil {
			break
		}
		err = f.commit()
	}
	if err != nil {
		s.removeTemps()
		return nil, err
	}
	var out []Profile
	for _, f := range s.files {
		p := Profile{Kind: f.Kind, File: f.Path, Duration: d}
		if f.Kind != Trace {
			if p.Top, err = Summarize(f.Path, 10, false); err != nil {
				return nil, err
			}
		}
		out = append(out, p)
	}
	return out, nil
}

// snapshot reads the runtime/pprof profile name, as WriteTo writes it.
func snapshot(name string) (*profile.Profile, error) {
	var buf bytes.Buffer
	if err := pprof.Lookup(name).WriteTo(&buf, 0); err != nil {
		return nil, err
	}
	return profile.Parse(&buf)
}

// snapshotFunc is snapshot's name in a profile's stacks.
var snapshotFunc = runtime.FuncForPC(reflect.ValueOf(snapshot).Pointer()).Name()

// writeDelta writes what the cumulative profile name gained since base, its
// snapshot at start, to w: the profile now less base (see delta), for the
// time from start for d.
func writeDelta(w io.Writer, name string, base *profile.Profile, start time.Time, d time.Duration) error {
	end, err := snapshot(name)
	if err != nil {
		return err
	}
	p, err := delta(base, end)
	if err != nil {
		return err
	}
	p.TimeNanos = start.UnixNano()
	p.DurationNanos = int64(d)
	return p.Write(w)
}

// delta is end less base, two snapshots of one cumulative profile: each
// sample's values less those of the sample with the same stack and labels
// in base, without the samples whose values are then all zero. The sample
// types named inuse_* (the heap's live objects and bytes) are levels, not
// counts: they keep end's values. Samples whose stacks hold snapshot, the
// allocations of the snapshots themselves, are left out of both. delta
// changes base.
func delta(base, end *profile.Profile) (*profile.Profile, error) {
	ratios := make([]float64, len(base.SampleType))
	for i, st := range base.SampleType {
		ratios[i] = -1
		if strings.HasPrefix(st.Type, "inuse_") {
			ratios[i] = 0
		}
	}
	for _, p := range []*profile.Profile{base, end} {
		p.Sample = slices.DeleteFunc(p.Sample, inSnapshot)
	}
	// ScaleN, and Merge, drop the samples whose values are all zero.
	if err := base.ScaleN(ratios); err != nil {
		return nil, err
	}
	return profile.Merge([]*profile.Profile{end, base})
}

// inSnapshot reports whether snapshot is in a sample's stack.
func inSnapshot(s *profile.Sample) bool {
	for _, loc := range s.Location {
		for _, l := range loc.Line {
			if l.Function != nil && l.Function.Name == snapshotFunc {
				return true
			}
		}
	}
	return false
}

// stopProfilers stops every profiler Start started and restores the rates;
// it returns the first error, having stopped them all.
func (s *Session) stopProfilers() error {
	var first error
	for _, f := range s.files {
		if !f.started {
			continue
		}
		f.started = false
		var err error
		switch f.Kind {
		case CPU:
			pprof.StopCPUProfile()
		case Trace:
			trace.Stop()
		case FGProf:
			err = stopFGProf(s.stopFGProf, f.tmp, s.start)
		case Block:
			runtime.SetBlockProfileRate(0)
		case Mutex:
			runtime.SetMutexProfileFraction(s.mutexBefore)
		}
		if err != nil && first == nil {
			first = fmt.Errorf("%s: %v", f.Path, err)
		}
	}
	return first
}

// stopFGProf stops fgprof, which writes its profile. fgprof v0.9.5 divides
// by its sampling rate, which is zero when it is stopped before its first
// tick (1/99 s): then the profile, with no samples, is written here.
func stopFGProf(stop func() error, w io.Writer, start time.Time) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = emptyFGProf(w, start)
		}
	}()
	return stop()
}

// emptyFGProf writes a profile without samples laid out as fgprof's.
func emptyFGProf(w io.Writer, start time.Time) error {
	const hz = 99
	p := &profile.Profile{
		SampleType:    []*profile.ValueType{{Type: "samples", Unit: "count"}, {Type: "time", Unit: "nanoseconds"}},
		PeriodType:    &profile.ValueType{Type: "wallclock", Unit: "nanoseconds"},
		Period:        int64(time.Second) / hz,
		TimeNanos:     start.UnixNano(),
		DurationNanos: int64(time.Since(start)),
	}
	return p.Write(w)
}

// commit syncs f's temporary file and renames it into place.
func (f *outFile) commit() error {
	if err := f.tmp.Commit(); err != nil {
		return err
	}
	f.tmp = nil
	return nil
}

// Abort stops the profilers and removes their temporary files, writing no
// profile.
func (s *Session) Abort() {
	runningMu.Lock()
	defer runningMu.Unlock()
	if s.stopped {
		return
	}
	s.stopped = true
	running = false
	s.stopProfilers()
	s.removeTemps()
}

// removeTemps closes and removes the temporary files not renamed into place.
func (s *Session) removeTemps() {
	for _, f := range s.files {
		if f.tmp != nil {
			f.tmp.Abort()
			f.tmp = nil
		}
	}
}
