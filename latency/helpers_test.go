package latency

import (
	"math"
	"time"
)

// Helpers shared by the package's tests. None of them calls the code under
// test: expected values are always written out by hand in the tables.

// ms and us shorten the tables.
func ms(n float64) time.Duration { return time.Duration(n * float64(time.Millisecond)) }
func us(n int) time.Duration     { return time.Duration(n) * time.Microsecond }

// approx reports whether got is within rel (relative) of want; an exact 0
// must be an exact 0, and NaN or ±Inf never matches.
func approx(got, want, rel float64) bool {
	if math.IsNaN(got) || math.IsInf(got, 0) {
		return false
	}
	if want == 0 {
		return got == 0
	}
	return math.Abs(got-want) <= rel*math.Abs(want)
}

// withinHDR reports whether got is within the Recorder's documented precision
// of exact: three significant digits, |got-exact| <= exact/1000 + 1ns.
func withinHDR(got, exact time.Duration) bool {
	d := got - exact
	if d < 0 {
		d = -d
	}
	return d <= exact/1000+1
}

// micros returns the values 1µs, 2µs, ..., n µs in reverse order, so that
// nothing relies on the input being sorted.
func micros(n int) []time.Duration {
	v := make([]time.Duration, n)
	for i := range v {
		v[i] = us(n - i)
	}
	return v
}

// repeat returns n copies of d.
func repeat(d time.Duration, n int) []time.Duration {
	v := make([]time.Duration, n)
	for i := range v {
		v[i] = d
	}
	return v
}

// concat joins slices of durations.
func concat(parts ...[]time.Duration) []time.Duration {
	var v []time.Duration
	for _, p := range parts {
		v = append(v, p...)
	}
	return v
}
