package sweep

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestFailureRoundTrip(t *testing.T) {
	// Every text the runner writes, as sweep.json holds it, reads back
	// as the reason it was written with.
	tests := []Failure{
		{},
		failure(NotStarted, "cannot create its log: %v", "disk full"),
		failure(NotStarted, "cannot start %s: %v", "/x/gcperf", "no such file"),
		ParseFailure(exitReason(errString("exit status 3"))),
		failure(Exited, "exit status 3"),
		failure(Killed, "killed by SIGKILL (out of memory?)"),
		failure(Killed, "killed by SIGSEGV (segmentation fault)"),
		failure(TimedOut, "exceeded the point timeout 2s (10× the longest repeat ...)"),
		failure(OverMemory, "exceeded the memory cap: RSS 70MiB > 64MiB"),
		failure(NoResult, "exited without writing its result"),
		failure(NoResult, "unreadable result: unexpected EOF"),
		failure(NoResult, "incomplete result: 2 of 5 timed runs"),
		failure(NotApplied, "asked GOGC=50 but the child ran with GOGC=37"),
		failure(TimedOut, "exceeded the point timeout 2s").Note("its log x could not be written: disk full"),
		{Reason: Other, Text: "an older gcperf's words"},
		{Reason: Exited}, // no text: written as its reason's name
	}
	for _, f := range tests {
		b, err := json.Marshal(Outcome{Failed: f})
		if err != nil {
			t.Fatal(err)
		}
		if f.IsZero() == strings.Contains(string(b), `"failed"`) {
			t.Errorf("%q: JSON %s (the zero failure is left out, any other is there)", f.Text, b)
		}
		text, _ := json.Marshal(f.Text)
		if f.Text != "" && !strings.Contains(string(b), `"failed":`+string(text)) {
			t.Errorf("%q: JSON %s, want the text alone", f.Text, b)
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

type errString string

func (e errString) Error() string { return string(e) }

func TestReasonString(t *testing.T) {
	for r := NotFailed; r <= Other; r++ {
		if s := r.String(); s == "" || strings.HasPrefix(s, "Reason(") {
			t.Errorf("Reason %d has no name", int(r))
		}
	}
	if s := Reason(99).String(); s != "Reason(99)" {
		t.Errorf("Reason(99) = %q", s)
	}
}
