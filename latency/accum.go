package latency

import (
	"math"
	"math/big"
	"math/bits"
	"time"
)

// An Accumulator keeps what the methodology's mean-based statistics need of
// a stream of durations, in memory that does not grow with the stream: the
// count, the exact integer sum and sum of squares (128 bits), a compensated
// sum of logarithms, and the Outliers+1 smallest and largest values, so
// that Summary drops the outliers at each end exactly as Summarize does
// from every value. Add does not allocate; give every goroutine its own
// Accumulator and Merge them when the goroutines are done.
//
// Exact: Count, Kept, Discarded, Total, Mean (rounded from the integer
// sum), Min, Max, Variance (from the integer sums, rounded once to
// float64) and StdDev. GeoMean comes from
// the values' product, mantissa and exponent apart: within a nanosecond of
// the exact value for any order of the values.
type Accumulator struct {
	n     int64
	sumHi uint64 // Σv, 128 bits
	sumLo uint64
	sqHi  uint64 // Σv², 128 bits
	sqLo  uint64
	// Π v (a 0 counts as 1ns) as prodM·2^prodE, prodM kept within
	// [2⁻⁹⁰⁰, 1]: a product of the values' mantissas loses less than one
	// part in 10⁸ over 10⁸ values, and costs a multiplication, not a
	// logarithm, per value.
	prodM float64
	prodE int64

	outliers int
	low      []time.Duration // the outliers+1 smallest values, ascending
	high     []time.Duration // the outliers+1 largest values, descending
}

// NewAccumulator returns an empty Accumulator that can drop up to outliers
// values at each end.
func NewAccumulator(outliers int) *Accumulator {
	outliers = max(outliers, 0)
	return &Accumulator{
		prodM:    1,
		outliers: outliers,
		low:      make([]time.Duration, 0, outliers+1),
		high:     make([]time.Duration, 0, outliers+1),
	}
}

// Count is the number of values added.
func (a *Accumulator) Count() int64 { return a.n }

// Sum is the sum of every value added, outliers included, saturating at
// the largest Duration.
func (a *Accumulator) Sum() time.Duration {
	if a.sumHi != 0 || a.sumLo > math.MaxInt64 {
		return math.MaxInt64
	}
	return time.Duration(a.sumLo)
}

// Add adds one duration; a negative one counts as 0. It does not allocate.
func (a *Accumulator) Add(v time.Duration) {
	v = max(v, 0)
	a.n++
	u := uint64(v)
	var c uint64
	a.sumLo, c = bits.Add64(a.sumLo, u, 0)
	a.sumHi += c
	hi, lo := bits.Mul64(u, u)
	a.sqLo, c = bits.Add64(a.sqLo, lo, 0)
	a.sqHi += hi + c
	m, e := math.Frexp(float64(max(v, time.Nanosecond)))
	a.prodM *= m
	a.prodE += int64(e)
	if a.prodM < 0x1p-900 {
		a.renorm()
	}
	a.low = insertLow(a.low, v)
	a.high = insertHigh(a.high, v)
}

// renorm brings prodM back to [0.5, 1), its exponent into prodE.
func (a *Accumulator) renorm() {
	m, e := math.Frexp(a.prodM)
	a.prodM = m
	a.prodE += int64(e)
}

// logProd is log Π v.
func (a *Accumulator) logProd() float64 {
	return math.Log(a.prodM) + float64(a.prodE)*math.Ln2
}

// insertLow inserts v into s, ascending, when it is among the cap(s)
// smallest seen; insertHigh into s, descending, among the largest. The
// common case, a value that changes neither, is one comparison.
func insertLow(s []time.Duration, v time.Duration) []time.Duration {
	n := len(s)
	if n == cap(s) {
		if n == 0 || v >= s[n-1] {
			return s
		}
	} else {
		s = s[:n+1]
		n++
	}
	i := n - 1
	for i > 0 && v < s[i-1] {
		s[i] = s[i-1]
		i--
	}
	s[i] = v
	return s
}

