package sweep_test

import (
	"errors"
	"fmt"
	"os"

	"github.com/gcperf/gcperf/sweep"
	"github.com/gcperf/gcperf/target"
)

// One gcperf at a time runs a sweep in a directory: a prepared session
// holds Dir until its Report or Close, and another, in this process or
// another, is refused at once.
func ExampleSession_Close() {
	gogc, _ := sweep.ParseGOGC("50")
	dir, err := os.MkdirTemp("", "sweep-example-")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	session := func() *sweep.Session {
		return &sweep.Session{Grid: sweep.Grid{GOGC: gogc}, Overwrite: true,
			Runner: sweep.Runner{Command: &target.Command{Path: "true"}, Dir: dir, Count: 1}}
	}
	first := session()
	if err := first.Prepare(); err != nil {
		panic(err)
	}
	second := session()
	fmt.Println("while the first holds it:", errors.Is(second.Prepare(), sweep.ErrDirInUse))
	first.Close()
	fmt.Println("after Close:", second.Prepare())
	second.Close()
	// Output:
	// while the first holds it: true
	// after Close: <nil>
}
