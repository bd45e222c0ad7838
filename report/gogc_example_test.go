package report_test

import (
	"fmt"

	"github.com/gcperf/gcperf/report"
)

// A command run with GOGC=10 whose heap goals say its runtime applied
// GOGC=100: it set its own (debug.SetGCPercent).
func ExampleExec_GOGCNotApplied() {
	x := &report.Exec{
		Settings: report.ExecSettings{GOGC: "10"},
		GC:       &report.ExecGC{Cycles: 40, ImpliedGOGC: 100, ImpliedGOGCLow: 92, ImpliedGOGCHigh: 104, ImpliedGOGCCycles: 38},
	}
	fmt.Println(x.GOGCNotApplied())
	x.GC.ImpliedGOGC, x.GC.ImpliedGOGCLow, x.GC.ImpliedGOGCHigh = 0, 0, 25 // small heaps: wide bounds
	fmt.Printf("%q\n", x.GOGCNotApplied())
	// Output:
	// asked GOGC=10 but the command's heap goals say its runtime applied GOGC≈100 (92 to 104, the goal over the live heap of 38 cycles): does it set its own (debug.SetGCPercent)?
	// ""
}
