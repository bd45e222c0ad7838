//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package safefile

import (
	"errors"
	"syscall"
)

// flockDir opens dir and takes its exclusive flock, without waiting.
func flockDir(dir string) (int, error) {
	fd, err := syscall.Open(dir, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return -1, err
	}
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil {
		syscall.Close(fd)
		return -1, err
	}
	if st.Mode&syscall.S_IFMT != syscall.S_IFDIR {
		syscall.Close(fd)
		return -1, errors.New("not a directory")
	}
	for {
		err = syscall.Flock(fd, syscall.LOCK_EX|syscall.LOCK_NB)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		syscall.Close(fd)
		if err == syscall.EWOULDBLOCK {
			return -1, ErrLocked
		}
		return -1, err
	}
	return fd, nil
}

// unflock releases what flockDir took: closing the descriptor releases
// its lock.
func unflock(fd int) error { return syscall.Close(fd) }
