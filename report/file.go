package report

import (
	"io"

	"github.com/gcperf/gcperf/internal/safefile"
)

// ErrExists is wrapped by WriteFile's error for an existing file when
// overwriting was not asked for.
var ErrExists = safefile.ErrExists

// ErrNotRegular is wrapped by WriteFile's error for a path that exists and
// is not a regular file (a device, a named pipe, a directory, a symbolic
// link): WriteFile never replaces one, even when overwriting.
var ErrNotRegular = safefile.ErrNotRegular

// WriteFile writes a report to path whole or not at all: through a
// temporary file in the same directory, synced and renamed into place once
// complete, so that a crash or an error never leaves half a report (the
// temporary file is removed on every error path). path "-" writes to stdout
// instead. Its errors name path.
func WriteFile(path string, stdout io.Writer, overwrite bool, write func(io.Writer) error) error {
	return safefile.Write(path, stdout, overwrite, write)
}
