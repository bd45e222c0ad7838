package sweep

import (
	"fmt"
	"strings"
)

// A Reason sorts why a repeat failed.
type Reason int

// The reasons a repeat fails.
const (
	NotFailed  Reason = iota // the repeat succeeded
	NotStarted               // the child could not be started, or its log created
	Exited                   // it exited with a non-zero status
	Killed                   // a signal the sweep did not send killed it: a crash, the OOM killer
	TimedOut                 // the sweep killed it at the point timeout
	OverMemory               // the sweep killed it above the memory cap
	NoResult                 // it wrote no result, or one that is unreadable or incomplete
	NotApplied               // its runtime did not apply the point's settings
	Other                    // a reason an older gcperf wrote, not one of these
)

var reasonNames = [...]string{"not failed", "not started", "exited", "killed", "timed out",
	"over memory", "no result", "settings not applied", "other"}

func (r Reason) String() string {
	if r < 0 || int(r) >= len(reasonNames) {
		return fmt.Sprintf("Reason(%d)", int(r))
	}
	return reasonNames[r]
}

// A Failure is why a repeat failed; the zero Failure is none. Text is the
// sentence the table and the progress lines show. In sweep.json a Failure
// is that text alone, as it always was; reading it back finds its Reason
// from the text (ParseFailure).
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

// MarshalText is the failure's text, or its reason's name when it has no
// text, so that no failure reads back as a success.
func (f Failure) MarshalText() ([]byte, error) {
	if f.Text == "" && !f.IsZero() {
		return []byte(f.Reason.String()), nil
	}
	return []byte(f.Text), nil
}

func (f *Failure) UnmarshalText(b []byte) error {
	*f = ParseFailure(string(b))
	return nil
}

// failurePrefixes are how each reason's text begins.
var failurePrefixes = []struct {
	prefix string
	reason Reason
}{
	{"cannot create its log", NotStarted},
	{"cannot start ", NotStarted},
	{"exit status ", Exited},
	{"killed by ", Killed},
	{"exceeded the point timeout", TimedOut},
	{"exceeded the memory cap", OverMemory},
	{"exited without writing its result", NoResult},
	{"unreadable result", NoResult},
	{"incomplete result", NoResult},
	{"no result to check the settings against", NoResult},
	{"asked ", NotApplied},
	{"GOGC ", NotApplied},
	{"GOMEMLIMIT ", NotApplied},
	// A server under load (gcperf sweep OP... -- SERVER), as its gcperf
	// child says it.
	{"server: not ready", NotStarted},
	{"server: exited before it was ready", NotStarted},
	{"server: ended during the runs", Exited},
	{"server: the server exceeded the memory cap", OverMemory},
}

// ParseFailure is the Failure whose text is text: "" is none, and a text
// that no reason's begins as is Other.
func ParseFailure(text string) Failure {
	if text == "" {
		return Failure{}
	}
	for _, p := range failurePrefixes {
		if strings.HasPrefix(text, p.prefix) {
			return Failure{Reason: p.reason, Text: text}
		}
	}
	for r := NotStarted; r < Other; r++ {
		if text == r.String() { // a failure written without its text
			return Failure{Reason: r}
		}
	}
	return Failure{Reason: Other, Text: text}
}
