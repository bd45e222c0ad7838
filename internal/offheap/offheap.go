// Package offheap allocates arrays outside the Go heap, for records a
// benchmark harness writes while it measures: memory the collector neither
// scans nor counts, so the harness's records do not raise the heap goal
// of the workload it measures. The element type must hold no pointers.
package offheap

import (
	"fmt"
	"reflect"
	"unsafe"
)

// Slice is n zeroed values of T outside the Go heap (in the Go heap where
// the system offers no anonymous mappings), and the function that releases
// them: after it, the slice must not be used. T must hold no pointers: it
// panics otherwise, as that is a programming error.
func Slice[T any](n int) (s []T, free func()) {
	var zero T
	if hasPointers(reflect.TypeOf(zero)) {
		panic(fmt.Sprintf("offheap: %T holds pointers", zero))
	}
	size := int(unsafe.Sizeof(zero))
	if n <= 0 || size == 0 {
		return make([]T, max(n, 0)), func() {}
	}
	b, err := mmap(n * size)
	if err != nil {
		return make([]T, n), func() {}
	}
	return unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(b))), n), func() { munmap(b) }
}

// hasPointers reports whether a value of t holds pointers the collector
// would have to see.
func hasPointers(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Complex64, reflect.Complex128:
		return false
	case reflect.Array:
		return t.Len() > 0 && hasPointers(t.Elem())
	case reflect.Struct:
		for i := range t.NumField() {
			if hasPointers(t.Field(i).Type) {
				return true
			}
		}
		return false
	}
	return true
}
