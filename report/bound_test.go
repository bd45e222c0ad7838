package report

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/gcperf/gcperf/workload"
)

// Issue 24, item 17: the starts an open-loop benchmark was due to make
// within its duration and did not are reported, as late starts are.
func TestSkippedStartsReported(t *testing.T) {
	d, _ := readFixture(t, "list.json")
	d.Config.Runs, d.Config.Duration, d.Config.Rate = 0, 2*time.Second, 20000
	d.OpenLoop = &OpenLoop{OpenLoop: workload.OpenLoop{Rate: 20000, Interval: 50 * time.Microsecond, Achieved: 2500,
		MaxLateness: 1750 * time.Millisecond, LateStarts: 4990, SkippedStarts: 35000, Behind: true}}
	for _, tc := range []struct {
		format string
		write  func(*bytes.Buffer) error
		want   string
	}{
		{"text", func(b *bytes.Buffer) error { return Text(b, d) }, "35000 due within the 2.00s of -duration never started (the timed runs end at the duration)"},
		{"json", func(b *bytes.Buffer) error { return JSON(b, d) }, `"skipped_starts": 35000`},
		{"bench", func(b *bytes.Buffer) error { return Bench(b, d) }, "# open loop: 35000 starts due within the 2.00s of -duration never started"},
	} {
		var b bytes.Buffer
		if err := tc.write(&b); err != nil {
			t.Fatalf("%s: %v", tc.format, err)
		}
		if !strings.Contains(b.String(), tc.want) {
			t.Errorf("%s: no %q in\n%s", tc.format, tc.want, b.String())
		}
	}
}

// Issue 24, item 25: the bench header of a benchmark bounded by -duration
// says how many timed runs it made, not the 0 of "no limit".
func TestBenchRunsOfDuration(t *testing.T) {
	d, _ := readFixture(t, "list.json")
	d.Config.Runs, d.Config.Duration = 0, 3*time.Second
	d.Timing.Done = 10833
	var b bytes.Buffer
	if err := Bench(&b, d); err != nil {
		t.Fatal(err)
	}
	if s := b.String(); !strings.Contains(s, " runs=10833\n") || strings.Contains(s, "runs=0\n") {
		t.Errorf("bench header without runs: 10833:\n%s", s)
	}
}

// Issue 24, item 13: the server's line holds the server's figures under
// units of their own: its whole wall time (its shutdown included) is no
// ns/op, which benchstat and compare take for a latency, and compare -fail
// does not judge it; its CPU is the whole run's, not per operation.
func TestServerBenchUnits(t *testing.T) {
	d, _ := readFixture(t, "v1_server.json")
	lines, _ := benchLines(d)
	var srv *benchLine
	for i := range lines {
		if lines[i].op == "server" {
			srv = &lines[i]
		}
	}
	if srv == nil {
		t.Fatal("no server line")
	}
	units := map[string]float64{}
	for _, v := range srv.values {
		units[v.Unit] = v.Value
		if strings.HasSuffix(v.Unit, "/op") {
			t.Errorf("server figure in %s: a per-operation unit, the client's", v.Unit)
		}
	}
	if w, ok := units["wall-sec"]; !ok || w != d.Server.Wall.Seconds() || Better("wall-sec") != 0 {
		t.Errorf("server units %v: want wall-sec %v, a unit compare -fail does not judge", units, d.Server.Wall.Seconds())
	}
	if c := units["cpu-ns"]; c != float64(d.Server.UserCPU+d.Server.SystemCPU) {
		t.Errorf("server cpu-ns %v, want %v", c, d.Server.UserCPU+d.Server.SystemCPU)
	}
	var b bytes.Buffer
	if err := Bench(&b, d); err != nil {
		t.Fatal(err)
	}
	if s := b.String(); strings.Contains(s, "Unit wall-sec") || !strings.Contains(s, "wall-sec its whole wall time") {
		t.Errorf("bench output: want wall-sec defined and without a better direction:\n%s", s)
	}
}
