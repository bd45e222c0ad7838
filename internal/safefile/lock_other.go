//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package safefile

import (
	"errors"
	"os"
)

// flockDir checks that dir is a directory: without flock(2) it locks
// nothing.
func flockDir(dir string) (int, error) {
	st, err := os.Stat(dir)
	if err != nil {
		return -1, Cause(err)
	}
	if !st.IsDir() {
		return -1, errors.New("not a directory")
	}
	return 0, nil
}

func unflock(int) error { return nil }
