package profiles

import (
	"fmt"
	"io"
	"strconv"
	"text/tabwriter"
	"time"

	"github.com/gcperf/gcperf/env"
	"github.com/gcperf/gcperf/latency"
)

// WriteTop writes a summary as go tool pprof -top does, the table gcperf
// profile prints: a line with the sample type, its unit and the total,
// then each function's flat and cumulative values and shares. cum says
// whether the summary was sorted by cumulative value (Summarize's cum),
// which the first line names. A summary without functions is one line
// ending in "no samples". Values are durations for nanoseconds, binary
// units for bytes, else plain numbers.
func WriteTop(w io.Writer, s Summary, cum bool) error {
	if len(s.Funcs) == 0 {
		_, err := fmt.Fprintf(w, "Sample type %s (%s), total %s: no samples\n", s.SampleType, s.Unit, formatValue(s.Total, s.Unit))
		return err
	}
	by := "flat"
	if cum {
		by = "cumulative"
	}
	fmt.Fprintf(w, "Sample type %s (%s), total %s; top %d functions by %s value\n",
		s.SampleType, s.Unit, formatValue(s.Total, s.Unit), len(s.Funcs), by)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprint(tw, "flat\tflat%\tcum\tcum%\t  function\n")
	for _, f := range s.Funcs {
		fmt.Fprintf(tw, "%s\t%.2f%%\t%s\t%.2f%%\t  %s\n",
			formatValue(f.Flat, s.Unit), f.FlatPct, formatValue(f.Cum, s.Unit), f.CumPct, f.Name)
	}
	return tw.Flush()
}

// WriteDiff writes a comparison, the table gcperf profile -diff prints: a
// line with the sample type and both totals, then each change in flat
// share, in percentage points. A comparison without changes is one line
// ending in "no function's flat share changed".
func WriteDiff(w io.Writer, c Comparison) error {
	o, n := c.Old, c.New
	fmt.Fprintf(w, "Sample type %s (%s), total %s old, %s new; ", o.SampleType, o.Unit,
		formatValue(o.Total, o.Unit), formatValue(n.Total, n.Unit))
	if len(c.Changes) == 0 {
		_, err := fmt.Fprintf(w, "no function's flat share changed\n")
		return err
	}
	fmt.Fprintf(w, "the %d largest changes in flat share\n", len(c.Changes))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprint(tw, "old%\tnew%\tdelta\t  function\n")
	for _, ch := range c.Changes {
		fmt.Fprintf(tw, "%.2f%%\t%.2f%%\t%+.2fpp\t  %s\n", ch.OldPct, ch.NewPct, ch.Delta, ch.Name)
	}
	return tw.Flush()
}

// formatValue formats a profile's value in its unit: a duration for
// nanoseconds, binary units for bytes, else the plain number.
func formatValue(v int64, unit string) string {
	switch unit {
	case "nanoseconds":
		return latency.FormatDuration(time.Duration(v))
	case "bytes":
		return env.Bytes(v)
	}
	return strconv.FormatInt(v, 10)
}
