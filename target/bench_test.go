//go:build linux

package target

import (
	"io"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/gcperf/gcperf/target/gctrace"
)

// BenchmarkOverhead measures what target adds to the command it runs: the
// wall time of a command of about 1 s run through Command.Run, with
// gctrace=1 and its trace read by gctrace.Scanner, over the same command run directly with
// os/exec, without the trace, both writing to the null device. Pairs
// alternate which runs first; the figures are medians. A third run of each
// pair, directly with gctrace=1, tells the trace's own cost (the child's)
// from target's; and the parent's own CPU time during the run through
// target (getrusage of the benchmark's process: the trace's reader, the
// samples, the runtime) says what target costs without the noise of a
// shared machine's clock. GCPERF_BENCH_PAIRS sets the number of pairs
// (default 7).
//
//	go test -run '^$' -bench Overhead -benchtime 1x ./target
//
// The commands: work, a hash computed on one thread (no allocation, no
// collection: the least noisy wall time), and churn, allocating 8000 MiB
// with 16 MiB live (about 450 collections, so as many trace lines, and the
// collector's workers on both cores: the trace reader's worst case and a noisy
// wall time).
func BenchmarkOverhead(b *testing.B) {
	pairs := 7
	if n, err := strconv.Atoi(os.Getenv("GCPERF_BENCH_PAIRS")); err == nil && n > 0 {
		pairs = n
	}
	null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		b.Fatal(err)
	}
	defer null.Close()
	for _, steps := range [][]string{{"work", "600"}, {"churn", "8000"}} {
		b.Run(steps[0], func(b *testing.B) {
			direct := func(trace bool) time.Duration {
				c := helperCommand(steps...)
				cmd := exec.Command(c.Path, c.Args...)
				cmd.Env, cmd.Stdout, cmd.Stderr = c.Env, null, null
				if trace {
					cmd.Env = append(cmd.Env, "GODEBUG=gctrace=1")
				}
				start := time.Now()
				if err := cmd.Run(); err != nil {
					b.Fatal(err)
				}
				return time.Since(start)
			}
			var lines []float64
			var parentCPU []float64 // ms
			through := func() time.Duration {
				c := helperCommand(steps...)
				// The trace read as gcperf reads it: gctrace.Scanner
				// through a pipe (sweep.RunCommand).
				pr, pw := io.Pipe()
				sc := gctrace.NewScanner(pr)
				sc.Other = io.Discard
				scanned := make(chan struct{})
				go func() {
					for sc.Scan() {
					}
					close(scanned)
				}()
				c.Stdout, c.Stderr, c.GCTrace = null, pw, true
				var before, after syscall.Rusage
				syscall.Getrusage(syscall.RUSAGE_SELF, &before)
				start := time.Now()
				res, err := c.Run(b.Context())
				pw.Close()
				<-scanned
				d := time.Since(start)
				syscall.Getrusage(syscall.RUSAGE_SELF, &after)
				if err != nil || !res.Success() {
					b.Fatal(err, res.Status())
				}
				cpu := after.Utime.Nano() + after.Stime.Nano() - before.Utime.Nano() - before.Stime.Nano()
				parentCPU = append(parentCPU, float64(cpu)/1e6)
				lines = append(lines, float64(sc.Counts().Cycles))
				return d
			}
			var ratios, traceRatios, directs, targets []float64
			for b.Loop() {
				for i := range pairs {
					var d, dt, t time.Duration
					if i%2 == 0 {
						d, dt, t = direct(false), direct(true), through()
					} else {
						t, dt, d = through(), direct(true), direct(false)
					}
					ratios = append(ratios, t.Seconds()/d.Seconds())
					traceRatios = append(traceRatios, dt.Seconds()/d.Seconds())
					directs = append(directs, d.Seconds())
					targets = append(targets, t.Seconds())
				}
			}
			b.ReportMetric(median(ratios), "target/direct")
			b.ReportMetric(median(traceRatios), "gctrace/direct")
			b.ReportMetric(median(directs), "direct-s")
			b.ReportMetric(median(targets), "target-s")
			b.ReportMetric(median(parentCPU), "parent-cpu-ms")
			b.ReportMetric(median(lines), "trace-lines")
			b.Logf("target/direct %.3f", ratios)
		})
	}
}

func median(x []float64) float64 {
	s := slices.Clone(x)
	slices.Sort(s)
	if len(s) == 0 {
		return 0
	}
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}
