package sweep

import (
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/gcperf/gcperf/report"
)

func TestFailureRoundTrip(t *testing.T) {
	// Every failure, as sweep.json holds it, reads back with the reason
	// it was written with.
	tests := []Failure{
		{},
		failure(NotStarted, "cannot create its log: %v", "disk full"),
		failure(NotStarted, "cannot start %s: %v", "/x/gcperf", "no such file"),
		failure(Exited, "exit status 3"),
		failure(Killed, "killed by SIGKILL (out of memory?)"),
		failure(TimedOut, "exceeded the point timeout 2s (10× the longest repeat ...)"),
		failure(OverMemory, "exceeded the memory cap: RSS 70MiB > 64MiB"),
		failure(NoResult, "exited without writing its result"),
		failure(NotApplied, "asked GOGC=50 but the child ran with GOGC=37"),
		failure(TimedOut, "exceeded the point timeout 2s").Note("its log x could not be written: disk full"),
		{Reason: Other, Text: "an older gcperf's words"},
		{Reason: Exited}, // no text
	}
	for _, f := range tests {
		b, err := json.Marshal(Outcome{Failed: f})
		if err != nil {
			t.Fatal(err)
		}
		if f.IsZero() == strings.Contains(string(b), `"failed"`) {
			t.Errorf("%q: JSON %s (the zero failure is left out, any other is there)", f.Text, b)
		}
		if want := `"reason":"` + f.Reason.String() + `"`; !f.IsZero() && !strings.Contains(string(b), want) {
			t.Errorf("%q: JSON %s, want %s", f.Text, b, want)
		}
		var back Outcome
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatal(err)
		}
		if back.Failed != f {
			t.Errorf("%q: read back as %+v, want %+v", f.Text, back.Failed, f)
		}
	}
}

// TestFailureReworded: the reason is a field, set where the failure
// happened; no text decides it. The same reasons with other words read
// back as they were written.
func TestFailureReworded(t *testing.T) {
	for r := NotStarted; r <= Other; r++ {
		for _, text := range []string{"exit status 3", "the point ran too long", "asked GOGC=50 but", ""} {
			f := Failure{Reason: r, Text: text}
			b, err := json.Marshal(f)
			if err != nil {
				t.Fatal(err)
			}
			var back Failure
			if err := json.Unmarshal(b, &back); err != nil {
				t.Fatal(err)
			}
			if back != f {
				t.Errorf("%s: read back as %+v, want %+v", b, back, f)
			}
		}
	}
	// A gcperf child's own failure, in its result: its reason is kept,
	// whatever its words.
	d := &report.Document{Failed: failure(OverMemory, "la mémoire du serveur a débordé").Document()}
	if f, ok := documentFailure(d); !ok || f.Reason != OverMemory || f.Text != d.Failed.Text {
		t.Errorf("the document's failure read as %+v, %v", f, ok)
	}
}

// The reasons of a child's exit come from the kernel's status, not from
// its words.
func TestExitFailure(t *testing.T) {
	tests := []struct {
		argv []string
		want Failure
	}{
		{[]string{"sh", "-c", "exit 3"}, Failure{Exited, "exit status 3"}},
		{[]string{"sh", "-c", "kill -SEGV $$"}, Failure{Killed, "killed by SIGSEGV (segmentation fault)"}},
		{[]string{"sh", "-c", "kill -KILL $$"}, Failure{Killed, "killed by SIGKILL (out of memory?)"}},
	}
	for _, tt := range tests {
		err := exec.Command(tt.argv[0], tt.argv[1:]...).Run()
		if got := exitFailure(err); got != tt.want {
			t.Errorf("%q: %+v, want %+v", tt.argv, got, tt.want)
		}
	}
	if got := exitFailure(errors.New("odd")); got.Reason != Other {
		t.Errorf("another error: %+v", got)
	}
	if got := signalFailure(syscall.Signal(60)); got.Reason != Killed {
		t.Errorf("signal 60: %+v", got)
	}
}

// A sweep.json written before reasons were stored (testdata/before-reasons,
// by gcperf at af12b31) holds the failures' texts alone: they load with
// the reason Other and their texts, and are written back with both.
func TestSummaryBeforeReasons(t *testing.T) {
	f, err := os.Open(filepath.Join("testdata", "before-reasons", SummaryFile))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	s, err := ReadSummary(f)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Outcomes) != 2 {
		t.Fatalf("%d outcomes", len(s.Outcomes))
	}
	for _, o := range s.Outcomes {
		if want := (Failure{Other, "exceeded the point timeout 1ms"}); o.Failed != want {
			t.Errorf("%s: %+v, want %+v", o.Point.Name(), o.Failed, want)
		}
	}
	b, err := json.Marshal(s.Outcomes[0])
	if err != nil {
		t.Fatal(err)
	}
	if want := `"failed":{"reason":"other","text":"exceeded the point timeout 1ms"}`; !strings.Contains(string(b), want) {
		t.Errorf("written back as %s, want %s", b, want)
	}
}

func TestReasonString(t *testing.T) {
	for r := NotFailed; r <= Other; r++ {
		if s := r.String(); s == "" || strings.HasPrefix(s, "Reason(") {
			t.Errorf("Reason %d has no name", int(r))
		}
		if r > NotFailed && reasonNamed(r.String()) != r {
			t.Errorf("%v: named back as %v", r, reasonNamed(r.String()))
		}
	}
	if s := Reason(99).String(); s != "Reason(99)" {
		t.Errorf("Reason(99) = %q", s)
	}
	if r := reasonNamed("a later gcperf's reason"); r != Other {
		t.Errorf("an unknown name: %v", r)
	}
}
