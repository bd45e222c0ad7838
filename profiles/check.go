package profiles

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
)

// ErrExists is wrapped by Check's error for a file that exists when
// overwriting was not asked for.
var ErrExists = errors.New("file exists (use -overwrite to replace it)")

// Check checks requests before anything runs, so that a benchmark never
// runs only to find that it cannot write its profiles: every kind is known
// and asked for once, no two requests share a file, no file is a directory
// or (unless overwrite) an existing file, and a file can be created in each
// directory (Check creates and removes one). Its errors are one line naming
// the path.
func Check(reqs []Request, overwrite bool) error {
	if err := validate(reqs); err != nil {
		return err
	}
	checked := map[string]bool{}
	for _, r := range reqs {
		if fi, err := os.Stat(r.Path); err == nil && fi.IsDir() {
			return fmt.Errorf("%s: is a directory", r.Path)
		}
		if _, err := os.Lstat(r.Path); err == nil && !overwrite {
			return fmt.Errorf("%s: %w", r.Path, ErrExists)
		}
		dir := filepath.Dir(r.Path)
		if checked[dir] {
			continue
		}
		checked[dir] = true
		f, err := os.CreateTemp(dir, "."+filepath.Base(r.Path)+".check*")
		if err != nil {
			return fmt.Errorf("%s: cannot write there: %v", r.Path, cause(err))
		}
		f.Close()
		os.Remove(f.Name())
	}
	return nil
}

// validate checks what Start needs as well as Check: known kinds, each
// asked for once, and distinct, non-empty paths.
func validate(reqs []Request) error {
	kinds := map[Kind]string{}
	paths := map[string]Kind{}
	for _, r := range reqs {
		if r.Path == "" {
			return fmt.Errorf("%s profile: no file named", r.Kind)
		}
		if !slices.Contains(Kinds, r.Kind) {
			return fmt.Errorf("%s: unknown profile kind %q", r.Path, r.Kind)
		}
		if p, ok := kinds[r.Kind]; ok {
			return fmt.Errorf("%s: a second %s profile (the first goes to %s)", r.Path, r.Kind, p)
		}
		kinds[r.Kind] = r.Path
		key, err := filepath.Abs(r.Path)
		if err != nil {
			key = filepath.Clean(r.Path)
		}
		if k, ok := paths[key]; ok {
			return fmt.Errorf("%s: the same file for the %s and %s profiles", r.Path, k, r.Kind)
		}
		paths[key] = r.Kind
	}
	return nil
}
