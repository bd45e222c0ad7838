package profiles

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"runtime/trace"
	"slices"
	"sync"
	"time"

	"github.com/felixge/fgprof"
	"github.com/google/pprof/profile"
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
	tmp     *os.File
	started bool // its profiler, or its rate, was started
}

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
// started: runtime.MemProfileRate stays as it is. Start does not check for
// existing files (Check does); Stop replaces them.
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
		f.tmp, err = os.CreateTemp(filepath.Dir(f.Path), "."+filepath.Base(f.Path)+".tmp*")
		if err != nil {
			return nil, fmt.Errorf("%s: cannot write there: %v", f.Path, cause(err))
		}
		s.files = append(s.files, f)
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
// The heap profile is the "allocs" profile, whose default sample type is
// alloc_space: like the block and mutex profiles, it counts from the start
// of the process, not of the session.
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
			name := map[Kind]string{Heap: "allocs", Block: "block", Mutex: "mutex"}[f.Kind]
			if name == "" {
				continue
			}
			if err = pprof.Lookup(name).WriteTo(f.tmp, 0); err != nil {
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
	tmp := f.tmp
	if err := tmp.Sync(); err != nil {
		return fmt.Errorf("%s: %v", f.Path, cause(err))
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("%s: %v", f.Path, cause(err))
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		return fmt.Errorf("%s: %v", f.Path, cause(err))
	}
	if err := os.Rename(tmp.Name(), f.Path); err != nil {
		return fmt.Errorf("%s: %v", f.Path, cause(err))
	}
	f.tmp = nil
	return nil
}

// cause is err without the operation and path an *os.PathError or
// *os.LinkError adds: "no such file or directory".
func cause(err error) error {
	if u := errors.Unwrap(err); u != nil {
		return u
	}
	return err
}

// removeTemps closes and removes the temporary files not renamed into place.
func (s *Session) removeTemps() {
	for _, f := range s.files {
		if f.tmp != nil {
			f.tmp.Close()
			os.Remove(f.tmp.Name())
			f.tmp = nil
		}
	}
}
