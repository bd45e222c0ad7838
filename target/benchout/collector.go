// Package benchout reads the Go benchmark results that a command prints,
// out of its stdout as it streams past: gcperf exec -- CMD copies the
// command's stdout into a [Collector] beside passing it through, and gcperf
// sweep -- CMD puts each benchmark's metrics into its table and checks an
// SLO such as -slo sec/op=2ms against them.
//
// It parses nothing itself: golang.org/x/perf/benchfmt reads the format
// (the one go test -bench prints, and benchstat reads), and
// golang.org/x/perf/benchunit tidies the units as benchstat shows them:
// ns/op becomes sec/op, MB/s becomes B/s, a custom "p99-ns/op" becomes
// "p99-sec/op", the values scaled to match.
//
//	c := benchout.NewCollector()
//	cmd.Stdout = io.MultiWriter(os.Stdout, c)
//	err := cmd.Run()
//	c.Close()
//	for _, b := range c.Benchmarks() {
//		if m, ok := b.Metric("sec/op"); ok {
//			fmt.Println(b.Pkg, b.Name, m.Median())
//		}
//	}
//
// Only result lines ("BenchmarkX-2  1000  123 ns/op ...") and the "pkg:"
// configuration line matter; everything else a command prints (PASS, ok,
// its own log lines, unit metadata lines) passes by unread. A result line
// benchfmt finds malformed is counted by [Collector.Skipped], never fatal.
//
// # Limits
//
// A command can print without end, so the Collector keeps at most
// [MaxBenchmarks] benchmarks, [MaxMetrics] metrics a benchmark and
// [MaxValues] values a metric, in a budget of about [MaxBytes] in all; it
// reads no line longer than [MaxLine]. What it leaves out is counted, in
// [Collector.Dropped] and [Metric.Dropped], never an error.
package benchout

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"sync"

	"golang.org/x/perf/benchfmt"
	"golang.org/x/perf/benchunit"
)

// The Collector's limits, so that a command printing millions of result
// lines cannot grow gcperf without bound. What goes past them is dropped
// and counted (see [Dropped]); what came before stays.
const (
	// MaxLine is the longest line read, in bytes, without its newline: a
	// longer one is dropped whole. It is the most benchfmt's reader
	// takes (bufio.MaxScanTokenSize with the newline): past it, the reader
	// would stop reading for good.
	MaxLine = 64<<10 - 1

	// MaxBenchmarks is how many distinct benchmarks (a package and a name)
	// are kept: the result lines of any after them are dropped.
	MaxBenchmarks = 1000

	// MaxMetrics is how many units a benchmark's results keep: the values
	// of a unit after them are dropped.
	MaxMetrics = 100

	// MaxValues is how many values a metric keeps (100000 runs of -count
	// are far more than anyone asks for): later ones are dropped.
	MaxValues = 100000

	// MaxBytes is, roughly, the memory the results may take: the values
	// (8 bytes each), names, packages and units, and some overhead for
	// each benchmark and metric. Once spent, new benchmarks, metrics and
	// values are dropped.
	MaxBytes = 64 << 20
)

// The overhead counted in MaxBytes for each benchmark and each metric,
// beyond its strings: its struct, its slice headers, its place in a map.
const (
	benchmarkCost = 128
	metricCost    = 64
	valueCost     = 8
)

