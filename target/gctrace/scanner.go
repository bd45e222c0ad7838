package gctrace

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
)

// bufSize is the Scanner's line buffer: a line longer than that is not the
// runtime's (its lines are some 200 bytes), and is passed to Other in
// pieces.
const bufSize = 8 << 10

// maxRepair is the longest start of a cycle's line that Scan looks for
// in a line the program's output cut short.
const maxRepair = 1024

// Counts says what a Scanner has read, by kind of line.
type Counts struct {
	// Cycles is the number of cycle lines Scan returned, Truncated and
	// Repaired ones included.
	Cycles int
	// Truncated is the number of those cut short by the end of the input
	// (the process exited while the runtime printed).
	Truncated int
	// Repaired is the number of those Scan took apart from the program's
	// output: the program had written in the middle of the line, or just
	// before it on the same line.
	Repaired int
	// Periodic is the number of "GC forced" lines: the runtime's periodic
	// forced collection, after two minutes without one.
	Periodic int
	// Scavenger is the number of the scavenger's lines ("scvg...", Go 1.14
	// and earlier; GODEBUG=scavtrace prints Go 1.15's and later's).
	Scavenger int
	// Skipped is the number of lines that began like a cycle's ("gc # @")
	// but could not be read: cut short, garbled, or of a layout to come.
	// They were passed to Other, in case they held the program's output.
	Skipped int
	// Other is the number of the program's lines, and pieces of lines,
	// passed to Other.
	Other int
}

// Scanner reads a program's stderr, GODEBUG=gctrace=1's lines mixed with the
// program's own, one cycle at a time, in the manner of
// golang.org/x/perf/benchfmt's Reader:
//
//	s := gctrace.NewScanner(stderr)
//	s.Other = os.Stderr // the program's own lines
//	for s.Scan() {
//		c := s.Cycle()
//		...
//	}
//	if err := s.Err(); err != nil { ... }
//
// It gives the other lines of the runtime's trace to Counts, and writes every
// line that is not the runtime's to Other as it reads it, bytes unchanged, so
// that a caller can pass the program's output on.
//
// The runtime writes a trace line in pieces (one write per number), so what
// the program writes to stderr at the same time can land inside it; and a
// process that exits while the runtime prints leaves its last line cut
// short. Scan puts a line back together when one line of the program's has
// landed inside it (the program's line goes to Other), or when the program's
// unfinished line comes just before it, and it returns a line the end of the
// input cut short once its wall times are complete (Cycle.Truncated). To do
// the first, it keeps a line that begins like a cycle's but cannot be read
// until the next line comes (the program's lines that begin "gc " are
// passed on one line late). A line it cannot read goes to Other and is
// counted in Skipped: nothing makes Scan fail but a read error.
//
// Scan allocates nothing once its buffers have grown to the longest line
// (8KiB at most); a longer line is the program's and is passed on in
// pieces. A Scanner is not safe for concurrent use.
type Scanner struct {
	// Other receives the lines that are not the runtime's, as they were
	// read; nil discards them. After a write to it fails, Scan goes on
	// reading, writes no more, and Err returns the error.
	Other io.Writer

	r       *bufio.Reader
	cycle   Cycle
	counts  Counts
	err     error // a read error, or io.EOF once it has been met
	werr    error // Other's first error
	long    bool  // in the middle of a line longer than the buffer
	held    []byte
	holding bool
	next    []byte // a line found inside the held one, to read next
	pending bool
	scratch []byte
	seqs    []sequence
	nextSeq int // the id of the next new sequence
	tick    int
}

// sequence is a run of consecutive cycle numbers: one process's lines.
type sequence struct {
	id   int // its Cycle.Seq
	last int // its last cycle number
	tick int // when it last grew, to prefer the latest
}

// maxSequences is the most sequences a Scanner follows at once: past it, a
// new one takes the place of the one that has not grown for longest, so
// that neither memory nor the time a line takes grows with their number.
const maxSequences = 64

// NewScanner returns a Scanner that reads r.
func NewScanner(r io.Reader) *Scanner {
	return &Scanner{r: bufio.NewReaderSize(r, bufSize)}
}

// Reset makes s read r from the start, as a new Scanner would, keeping its
// buffers (and Other): a caller that scans one process after another need
// not allocate them again.
func (s *Scanner) Reset(r io.Reader) {
	s.r.Reset(r)
	*s = Scanner{Other: s.Other, r: s.r, held: s.held[:0], next: s.next[:0], scratch: s.scratch[:0], seqs: s.seqs[:0]}
}

// Scan advances to the next cycle line, reading and counting (and passing
// to Other) the lines before it. It returns false at the end of the input or
// at a read error.
func (s *Scanner) Scan() bool {
	for {
		if s.pending {
			s.pending = false
			if s.line(s.next) {
				return true
			}
			continue
		}
		if s.err != nil {
			break
		}
		raw, err := s.r.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			s.flush()
			if !s.long {
				s.counts.Other++
			}
			s.other(raw)
			s.long = true
			continue
		}
		if err != nil {
			s.err = err
		}
		if s.long {
			s.other(raw)
			s.long = false
			continue
		}
		if len(raw) > 0 && s.line(raw) {
			return true
		}
	}
	s.flush()
	return false
}

// Cycle returns the cycle Scan read last. It is the Scanner's own, valid
// until the next call to Scan.
func (s *Scanner) Cycle() *Cycle { return &s.cycle }

// Counts returns what the Scanner has read so far.
func (s *Scanner) Counts() Counts { return s.counts }

