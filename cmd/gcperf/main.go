// Command gcperf measures what the Go garbage collector does to the latency
// and throughput of allocation-heavy code, and sweeps GOGC and GOMEMLIMIT
// to say which setting meets a latency target with the least memory.
//
// "gcperf help" lists the commands (help/gcperf-help.txt), "gcperf COMMAND
// -h" gives each one's manual and flags; README.md has the whole guide.
package main

import (
	"os"
	"os/signal"
	"syscall"

	"github.com/gcperf/gcperf/target"
)

func main() {
	// The orphans of the programs gcperf starts (a double fork, a daemon)
	// come back to gcperf, which stops them with their tree; outside Linux
	// nothing changes. Whatever gcperf started and still runs as it exits
	// (its third interrupt) is killed, with its tree, before it does.
	target.Subreaper()
	code := run(os.Args[1:], os.Stdout, os.Stderr, notifySignals())
	target.KillAll(nil)
	os.Exit(code)
}

// interruptSignals are the signals that interrupt a command, each as one
// Ctrl-C does (interrupt.go): SIGINT, SIGTERM, and SIGHUP, a closed
// terminal or a dropped ssh session. None of them loses what was measured.
var interruptSignals = []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGHUP}

// notifySignals takes the signals gcperf handles from the system: the
// interrupts come on the channel it returns. SIGPIPE is taken too, and
// dropped, so that a write to a closed stdout or stderr (gcperf ... | head
// -1) fails with EPIPE instead of killing gcperf (os/signal: "SIGPIPE"):
// the result files are written all the same, and the command exits 1 for
// what it could not print. A handled signal is reset to its default in the
// programs gcperf starts, which see SIGPIPE as they would without gcperf.
func notifySignals() <-chan os.Signal {
	sig := make(chan os.Signal, 2)
	signal.Notify(sig, interruptSignals...)
	signal.Notify(make(chan os.Signal, 1), syscall.SIGPIPE)
	return sig
}