func insertHigh(s []time.Duration, v time.Duration) []time.Duration {
	n := len(s)
	if n == cap(s) {
		if n == 0 || v <= s[n-1] {
			return s
		}
	} else {
		s = s[:n+1]
		n++
	}
	i := n - 1
	for i > 0 && v > s[i-1] {
		s[i] = s[i-1]
		i--
	}
	s[i] = v
	return s
}

// CopyFrom makes a hold exactly what b holds, without allocating when both
// drop the same number of outliers.
func (a *Accumulator) CopyFrom(b *Accumulator) {
	low, high := a.low, a.high
	*a = *b
	a.low = append(low[:0], b.low...)
	a.high = append(high[:0], b.high...)
}

// Merge adds the values b accumulated. Both must drop the same number of
// outliers.
func (a *Accumulator) Merge(b *Accumulator) {
	a.n += b.n
	var c uint64
	a.sumLo, c = bits.Add64(a.sumLo, b.sumLo, 0)
	a.sumHi += b.sumHi + c
	a.sqLo, c = bits.Add64(a.sqLo, b.sqLo, 0)
	a.sqHi += b.sqHi + c
	a.renorm()
	m, e := math.Frexp(b.prodM) // both in [0.5, 1): no underflow
	a.prodM *= m
	a.prodE += b.prodE + int64(e)
	for _, v := range b.low {
		a.low = insertLow(a.low, v)
	}
	for _, v := range b.high {
		a.high = insertHigh(a.high, v)
	}
}

// Summary computes the statistics of the values added, dropping
// Trim(Count, outliers) values at each end (outliers at most the
// Accumulator's); r, which may be nil, supplies the percentiles. It
// allocates: call it after the measurements.
func (a *Accumulator) Summary(outliers int, r *Recorder) Summary {
	s := Summary{Count: a.n}
	if r != nil {
		s.Percentiles = PercentilesOf(r)
	}
	if a.n == 0 {
		return s
	}
	d := Trim(int(min(a.n, math.MaxInt)), min(outliers, a.outliers))
	s.Discarded = d
	s.Kept = a.n - 2*int64(d)
	s.Min, s.Max = a.low[d], a.high[d]

	sum := u128(a.sumHi, a.sumLo)
	sq := u128(a.sqHi, a.sqLo)
	logSum := a.logProd()
	var tmp big.Int
	for _, v := range append(a.low[:d:d], a.high[:d]...) {
		sum.Sub(sum, tmp.SetInt64(int64(v)))
		sq.Sub(sq, tmp.Mul(tmp.SetInt64(int64(v)), &tmp))
		logSum -= math.Log(float64(max(v, time.Nanosecond)))
	}
	n := big.NewInt(s.Kept)
	if sum.IsInt64() {
		s.Total = time.Duration(sum.Int64())
	} else {
		s.Total = time.Duration(math.MaxInt64)
	}
	// Mean: the integer sum over n, rounded half up.
	var mean big.Int
	mean.Add(tmp.Lsh(sum, 1), n)
	mean.Quo(&mean, tmp.Lsh(n, 1))
	s.Mean = time.Duration(mean.Int64())
	// Variance: (n·Σv² − (Σv)²) / n², exact until this one rounding.
	var num, den big.Int
	num.Sub(num.Mul(n, sq), den.Mul(sum, sum))
	den.Mul(n, n)
	s.Variance, _ = new(big.Rat).SetFrac(&num, &den).Float64()
	s.StdDev = time.Duration(math.Round(math.Sqrt(s.Variance)))
	s.GeoMean = time.Duration(math.Round(math.Exp(logSum / float64(s.Kept))))
	return s
}

// u128 is hi·2⁶⁴ + lo.
func u128(hi, lo uint64) *big.Int {
	x := new(big.Int).SetUint64(hi)
	x.Lsh(x, 64)
	return x.Or(x, new(big.Int).SetUint64(lo))
}
