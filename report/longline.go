package report

import "io"

// maxBenchLine is the longest line, without its newline, that the Go
// benchmark format's reader (benchfmt, a bufio.Scanner) takes: past it, it
// stops with "token too long" at a wrong line number.
const maxBenchLine = 64<<10 - 1

// lineLimit passes a reader's bytes through, but of a line longer than
// max only its first max bytes and its newline, so that the scanner after
// it never stops on a long line, and remembers the first such line (from
// 1) for the reader to refuse it by number.
type lineLimit struct {
	r    io.Reader
	max  int
	line int // the line being read, from 1
	n    int // its length so far
	long int // the first line longer than max, or 0
}

func newLineLimit(r io.Reader, max int) *lineLimit { return &lineLimit{r: r, max: max, line: 1} }

func (l *lineLimit) Read(p []byte) (int, error) {
	for {
		n, err := l.r.Read(p)
		out := 0
		for _, b := range p[:n] {
			if b == '\n' {
				l.line, l.n = l.line+1, 0
			} else if l.n++; l.n > l.max {
				if l.long == 0 {
					l.long = l.line
				}
				continue
			}
			p[out] = b
			out++
		}
		// A read wholly within a long line gives nothing: read again
		// rather than return 0 bytes and no error.
		if out > 0 || err != nil || n == 0 {
			return out, err
		}
	}
}
