//go:build !linux

package sweep

import "errors"

// freeBytes cannot say what a file system has free outside Linux: the
// runner's probe writes what it needs.
func freeBytes(string) (int64, bool) { return 0, false }

// errNoSpace is the error of a directory with less free space than asked.
var errNoSpace = errors.New("no space left on device")
