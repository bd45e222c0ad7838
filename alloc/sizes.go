package alloc

import (
	"math"
	"runtime/metrics"
	"sync"

	"github.com/gcperf/gcperf/internal/sat"
)

// What the heap counts for an allocation. The workloads' claims (the bytes a
// run allocates, LiveBytes) are in the bytes /gc/heap/allocs:bytes counts,
// which are not the bytes asked for: Go rounds a small object up to its size
// class (a 33-byte object takes 48 bytes), a large one up to whole 8 KiB
// pages, gives a pointerful object over 512 bytes an 8-byte header, and packs
// pointer-free objects under 16 bytes into shared 16-byte blocks (the tiny
// allocator). These helpers round sizes as the Go 1.26 allocator does.
const (
	tinyBlock      = 16    // pointer-free objects smaller than this share 16-byte blocks
	maxSmall       = 32768 // the largest size class
	pageSize       = 8192  // large objects take whole pages
	mallocHeader   = 8     // the type header of a pointerful small object ...
	headerFrom     = 512   // ... larger than this
	sliceHeaderLen = 24    // a []byte held in a slice or map slot
)

// sizeClasses reads the small-object size classes, ascending, from the
// bucket boundaries of /gc/heap/allocs-by-size:bytes, which the runtime
// sets to each class's size plus one. Nil if the metric is missing.
var sizeClasses = sync.OnceValue(func() []int64 {
	s := []metrics.Sample{{Name: "/gc/heap/allocs-by-size:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindFloat64Histogram {
		return nil
	}
	b := s[0].Value.Float64Histogram().Buckets
	var classes []int64
	for _, v := range b[1:] {
		if math.IsInf(v, 1) {
			break
		}
		classes = append(classes, int64(v)-1)
	}
	return classes
})

// objectBytes is what the heap counts for one object of size bytes (size > 0,
// not a tiny one): its size class, or whole pages for a large object. With
// pointers, objects over 512 bytes carry an 8-byte header.
func objectBytes(size int64, pointers bool) int64 {
	if size <= 0 {
		return 0
	}
	if size > maxSmall-mallocHeader {
		if size > math.MaxInt64-pageSize {
			return math.MaxInt64
		}
		return (size + pageSize - 1) / pageSize * pageSize
	}
	if pointers && size > headerFrom {
		size += mallocHeader
	}
	for _, c := range sizeClasses() {
		if c >= size {
			return c
		}
	}
	return (size + 15) &^ 15 // no size classes to read: the nearest 16 bytes
}

// heapBytes is what the heap counts for count objects of size bytes each,
// allocated one after another. Pointer-free objects under 16 bytes share
// 16-byte blocks, 16/size to a block (the tiny allocator; under the race
// detector each takes a block of its own, which this does not model).
func heapBytes(count, size int64, pointers bool) int64 {
	if count <= 0 || size <= 0 {
		return 0
	}
	if !pointers && size < tinyBlock {
		per := tinyBlock / size
		return sat.Mul(count/per+min(count%per, 1), tinyBlock)
	}
	return sat.Mul(count, objectBytes(size, pointers))
}
