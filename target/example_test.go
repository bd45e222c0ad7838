//go:build unix

package target_test

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/gcperf/gcperf/target"
)

// A command runs with the collector settings of the run; its output passes
// through, and the Result says how it ended and with what settings.
func Example() {
	c := &target.Command{
		Path:   "sh",
		Args:   []string{"-c", `echo hello; echo warning >&2; exit 3`},
		GOGC:   "200",
		Stdout: os.Stdout,
		Stderr: os.Stdout,
	}
	res, err := c.Run(context.Background())
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Status())
	fmt.Println("GOGC:", res.Settings.GOGC)
	// Output:
	// hello
	// warning
	// exit status 3
	// GOGC: 200
}

// A server started for as long as the caller needs it: Start returns at
// once, Stop ends it (SIGTERM, then SIGKILL after Grace) and Wait says how.
func ExampleProcess_Stop() {
	c := &target.Command{Path: "sleep", Args: []string{"60"}}
	p, err := c.Start(context.Background())
	if err != nil {
		fmt.Println(err)
		return
	}
	// ... drive load against it ...
	p.Stop()
	res, _ := p.Wait()
	fmt.Println(res.Status(), res.Stopped)
	// Output:
	// killed by SIGTERM target: stopped
}

// A command that cannot be started is ErrNotStarted: nothing ran.
func Example_notStarted() {
	_, err := (&target.Command{Path: "gcperf-no-such-command"}).Run(context.Background())
	fmt.Println(err)
	fmt.Println(errors.Is(err, target.ErrNotStarted))
	// Output:
	// target: cannot start "gcperf-no-such-command": executable file not found in $PATH
	// true
}
