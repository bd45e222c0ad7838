package sweep

import (
	"encoding/json"
	"fmt"

	"github.com/gcperf/gcperf/report"
)

// A Reason sorts why a repeat failed.
type Reason int

// The reasons a repeat fails.
const (
	NotFailed      Reason = iota // the repeat succeeded
	NotStarted                   // the child could not be started, or its log created
	Exited                       // it exited with a non-zero status
	Killed                       // a signal the sweep did not send killed it: a crash, the OOM killer
	TimedOut                     // the sweep killed it at the point timeout
	OverMemory                   // the sweep killed it above the memory cap
	NoResult                     // it wrote no result, or one that is unreadable or incomplete
	NotApplied                   // its runtime did not apply the point's settings
	ServerNotReady               // the server under load did not answer its readiness URL in time
	CannotWrite                  // its files could not be written: a full disk, a quota (ErrCannotWrite)
	Other                        // a reason of none of these: an older gcperf's failure, kept as text
)

var reasonNames = [...]string{"not failed", "not started", "exited", "killed", "timed out",
	"over memory", "no result", "settings not applied", "server not ready", "cannot write", "other"}

func (r Reason) String() string {
	if r < 0 || int(r) >= len(reasonNames) {
		return fmt.Sprintf("Reason(%d)", int(r))
	}
	return reasonNames[r]
}

// reasonNamed is the Reason whose String is name, Other for a name it does
// not know (a later gcperf's).
func reasonNamed(name string) Reason {
	for r := NotStarted; r < Other; r++ {
		if reasonNames[r] == name {
			return r
		}
	}
	return Other
}

// A Failure is why a repeat failed; the zero Failure is none. Its Reason is
// set where the failure happened; Text is the sentence the table and the
// progress lines show. In sweep.json it is an object:
//
//	"failed": {"reason": "timed out", "text": "exceeded the point timeout 1s"}
//
// A sweep.json written before reasons were stored holds the text alone
// ("failed": "exceeded the point timeout 1s"): it reads back with the
// reason Other and its text.
type Failure struct {
	Reason Reason
	Text   string
}

// failure is a Failure of reason r, its text formatted.
func failure(r Reason, format string, args ...any) Failure {
	return Failure{Reason: r, Text: fmt.Sprintf(format, args...)}
}

// IsZero reports whether f is no failure.
func (f Failure) IsZero() bool { return f.Reason == NotFailed && f.Text == "" }

func (f Failure) String() string { return f.Text }

// Note adds a note to a failure's text.
func (f Failure) Note(note string) Failure {
	f.Text += "; " + note
	return f
}

// failureJSON is a Failure in sweep.json.
type failureJSON struct {
	Reason string `json:"reason"`
	Text   string `json:"text"`
}

// MarshalJSON writes the failure's reason, by name, and its text.
func (f Failure) MarshalJSON() ([]byte, error) {
	return json.Marshal(failureJSON{Reason: f.Reason.String(), Text: f.Text})
}

// UnmarshalJSON reads a failure as MarshalJSON writes it, or as the text
// alone that sweep.json held before (reason Other).
func (f *Failure) UnmarshalJSON(b []byte) error {
	var text string
	if err := json.Unmarshal(b, &text); err == nil {
		*f = Failure{}
		if text != "" {
			*f = Failure{Reason: Other, Text: text}
		}
		return nil
	}
	var j failureJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return fmt.Errorf("sweep: a failure: %w", err)
	}
	*f = Failure{Reason: reasonNamed(j.Reason), Text: j.Text}
	if j.Reason == reasonNames[NotFailed] && j.Text == "" {
		*f = Failure{}
	}
	return nil
}

// documentFailure is the failure a process wrote in its own result, with
// its reason; ok is false when it wrote none.
func documentFailure(d *report.Document) (Failure, bool) {
	if d == nil || d.Failed == nil {
		return Failure{}, false
	}
	return Failure{Reason: reasonNamed(d.Failed.Reason), Text: d.Failed.Text}, true
}
