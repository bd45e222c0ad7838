//go:build !linux

package main

import "os"

// maxRSSKiB is 0 outside Linux, where ru_maxrss has other units or none:
// the benchmarks then report no peak RSS.
func maxRSSKiB(*os.ProcessState) float64 { return 0 }
