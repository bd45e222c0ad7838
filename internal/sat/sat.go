// Package sat adds and multiplies non-negative sizes, saturating at
// math.MaxInt64 instead of wrapping: the arithmetic of the memory a
// benchmark needs (workload.Need, alloc's LiveBytes), where a size too
// large to hold is still one too large to run.
package sat

import "math"

// Add returns a+b, or math.MaxInt64 when the sum would exceed it.
func Add(a, b int64) int64 {
	if a > math.MaxInt64-b {
		return math.MaxInt64
	}
	return a + b
}

// Mul returns a*b, or math.MaxInt64 when the product would exceed it.
func Mul(a, b int64) int64 {
	if a != 0 && b > math.MaxInt64/a {
		return math.MaxInt64
	}
	return a * b
}
