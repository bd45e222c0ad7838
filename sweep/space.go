package sweep

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/gcperf/gcperf/env"
	"github.com/gcperf/gcperf/internal/safefile"
)

// ErrCannotWrite is wrapped by Runner.Run's error (a *CannotWriteError)
// when the output directory cannot take another repeat's files: a full
// disk, a quota, a file system made read-only. The sweep stops there,
// rather than run every remaining point's whole benchmark to fail writing
// its result; the outcomes so far come back with it, and each finished
// point's result is in Dir.
var ErrCannotWrite = errors.New("sweep: cannot write in the output directory")

// A CannotWriteError is a directory that cannot take a repeat's files.
type CannotWriteError struct {
	Dir  string
	Need int64 // the bytes tried: as much as the largest repeat wrote so far
	Err  error // the write's: syscall.ENOSPC, EDQUOT, EROFS, ...
}

func (e *CannotWriteError) Error() string {
	return fmt.Sprintf("sweep: %s: no room for another repeat's files (%s tried): %v", e.Dir, env.Bytes(e.Need), e.Err)
}

func (e *CannotWriteError) Unwrap() error        { return e.Err }
func (e *CannotWriteError) Is(target error) bool { return target == ErrCannotWrite }

// Room the runner makes sure of in its directory, in bytes.
const (
	// minRepeatRoom is what a repeat needs at least, before one has
	// written anything to go by.
	minRepeatRoom = 64 << 10
	// failedRepeatRoom is what a repeat that failed without a result must
	// find free afterwards, at least, for its failure not to be put down
	// to the disk: its result, which it could not write, is not there to
	// be measured.
	failedRepeatRoom = 1 << 20
)

// probeRoom is the most room checks by writing: beyond it, the file
// system's free space says (freeBytes), so that the check does not write
// a large result's worth between two points.
const probeRoom = 64 << 10

// room checks that the runner's directory can take need bytes more: that
// its file system has them free (where freeBytes can say), and by writing
// up to probeRoom of them to a temporary file (a name RemoveStale knows),
// removed at once: a full disk, a quota or a read-only file system fails
// the write. Its error is a *CannotWriteError.
func (r *Runner) room(need int64) error {
	if free, ok := freeBytes(r.Dir); ok {
		if free < need {
			return &CannotWriteError{Dir: r.Dir, Need: need, Err: errNoSpace}
		}
		need = min(need, probeRoom)
	}
	f, err := os.CreateTemp(r.Dir, ".room.tmp*")
	if err != nil {
		return &CannotWriteError{Dir: r.Dir, Need: need, Err: safefile.Cause(err)}
	}
	defer os.Remove(f.Name())
	buf := make([]byte, min(need, 64<<10))
	for n := int64(0); n < need && err == nil; n += int64(len(buf)) {
		_, err = f.Write(buf[:min(int64(len(buf)), need-n)])
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return &CannotWriteError{Dir: r.Dir, Need: need, Err: safefile.Cause(err)}
	}
	return nil
}

// roomBefore checks, before a repeat runs, that the directory can take as
// much as the largest repeat so far wrote.
func (r *Runner) roomBefore() error {
	return r.room(max(r.largest, minRepeatRoom))
}

// wrote notes the bytes o's repeat left in the directory (its result, set
// aside or not, its log, its server's log), so that the next repeats find
// room for as much.
func (r *Runner) wrote(o Outcome) {
	file := o.Point.FileName(o.Rep)
	var n int64
	for _, name := range []string{file, failedName(file), logName(o.Point, o.Rep), serverLogName(o.Point, o.Rep)} {
		if st, err := os.Lstat(filepath.Join(r.Dir, name)); err == nil && st.Mode().IsRegular() {
			n += st.Size()
		}
	}
	r.largest = max(r.largest, n)
}

// cannotWrite puts a repeat that failed without a result down to the
// directory when the directory cannot take as much as a repeat writes
// (at least failedRepeatRoom): its failure then carries that cause, with
// Reason CannotWrite, and the error is returned to stop the sweep.
func (r *Runner) cannotWrite(o *Outcome) error {
	if o.Failed.IsZero() || o.Doc != nil {
		return nil
	}
	err := r.room(max(r.largest, failedRepeatRoom))
	var cw *CannotWriteError
	if errors.As(err, &cw) && o.Failed.Reason != CannotWrite { // one that says so already: a command's result
		o.Failed = failure(CannotWrite, "%s: %s has no room for its files: %v", o.Failed.Text, r.Dir, cw.Err)
	}
	return err
}
