// Command gcperf measures what the Go garbage collector does to the latency
// and throughput of allocation-heavy code.
//
// Usage:
//
//	gcperf [flags]                 run GCPerfP99's linked-list workload (alloc.list)
//	gcperf run [flags] OP [OP...]  run named operations with their parameters
//	gcperf list                    list the operations and their parameters
//	gcperf env [-json]             print the environment a benchmark would record
//	gcperf report [-format F] FILE re-render a saved JSON result (text, json, csv, xml, bench, hgrm)
//	gcperf compare OLD NEW         compare two results or benchmark-format files (-fail 5% gates)
//	gcperf sweep [flags] [OP...]   run a GOGC × GOMEMLIMIT grid, one child process per point, and advise
//	gcperf profile FILE            the top functions of a pprof file (-diff OLD NEW)
//
// Run "gcperf -h" or "gcperf run -h" for the flags.
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
