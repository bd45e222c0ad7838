package main

import (
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
)

// versionLine is what gcperf -version prints: gcperf's version, the
// module version and commit it was built from where the build recorded
// them (go install's module version, a clone's VCS stamp), and the Go
// toolchain, with its GOEXPERIMENT, and platform.
func versionLine() string {
	s := "gcperf " + version
	if bi, ok := debug.ReadBuildInfo(); ok {
		if v := bi.Main.Version; v != "" && v != "(devel)" {
			s += " (module " + v + ")"
		}
		var rev, dirty string
		for _, kv := range bi.Settings {
			switch kv.Key {
			case "vcs.revision":
				rev = kv.Value
			case "vcs.modified":
				if kv.Value == "true" {
					dirty = ", modified"
				}
			}
		}
		if len(rev) > 12 {
			rev = rev[:12]
		}
		if rev != "" {
			s += " (commit " + rev + dirty + ")"
		}
	}
	return s + ", " + runtime.Version() + " " + runtime.GOOS + "/" + runtime.GOARCH
}

// printVersion writes versionLine to w.
func printVersion(w io.Writer, stderr io.Writer) int {
	if _, err := fmt.Fprintln(w, versionLine()); err != nil {
		return fail(stderr, fmt.Errorf("writing the version: %w", err))
	}
	return exitOK
}
