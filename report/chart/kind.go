package chart

import (
	"fmt"
	"path/filepath"
	"strings"
)

// A Kind is one of the charts this package draws: of results (a
// report.Document each) or of a sweep (a sweep.Summary). Its String is the
// name gcperf plot -kind takes.
type Kind uint8

// The kinds of chart, in the order Kinds lists them.
const (
	KindSpectrum        Kind = iota + 1 // "spectrum": Spectrum
	KindHistogram                       // "hist": Histogram
	KindTimeline                        // "timeline": Timeline
	KindSweepP99                        // "sweep-p99": P99 and P99.9 against GOGC
	KindSweepRSS                        // "sweep-rss": peak RSS against GOGC
	KindSweepThroughput                 // "sweep-throughput": throughput against GOGC
	KindPareto                          // "pareto": P99 against peak RSS
	KindCauses                          // "causes": Causes, the causes of the slowest runs
)

var kindNames = [...]string{
	KindSpectrum:        "spectrum",
	KindHistogram:       "hist",
	KindTimeline:        "timeline",
	KindSweepP99:        "sweep-p99",
	KindSweepRSS:        "sweep-rss",
	KindSweepThroughput: "sweep-throughput",
	KindPareto:          "pareto",
	KindCauses:          "causes",
}

// Kinds lists every kind of chart: those of results, then those of a sweep.
func Kinds() []Kind {
	return []Kind{KindSpectrum, KindHistogram, KindTimeline, KindCauses, KindSweepP99, KindSweepRSS, KindSweepThroughput, KindPareto}
}

// String is the kind's name: "spectrum", "hist", "timeline", "causes",
// "sweep-p99", "sweep-rss", "sweep-throughput" or "pareto"; "Kind(n)" for a value that
// is none of them.
func (k Kind) String() string {
	if int(k) < len(kindNames) && kindNames[k] != "" {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}

// sweepKinds are the kinds of chart of a sweep.
var sweepKinds = []Kind{KindSweepP99, KindSweepRSS, KindSweepThroughput, KindPareto}

// OfSweep reports whether the kind is a chart of a sweep (sweep-p99,
// sweep-rss, sweep-throughput, pareto), drawn by Sweep, rather than of
// results.
func (k Kind) OfSweep() bool { return k >= KindSweepP99 && k <= KindPareto }

// ParseKind is the kind of chart a name stands for: a Kind's String, or
// "sweep", an older name of sweep-p99. The error names the value and the
// kinds.
func ParseKind(name string) (Kind, error) {
	if name == "sweep" {
		return KindSweepP99, nil
	}
	for _, k := range Kinds() {
		if k.String() == name {
			return k, nil
		}
	}
	return 0, fmt.Errorf("chart: unknown kind %q (%s)", name, joinKinds(Kinds()))
}

// joinKinds lists kinds by name: "sweep-p99, sweep-rss, ...".
func joinKinds(kinds []Kind) string {
	names := make([]string, len(kinds))
	for i, k := range kinds {
		names[i] = k.String()
	}
	return strings.Join(names, ", ")
}

// A Format is how a chart is written: SVG, its fonts embedded so that it
// looks the same anywhere, or PNG.
type Format uint8

// The formats.
const (
	SVG Format = iota + 1
	PNG
)

// String is the format's name and the extension of its files: "svg" or
// "png"; "Format(n)" for a value that is neither.
func (f Format) String() string {
	switch f {
	case SVG:
		return "svg"
	case PNG:
		return "png"
	}
	return fmt.Sprintf("Format(%d)", uint8(f))
}

// ParseFormat is the format a name stands for, "svg" or "png". The error
// names the value.
func ParseFormat(name string) (Format, error) {
	for _, f := range []Format{SVG, PNG} {
		if f.String() == name {
			return f, nil
		}
	}
	return 0, fmt.Errorf("chart: unknown format %q (svg or png)", name)
}

// FormatOf is the format a file's name asks for by its extension, .svg or
// .png in any case. The error names the file.
func FormatOf(path string) (Format, error) {
	f, err := ParseFormat(strings.TrimPrefix(strings.ToLower(filepath.Ext(path)), "."))
	if err != nil {
		return 0, fmt.Errorf("chart: %s: not an .svg or .png file", path)
	}
	return f, nil
}
