package latency

import (
	"math"
	"testing"
	"time"
)

func TestRecorderRecordDoesNotAllocate(t *testing.T) {
	values := []time.Duration{
		0, 1, 1500, ms(1), 1234567891, time.Hour, time.Hour + 1, 2 * time.Hour,
		-1, -time.Hour, math.MinInt64, math.MaxInt64,
	}
	r := NewRecorder()
	allocs := testing.AllocsPerRun(100, func() {
		for _, v := range values {
			r.Record(v)
		}
	})
	if allocs != 0 {
		t.Errorf("Record allocated %v times per run of %d values, want 0", allocs, len(values))
	}
}

func TestRecorderRecord(t *testing.T) {
	tests := []struct {
		name     string
		values   []time.Duration
		count    int64
		clamped  int64
		min, max time.Duration
	}{
		{name: "zero", values: []time.Duration{0}, count: 1, min: 0, max: 0},
		{name: "1ns", values: []time.Duration{1}, count: 1, min: 1, max: 1},
		{name: "exactly 1h is in range", values: []time.Duration{time.Hour}, count: 1, min: time.Hour, max: time.Hour},
		{name: "negative clamps to 0", values: []time.Duration{-5}, count: 1, clamped: 1, min: 0, max: 0},
		{name: "1h+1ns clamps to 1h", values: []time.Duration{time.Hour + 1}, count: 1, clamped: 1, min: time.Hour, max: time.Hour},
		{
			name:   "extremes of int64",
			values: []time.Duration{math.MaxInt64, math.MinInt64},
			count:  2, clamped: 2, min: 0, max: time.Hour,
		},
		{
			// Values HDR cannot hold exactly (3 significant digits): Min and
			// Max are the exact values, not bucket bounds.
			name:   "min and max exact",
			values: []time.Duration{1234567, 987654321, 1000001, 5555555},
			count:  4, min: 1000001, max: 987654321,
		},
		{
			// 2 clamped of 6: -1ns -> 0 and 2h -> 1h.
			name:   "mixed",
			values: []time.Duration{ms(3), -1, 2 * time.Hour, 7, time.Hour, ms(1)},
			count:  6, clamped: 2, min: 0, max: time.Hour,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := NewRecorder()
			for _, v := range tt.values {
				r.Record(v)
			}
			if got := r.Count(); got != tt.count {
				t.Errorf("Count = %d, want %d", got, tt.count)
			}
			if got := r.Clamped(); got != tt.clamped {
				t.Errorf("Clamped = %d, want %d", got, tt.clamped)
			}
			if got := r.Min(); got != tt.min {
				t.Errorf("Min = %v (%d), want %v (%d)", got, got, tt.min, tt.min)
			}
			if got := r.Max(); got != tt.max {
				t.Errorf("Max = %v (%d), want %v (%d)", got, got, tt.max, tt.max)
			}
			if got := r.Quantile(1); got != tt.max {
				t.Errorf("Quantile(1) = %v (%d), want exact max %v (%d)", got, got, tt.max, tt.max)
			}
			if got := r.Histogram().TotalCount(); got != tt.count {
				t.Errorf("Histogram().TotalCount() = %d, want %d", got, tt.count)
			}
		})
	}
}

