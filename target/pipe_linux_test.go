package target

import (
	"io"
	"os/exec"
	"testing"
	"time"
)

// TestNextPoll: the polls keep their pace for a trickle (a trace), back
// off when idle, and come faster while the child writes more than a
// quarter of the pipe between two of them (issue 24, item 11).
func TestNextPoll(t *testing.T) {
	const size = 1 << 20
	for _, tc := range []struct {
		delay time.Duration
		n     int
		want  time.Duration
	}{
		{pollAfterData, 2000, pollAfterData},         // a trace: the same pace
		{pollAfterData, 0, 2 * pollAfterData},        // idle: backing off
		{pollIdle, 0, pollIdle},                      // at most
		{pollIdle, 100, pollAfterData},               // output again
		{pollAfterData, size / 4, pollAfterData / 4}, // fast: cut by four
		{pollAfterData, size, pollAfterData / 4},     // full
		{pollFast, size, pollFast},                   // at least
		{pollFast, size/4 - 1, 2 * pollFast},         // slower: doubling again
		{pollAfterData / 2, 1000, pollAfterData},     // up to pollAfterData
	} {
		if got := nextPoll(tc.delay, tc.n, size); got != tc.want {
			t.Errorf("nextPoll(%v, %d) = %v, want %v", tc.delay, tc.n, got, tc.want)
		}
	}
}

// TestOutputKeepsUp: a child writing 128MiB through a pipe that target
// copies is not held up by the polls: it takes far less than the 1.28s
// that a 1MiB pipe read every 10ms would allow (best of three, against
// the same child with its output read by os/exec).
func TestOutputKeepsUp(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 128MiB three times")
	}
	const size = "134217728"
	best, direct := time.Hour, time.Hour
	for range 3 {
		c := helperCommand("print", size)
		c.Stdout = struct{ io.Writer }{io.Discard} // not a file: through a pipe
		start := time.Now()
		res, err := c.Run(t.Context())
		if err != nil || !res.Success() {
			t.Fatal(err, res.Status())
		}
		best = min(best, time.Since(start))

		cmd := exec.Command(c.Path, c.Args...)
		cmd.Env, cmd.Stdout = c.Env, struct{ io.Writer }{io.Discard}
		start = time.Now()
		if err := cmd.Run(); err != nil {
			t.Fatal(err)
		}
		direct = min(direct, time.Since(start))
	}
	t.Logf("128MiB through target: %v; through os/exec's pipe: %v", best, direct)
	if best > max(time.Second, 3*direct) {
		t.Errorf("128MiB through target took %v (os/exec's pipe: %v)", best, direct)
	}
}
