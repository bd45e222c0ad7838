package report

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"strconv"

	"golang.org/x/perf/benchfmt"
)

// newBenchWriter is a benchfmt.Writer whose result lines print their
// numbers in decimal, as go test prints them, tab-separated and aligned
// (10679117 ns/op, 0.485 gc-cycles/op, 0.000135311 p99-sec), not in
// benchfmt's shortest float64 form (1.0679117e+07 ns/op,
// 0.48500000000000004, 0.00013531100000000002). Unlike go test's four
// significant figures, up to BenchDigits are kept: a program's 11452345
// ns/op, tidied to seconds, must not lose its digits. Its configuration and
// Unit lines are benchfmt's own.
func newBenchWriter(w io.Writer) *benchfmt.Writer {
	return benchfmt.NewWriter(&goTestNumbers{w: w})
}

// BenchDigits is how many significant digits a value of a benchmark file
// keeps: the float64 noise of a computed figure is past them.
const BenchDigits = 9

// benchRound is v rounded to BenchDigits significant digits, but never
// below its units (a wall time of 67458374032ns stays whole), the value a
// benchmark file reads back as (so that a result and its file compare
// equal).
func benchRound(v float64) float64 {
	if v == 0 || math.IsInf(v, 0) || math.IsNaN(v) {
		return v
	}
	digits := max(BenchDigits, int(math.Floor(math.Log10(math.Abs(v))))+1)
	r, err := strconv.ParseFloat(strconv.FormatFloat(v, 'g', digits, 64), 64)
	if err != nil {
		return v
	}
	return r
}

// goTestNumbers rewrites the result lines of what benchfmt.Writer writes
// (each Write holds whole lines) and passes the other lines on.
type goTestNumbers struct {
	w   io.Writer
	buf []byte
}

func (g *goTestNumbers) Write(p []byte) (int, error) {
	n := len(p)
	g.buf = g.buf[:0]
	for len(p) > 0 {
		line, rest, found := bytes.Cut(p, []byte("\n"))
		if bytes.HasPrefix(line, []byte("Benchmark")) {
			g.buf = appendGoTestLine(g.buf, line)
		} else {
			g.buf = append(g.buf, line...)
		}
		if found {
			g.buf = append(g.buf, '\n')
		}
		p = rest
	}
	if _, err := g.w.Write(g.buf); err != nil {
		return 0, err
	}
	return n, nil
}

// appendGoTestLine appends result line l ("BenchmarkX 200 1.0679117e+07
// ns/op ...", as benchfmt writes it) as go test writes it: the iterations
// in 8 columns, each value in decimal (benchRound's digits) right-aligned
// in 10, tabs between. A line it cannot read is appended as it is.
func appendGoTestLine(b []byte, l []byte) []byte {
	f := bytes.Fields(l)
	if len(f) < 2 || len(f)%2 != 0 {
		return append(b, l...)
	}
	iters, err := strconv.Atoi(string(f[1]))
	if err != nil {
		return append(b, l...)
	}
	start := len(b)
	b = fmt.Appendf(b, "%s\t%8d", f[0], iters)
	for i := 2; i < len(f); i += 2 {
		v, err := strconv.ParseFloat(string(f[i]), 64)
		if err != nil || math.IsInf(v, 0) || math.IsNaN(v) {
			return append(b[:start], l...)
		}
		b = fmt.Appendf(b, "\t%10s %s", strconv.FormatFloat(benchRound(v), 'f', -1, 64), f[i+1])
	}
	return b
}
