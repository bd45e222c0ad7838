package workload

import "testing"

// SleepOnlyOpenLoop makes the open loop wait for each intended start by
// sleeping alone, without the spin on the clock that ends each wait, until
// t ends: for tests that run the engine in a testing/synctest bubble, where
// the clock stands still while a goroutine spins and sleeps wake exactly on
// time. Not for parallel tests.
func SleepOnlyOpenLoop(t testing.TB) {
	old := minSpin
	minSpin = 0
	t.Cleanup(func() { minSpin = old })
}

// What Footprint counts per histogram and per goroutine.
const (
	HistResident  = histResident
	StackResident = stackResident
)

// TailOf is the Tail the engine makes of runs (the runs as a Result keeps
// them), for tests that construct runs.
func TailOf(runs []RunRecord) Tail {
	res := &Result{Runs: runs, Done: len(runs)}
	(&engine{}).attribute(res)
	return res.Tail
}
