package safefile

import (
	"errors"
	"fmt"
	"os"
	"sync"
)

// ErrLocked is an output directory that another gcperf is using: one
// gcperf at a time writes into a directory (LockDir).
var ErrLocked = errors.New("another gcperf is using this directory")

// A DirLock is one gcperf's hold on an output directory (-out DIR), taken
// before anything in the directory is touched and held until the command
// ends, so that a second gcperf on the same directory never removes,
// replaces or runs again what the first is writing.
//
// It is an advisory lock (flock(2)) on the directory itself: it adds no
// file to it (no reader takes one for a result, and no check finds the
// directory not empty because of it); the kernel releases it when the
// process ends, however it ends, so a SIGKILL leaves no stale lock; the
// programs the process starts do not inherit it (close-on-exec). Another
// process, or another LockDir of this one, is refused at once with
// ErrLocked: it never waits. Where flock(2) is missing, LockDir excludes
// nothing.
type DirLock struct {
	mu   sync.Mutex
	dir  string
	info os.FileInfo // the directory locked, for Holds
	fd   int         // -1 once released
}

// LockDir locks the existing directory dir (symbolic links followed) for
// this process until Unlock or its end. Its error wraps ErrLocked when
// another holds it, and does not name dir.
func LockDir(dir string) (*DirLock, error) {
	fd, err := flockDir(dir)
	if err != nil {
		return nil, err
	}
	st, err := os.Stat(dir)
	if err != nil {
		unflock(fd)
		return nil, Cause(err)
	}
	return &DirLock{dir: dir, info: st, fd: fd}, nil
}

// Dir is the directory as LockDir was given it.
func (l *DirLock) Dir() string { return l.dir }

// Holds reports whether l is held and is dir's lock: the same directory,
// however spelled.
func (l *DirLock) Holds(dir string) bool {
	if l == nil {
		return false
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.fd < 0 {
		return false
	}
	st, err := os.Stat(dir)
	return err == nil && os.SameFile(st, l.info)
}

// Unlock releases the lock. It may be called twice, and on nil.
func (l *DirLock) Unlock() error {
	if l == nil {
		return nil
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.fd < 0 {
		return nil
	}
	err := unflock(l.fd)
	l.fd = -1
	if err != nil {
		return fmt.Errorf("%s: unlocking: %w", l.dir, err)
	}
	return nil
}