func TestRecorderQuantile(t *testing.T) {
	tests := []struct {
		name   string
		values []time.Duration
		q      []float64
		want   []time.Duration // nearest rank ceil(q*n), within HDR precision
		exact  bool            // want exactly, not just within precision
	}{
		{
			name: "empty",
			q:    []float64{0, 0.5, 0.99, 1},
			want: []time.Duration{0, 0, 0, 0}, exact: true,
		},
		{
			// One value: the histogram's bucket top (1234943ns, say) is
			// above it, and Quantile never reports more than was seen.
			name:   "single value reported exactly",
			values: []time.Duration{1234567},
			q:      []float64{0.5, 0.9, 0.99, 0.999, 1},
			want:   []time.Duration{1234567, 1234567, 1234567, 1234567, 1234567}, exact: true,
		},
		{
			// n=4 sorted 1,2,3,4 ms: q=0.25 rank 1; 0.5 rank 2; 0.75 rank 3;
			// 0.9 rank ceil(3.6)=4; 1 -> exact max.
			name:   "four values",
			values: []time.Duration{ms(4), ms(2), ms(1), ms(3)},
			q:      []float64{0.25, 0.5, 0.75, 0.9, 1},
			want:   []time.Duration{ms(1), ms(2), ms(3), ms(4), ms(4)},
		},
		{
			// n=10000, rank k holds k µs: q=0.5 -> 5000µs, 0.75 -> 7500µs,
			// 0.999 -> 9990µs.
			name:   "1..10000µs",
			values: micros(10000),
			q:      []float64{0.5, 0.75, 0.999},
			want:   []time.Duration{us(5000), us(7500), us(9990)},
		},
		{
			// Quantile(1) is the exact max even when HDR rounds it:
			// 1.234567891s is reported as itself, not as its bucket's top.
			name:   "q=1 exact",
			values: []time.Duration{ms(1), 1234567891},
			q:      []float64{1},
			want:   []time.Duration{1234567891}, exact: true,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := NewRecorder()
			for _, v := range tt.values {
				r.Record(v)
			}
			for i, q := range tt.q {
				got := r.Quantile(q)
				if tt.exact && got != tt.want[i] || !withinHDR(got, tt.want[i]) {
					t.Errorf("Quantile(%v) = %v (%d), want %v (%d)", q, got, got, tt.want[i], tt.want[i])
				}
			}
		})
	}
}

// TestRecorderQuantileNearestRank checks the documented contract of Quantile,
// "the value at or below which the fraction q of the recorded values fall",
// on sample sizes where q*n has a fractional part below one half.
func TestRecorderQuantileNearestRank(t *testing.T) {
	tests := []struct {
		n    int // values 1..n ms
		q    float64
		want time.Duration
	}{
		// n=7: 0.9*7 = 6.3 -> rank 7 -> 7ms (HDR: int(6.3+0.5) = 6 -> 6ms).
		{n: 7, q: 0.9, want: ms(7)},
		// n=16: 0.9*16 = 14.4 -> rank 15 -> 15ms (HDR: rank 14).
		{n: 16, q: 0.9, want: ms(15)},
		// n=3: 0.3*3 = 0.9 -> rank 1 -> 1ms (HDR agrees: int(1.4) = 1).
		{n: 3, q: 0.3, want: ms(1)},
		// n=160: 0.99*160 = 158.4 -> rank 159 -> 159ms (HDR: rank 158).
		{n: 160, q: 0.99, want: ms(159)},
	}
	for _, tt := range tests {
		r := NewRecorder()
		for i := 1; i <= tt.n; i++ {
			r.Record(ms(float64(i)))
		}
		if got := r.Quantile(tt.q); !withinHDR(got, tt.want) {
			t.Errorf("1..%dms: Quantile(%v) = %v, want %v (nearest rank)", tt.n, tt.q, got, tt.want)
		}
	}
}

