package safefile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sync"
)

// notRegular is the error of a path that exists and is not a regular file.
type notRegular struct{ kind string }

func (e notRegular) Error() string {
	if e.kind == "a directory" {
		return "is a directory"
	}
	return "not a regular file: " + e.kind
}

func (e notRegular) Is(target error) bool { return target == ErrNotRegular }

// kind names what a non-regular file is.
func kind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0:
		return "a device"
	}
	return "not a plain file"
}

// target checks that path may be written: missing, or (with overwrite) a
// regular file. It looks at the path itself, as the rename will. Its error
// does not name the path.
func target(path string, overwrite bool) error {
	st, err := os.Lstat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return Cause(err)
	case !st.Mode().IsRegular():
		return notRegular{kind(st.Mode())}
	case !overwrite:
		return ErrExists
	}
	return nil
}

// Write writes the file at path whole or not at all: write's output goes to
// a temporary file in path's directory, which is synced and renamed over
// path. "-" is stdout, written directly. An existing path is an error
// wrapping ErrExists unless overwrite, and one wrapping ErrNotRegular when
// it is not a regular file. Every error names path; the temporary file is
// removed on every error path.
func Write(path string, stdout io.Writer, overwrite bool, write func(io.Writer) error) error {
	return writeWith(path, stdout, overwrite, write, CreateTemp)
}

// writeWith is Write with its temporary file made by create.
func writeWith(path string, stdout io.Writer, overwrite bool, write func(io.Writer) error,
	create func(string, bool) (*Temp, error)) (err error) {
	if path == "-" {
		return write(stdout)
	}
	t, err := create(path, overwrite)
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			t.Abort()
		}
	}()
	if err := write(t.File); err != nil {
		// Named by the file being written, not by its temporary name.
		return fmt.Errorf("%s: %w", path, Cause(err))
	}
	return t.Commit()
}

// A Temp is the temporary file of one output, open for writing, until
// Commit renames it into place or Abort removes it. It belongs to whoever
// created it; a Temp created through a Temps belongs to that set too.
type Temp struct {
	*os.File
	path      string
	overwrite bool
	owner     *Temps // nil: only the caller holds it
}

// CreateTemp creates the temporary file of the output at path, after
// checking path as Write does. The caller owns it: Commit or Abort it.
func CreateTemp(path string, overwrite bool) (*Temp, error) {
	if err := target(path, overwrite); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return nil, fmt.Errorf("%s: cannot write there: %w", path, Cause(err))
	}
	return &Temp{File: f, path: path, overwrite: overwrite}, nil
}

// Path is where Commit puts the file.
func (t *Temp) Path() string { return t.path }

// Commit syncs and closes the temporary file and renames it over its path,
// checked again as CreateTemp checked it. On error the temporary file is
// removed.
func (t *Temp) Commit() (err error) {
	defer func() {
		if err != nil {
			t.Abort()
		}
	}()
	if err := t.Sync(); err != nil {
		return fmt.Errorf("%s: %w", t.path, Cause(err))
	}
	if err := t.Close(); err != nil {
		return fmt.Errorf("%s: %w", t.path, Cause(err))
	}
	if err := os.Chmod(t.Name(), 0o644); err != nil {
		return fmt.Errorf("%s: %w", t.path, Cause(err))
	}
	if err := target(t.path, t.overwrite); err != nil {
		return fmt.Errorf("%s: %w", t.path, err)
	}
	if err := os.Rename(t.Name(), t.path); err != nil {
		return fmt.Errorf("%s: %w", t.path, Cause(err))
	}
	t.owner.forget(t)
	return nil
}

// Abort closes and removes the temporary file. It may be called after
// Commit failed, or twice.
func (t *Temp) Abort() {
	t.Close()
	os.Remove(t.Name())
	t.owner.forget(t)
}

