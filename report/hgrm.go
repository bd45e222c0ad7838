package report

import (
	"fmt"
	"io"
	"time"

	"github.com/gcperf/gcperf/latency"
)

// HGRM writes the runtime distributions in HdrHistogram's percentile
// distribution format (.hgrm, what outputPercentileDistribution prints and
// HdrHistogram's plotter reads), values in milliseconds: one block per
// operation, and one for the mix when there are several operations, each
// preceded by a line naming it and blocks separated by an empty line:
//
//	# alloc.list runtime (ms)
//	 Value	Percentile	TotalCount	1/(1-Percentile)
//
//	       0.064     0.000000            1         1.00
//	       ...
//	       8.046     1.000000          200          inf
//	#[Mean    =        0.704, StdDeviation   =        1.187]
//	#[Max     =        8.046, Total count    =          200]
//	#[Buckets =           33, SubBuckets     =         2048]
//
// Each histogram is rebuilt from the document's runtime_histogram, so
// every value is its bucket's highest equivalent value, as in the
// recorder; the output is hdrhistogram-go's PercentilesPrint with 5 ticks
// per half distance. Values print with three decimals: a runtime under a
// microsecond prints as 0.000. An operation without a successful run has
// its title line and "#[No values]" instead of a distribution.
//
// A command's result (gcperf exec) has no distribution: HGRM writes
// nothing and returns an error wrapping ErrNoDistribution.
func HGRM(w io.Writer, d *Document) error {
	if d.Kind() == CommandDocument {
		return fmt.Errorf("hgrm: %w", ErrNoDistribution)
	}
	ops := make([]*Operation, 0, len(d.Operations)+1)
	for i := range d.Operations {
		ops = append(ops, &d.Operations[i])
	}
	if len(d.Operations) > 1 {
		ops = append(ops, &d.Mix.Operation)
	}
	var hiccup *Operation
	if h := d.Hiccup; h != nil {
		// The hiccup meter's lateness, as one more block.
		hiccup = &Operation{Name: "hiccup (interval " + h.Interval.String() + ")", Histogram: h.Histogram,
			Runtime: Distribution{Percentiles: latency.Percentiles{Max: h.Max}}}
		ops = append(ops, hiccup)
	}
	for i, o := range ops {
		if i > 0 {
			if _, err := io.WriteString(w, "\n"); err != nil {
				return err
			}
		}
		what := "runtime"
		if o == hiccup {
			what = "lateness"
		}
		if _, err := fmt.Fprintf(w, "# %s %s (ms)\n", o.Name, what); err != nil {
			return err
		}
		r := o.Recorder()
		if r == nil {
			if _, err := io.WriteString(w, "#[No values]\n"); err != nil {
				return err
			}
			continue
		}
		if _, err := r.Histogram().PercentilesPrint(w, hgrmTicks, hgrmScale); err != nil {
			return err
		}
	}
	return nil
}

// The percentile distribution's settings: HdrHistogram's defaults.
const (
	hgrmTicks = 5   // reporting ticks per half distance to 100%
	hgrmScale = 1e6 // nanoseconds per printed unit: milliseconds
)

// Recorder rebuilds the operation's runtime histogram (runtime_histogram)
// as a recorder, nil when it has no value, so that its quantiles can be
// read (the percentile spectrum of report/chart, the .hgrm format). The
// exact maximum is the Distribution's (pmax_ns); the exact minimum is not
// kept, so the smallest bucket's value stands for it.
func (o *Operation) Recorder() *latency.Recorder {
	if len(o.Histogram) == 0 {
		return nil
	}
	lo := o.Histogram[0].Value
	for _, b := range o.Histogram {
		lo = min(lo, b.Value)
	}
	r := latency.FromBuckets(o.Histogram, time.Duration(lo), o.Runtime.Percentiles.Max)
	if r.Count() == 0 {
		return nil
	}
	return r
}
