package report

// A Failure is why a run failed, as the process that failed says it in
// its own result (a gcperf child loading a server that ended during the
// runs): Reason, a short fixed name ("exited", "over memory", the names of
// sweep.Reason), for a program; Text, the sentence, for a person.
type Failure struct {
	Reason string `json:"reason"`
	Text   string `json:"text"`
}
