package profiles

import (
	"fmt"
	"path/filepath"
	"slices"

	"github.com/gcperf/gcperf/internal/safefile"
)

// ErrExists is wrapped by Check's error for a file that exists when
// overwriting was not asked for.
var ErrExists = safefile.ErrExists

// Check checks requests before anything runs, so that a benchmark never
// runs only to find that it cannot write its profiles: every kind is known
// and asked for once, no two requests share a file (compared by resolved
// path and by identity), no file exists unless overwrite, and even then
// none is anything but a regular file, and a file can be created in each
// directory (Check creates and removes one). Its errors are one line naming
// the path.
func Check(reqs []Request, overwrite bool) error {
	if err := validate(reqs); err != nil {
		return err
	}
	outs := make([]safefile.Output, len(reqs))
	for i, r := range reqs {
		outs[i] = safefile.Output{Path: r.Path}
	}
	return safefile.Check(outs, overwrite)
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
