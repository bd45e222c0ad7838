package safefile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// An Output is one file a command will write.
type Output struct {
	// Label is what an error names the output by, such as "-json r.json"
	// or "-out d: d/result.json"; the path when empty.
	Label string
	// Path is the file; "-" (stdout) is not checked.
	Path string
	// Replace lets this output replace an existing regular file whatever
	// Check's overwrite says: a file the command owns, such as a sweep's
	// sweep.json in its own directory.
	Replace bool
}

func (o Output) label() string {
	if o.Label == "" {
		return o.Path
	}
	return o.Label
}

// Check checks, before anything runs, every output a command will write,
// so that a long benchmark is never lost at the end: each may be written
// (missing, or with overwrite a regular file: see Write), no two are the
// same file, and a file can be created in each directory (Check creates
// and removes one). dirs are the directories the command will create when
// missing (-out DIR, -profile DIR), each with its label: their outputs'
// directory may not exist yet, and they must be directories when they
// exist (a link to one will do). Check creates nothing; its error is one
// line naming the output's label.
func Check(outs []Output, overwrite bool, dirs ...Output) error {
	planned := map[string]bool{}
	for _, d := range dirs {
		st, err := os.Stat(d.Path)
		switch {
		case errors.Is(err, fs.ErrNotExist):
		case err != nil:
			return fmt.Errorf("%s: %w", d.label(), Cause(err))
		case !st.IsDir():
			return fmt.Errorf("%s: not a directory", d.label())
		}
		planned[resolve(d.Path)] = true
	}
	type seen struct {
		label string
		info  fs.FileInfo // nil when the file does not exist
	}
	byPath := map[string]seen{}
	var existing []seen
	checked := map[string]bool{}
	for _, o := range outs {
		if o.Path == "-" || o.Path == "" {
			continue
		}
		if err := target(o.Path, overwrite || o.Replace); err != nil {
			return fmt.Errorf("%s: %w", o.label(), err)
		}
		key := resolve(o.Path)
		if prev, dup := byPath[key]; dup {
			return fmt.Errorf("%s: %w as %s", o.label(), ErrSameFile, prev.label)
		}
		s := seen{label: o.label()}
		if st, err := os.Stat(o.Path); err == nil {
			for _, e := range existing {
				if os.SameFile(e.info, st) {
					return fmt.Errorf("%s: %w as %s", o.label(), ErrSameFile, e.label)
				}
			}
			s.info = st
			existing = append(existing, s)
		}
		byPath[key] = s
		dir := filepath.Dir(key)
		if checked[dir] || planned[dir] {
			continue
		}
		checked[dir] = true
		if err := canWrite(filepath.Dir(o.Path)); err != nil {
			return fmt.Errorf("%s: cannot write there: %w", o.label(), err)
		}
	}
	return nil
}

// resolve returns path absolute, with the symbolic links of its longest
// existing prefix followed, so that two spellings of one file (a/../b,
// a link to a directory) compare equal. The last element itself is not
// followed: a link there is refused by Check anyway.
func resolve(path string) string {
	// The directory as given, before any cleaning: "L/../y" where L links
	// to real/deep is real/y, which filepath.Abs, cleaning lexically,
	// would take for ./y.
	if i := strings.LastIndexByte(path, filepath.Separator); i >= 0 {
		if r, err := filepath.EvalSymlinks(path[:i+1]); err == nil {
			if abs, err := filepath.Abs(r); err == nil {
				return filepath.Join(abs, path[i+1:])
			}
		}
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return filepath.Clean(path)
	}
	dir, rest := filepath.Dir(abs), filepath.Base(abs)
	for {
		if r, err := filepath.EvalSymlinks(dir); err == nil {
			return filepath.Join(r, rest)
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return abs
		}
		rest = filepath.Join(filepath.Base(dir), rest)
		dir = parent
	}
}

// MakeDir creates dir when missing and checks that files can be created in
// it. Its errors do not name dir: "not a directory", "permission denied",
// "cannot write there: ...".
func MakeDir(dir string) error {
	if st, err := os.Stat(dir); err == nil && !st.IsDir() {
		return errors.New("not a directory")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return Cause(err)
	}
	if err := canWrite(dir); err != nil {
		return fmt.Errorf("cannot write there: %w", err)
	}
	return nil
}

// canWrite checks that a file can be created in dir, by creating one.
func canWrite(dir string) error {
	f, err := os.CreateTemp(dir, ".gcperf-check*")
	if err != nil {
		return Cause(err)
	}
	f.Close()
	os.Remove(f.Name())
	return nil
}
