package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"syscall"

	"github.com/gcperf/gcperf/env"
	"github.com/gcperf/gcperf/internal/quote"
	"github.com/gcperf/gcperf/internal/safefile"
	"github.com/gcperf/gcperf/report"
)

// execLog is gcperf exec's -log file: the command's own stderr, in a
// temporary file renamed into place after the measurement's own files. A
// write that fails (a full disk) ends the log there: what follows is
// dropped, the trace is still read, and the report says the log is
// truncated.
type execLog struct {
	t   *safefile.Temp
	w   io.Writer // t.File (wrapLog's)
	n   int64     // the bytes the log holds
	err error     // the write that failed, nil while the log is whole
}

// wrapLog is the writer -log's file is written through: the file itself.
// A test gives one that fails as a full disk does.
var wrapLog = func(f io.Writer) io.Writer { return f }

// Write writes p to the log until a write fails, and drops the rest; it
// never fails, so that the trace in the same stream is still read.
func (l *execLog) Write(p []byte) (int, error) {
	if l.err == nil {
		n, err := l.w.Write(p)
		l.n += int64(n)
		l.err = err
	}
	return len(p), nil
}

// truncated says the log could not be written whole.
func (l *execLog) truncated() bool { return l != nil && l.err != nil }

// note says, in the document of the run during which the log could not be
// written whole, that it is truncated.
func (l *execLog) note(doc *report.Document, path string) {
	if l.truncated() && doc.Exec != nil && doc.Exec.LogTruncated == "" {
		doc.Exec.LogTruncated = fmt.Sprintf("-log %s holds the command's stderr up to a write that failed (%s); the rest was dropped",
			path, quote.OneLine(safefile.Cause(l.err)))
	}
}

// logSlack is what a file needs beside its bytes (its last blocks, its
// directory entry), counted generously.
const logSlack = 64 << 10

// writeFile writes one of the measurement's files as report.WriteFile
// does. When the disk is full and the log is what filled it (a log that
// could not be written whole), the file is made in memory, the log is cut
// by the room it needs, and the file is written again.
func (l *execLog) writeFile(path string, stdout io.Writer, overwrite bool, write func(io.Writer) error) error {
	err := report.WriteFile(path, stdout, overwrite, write)
	if !l.truncated() || !(errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EDQUOT)) {
		return err
	}
	var b bytes.Buffer
	if write(&b) != nil {
		return err
	}
	keep := max(0, l.n-int64(b.Len())-logSlack)
	if l.t.Truncate(keep) != nil {
		return err
	}
	l.n = keep
	return report.WriteFile(path, stdout, overwrite, func(w io.Writer) error {
		_, err := w.Write(b.Bytes())
		return err
	})
}

// commit renames the log into place and says on stderr when it is
// truncated; it returns exitFail for a log that is truncated or could not
// be kept, else exitOK. A nil log has nothing to do.
func (l *execLog) commit(stderr io.Writer) int {
	if l == nil {
		return exitOK
	}
	code := exitOK
	if l.err != nil {
		fmt.Fprintf(stderr, "gcperf: exec: -log %s: truncated at %s: the rest of the command's stderr was dropped: %s\n",
			quote.Line(l.t.Path()), env.Bytes(l.n), quote.OneLine(safefile.Cause(l.err)))
		code = exitFail
	}
	if err := l.t.Commit(); err != nil {
		fmt.Fprintf(stderr, "gcperf: exec: -log %s\n", quote.OneLine(err))
		code = exitFail
	}
	return code
}