// A Collector is an io.Writer that reads the Go benchmark results written
// to it. Its Write never fails and returns as soon as benchfmt's reader
// has taken the whole lines it was given, so that the command whose output
// it copies never stalls or dies because of it. Close ends the stream;
// Benchmarks then returns everything read.
//
// A Collector must be made by NewCollector, and closed: it runs a
// goroutine until Close.
//
// Write hands its lines to the reader synchronously, through an io.Pipe,
// rather than through a buffer that a slow reader would let fill up and
// drop from: Write waits for the reader to take the lines (a copy into its
// bufio.Scanner's buffer, which it parses before taking more), and
// benchfmt reads some 100 MB a second (BenchmarkCollector says how fast),
// far more than any command prints, so the wait is short, and no result
// is ever lost to a race between the command and gcperf.
// Write splits the lines itself only to drop those too long for
// benchfmt's reader, which would stop reading at the first one.
type Collector struct {
	// The write side: wmu orders Writes and Close.
	wmu    sync.Mutex
	pw     *io.PipeWriter
	buf    []byte // the start of a line, waiting for its newline
	long   bool   // in a line longer than MaxLine, dropping it
	closed bool

	done chan struct{} // closed when the reader goroutine has ended

	// The read side's results: mu guards them, so that Benchmarks and the
	// counts can be asked while the stream runs.
	mu         sync.Mutex
	benchmarks []*Benchmark
	index      map[string]map[string]int // pkg → name → index in benchmarks
	strs       map[string]string         // the packages and units, each held once
	bytes      int                       // the memory counted against MaxBytes
	skipped    int
	skipLine   int // the line of the last syntax error, to count lines once
	dropped    Dropped
	err        error // why the reader stopped early
}

// A Benchmark is the results of one benchmark: all the result lines with
// its package and name.
type Benchmark struct {
	// Pkg is the "pkg:" configuration line in force at its results, "" if
	// there was none. The same name in two packages is two Benchmarks.
	Pkg string

	// Name is the benchmark's full name as benchstat shows it (its
	// .fullname): without the "Benchmark" prefix, with its sub-benchmarks
	// and the -GOMAXPROCS suffix as printed, e.g. "Sort/n=10-2". It is
	// benchfmt.Name's Full.
	Name string

	// Metrics has a Metric for each unit, in the order the first result
	// line gave them; a unit that only a later line has comes after. The
	// iteration count is not a metric.
	Metrics []Metric
}

// A Metric is the values of one unit in a benchmark's result lines.
type Metric struct {
	// Unit is the unit tidied by benchunit.Tidy, as benchstat shows it:
	// "sec/op" (for ns/op), "B/op", "allocs/op", "B/s" (for MB/s), a custom
	// unit as printed ("gc-cycles") or tidied ("p99-sec/op" for
	// "p99-ns/op").
	Unit string

	// Values has one value per result line (go test -count N gives N),
	// in the order read, tidied with the unit.
	Values []float64

	// Dropped is how many values of this metric were left out, past
	// MaxValues or the Collector's MaxBytes.
	Dropped int
}

// Dropped counts what a Collector left out because of its limits.
type Dropped struct {
	// Lines is the lines longer than MaxLine, not read at all.
	Lines int

	// Results is the result lines of benchmarks that were not kept, past
	// MaxBenchmarks or MaxBytes.
	Results int

	// Values is the values left out, of the Results and of the benchmarks
	// kept: past MaxMetrics, MaxValues or MaxBytes.
	Values int
}

// NewCollector returns a Collector, reading: it must be closed.
func NewCollector() *Collector {
	pr, pw := io.Pipe()
	c := &Collector{
		pw:    pw,
		done:  make(chan struct{}),
		index: make(map[string]map[string]int),
		strs:  make(map[string]string),
	}
	go c.read(pr)
	return c
}

// Write reads p, a piece of the stream: lines may be split anywhere
// between Writes. It always returns len(p), nil, even after Close or if
// the reader has stopped, when p is dropped.
func (c *Collector) Write(p []byte) (int, error) {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	n := len(p)
	if c.closed {
		return n, nil
	}
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		switch {
		case i < 0 && c.long:
			return n, nil
		case i < 0 && len(c.buf)+len(p) > MaxLine:
			c.buf, c.long = c.buf[:0], true
			return n, nil
		case i < 0:
			c.buf = append(c.buf, p...)
			return n, nil
		case c.long:
			c.long = false
			c.dropLine()
			p = p[i+1:]
		case len(c.buf)+i > MaxLine:
			c.buf = c.buf[:0]
			c.dropLine()
			p = p[i+1:]
		case len(c.buf) > 0:
			c.buf = append(c.buf, p[:i+1]...)
			p = p[i+1:]
			c.feed(c.buf)
			c.buf = c.buf[:0]
		default:
			// Whole lines: all of them up to one too long, or to the
			// last newline, go to the reader in one piece.
			end := i + 1
			for {
				j := bytes.IndexByte(p[end:], '\n')
				if j < 0 || j > MaxLine {
					break
				}
				end += j + 1
			}
			c.feed(p[:end])
			p = p[end:]
		}
	}
	return n, nil
}

