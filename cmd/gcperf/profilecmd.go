package main

import (
	_ "embed"
	"io"
	"os"

	"github.com/gcperf/gcperf/profiles"
)

// profileCmd summarizes a pprof profile, or compares two:
// gcperf profile [-n N] [-cum] FILE, gcperf profile -diff [-n N] OLD NEW.
func profileCmd(args []string, stdout, stderr io.Writer, sig <-chan os.Signal) int {
	flags := newFlags("profile", profileUsage)
	n := flags.Int("n", 10, "show the top `n` functions")
	cum := flags.Bool("cum", false, "sort by cumulative value (a function and what it calls) instead of flat")
	diff := flags.Bool("diff", false, "compare two profiles, OLD and NEW: the functions whose flat share changed most")
	if code := parseFlags(flags, args, stdout, stderr); code >= 0 {
		return code
	}
	if *n < 1 {
		return fail(stderr, usagef("profile: -n must be at least 1, got %d", *n))
	}
	if *diff && *cum {
		return fail(stderr, usagef("profile: -cum does not go with -diff, which compares flat shares"))
	}
	ctx, release := offlineContext(sig)
	defer release()
	out := ctxWriter{ctx, stdout}
	var work func() error
	switch {
	case *diff && flags.NArg() != 2:
		return fail(stderr, usagef("profile -diff takes two pprof files, OLD and NEW; got %d arguments", flags.NArg()))
	case *diff:
		work = func() error { return profileDiff(out, flags.Arg(0), flags.Arg(1), *n) }
	case flags.NArg() != 1:
		return fail(stderr, usagef("profile takes one pprof file, FILE; got %d arguments", flags.NArg()))
	default:
		work = func() error { return profileTop(out, flags.Arg(0), *n, *cum) }
	}
	_, err := untilDone(ctx, func() (struct{}, error) { return struct{}{}, work() })
	if ctx.Err() != nil {
		return offlineInterrupted(stderr, "profile")
	}
	if err != nil {
		return fail(stderr, err)
	}
	return exitOK
}

//go:embed help/profile.txt
var profileUsage string

// profileTop prints the top of one profile.
func profileTop(w io.Writer, path string, n int, cum bool) error {
	s, err := profiles.Summarize(path, n, cum)
	if err != nil {
		return usagef("profile: %v", err)
	}
	return profiles.WriteTop(w, s, cum)
}

// profileDiff prints the functions whose flat share changed most.
func profileDiff(w io.Writer, oldPath, newPath string, n int) error {
	c, err := profiles.Compare(oldPath, newPath, n)
	if err != nil {
		return usagef("profile: %v", err)
	}
	return profiles.WriteDiff(w, c)
}
