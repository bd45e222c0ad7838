package latency

import (
	"math/rand/v2"
	"testing"
	"time"
)

// durations returns n pseudo-random durations in [1µs, 100ms), the same on
// every call.
func durations(n int) []time.Duration {
	rng := rand.New(rand.NewPCG(42, 7))
	v := make([]time.Duration, n)
	for i := range v {
		v[i] = time.Microsecond + time.Duration(rng.Int64N(int64(100*time.Millisecond-time.Microsecond)))
	}
	return v
}

func BenchmarkRecorderRecord(b *testing.B) {
	vals := durations(4096) // a power of two: index with a mask
	r := NewRecorder()
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		r.Record(vals[i&(len(vals)-1)])
	}
}

func BenchmarkRecorderMerge(b *testing.B) {
	src, dst := NewRecorder(), NewRecorder()
	for _, v := range durations(10000) {
		src.Record(v)
	}
	b.ReportAllocs()
	for b.Loop() {
		dst.Merge(src)
	}
}

func BenchmarkSummarize(b *testing.B) {
	vals := durations(10000)
	r := NewRecorder()
	for _, v := range vals {
		r.Record(v)
	}
	// Summarize sorts its input in place: give each iteration an unsorted
	// copy (the copy is a small part of the cost).
	work := make([]time.Duration, len(vals))
	b.ReportAllocs()
	for b.Loop() {
		copy(work, vals)
		Summarize(work, 10, r)
	}
}