func TestRecorderMerge(t *testing.T) {
	tests := []struct {
		name     string
		parts    [][]time.Duration // one Recorder each, merged into an empty one
		count    int64
		clamped  int64
		min, max time.Duration
	}{
		{
			name:  "three disjoint ranges",
			parts: [][]time.Duration{micros(100), {ms(5), ms(7), ms(9)}, {time.Second, 2 * time.Second}},
			count: 105, min: us(1), max: 2 * time.Second,
		},
		{
			// The first part records 0: Min must stay 0 after merging parts
			// whose minimum is larger.
			name:  "zero minimum survives",
			parts: [][]time.Duration{{0, ms(1)}, {ms(2)}, {us(3)}},
			count: 4, min: 0, max: ms(2),
		},
		{
			// An empty part contributes nothing, not a 0 minimum.
			name:  "with empty parts",
			parts: [][]time.Duration{{}, {ms(8), ms(3)}, {}},
			count: 2, min: ms(3), max: ms(8),
		},
		{
			// -1 and 3h are clamped: 2 clamped, min 0, max 1h.
			name:  "clamped counts add up",
			parts: [][]time.Duration{{-1, ms(1)}, {3 * time.Hour}, {us(10), us(20)}},
			count: 5, clamped: 2, min: 0, max: time.Hour,
		},
		{
			name:  "all empty",
			parts: [][]time.Duration{{}, {}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			merged, all := NewRecorder(), NewRecorder()
			var parts []*Recorder
			for _, p := range tt.parts {
				r := NewRecorder()
				for _, v := range p {
					r.Record(v)
					all.Record(v)
				}
				parts = append(parts, r)
				merged.Merge(r)
			}
			for _, r := range []struct {
				name string
				r    *Recorder
			}{{"merged", merged}, {"one recorder", all}} {
				if r.r.Count() != tt.count || r.r.Clamped() != tt.clamped || r.r.Min() != tt.min || r.r.Max() != tt.max {
					t.Errorf("%s: Count, Clamped, Min, Max = %d, %d, %v, %v, want %d, %d, %v, %v", r.name,
						r.r.Count(), r.r.Clamped(), r.r.Min(), r.r.Max(), tt.count, tt.clamped, tt.min, tt.max)
				}
			}
			for _, q := range []float64{0.5, 0.9, 0.99, 1} {
				if g, w := merged.Quantile(q), all.Quantile(q); g != w {
					t.Errorf("merged Quantile(%v) = %v, one recorder's = %v", q, g, w)
				}
			}
			// The merged-from recorders are unchanged.
			for i, p := range tt.parts {
				if got := parts[i].Count(); got != int64(len(p)) {
					t.Errorf("part %d Count = %d after Merge, want %d", i, got, len(p))
				}
			}
		})
	}
}

func TestRecorderMergeIntoNonEmpty(t *testing.T) {
	// r holds 4ms and 6ms; o holds 1ms and 9ms: after r.Merge(o), Count 4,
	// Min 1ms, Max 9ms, median rank 2 of 1,4,6,9 -> 4ms; o keeps Count 2,
	// Min 1ms, Max 9ms.
	r, o := NewRecorder(), NewRecorder()
	r.Record(ms(4))
	r.Record(ms(6))
	o.Record(ms(9))
	o.Record(ms(1))
	r.Merge(o)
	if r.Count() != 4 || r.Min() != ms(1) || r.Max() != ms(9) {
		t.Errorf("after Merge: Count, Min, Max = %d, %v, %v, want 4, 1ms, 9ms", r.Count(), r.Min(), r.Max())
	}
	if got := r.Quantile(0.5); !withinHDR(got, ms(4)) {
		t.Errorf("after Merge: Quantile(0.5) = %v, want 4ms", got)
	}
	if o.Count() != 2 || o.Min() != ms(1) || o.Max() != ms(9) {
		t.Errorf("merged-from: Count, Min, Max = %d, %v, %v, want 2, 1ms, 9ms", o.Count(), o.Min(), o.Max())
	}
}

func TestRecorderMergeNil(t *testing.T) {
	tests := []struct {
		name   string
		values []time.Duration
		count  int64
		min    time.Duration
		max    time.Duration
	}{
		{name: "empty"},
		{name: "non-empty", values: []time.Duration{ms(2), -1, ms(5)}, count: 3, min: 0, max: ms(5)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := NewRecorder()
			for _, v := range tt.values {
				r.Record(v)
			}
			r.Merge(nil)
			if r.Count() != tt.count || r.Min() != tt.min || r.Max() != tt.max {
				t.Errorf("after Merge(nil): Count, Min, Max = %d, %v, %v, want %d, %v, %v",
					r.Count(), r.Min(), r.Max(), tt.count, tt.min, tt.max)
			}
		})
	}
}

