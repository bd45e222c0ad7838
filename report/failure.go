package report

import (
	"encoding/json"
	"io"
)

// A Failure is why a run failed, as the process that failed says it in
// its own result (a gcperf child loading a server that ended during the
// runs): Reason, a short fixed name ("exited", "over memory", the names of
// sweep.Reason), for a program; Text, the sentence, for a person.
type Failure struct {
	Reason string `json:"reason"`
	Text   string `json:"text"`
}

// A FailedRunError is ReadJSON's error for a result that holds only its
// failure (FailureJSON): the run failed before it measured anything, so
// there is nothing to report, compare or plot. ReadJSON returns the
// document with it, for a program that wants the failure (a sweep reading
// why its point failed).
type FailedRunError struct {
	Failure Failure
}

func (e *FailedRunError) Error() string {
	return "a run that failed before it measured anything (" + e.Failure.Reason + "): " + e.Failure.Text
}

// onlyFailure reports whether d holds a failure and no measurement.
func (d *Document) onlyFailure() bool {
	return d.Failed != nil && d.Operations == nil && d.Exec == nil && d.Server == nil
}

// FailureJSON writes the result of a run that failed before it measured
// anything: its schema, the tool and the failure, and nothing that could
// be taken for a figure.
func FailureJSON(w io.Writer, tool Tool, f Failure) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(struct {
		Schema string   `json:"schema"`
		Tool   Tool     `json:"tool"`
		Failed *Failure `json:"failed"`
	}{Schema, tool, &f})
}
