//go:build unix

package target_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/gcperf/gcperf/target"
)

// A command's stdout passes through; its stderr is split: the lines the
// filter takes (here, those starting "gc ", as the collector's trace does)
// go to the trace sink, the others to Stderr.
func Example() {
	c := &target.Command{
		Path:    "sh",
		Args:    []string{"-c", `echo hello; echo 'gc 1 @0.010s 1%: ...' >&2; echo warning >&2; exit 3`},
		GOGC:    "200",
		Stdout:  os.Stdout,
		Stderr:  os.Stdout,
		IsTrace: func(line []byte) bool { return bytes.HasPrefix(line, []byte("gc ")) },
		Trace:   func(line []byte) { fmt.Printf("trace: %s\n", line) },
	}
	res, err := c.Run(context.Background(), nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Status())
	fmt.Println("trace lines:", res.TraceLines)
	fmt.Println("GOGC:", res.Settings.GOGC)
	// Output:
	// hello
	// trace: gc 1 @0.010s 1%: ...
	// warning
	// exit status 3
	// trace lines: 1
	// GOGC: 200
}

// A command that cannot be started is ErrNotStarted: nothing ran.
func Example_notStarted() {
	_, err := (&target.Command{Path: "gcperf-no-such-command"}).Run(context.Background(), nil)
	fmt.Println(err)
	fmt.Println(errors.Is(err, target.ErrNotStarted))
	// Output:
	// target: cannot start "gcperf-no-such-command": executable file not found in $PATH
	// true
}
