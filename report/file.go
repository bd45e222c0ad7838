package report

import (
	"bytes"
	"context"
	"errors"
	"io"

	"github.com/gcperf/gcperf/internal/safefile"
)

// ErrExists is wrapped by WriteFile's error for an existing file when
// overwriting was not asked for.
var ErrExists = safefile.ErrExists

// ErrNotRegular is wrapped by WriteFile's error for a path that exists and
// is not a regular file (a device, a named pipe, a directory, a symbolic
// link): WriteFile never replaces one, even when overwriting. ReadFile's
// and ReadSamplesFile's errors wrap it for such a file too: they never read
// one, so that /dev/zero or a FIFO never blocks or fills the memory.
var ErrNotRegular = safefile.ErrNotRegular

// ErrTooLarge is wrapped by ReadFile's and ReadSamplesFile's errors for a
// file larger than they read (512MiB, far above the largest result gcperf
// writes).
var ErrTooLarge = safefile.ErrTooLarge

// WriteFile writes a report to path whole or not at all: through a
// temporary file in the same directory, synced and renamed into place once
// complete, so that a crash or an error never leaves half a report (the
// temporary file is removed on every error path). path "-" writes to stdout
// instead. Its errors name path.
func WriteFile(path string, stdout io.Writer, overwrite bool, write func(io.Writer) error) error {
	return safefile.Write(path, stdout, overwrite, write)
}

// ReadFile reads the gcperf result at path (saved with gcperf -json) as
// ReadJSON does, from a regular file (symbolic links followed) of at most
// 512MiB. An error opening the file is an *fs.PathError naming path
// (wrapping fs.ErrNotExist, ErrNotRegular or ErrTooLarge, for instance);
// an error in its content is ReadJSON's, which does not name it (wrapping
// ErrNotResult or ErrSchema).
func ReadFile(path string) (*Document, error) {
	return readFile(path, ReadJSON)
}

// readFile reads the file at path with read, from a regular file of at
// most 512MiB.
func readFile[T any](path string, read func(io.Reader) (*T, error)) (*T, error) {
	f, err := safefile.Open(path, safefile.ResultLimit)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return read(f)
}

// ReadSetFile reads the result of several processes at path (gcperf
// -count N -json) as ReadSet does, from a file as ReadFile reads one.
func ReadSetFile(path string) (*Set, error) {
	return readFile(path, ReadSet)
}

// ReadSamplesFile reads one side of a comparison from the file at path, a
// gcperf result or a file in the Go benchmark format, as ReadSamples does,
// the Samples naming the file by path. It reads as ReadFile does, and its
// errors are alike: an *fs.PathError naming path for a file it cannot read,
// else an error that does not name it: "empty file" for a file that is
// empty or white space only, or ReadSamples'.
func ReadSamplesFile(path string) (*Samples, error) {
	return ReadSamplesFileContext(context.Background(), path)
}

// ReadSamplesFileContext is ReadSamplesFile stopping at ctx's end (an
// interrupt) with ctx's error, in a file of Go benchmarks, whose hundreds
// of thousands of lines take seconds.
func ReadSamplesFileContext(ctx context.Context, path string) (*Samples, error) {
	data, err := safefile.Read(path, safefile.ResultLimit)
	if err != nil {
		return nil, err
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, errors.New("empty file")
	}
	return readSamples(ctx, bytes.NewReader(data), path)
}