// feed gives whole lines to the reader. It returns once the reader has
// taken them: the pipe's Write waits for that, and fails only when the
// reader has stopped, when they are dropped.
func (c *Collector) feed(lines []byte) {
	c.pw.Write(lines) // an error: the reader has stopped, and c.err says why
}

// dropLine counts a line longer than MaxLine.
func (c *Collector) dropLine() {
	c.mu.Lock()
	c.dropped.Lines++
	c.mu.Unlock()
}

// Close ends the stream: a last line without a newline is read as a line.
// It returns once everything written has been read, with an error only if
// the reader stopped early (which it should never do), when the results
// read until then stay. Write after Close drops what it is given; Close
// after Close does nothing more.
func (c *Collector) Close() error {
	c.wmu.Lock()
	if !c.closed {
		c.closed = true
		if len(c.buf) > 0 {
			c.feed(c.buf)
			c.buf = nil
		}
		if c.long {
			c.long = false
			c.dropLine()
		}
		c.pw.Close()
	}
	c.wmu.Unlock()
	<-c.done
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}

// errStopped is what a Write to the pipe returns when the reader has
// stopped before Close.
var errStopped = errors.New("benchout: the reader stopped")

// read runs benchfmt's reader on the pipe until Close, in its own
// goroutine.
func (c *Collector) read(pr *io.PipeReader) {
	defer close(c.done)
	defer func() {
		// However the reader ends, a Write must not wait for it.
		pr.CloseWithError(errStopped)
		if v := recover(); v != nil {
			c.mu.Lock()
			c.err = fmt.Errorf("benchout: reading the benchmark results: %v", v)
			c.mu.Unlock()
		}
	}()
	r := benchfmt.NewReader(pr, "stdout")
	for r.Scan() {
		switch rec := r.Result().(type) {
		case *benchfmt.Result:
			c.add(rec)
		case *benchfmt.SyntaxError:
			c.skip(rec)
		}
	}
	if err := r.Err(); err != nil {
		c.mu.Lock()
		c.err = fmt.Errorf("benchout: reading the benchmark results: %w", err)
		c.mu.Unlock()
	}
}

// skip counts a line benchfmt found malformed. A unit metadata line can
// give several errors: its line is counted once.
func (c *Collector) skip(e *benchfmt.SyntaxError) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e.Line != c.skipLine {
		c.skipped++
		c.skipLine = e.Line
	}
}

// add records a result line, within the limits.
func (c *Collector) add(r *benchfmt.Result) {
	var pkg []byte
	if i, ok := r.ConfigIndex("pkg"); ok {
		pkg = r.Config[i].Value
	}
	name := r.Name.Full()

	c.mu.Lock()
	defer c.mu.Unlock()
	i, ok := c.index[string(pkg)][string(name)]
	if !ok {
		var ok bool
		if i, ok = c.newBenchmark(pkg, name); !ok {
			c.dropped.Results++
			c.dropped.Values += len(r.Values)
			return
		}
	}
	b := c.benchmarks[i]
	for _, v := range r.Values {
		// benchfmt tidies a value only when that changes it: a value of 0
		// or ±Inf keeps its unit as printed ("ns/op"). Tidying again does
		// nothing to a unit tidied already.
		v.Value, v.Unit = benchunit.Tidy(v.Value, v.Unit)
		m := b.metric(v.Unit)
		if m == nil {
			// A new metric comes with its first value, so that none is
			// empty.
			if len(b.Metrics) >= MaxMetrics || !c.spend(metricCost+c.strCost(v.Unit)+valueCost) {
				c.dropped.Values++
				continue
			}
			b.Metrics = append(b.Metrics, Metric{Unit: c.str(v.Unit), Values: []float64{v.Value}})
			continue
		}
		if len(m.Values) >= MaxValues || !c.spend(valueCost) {
			m.Dropped++
			c.dropped.Values++
			continue
		}
		m.Values = append(m.Values, v.Value)
	}
}

