package main

import (
	"errors"
	"flag"
	"io/fs"

	"github.com/gcperf/gcperf/workload"
	"github.com/gcperf/gcperf/workload/mixfile"
)

// mixUsage is the help of the -mix flag.
const mixUsage = "read operations from `file`, one a line: name key=value ... (# comments, mix other.mix includes another); they come before the command line's"

// registerMix declares -mix on fs.
func registerMix(fs *flag.FlagSet) *string {
	return fs.String("mix", "", mixUsage)
}

// operations is the registry gcperf run and gcperf sweep build operations
// from: the default one, which gcperf list shows. The tests build from a
// copy of it with their own failing operations added, which list does not
// show whatever order the tests run in.
var operations = workload.DefaultRegistry()

// loadMix builds the mix of gcperf run and gcperf sweep (mixfile.Reader.Load)
// and names -mix in the error of a file that cannot be read.
func loadMix(path string, args []string) (workload.Mix, []string, error) {
	mix, text, err := mixfile.Reader{IsFlag: isEngineFlag, Registry: operations}.Load(path, args)
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return nil, nil, usagef("-mix %s: %v", path, pe.Err)
	}
	return mix, text, err
}
