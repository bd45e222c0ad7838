package main

import (
	"regexp"
	"runtime"
	"strings"
	"testing"
)

// gcperf help COMMAND prints what gcperf COMMAND -h prints, for every
// command, and gcperf help gcperf what gcperf -h prints.
func TestHelpCommand(t *testing.T) {
	names := []string{"gcperf"}
	for name := range commands {
		if name != "help" {
			names = append(names, name)
		}
	}
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			args := []string{name, "-h"}
			if name == "gcperf" {
				args = []string{"-h"}
			}
			wantCode, want, _ := gcperf(t, nil, args...)
			code, got, stderr := gcperf(t, nil, "help", name)
			if code != wantCode || code != 0 || stderr != "" {
				t.Fatalf("gcperf help %s: exit %d (want %d), stderr %q", name, code, wantCode, stderr)
			}
			if got != want || !strings.HasPrefix(got, "Usage: gcperf") {
				t.Errorf("gcperf help %s printed\n%.300s\nwant what %v prints:\n%.300s", name, got, args, want)
			}
		})
	}
}

// The lists of commands in gcperf help and gcperf -h name every command.
func TestHelpListsEveryCommand(t *testing.T) {
	for _, args := range [][]string{{"help"}, {"-h"}} {
		_, stdout, _ := gcperf(t, nil, args...)
		for name := range commands {
			if !strings.Contains(stdout, "gcperf "+name+" ") && !strings.Contains(stdout, "gcperf "+name+"\n") {
				t.Errorf("gcperf %s does not list gcperf %s", strings.Join(args, " "), name)
			}
		}
		if !strings.Contains(stdout, "-version") {
			t.Errorf("gcperf %s does not mention -version", strings.Join(args, " "))
		}
	}
}

func TestHelpBadUsage(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want *regexp.Regexp
	}{
		{[]string{"help", "nope"}, regexp.MustCompile(`^gcperf: help: no command "nope" \(gcperf help lists them\)\n$`)},
		{[]string{"help", "run", "sweep"}, regexp.MustCompile(`^gcperf: help: one command at most: gcperf help \[COMMAND\]\n$`)},
	} {
		code, stdout, stderr := gcperf(t, nil, tt.args...)
		if code != exitUsage || stdout != "" || !tt.want.MatchString(stderr) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2 and %v", tt.args, code, stdout, stderr, tt.want)
		}
	}
}

// gcperf -version prints one line: gcperf's version and the Go that built
// it, as every report's first line names the version.
func TestVersion(t *testing.T) {
	code, stdout, stderr := gcperf(t, nil, "-version")
	want := regexp.MustCompile(`^gcperf ` + regexp.QuoteMeta(version) + `( \([^)]*\))*, ` + regexp.QuoteMeta(runtime.Version()) + ` \S+/\S+\n$`)
	if code != 0 || stderr != "" || !want.MatchString(stdout) {
		t.Errorf("exit %d, stdout %q, stderr %q; want %v", code, stdout, stderr, want)
	}
}
