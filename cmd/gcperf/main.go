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
)

func main() {
	sig := make(chan os.Signal, 2)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr, sig))
}
