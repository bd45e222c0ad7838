//go:build unix

package sweep_test

import (
	"context"
	"fmt"
	"os"

	"github.com/gcperf/gcperf/report"
	"github.com/gcperf/gcperf/sweep"
	"github.com/gcperf/gcperf/target"
)

// RunCommand runs a user's command once, through package target, with the
// settings of the run, and returns its document: how it ended, its memory
// and, for a Go program, its collector (from GODEBUG=gctrace=1).
func ExampleRunCommand() {
	c := target.Command{
		Path:   "sh",
		Args:   []string{"-c", "echo hello; exit 3"},
		GOGC:   "200",
		Stdout: os.Stdout,
	}
	doc, err := sweep.RunCommand(context.Background(), c, report.Meta{Version: "example"})
	if err != nil {
		fmt.Println(err)
		return
	}
	x := doc.Exec
	fmt.Println(x.Status, x.Success, x.Settings.GOGC)
	// Output:
	// hello
	// exit status 3 false 200
}
