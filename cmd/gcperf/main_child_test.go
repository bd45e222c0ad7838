package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gcperf/gcperf/workload"
)

// isTestChild is set when this test binary runs as a sweep's child.
var isTestChild bool

// TestMain lets gcperf sweep's tests use this test binary as the child
// (os.Executable): with GCPERF_TEST_CHILD=1 in its environment, which the
// tests set in their own and the sweep passes on, it is gcperf instead of
// the tests. With GCPERF_TEST_COUNTER set, each child first appends the base
// name of its -json file to that file, so that a test can tell which points
// ran. With GCPERF_PLAIN_LIST set, it is the plain loop that
// BenchmarkBinaryListRatio compares the gcperf binary with (runPlainList).
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == serverChildArg {
		os.Exit(runServerChild(os.Args[2:]))
	}
	if spec := os.Getenv(plainListEnv); spec != "" {
		os.Exit(runPlainList(spec))
	}
	if v := os.Getenv(execChildEnv); v != "" {
		os.Exit(runExecChild(v))
	}
	registerTestOps()
	if os.Getenv("GCPERF_TEST_CHILD") == "1" {
		isTestChild = true
		if c := os.Getenv("GCPERF_TEST_COUNTER"); c != "" {
			for i, a := range os.Args {
				if a == "-json" && i+1 < len(os.Args) {
					f, err := os.OpenFile(c, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
					if err == nil {
						fmt.Fprintln(f, filepath.Base(os.Args[i+1]))
						f.Close()
					}
				}
			}
		}
		// Interrupts as main takes them: a sweep stops a child loading
		// a server with SIGTERM, for it to stop its server.
		os.Exit(run(os.Args[1:], os.Stdout, os.Stderr, notifySignals()))
	}
	// A child re-executed without a child mode (a sweep run by a test
	// that forgot sweepTest) would run every test again, and its sweeps
	// their children: a fork bomb. Refuse it.
	worker := slices.ContainsFunc(os.Args, func(a string) bool { return strings.HasPrefix(a, "-test.fuzzworker") })
	if os.Getenv("GCPERF_TEST_PARENT") == "1" && !worker {
		fmt.Fprintln(os.Stderr, "gcperf's test binary re-executed without a child mode (GCPERF_TEST_CHILD=1, sweepTest)")
		os.Exit(99)
	}
	os.Setenv("GCPERF_TEST_PARENT", "1")
	os.Exit(m.Run())
}

var testOpsOnce sync.Once

// registerTestOps registers the operations that make a sweep's point fail,
// in the test binary only, in a copy of the default registry that gcperf run
// and sweep build from (operations) and gcperf list does not show, so that
// list's golden file never sees them:
//
//   - test.crash exits with status 3 on its first run;
//   - test.hang never returns;
//   - test.grow allocates, and keeps, 1MiB a millisecond;
//   - test.setgogc sets GOGC to 37 with runtime/debug when built, in a
//     child: a workload that changes the settings the sweep asked for.
//
// Each misbehaves only in a child whose GOGC equals the environment
// variable GCPERF_TEST_CRASH, _HANG, _GROW or _SETGOGC, or in every child
// when that variable is not set.
func registerTestOps() {
	testOpsOnce.Do(func() {
		reg := workload.DefaultRegistry().Clone()
		for _, s := range []struct {
			name, env string
			run       func()
		}{
			{"test.crash", "GCPERF_TEST_CRASH", func() {
				fmt.Fprintln(os.Stderr, "test.crash: exiting with status 3 on purpose")
				os.Exit(3)
			}},
			{"test.hang", "GCPERF_TEST_HANG", func() {
				fmt.Fprintln(os.Stderr, "test.hang: hanging on purpose")
				for {
					time.Sleep(time.Hour)
				}
			}},
			{"test.grow", "GCPERF_TEST_GROW", func() {
				fmt.Fprintln(os.Stderr, "test.grow: growing on purpose")
				for {
					b := make([]byte, 1<<20)
					for i := range b {
						b[i] = 1
					}
					grown = append(grown, b) // a package variable: nothing may drop it
					time.Sleep(time.Millisecond)
				}
			}},
		} {
			reg.MustRegister(workload.Spec{
				Name: s.name,
				Doc:  "test only",
				New: func(workload.Params) (workload.Operation, error) {
					return &testOp{name: s.name, env: s.env, misbehave: s.run}, nil
				},
			})
		}
		reg.MustRegister(workload.Spec{
			Name: "test.setgogc",
			Doc:  "test only",
			New: func(workload.Params) (workload.Operation, error) {
				if isTestChild && misbehaves("GCPERF_TEST_SETGOGC") {
					debug.SetGCPercent(37)
				}
				return &testOp{name: "test.setgogc"}, nil
			},
		})
		operations = reg
	})
}

// misbehaves reports whether a test operation misbehaves in this child.
func misbehaves(env string) bool {
	v, ok := os.LookupEnv(env)
	return !ok || v == os.Getenv("GOGC")
}

type testOp struct {
	name, env string
	misbehave func()
}

func (o *testOp) Name() string { return o.name }

func (o *testOp) Run(context.Context, *workload.Probe) error {
	if o.misbehave != nil && isTestChild && misbehaves(o.env) {
		o.misbehave()
	}
	return nil
}

// grown keeps what the growing test child allocates alive.
var grown [][]byte
