package sweep_test

import (
	"context"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/gcperf/gcperf/sweep"
	"github.com/gcperf/gcperf/target"
)

// A grid's points run by a Runner under a context, each repeat in a fresh
// process with the point's settings in its environment: here the command
// true, whose figures are its own (a Runner without Command runs gcperf's
// benchmark instead). Cancelling ctx stops the running point.
func Example() {
	ctx := context.Background()
	gogc, err := sweep.ParseGOGC("50,100,off")
	if err != nil {
		panic(err)
	}
	dir, err := os.MkdirTemp("", "sweep-example-")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)

	r := &sweep.Runner{Command: &target.Command{Path: "true"}, Dir: dir, Count: 2}
	outs, err := r.Run(ctx, sweep.Grid{GOGC: gogc}.Points())
	if err != nil {
		panic(err)
	}
	rows := sweep.Summarize(outs)
	sweep.MarkFrontier(rows)
	for _, row := range rows {
		fmt.Printf("%s: %d of %d repeats ok\n", row.Point.Settings(), row.OK(), row.Reps)
	}
	// Output:
	// GOGC=50 GOMEMLIMIT=off: 2 of 2 repeats ok
	// GOGC=100 GOMEMLIMIT=off: 2 of 2 repeats ok
	// GOGC=off GOMEMLIMIT=off: 2 of 2 repeats ok
}

// A whole sweep as gcperf sweep runs it, without flags or signals: checks,
// the plan in Dir (for Resume), the points under a context, then the
// table on stdout (discarded here) and the sweep's files in Dir. What it
// has to say reaches Observe as events.
func ExampleSession_Run() {
	gogc, _ := sweep.ParseGOGC("50,100")
	dir, err := os.MkdirTemp("", "sweep-example-")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)

	var said []sweep.EventKind
	s := &sweep.Session{
		Grid:    sweep.Grid{GOGC: gogc},
		Runner:  sweep.Runner{Command: &target.Command{Path: "true"}, Dir: dir, Count: 1},
		Observe: func(e sweep.Event) { said = append(said, e.Kind) },
	}
	if err := s.Prepare(); err != nil {
		panic(err)
	}
	defer s.Close() // Dir's lock, which Run releases when done
	failed, err := s.Run(context.Background(), time.Now(), io.Discard)
	fmt.Println("failed:", failed, err)
	fmt.Println("events:", said[0] == sweep.Started, said[len(said)-1] == sweep.Written)
	plan, _ := sweep.ReadPlan(dir)
	fmt.Println("plan:", plan.Command, plan.Grid.GOGC, plan.Count)
	// Output:
	// failed: false <nil>
	// events: true true
	// plan: [true] [50 100] 1
}
