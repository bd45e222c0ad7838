package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"text/tabwriter"

	"github.com/gcperf/gcperf/workload"
)

func listCmd(args []string, stdout, stderr io.Writer, _ <-chan os.Signal) int {
	fs := flag.NewFlagSet("list", flag.ContinueOnError)
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), "Usage: gcperf list\n\nLists the operations gcperf run accepts and their parameters.\n")
	}
	if code := parseFlags(fs, args, stdout, stderr); code >= 0 {
		return code
	}
	if fs.NArg() > 0 {
		return fail(stderr, usagef("list takes no arguments, got %q", fs.Arg(0)))
	}
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	for _, s := range workload.Specs() {
		fmt.Fprintf(tw, "%s\t%s\n", s.Name, s.Doc)
		for _, p := range s.Params {
			if p.Default == "" { // a required parameter, or one that is off unless given
				fmt.Fprintf(tw, "  -%s %s\t%s\n", p.Name, p.Kind, p.Doc)
				continue
			}
			fmt.Fprintf(tw, "  -%s %s\t%s (default %s)\n", p.Name, p.Kind, p.Doc, p.Default)
		}
	}
	if err := tw.Flush(); err != nil {
		return fail(stderr, err)
	}
	return exitOK
}