// Temps is the set of temporary files of one owner (a benchmark, a sweep's
// runner) that may have to stop at once, while a write of its own is under
// way in another goroutine: Remove removes those of its files not yet
// committed, and no other owner's. The zero value is an empty set; a nil
// *Temps holds nothing, its Create and Write being the package's.
type Temps struct {
	mu      sync.Mutex
	open    map[*Temp]bool
	removed bool
}

// ErrRemoved is the error of a write through a Temps after its Remove.
var ErrRemoved = errors.New("writing stopped: its temporary files were removed")

// Create is CreateTemp, the file belonging to g until committed or aborted.
// After g's Remove it creates nothing and fails with ErrRemoved.
func (g *Temps) Create(path string, overwrite bool) (*Temp, error) {
	if g == nil {
		return CreateTemp(path, overwrite)
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.removed {
		return nil, fmt.Errorf("%s: %w", path, ErrRemoved)
	}
	t, err := CreateTemp(path, overwrite)
	if err != nil {
		return nil, err
	}
	t.owner = g
	if g.open == nil {
		g.open = map[*Temp]bool{}
	}
	g.open[t] = true
	return t, nil
}

// Write is the package function Write, its temporary file belonging to g.
func (g *Temps) Write(path string, stdout io.Writer, overwrite bool, write func(io.Writer) error) error {
	return writeWith(path, stdout, overwrite, write, g.Create)
}

// Remove closes and removes every temporary file of g not yet committed or
// aborted, for an owner that must exit at once so that none survives it;
// the writes under way then fail, and g creates no file after it.
func (g *Temps) Remove() {
	if g == nil {
		return
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	g.removed = true
	for t := range g.open {
		t.Close()
		os.Remove(t.Name())
		delete(g.open, t)
	}
}

func (g *Temps) forget(t *Temp) {
	if g == nil {
		return
	}
	g.mu.Lock()
	delete(g.open, t)
	g.mu.Unlock()
}

// tempName matches the temporary files CreateTemp names: ".NAME.tmpDIGITS".
var tempName = regexp.MustCompile(`^\..+\.tmp[0-9]+$`)

// IsTemp reports whether name is that of a temporary file of CreateTemp.
func IsTemp(name string) bool { return tempName.MatchString(name) }

// RemoveStale removes from dir the temporary files that a process killed
// while writing left behind (a SIGKILL is the one exit path no process can
// clean up after). Call it only when no other process writes into dir.
func RemoveStale(dir string) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	var errs []error
	for _, e := range entries {
		if e.Type().IsRegular() && IsTemp(e.Name()) {
			if err := os.Remove(filepath.Join(dir, e.Name())); err != nil {
				errs = append(errs, err)
			}
		}
	}
	return errors.Join(errs...)
}

// Cause is err without the operation and path that an *fs.PathError or
// *os.LinkError repeats ("no such file or directory"), for messages that
// name the path already.
func Cause(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Err
	}
	return err
}

// CreateLog creates the file at path for a log written as it goes rather
// than renamed into place at the end (a server's output, read while it
// runs), checked as Write checks its path: missing, or with overwrite a
// regular file. It does not follow a link there, creates the file
// exclusively without overwrite, never waits on a named pipe, and
// truncates only a regular file. Its errors name path, wrapping ErrExists
// or ErrNotRegular for those cases.
func CreateLog(path string, overwrite bool) (*os.File, error) {
	if err := target(path, overwrite); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	flags := os.O_WRONLY | os.O_CREATE | nofollow | nonblock
	if !overwrite {
		flags |= os.O_EXCL
	}
	f, err := os.OpenFile(path, flags, 0o644)
	switch {
	case errors.Is(err, fs.ErrExist):
		return nil, fmt.Errorf("%s: %w", path, ErrExists)
	case err != nil:
		return nil, fmt.Errorf("%s: %w", path, Cause(err))
	}
	st, err := f.Stat()
	if err == nil && !st.Mode().IsRegular() {
		err = notRegular{kind(st.Mode())}
	}
	if err == nil {
		err = f.Truncate(0)
	}
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %w", path, Cause(err))
	}
	return f, nil
}
