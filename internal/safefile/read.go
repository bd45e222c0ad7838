package safefile

import (
	"fmt"
	"io"
	"io/fs"
	"os"
)

// Size limits of the inputs gcperf reads whole. They are far above what
// gcperf writes (a result of a million runs is about 200MiB of JSON) and far
// below what would exhaust a machine parsing them.
const (
	MiB = 1 << 20
	// ResultLimit bounds a gcperf JSON result, a sweep.json and a file in
	// the Go benchmark format.
	ResultLimit = 512 * MiB
	// ProfileLimit bounds a pprof profile, before and after gunzip.
	ProfileLimit = 256 * MiB
)

// tooLarge is the error of an input over its limit.
type tooLarge struct{ limit int64 }

func (e tooLarge) Error() string {
	return fmt.Sprintf("larger than %s, the most gcperf reads of such a file", size(e.limit))
}

func (e tooLarge) Is(target error) bool { return target == ErrTooLarge }

// size spells a limit: "512MiB", or bytes when it is not whole MiB.
func size(n int64) string {
	if n >= MiB && n%MiB == 0 {
		return fmt.Sprintf("%dMiB", n/MiB)
	}
	return fmt.Sprintf("%d bytes", n)
}

// Read reads the file at path whole, if it is a regular file (symbolic
// links followed) of at most limit bytes. Its errors are *fs.PathError
// naming path, wrapping ErrNotRegular or ErrTooLarge for those cases.
func Read(path string, limit int64) ([]byte, error) {
	f, err := Open(path, limit)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(f)
}

// A File is an input open for reading, whose reads fail with ErrTooLarge
// once more than its limit has been read.
type File struct {
	f     *os.File
	path  string
	limit int64
	read  int64
}

// Open opens the regular file at path (symbolic links followed) for reading
// at most limit bytes: a streamed reader's Read returns an *fs.PathError
// wrapping ErrTooLarge past the limit. A directory, device, named pipe or
// socket is refused (ErrNotRegular) before anything is read, so that
// /dev/zero or a FIFO never blocks or fills the memory.
func Open(path string, limit int64) (*File, error) {
	// O_NONBLOCK: opening a FIFO for reading must not wait for a writer.
	f, err := os.OpenFile(path, os.O_RDONLY|nonblock, 0)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !st.Mode().IsRegular() {
		f.Close()
		return nil, &fs.PathError{Op: "read", Path: path, Err: notRegular{kind(st.Mode())}}
	}
	if st.Size() > limit {
		f.Close()
		return nil, &fs.PathError{Op: "read", Path: path, Err: tooLarge{limit}}
	}
	return &File{f: f, path: path, limit: limit}, nil
}

// Read reads from the file, failing past the limit: a file that grows
// while it is read is bounded too.
func (r *File) Read(p []byte) (int, error) {
	if room := r.limit + 1 - r.read; int64(len(p)) > room {
		p = p[:room]
	}
	n, err := r.f.Read(p)
	r.read += int64(n)
	if r.read > r.limit {
		return n, &fs.PathError{Op: "read", Path: r.path, Err: tooLarge{r.limit}}
	}
	return n, err
}

// Stat is the file's information, for identity checks (os.SameFile).
func (r *File) Stat() (fs.FileInfo, error) { return r.f.Stat() }

// Close closes the file.
func (r *File) Close() error { return r.f.Close() }
