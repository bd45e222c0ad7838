package safefile

import (
	"fmt"
	"os"
)

// IncompleteSuffix ends the name of a file that is being streamed
// (CreateIncomplete): FILE.incomplete until it is complete and renamed
// FILE.
const IncompleteSuffix = ".incomplete"

// CreateIncomplete creates the file of the output at path that is
// streamed while a command runs (-runlog, -hlog), after checking path as
// CreateTemp does: visibly, at path+IncompleteSuffix, readable as it
// grows, so that what was streamed is there under a name that says it is
// incomplete should gcperf be killed (SIGKILL, the one exit no process
// can clean up after). Commit renames it to path; Abort removes it. An
// existing path+IncompleteSuffix (a killed run's) is kept unless
// overwrite, as path is.
func CreateIncomplete(path string, overwrite bool) (*Temp, error) {
	if err := target(path, overwrite); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	name := path + IncompleteSuffix
	if err := target(name, overwrite); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	flag := os.O_WRONLY | os.O_CREATE | os.O_EXCL | nofollow
	if overwrite {
		// Checked to be a regular file, or missing.
		flag = os.O_WRONLY | os.O_CREATE | os.O_TRUNC | nofollow
	}
	f, err := os.OpenFile(name, flag, 0o644)
	if err != nil {
		return nil, fmt.Errorf("%s: cannot write there: %w", path, Cause(err))
	}
	return &Temp{File: f, path: path, overwrite: overwrite}, nil
}