func TestRecorderReset(t *testing.T) {
	tests := []struct {
		name          string
		before, after []time.Duration
		count         int64
		clamped       int64
		min, max, p50 time.Duration
	}{
		{
			name:   "reset to empty",
			before: []time.Duration{ms(1), -1, 2 * time.Hour},
		},
		{
			// After Reset, the old max (1h) and min (0) are forgotten:
			// 2µs and 5µs alone, median rank 1 -> 2µs.
			name:   "record after reset",
			before: []time.Duration{0, time.Hour, -3},
			after:  []time.Duration{us(5), us(2)},
			count:  2, min: us(2), max: us(5), p50: us(2),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := NewRecorder()
			for _, v := range tt.before {
				r.Record(v)
			}
			r.Reset()
			for _, v := range tt.after {
				r.Record(v)
			}
			if r.Count() != tt.count || r.Clamped() != tt.clamped || r.Min() != tt.min || r.Max() != tt.max {
				t.Errorf("Count, Clamped, Min, Max = %d, %d, %v, %v, want %d, %d, %v, %v",
					r.Count(), r.Clamped(), r.Min(), r.Max(), tt.count, tt.clamped, tt.min, tt.max)
			}
			if got := r.Quantile(0.5); !withinHDR(got, tt.p50) {
				t.Errorf("Quantile(0.5) = %v, want %v", got, tt.p50)
			}
			if got := r.Quantile(1); got != tt.max {
				t.Errorf("Quantile(1) = %v, want %v", got, tt.max)
			}
		})
	}
}

func TestRecorderBucketsRoundTrip(t *testing.T) {
	r := NewRecorder()
	for _, v := range []time.Duration{0, 1, 999, 1000, 1500 * time.Microsecond, 1500 * time.Microsecond, 2 * time.Second} {
		r.Record(v)
	}
	b := r.Buckets()
	if len(b) != 6 { // 1.5ms twice shares a bucket
		t.Fatalf("%d buckets, want 6: %v", len(b), b)
	}
	back := FromBuckets(b, r.Min(), r.Max())
	if back.Count() != r.Count() || back.Min() != r.Min() || back.Max() != r.Max() {
		t.Errorf("rebuilt count/min/max %d/%v/%v, want %d/%v/%v", back.Count(), back.Min(), back.Max(), r.Count(), r.Min(), r.Max())
	}
	for _, q := range []float64{0.1, 0.5, 0.7, 0.9, 0.99} {
		if back.Quantile(q) != r.Quantile(q) {
			t.Errorf("Quantile(%v) = %v after the round trip, %v before", q, back.Quantile(q), r.Quantile(q))
		}
	}
}

// RecordCorrected back-fills the values a stalled sampler missed: 5ms at a
// 1ms interval is 5ms, 4ms, 3ms, 2ms and 1ms.
func TestRecorderRecordCorrected(t *testing.T) {
	r := NewRecorder()
	r.RecordCorrected(5*time.Millisecond, time.Millisecond)
	if r.Count() != 5 || r.Min() != time.Millisecond || r.Max() != 5*time.Millisecond {
		t.Errorf("count %d, min %v, max %v; want 5, 1ms, 5ms", r.Count(), r.Min(), r.Max())
	}
	r.Reset()
	r.RecordCorrected(500*time.Microsecond, time.Millisecond) // below the interval: one value
	r.RecordCorrected(time.Millisecond, 0)                    // no interval: one value
	if r.Count() != 2 {
		t.Errorf("count %d, want 2", r.Count())
	}
	if n := testing.AllocsPerRun(10, func() { r.RecordCorrected(20*time.Millisecond, time.Millisecond) }); n != 0 {
		t.Errorf("RecordCorrected allocates %v times", n)
	}
}