// Err returns the error that stopped Scan (none at the end of the input),
// or else the first error writing to Other.
func (s *Scanner) Err() error {
	if s.err != nil && s.err != io.EOF {
		return fmt.Errorf("gctrace: reading the trace: %w", s.err)
	}
	if s.werr != nil {
		return fmt.Errorf("gctrace: passing the program's output on: %w", s.werr)
	}
	return nil
}

// line reads one line, its line break included where it has one (only the
// input's last line has none), and reports whether it is a cycle's.
func (s *Scanner) line(raw []byte) bool {
	b := trimEOL(raw)
	last := len(b) == len(raw) // the input's last line, which may be cut short
	kind := kindOf(b)
	if s.holding {
		if kind == lineOther && s.repair(b, last) {
			return true
		}
		s.flush()
	}
	switch kind {
	case lineCycle, lineCycleish:
		if parseCycle(&s.cycle, b, last) {
			s.found()
			return true
		}
		if !last {
			// Perhaps the start of a cycle's line with the program's line
			// after it: the next line may hold the rest.
			s.held = append(s.held[:0], raw...)
			s.holding = true
			return false
		}
		s.pass(raw, kind)
	case linePeriodic:
		s.counts.Periodic++
	case lineScavenge:
		s.counts.Scavenger++
	default:
		// The program's line, or the unfinished end of one with a cycle's
		// line after it.
		for i := 0; ; {
			j := bytes.Index(b[i:], []byte("gc "))
			if j < 0 {
				break
			}
			i += j
			if i > 0 && parseCycle(&s.cycle, b[i:], last) {
				s.counts.Other++
				s.other(b[:i])
				s.cycle.Repaired = true
				s.found()
				return true
			}
			i++
		}
		s.pass(raw, kind)
	}
	return false
}

// repair tries the held line's start followed by b as a cycle's line: the
// runtime had printed the start when the program's line came (the rest of
// the held line), and then the rest (b). What came between goes to Other,
// or, if it is a trace line too (another process's), is read next.
func (s *Scanner) repair(b []byte, last bool) bool {
	h := trimEOL(s.held)
	best, cont := -1, false
	var c Cycle
	for k := min(len(h), maxRepair); k >= len("gc "); k-- {
		s.scratch = append(append(s.scratch[:0], h[:k]...), b...)
		if !parseCycle(&c, s.scratch, last) {
			continue
		}
		// Where more than one split reads (the program's line began with
		// digits), take the one whose number follows a process's last,
		// else the longest.
		if best < 0 || (!cont && s.follows(c.N)) {
			best, cont = k, s.follows(c.N)
			s.cycle = c
			if cont {
				break
			}
		}
	}
	if best < 0 {
		return false
	}
	s.holding = false
	if rest := s.held[best:]; kindOf(trimEOL(rest)) == lineOther {
		s.counts.Other++
		s.other(rest)
	} else {
		// What landed inside is the runtime's too: another process's line
		// (go vet's and the go command's share a stderr). Read it next.
		s.next = append(s.next[:0], rest...)
		s.pending = true
	}
	s.cycle.Repaired = true
	s.found()
	return true
}

// flush passes the held line on, if there is one.
func (s *Scanner) flush() {
	if s.holding {
		s.holding = false
		s.pass(s.held, kindOf(trimEOL(s.held)))
	}
}

// pass gives a line that is not a cycle's to Other.
func (s *Scanner) pass(raw []byte, kind lineKind) {
	if kind == lineCycle {
		s.counts.Skipped++
	} else {
		s.counts.Other++
	}
	s.other(raw)
}

func (s *Scanner) other(p []byte) {
	if s.Other == nil || s.werr != nil || len(p) == 0 {
		return
	}
	if _, err := s.Other.Write(p); err != nil {
		s.werr = err
	}
}

// found counts the cycle in s.cycle and gives it its sequence.
func (s *Scanner) found() {
	c := &s.cycle
	c.Seq = s.sequence(c.N)
	s.counts.Cycles++
	if c.Truncated {
		s.counts.Truncated++
	}
	if c.Repaired {
		s.counts.Repaired++
	}
}

// follows reports whether cycle n is the next of some sequence.
func (s *Scanner) follows(n int) bool {
	for _, q := range s.seqs {
		if q.last == n-1 {
			return true
		}
	}
	return false
}

// sequence returns the sequence cycle n continues: the latest one whose
// last number is n-1, else (lines were lost) the one whose last number is
// the highest below n, else a new one.
func (s *Scanner) sequence(n int) int {
	s.tick++
	best := -1
	for j, q := range s.seqs {
		if q.last == n-1 && (best < 0 || q.tick > s.seqs[best].tick) {
			best = j
		}
	}
	if best < 0 {
		for j, q := range s.seqs {
			if q.last < n && (best < 0 || q.last > s.seqs[best].last ||
				(q.last == s.seqs[best].last && q.tick > s.seqs[best].tick)) {
				best = j
			}
		}
	}
	id := 0
	switch {
	case best >= 0:
		id = s.seqs[best].id
	case len(s.seqs) < maxSequences:
		id = len(s.seqs)
		s.seqs = append(s.seqs, sequence{})
		best = id
	default:
		best = 0
		for j, q := range s.seqs {
			if q.tick < s.seqs[best].tick {
				best = j
			}
		}
		id = s.nextSeq
	}
	if id == s.nextSeq {
		s.nextSeq++
	}
	s.seqs[best] = sequence{id: id, last: n, tick: s.tick}
	return id
}
