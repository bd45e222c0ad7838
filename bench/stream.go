package bench

import (
	"io"
	"strings"
	"time"

	"github.com/gcperf/gcperf/internal/safefile"
	"github.com/gcperf/gcperf/report"
	"github.com/gcperf/gcperf/workload"
)

// DefaultHistogramLogInterval is the interval of Options.HistogramLog's
// histograms when HistogramLogInterval is 0.
const DefaultHistogramLogInterval = time.Second

// A stream is a file written during the measured runs by an observer:
// RunLog's report.RunLog, HistogramLog's report.HistogramLog.
type stream struct {
	label, path string
	temp        *safefile.Temp // nil for stdout
	obs         observer
}

// observer is a stream's observer: it keeps its write error.
type observer interface {
	workload.Observer
	Err() error
}

// streamSpec is a stream asked for: its output and its observer.
type streamSpec struct {
	field string // RunLog, HistogramLog
	out   safefile.Output
	obs   func(io.Writer) observer
}

// streams are the streams asked for.
func (o *Options) streams() []streamSpec {
	var specs []streamSpec
	if o.RunLog.Path != "" {
		specs = append(specs, streamSpec{"RunLog", safefile.Output{Label: o.RunLog.name(), Path: o.RunLog.Path},
			func(w io.Writer) observer { return report.NewRunLog(w) }})
	}
	if o.HistogramLog.Path != "" {
		interval := o.HistogramLogInterval
		if interval == 0 {
			interval = DefaultHistogramLogInterval
		}
		specs = append(specs, streamSpec{"HistogramLog", safefile.Output{Label: o.HistogramLog.name(), Path: o.HistogramLog.Path},
			func(w io.Writer) observer { return report.NewHistogramLog(w, interval) }})
	}
	return specs
}

// openStreams creates the streams' files before the runs, after check
// passed. A streamed file is written as the runs end, so it cannot wait
// for the end as the reports do; it appears at its path whole or not at
// all: it is written to FILE.incomplete (safefile.CreateIncomplete), in
// sight, so that a soak killed by SIGKILL leaves what it streamed there,
// renamed FILE by commitStreams once the runs are over, and removed when
// they never ran, when it could not be written whole, or at an abort
// (abortStreams). "-" streams to o.Stdout directly.
func (o *Options) openStreams() ([]*stream, error) {
	var ss []*stream
	for _, spec := range o.streams() {
		s := &stream{label: spec.out.Label, path: spec.out.Path}
		w := orDiscard(o.Stdout)
		if s.path != "-" {
			t, err := safefile.CreateIncomplete(s.path, o.Overwrite)
			if err != nil {
				abortStreams(ss)
				return nil, &InputError{Field: spec.field, Value: s.path, Reason: s.label + ": " + strings.TrimPrefix(err.Error(), s.path+": "), Err: err}
			}
			s.temp, w = t, t.File
		}
		s.obs = spec.obs(w)
		ss = append(ss, s)
	}
	return ss, nil
}

// commitStreams puts the streams' files in place, after the runs: a
// stream whose observer could not write is removed, whole or nothing. It
// returns their errors, each named by its label.
func commitStreams(ss []*stream) []error {
	var errs []error
	for _, s := range ss {
		err := s.obs.Err()
		switch {
		case s.temp == nil:
		case err != nil:
			s.temp.Abort()
		default:
			err = s.temp.Commit()
		}
		if err != nil {
			msg := strings.TrimPrefix(safefile.Cause(err).Error(), s.path+": ")
			errs = append(errs, &labelled{s.label, msg, err})
		}
		s.temp = nil
	}
	return errs
}

// abortStreams removes the streams' files not committed.
func abortStreams(ss []*stream) {
	for _, s := range ss {
		if s.temp != nil {
			s.temp.Abort()
			s.temp = nil
		}
	}
}
