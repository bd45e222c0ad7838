package main

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"github.com/gcperf/gcperf/internal/quote"
	"io"
	"os"

	"github.com/gcperf/gcperf/env"
	"github.com/gcperf/gcperf/report"
)

// envCmd prints the environment a benchmark would record.
func envCmd(args []string, stdout, stderr io.Writer, _ <-chan os.Signal) int {
	fs := newFlags("env", envUsage)
	asJSON := fs.Bool("json", false, "print the environment as JSON, as a result's \"env\" key holds it")
	if code := parseFlags(fs, args, stdout, stderr); code >= 0 {
		return code
	}
	if fs.NArg() > 0 {
		return fail(stderr, usagef("env takes no arguments, got %q", fs.Arg(0)))
	}
	e, err := env.Capture(context.Background(), "/")
	if err != nil {
		// The Go settings and the build always come from the process
		// itself: there is always something to print.
		fmt.Fprintf(stderr, "gcperf: warning: the environment is incomplete: %v\n", quote.OneLine(err))
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(e); err != nil {
			return fail(stderr, err)
		}
		return exitOK
	}
	if err := report.EnvText(stdout, e); err != nil {
		return fail(stderr, err)
	}
	return exitOK
}

//go:embed help/env.txt
var envUsage string