// newBenchmark adds a benchmark, if the limits allow, and returns its
// index.
func (c *Collector) newBenchmark(pkg, name []byte) (int, bool) {
	if len(c.benchmarks) >= MaxBenchmarks || !c.spend(benchmarkCost+len(name)+c.strCost(string(pkg))) {
		return 0, false
	}
	b := &Benchmark{Pkg: c.str(string(pkg)), Name: string(name)}
	names := c.index[b.Pkg]
	if names == nil {
		names = make(map[string]int)
		c.index[b.Pkg] = names
	}
	names[b.Name] = len(c.benchmarks)
	c.benchmarks = append(c.benchmarks, b)
	return len(c.benchmarks) - 1, true
}

// spend takes n bytes from the budget of MaxBytes, if they are left.
func (c *Collector) spend(n int) bool {
	if c.bytes+n > MaxBytes {
		return false
	}
	c.bytes += n
	return true
}

// strCost is what holding s costs: nothing if it is held already.
func (c *Collector) strCost(s string) int {
	if _, ok := c.strs[s]; ok {
		return 0
	}
	return len(s) + metricCost
}

// str returns s, held once for all the benchmarks: a package or a unit
// is the same for many.
func (c *Collector) str(s string) string {
	if h, ok := c.strs[s]; ok {
		return h
	}
	c.strs[s] = s
	return s
}

// metric returns b's metric of a tidied unit, nil if it has none.
func (b *Benchmark) metric(unit string) *Metric {
	for i := range b.Metrics {
		if b.Metrics[i].Unit == unit {
			return &b.Metrics[i]
		}
	}
	return nil
}

// Benchmarks returns the benchmarks read, in the order their first result
// line came. It may be called while the stream runs, for the results read
// so far (the last lines written may not be read yet); after Close it has
// them all. The Benchmarks are copies: the
// caller may keep and change them.
func (c *Collector) Benchmarks() []Benchmark {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make([]Benchmark, len(c.benchmarks))
	for i, b := range c.benchmarks {
		out[i] = Benchmark{Pkg: b.Pkg, Name: b.Name, Metrics: make([]Metric, len(b.Metrics))}
		for j, m := range b.Metrics {
			m.Values = slices.Clone(m.Values)
			out[i].Metrics[j] = m
		}
	}
	return out
}

// Skipped returns how many lines benchfmt reported as syntax errors: lines
// that begin as a result ("Benchmark" and more on the line) but are not
// one, and malformed unit metadata lines. They are counted, never fatal.
func (c *Collector) Skipped() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.skipped
}

// Dropped returns what the limits left out so far.
func (c *Collector) Dropped() Dropped {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.dropped
}

// Metric returns b's metric of unit, tidied first (so "ns/op" finds
// "sec/op"), and whether it has one.
func (b Benchmark) Metric(unit string) (Metric, bool) {
	_, unit = TidyUnit(unit)
	if m := b.metric(unit); m != nil {
		return *m, true
	}
	return Metric{}, false
}

// Median returns the median of m's values (the mean of the middle two of
// an even number), as benchstat summarises a metric; NaN if it has none.
// A NaN value sorts before all others.
func (m Metric) Median() float64 {
	n := len(m.Values)
	if n == 0 {
		return math.NaN()
	}
	v := slices.Clone(m.Values)
	slices.Sort(v)
	if n%2 == 1 {
		return v[n/2]
	}
	return (v[n/2-1] + v[n/2]) / 2
}

// TidyUnit returns unit as benchunit.Tidy tidies it, with the factor that
// converts a value from unit to tidied: TidyUnit("ns/op") is 1e-9,
// "sec/op". An SLO given in either unit is compared with a Metric's values
// after multiplying by factor. A unit benchunit does not scale (it scales
// only ns and MB) comes back as it is, with factor 1: "ms/op" stays
// "ms/op".
func TidyUnit(unit string) (factor float64, tidied string) {
	return benchunit.Tidy(1, unit)
}
