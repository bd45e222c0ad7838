package latency

import (
	"cmp"
	"slices"
	"time"
)

// An Interval is a span of monotonic time, in nanoseconds from any fixed
// origin shared by all intervals compared together. End >= Start.
type Interval struct {
	Start, End int64
}

// Union returns the total length of the union of the intervals: the time
// during which at least one of them was open. It sorts iv in place.
// This is the "actual" runtime of a multi-threaded benchmark.
func Union(iv []Interval) time.Duration {
	if len(iv) == 0 {
		return 0
	}
	slices.SortFunc(iv, func(a, b Interval) int { return cmp.Compare(a.Start, b.Start) })
	var total int64
	cur := iv[0]
	for _, x := range iv[1:] {
		if x.Start > cur.End {
			total += cur.End - cur.Start
			cur = x
			continue
		}
		cur.End = max(cur.End, x.End)
	}
	total += cur.End - cur.Start
	return time.Duration(total)
}
