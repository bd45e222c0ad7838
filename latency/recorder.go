package latency

import (
	"math"
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"
)

// The range and precision every Recorder tracks: 1 ns to 1 hour with three
// significant decimal digits, so any recorded value is reported within 0.1%.
const (
	LowestTrackable   = time.Nanosecond
	HighestTrackable  = time.Hour
	SignificantDigits = 3
)

// A Recorder collects durations into an HdrHistogram. Record does not allocate
// and takes no lock: give every goroutine its own Recorder and Merge them when
// the goroutines are done.
//
// Values outside [0, HighestTrackable] are clamped to the nearest end of the
// range and counted in Clamped, so that nothing recorded is silently lost.
type Recorder struct {
	h        *hdrhistogram.Histogram
	clamped  int64
	exactMax time.Duration
	exactMin time.Duration
}

// NewRecorder returns an empty Recorder tracking LowestTrackable to
// HighestTrackable with SignificantDigits digits.
func NewRecorder() *Recorder {
	return &Recorder{
		h:        hdrhistogram.New(int64(LowestTrackable), int64(HighestTrackable), SignificantDigits),
		exactMin: -1,
	}
}

// Record adds one duration. It does not allocate.
func (r *Recorder) Record(d time.Duration) {
	if d < 0 {
		d = 0
		r.clamped++
	} else if d > HighestTrackable {
		d = HighestTrackable
		r.clamped++
	}
	if d > r.exactMax {
		r.exactMax = d
	}
	if r.exactMin < 0 || d < r.exactMin {
		r.exactMin = d
	}
	// d is within the histogram's range, so RecordValue cannot fail.
	_ = r.h.RecordValue(int64(d))
}

// RecordCorrected records d, and, when d exceeds the expected interval
// between two values, the values a sampler that was stalled for d would
// have recorded had it not been (d-interval, d-2*interval, ... down to
// interval): HdrHistogram's correction for coordinated omission. It does not
// allocate.
func (r *Recorder) RecordCorrected(d, interval time.Duration) {
	r.Record(d)
	if interval <= 0 {
		return
	}
	for missing := d - interval; missing >= interval; missing -= interval {
		r.Record(missing)
	}
}

// Merge adds every value recorded in o to r. o is unchanged.
func (r *Recorder) Merge(o *Recorder) {
	if o == nil {
		return
	}
	r.h.Merge(o.h)
	r.clamped += o.clamped
	if o.exactMax > r.exactMax {
		r.exactMax = o.exactMax
	}
	if o.exactMin >= 0 && (r.exactMin < 0 || o.exactMin < r.exactMin) {
		r.exactMin = o.exactMin
	}
}

// Reset forgets every recorded value, keeping the Recorder's memory.
func (r *Recorder) Reset() {
	r.h.Reset()
	r.clamped = 0
	r.exactMax = 0
	r.exactMin = -1
}

// Count is the number of recorded values.
func (r *Recorder) Count() int64 { return r.h.TotalCount() }

// Clamped is the number of values that fell outside the tracked range and
// were recorded as its nearest end.
func (r *Recorder) Clamped() int64 { return r.clamped }

// Max is the largest recorded value, exact (not rounded to HDR precision).
func (r *Recorder) Max() time.Duration { return r.exactMax }

// Min is the smallest recorded value, exact; 0 when nothing was recorded.
func (r *Recorder) Min() time.Duration {
	if r.exactMin < 0 {
		return 0
	}
	return r.exactMin
}

// Rank is the 1-based nearest rank of the q-quantile (0 < q <= 1) of n
// values: ceil(q*n), within 1..n. The q-quantile of sorted values v is
// v[Rank(q, len(v))-1].
func Rank(q float64, n int) int {
	return min(max(int(math.Ceil(q*float64(n))), 1), n)
}

// Quantile returns the nearest-rank q-quantile (0 < q <= 1) of the
// recorded values: the value at or below which at least the fraction q of
// them fall, the ceil(q*n)-th smallest, within the histogram's precision.
// Quantile(1) is the exact maximum; an empty Recorder gives 0.
func (r *Recorder) Quantile(q float64) time.Duration {
	n := r.h.TotalCount()
	if n == 0 {
		return 0
	}
	if q >= 1 {
		return r.exactMax
	}
	rank := int64(Rank(q, int(n)))
	// hdrhistogram-go rounds percentile*n/100 to the nearest rank; asking
	// for exactly rank/n makes that rounding land on rank itself.
	v := time.Duration(r.h.ValueAtPercentile(100 * float64(rank) / float64(n)))
	// The histogram reports the highest value equivalent to the bucket; never
	// report more than was actually seen.
	return min(v, r.exactMax)
}

// TopSum estimates the sum of the count largest recorded values, each
// valued at the middle of its bucket (within the histogram's precision,
// 0.1%); the largest one is the exact maximum. It allocates.
func (r *Recorder) TopSum(count int64) float64 {
	bars := r.h.Distribution()
	var sum float64
	first := true
	for i := len(bars) - 1; i >= 0 && count > 0; i-- {
		b := bars[i]
		take := min(b.Count, count)
		if take == 0 {
			continue
		}
		mid := float64(b.From+b.To) / 2
		if first { // the topmost value is known exactly
			sum += float64(r.exactMax) - mid
			first = false
		}
		sum += mid * float64(take)
		count -= take
	}
	return sum
}

// Histogram returns the underlying HdrHistogram (values in nanoseconds), for
// encoders such as the .hgrm percentile distribution. Do not modify it.
func (r *Recorder) Histogram() *hdrhistogram.Histogram { return r.h }

// A Bucket is one non-empty bucket of a Recorder: Count values recorded as
// equivalent to Value (the bucket's highest equivalent value, in ns).
type Bucket struct {
	Value int64
	Count int64
}

// Buckets returns the Recorder's non-empty buckets, in increasing order of
// value, so that a Recorder can be saved compactly and rebuilt with
// FromBuckets. Clamped counts are not kept.
func (r *Recorder) Buckets() []Bucket {
	var out []Bucket
	for _, b := range r.h.Distribution() {
		if b.Count > 0 {
			out = append(out, Bucket{Value: b.To, Count: b.Count})
		}
	}
	return out
}

// FromBuckets rebuilds a Recorder from Buckets, with min and max the exact
// extremes that were recorded (Min and Max). Values out of range are clamped.
func FromBuckets(buckets []Bucket, min, max time.Duration) *Recorder {
	r := NewRecorder()
	for _, b := range buckets {
		v := time.Duration(b.Value)
		if v > HighestTrackable {
			v = HighestTrackable
			r.clamped += b.Count
		}
		if v < 0 || b.Count <= 0 {
			continue
		}
		_ = r.h.RecordValues(int64(v), b.Count)
	}
	if r.h.TotalCount() > 0 {
		r.exactMin, r.exactMax = min, max
	}
	return r
}
