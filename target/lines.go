package target

import (
	"bytes"
	"io"
)

// MaxLine is the longest stderr line IsTrace is asked about. A longer line
// is no trace line: it passes to Stderr as it comes, unbuffered.
const MaxLine = 64 << 10

// lineSplitter splits a child's stderr into lines: those isTrace takes go
// to trace, without their newline, and the others to out unchanged, in
// order, consecutive lines in one Write. Its Write never fails, so that
// the child's stderr is always drained: the first error of out is kept in
// err and the rest of the output is dropped.
type lineSplitter struct {
	isTrace func(line []byte) bool
	trace   func(line []byte)
	out     io.Writer

	buf   []byte // the start of a line, waiting for its newline
	long  bool   // in a line longer than MaxLine, passing through
	lines int    // trace lines taken
	err   error
}

func (s *lineSplitter) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		switch {
		case s.long:
			if i < 0 {
				s.write(p)
				return n, nil
			}
			s.write(p[:i+1])
			p, s.long = p[i+1:], false
		case i < 0 && len(s.buf)+len(p) > MaxLine:
			s.write(s.buf)
			s.write(p)
			s.buf, s.long = s.buf[:0], true
			return n, nil
		case i < 0:
			s.buf = append(s.buf, p...)
			return n, nil
		case len(s.buf) > 0:
			s.buf = append(s.buf, p[:i+1]...)
			p = p[i+1:]
			s.line(s.buf)
			s.buf = s.buf[:0]
		default:
			// Whole lines in p: those up to the next trace line go out in
			// one Write.
			run := 0
			for {
				if s.isTraceLine(p[run : run+i+1]) {
					s.write(p[:run])
					s.take(p[run : run+i+1])
					p = p[run+i+1:]
					break
				}
				run += i + 1
				if i = bytes.IndexByte(p[run:], '\n'); i < 0 {
					s.write(p[:run])
					p = p[run:]
					break
				}
			}
		}
	}
	return n, nil
}

// Flush passes on a last line that has no newline.
func (s *lineSplitter) Flush() {
	if len(s.buf) > 0 {
		s.line(s.buf)
		s.buf = s.buf[:0]
	}
}

// line passes on one line, with its newline if it has one.
func (s *lineSplitter) line(l []byte) {
	if s.isTraceLine(l) {
		s.take(l)
	} else {
		s.write(l)
	}
}

func (s *lineSplitter) isTraceLine(l []byte) bool {
	l = bytes.TrimSuffix(l, []byte{'\n'})
	return len(l) <= MaxLine && s.isTrace(l)
}

func (s *lineSplitter) take(l []byte) {
	s.lines++
	if s.trace != nil {
		s.trace(bytes.TrimSuffix(l, []byte{'\n'}))
	}
}

func (s *lineSplitter) write(b []byte) {
	if len(b) == 0 || s.out == nil || s.err != nil {
		return
	}
	if _, err := s.out.Write(b); err != nil {
		s.err = err
	}
}
