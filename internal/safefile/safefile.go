// Package safefile is how gcperf reads and writes the files a user names,
// so that a benchmark never loses what it measured and never destroys what
// it should not:
//
//   - every output is checked before anything runs ([Check]): an existing
//     file is refused unless overwriting was asked for, and even then only a
//     regular file is replaced (never a device, a named pipe, a directory
//     or a symbolic link, dangling or not); no two outputs name the same
//     file, compared by resolved path (symbolic links followed) and by
//     identity ([os.SameFile]); each directory can be written;
//   - every output is written to a temporary file in its directory and
//     renamed into place ([Write]), so a crash never leaves half a file; a
//     temporary file is removed on every error path; it belongs to the
//     write that made it ([Temp]), and an owner that may have to stop at
//     once while its writes are under way keeps them in a [Temps], whose
//     Remove removes its own and no other's;
//   - every input is read from a regular file, up to a size limit ([Read]),
//     so that /dev/zero or a runaway file is one clear error, not an
//     out-of-memory crash.
//
// The same rules apply when the file is checked and when it is written:
// both look at the path itself (os.Lstat), not at what a link points to.
// Its errors name the path and wrap [ErrExists], [ErrNotRegular] or
// [ErrTooLarge]; the command adds the flag.
package safefile

import "errors"

var (
	// ErrExists is an output that exists when overwriting was not asked for.
	ErrExists = errors.New("file exists")
	// ErrNotRegular is a path that exists and is not a regular file: a
	// directory, a device, a named pipe, a socket or a symbolic link.
	ErrNotRegular = errors.New("not a regular file")
	// ErrTooLarge is an input larger than the limit its reader sets.
	ErrTooLarge = errors.New("file too large")
	// ErrSameFile is two outputs of one command naming the same file.
	ErrSameFile = errors.New("the same file")
)

// WithOverwrite is err's text, saying that -overwrite replaces the file
// when err is about an output that exists (ErrExists): the hint every
// gcperf command gives.
func WithOverwrite(err error) string {
	if errors.Is(err, ErrExists) {
		return err.Error() + " (use -overwrite to replace it)"
	}
	return err.Error()
}
