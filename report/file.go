package report

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// ErrExists is returned by WriteFile for an existing file when overwriting
// was not asked for.
var ErrExists = errors.New("file exists (use -overwrite to replace it)")

// WriteFile writes a report to path through a temporary file in the same
// directory, renamed into place once complete, so that a crash or an error
// never leaves half a report. path "-" writes to stdout instead.
func WriteFile(path string, stdout io.Writer, overwrite bool, write func(io.Writer) error) (err error) {
	if path == "-" {
		return write(stdout)
	}
	if !overwrite {
		if _, err := os.Lstat(path); err == nil {
			return fmt.Errorf("%s: %w", path, ErrExists)
		} else if !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	if err := write(f); err != nil {
		return err
	}
	if err := f.Sync(); err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := os.Chmod(f.Name(), 0o644); err != nil {
		return err
	}
	return os.Rename(f.Name(), path)
}
