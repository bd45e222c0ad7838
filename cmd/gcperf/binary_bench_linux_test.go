//go:build linux

package main

import (
	"os"
	"syscall"
)

// maxRSSKiB is a finished process's peak RSS: getrusage's ru_maxrss, which
// Linux counts in KiB.
func maxRSSKiB(ps *os.ProcessState) float64 {
	if u, ok := ps.SysUsage().(*syscall.Rusage); ok {
		return float64(u.Maxrss)
	}
	return 0
}
