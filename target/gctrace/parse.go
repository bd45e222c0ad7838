package gctrace

import (
	"bytes"
	"time"
)

// MiB is the runtime's "MB": the heap sizes of a trace line are bytes>>20,
// so a value v stands for between v×MiB and (v+1)×MiB-1 bytes.
const MiB = 1 << 20

// Cycle is one line of the runtime's trace: one garbage collection cycle.
// The times are what the line prints (milliseconds with two significant
// digits, whole milliseconds from 10ms on), the sizes are in the runtime's
// MB, which is MiB rounded down (see [MiB]).
type Cycle struct {
	// N is the cycle's number: 1 for the process's first cycle, and one
	// more for each after.
	N int
	// At is when the cycle began (sweep termination), since the program
	// started; the line prints milliseconds.
	At time.Duration
	// CPUPercent is the share of the CPU the collector has used since the
	// program started, in whole percent (rounded down).
	CPUPercent int

	// The wall-clock time of the three phases: the stop-the-world sweep
	// termination, the concurrent mark and scan, the stop-the-world mark
	// termination. A stop-the-world phase counts from the moment the
	// runtime set out to stop the world, so it includes the time the
	// goroutines took to stop. In Go 1.5 and 1.6's lines (Layout15) Mark is
	// the sum of their scan, synchronize-Ps and mark phases, all three
	// concurrent.
	SweepTermWall, MarkWall, MarkTermWall time.Duration

	// The CPU time of the phases: the two stop-the-world phases count
	// their wall time × the Ps that took part (at most the CPUs); the
	// mark's CPU is split into the assists (mutators marking as they
	// allocate), the background workers (dedicated and fractional) and
	// the idle workers. ScanCPU is Go 1.5 and 1.6's scan and
	// synchronize-Ps phases (Layout15), 0 in later lines.
	SweepTermCPU, AssistCPU, BackgroundCPU, IdleCPU, MarkTermCPU, ScanCPU time.Duration

	// The heap at the start of the cycle, at its end, and the heap marked
	// live, in MiB (rounded down).
	HeapStartMiB, HeapEndMiB, HeapLiveMiB uint64
	// HeapGoalMiB is the heap goal the cycle ran to, in MiB.
	HeapGoalMiB uint64
	// StacksMiB and GlobalsMiB are the scannable stacks and globals, in
	// MiB (Go 1.18 on; see Has).
	StacksMiB, GlobalsMiB uint64
	// Procs is the number of Ps (GOMAXPROCS) during the cycle.
	Procs int

	// Forced says the line ends in "(forced)": runtime.GC or
	// debug.FreeOSMemory asked for the cycle (not the runtime's periodic
	// forced GC, which prints "GC forced" before its line instead).
	Forced bool
	// LeakCheck says the line reads "(checking for goroutine leaks)": the
	// cycle looked for leaked goroutines (Go 1.26's goroutineleak profile).
	LeakCheck bool
	// Truncated says the input ended before the line's line break, as
	// happens when a process exits while the runtime is printing: only
	// the fields in Has were read, the others are 0, and a note at the
	// end, such as "(forced)", may be missing.
	Truncated bool
	// Repaired says a Scanner put the line back together: the program had
	// written to stderr in the middle of it (the runtime prints a line in
	// pieces). Parse never sets it.
	Repaired bool
	// Seq numbers the runs of consecutive cycle numbers a Scanner has
	// seen, from 0: each process numbers its cycles from 1, so when several
	// share one stderr (go run, go test and go vet run the program as a
	// child of the go command, which traces its own cycles) each one's
	// lines form a sequence of their own. Parse always sets 0.
	Seq int

	// Has says which parts of the line were read: all of the layout's for
	// a whole line, fewer for a Truncated one.
	Has Fields
	// Layout is the layout of the line; 0 for a Truncated line of three
	// wall times that ends before it shows whether it has stacks and
	// globals.
	Layout Layout
}

// Fields is a set of the parts of a cycle's line.
type Fields uint8

// The parts of a cycle's line. A whole line has every one of its layout's:
// HasStacks and HasGlobals from Go 1.18 on, the rest always.
const (
	HasClock   Fields = 1 << iota // "ms clock": the wall times
	HasCPU                        // "ms cpu": the CPU times
	HasHeap                       // "#->#-># MB": start, end and live heap
	HasGoal                       // "# MB goal"
	HasStacks                     // "# MB stacks"
	HasGlobals                    // "# MB globals"
	HasProcs                      // "# P"
)

// Layout tells the versions of Go whose runtime prints a line that way.
type Layout uint8

// The layouts of a cycle's line.
const (
	// Layout15 is Go 1.5 and 1.6's: five wall times (sweep termination,
	// scan, synchronize Ps, mark, mark termination) and seven CPU times.
	Layout15 Layout = iota + 1
	// Layout17 is Go 1.7 to 1.17's: three wall times and five CPU times.
	Layout17
	// Layout118 is Go 1.18's and later: Layout17's with "MB stacks" and
	// "MB globals".
	Layout118
)

// String gives the versions of Go that print the layout.
func (l Layout) String() string {
	switch l {
	case Layout15:
		return "go1.5-1.6"
	case Layout17:
		return "go1.7-1.17"
	case Layout118:
		return "go1.18+"
	}
	return "unknown"
}

// Pauses returns the cycle's two stop-the-world pauses: sweep termination
// and mark termination.
func (c *Cycle) Pauses() (sweepTerm, markTerm time.Duration) {
	return c.SweepTermWall, c.MarkTermWall
}

// Parse reads one line of the runtime's trace (with or without its line
// break) and reports whether it is a whole cycle line it understands:
// "gc # @#s #%: ..." in any of the layouts. Every other line, a truncated
// one included, gives false; IsTrace tells the runtime's other lines apart
// from a program's. Parse allocates nothing.
func Parse(line []byte) (Cycle, bool) {
	var c Cycle
	ok := parseCycle(&c, trimEOL(line), false)
	return c, ok
}

// IsTrace reports whether a line (with or without its line break) has the
// shape of a line the runtime prints for GODEBUG=gctrace=1: a cycle's
// ("gc # @..."), the periodic forced GC's ("GC forced"), or the scavenger's
// ("scvg...: ", Go 1.14 and earlier). It looks only at how the line
// begins, so a line it accepts may still be one Parse cannot read (cut
// short, or of a layout to come), and a program's line that happens to
// begin so is taken for the runtime's. Go 1.4's and earlier lines
// ("gc1(1): ...") are not recognised.
func IsTrace(line []byte) bool {
	k := kindOf(trimEOL(line))
	return k != lineOther && k != lineCycleish
}

// The kinds of line a trace holds.
type lineKind uint8

const (
	lineOther    lineKind = iota
	lineCycle             // gc # @
	linePeriodic          // GC forced
	lineScavenge          // scvg...:
	lineCycleish          // gc <something else>: may be the start of a cycle's line with a program's text after it
)

func kindOf(b []byte) lineKind {
	switch {
	case bytes.HasPrefix(b, []byte("gc ")):
		i := 3
		for i < len(b) && isDigit(b[i]) {
			i++
		}
		if i > 3 && bytes.HasPrefix(b[i:], []byte(" @")) {
			return lineCycle
		}
		return lineCycleish
	case string(b) == "GC forced":
		return linePeriodic
	case bytes.HasPrefix(b, []byte("scvg")):
		// scvg: (Go 1.13-1.14), scvg0: (Go 1.12 and earlier), scvg-1:
		// (debug.FreeOSMemory in Go 1.12 and earlier).
		i := 4
		if i < len(b) && b[i] == '-' {
			i++
		}
		j := i
		for j < len(b) && isDigit(b[j]) {
			j++
		}
		if (j > i || i == 4) && bytes.HasPrefix(b[j:], []byte(": ")) {
			return lineScavenge
		}
	}
	return lineOther
}

// trimEOL removes a trailing "\n" or "\r\n".
func trimEOL(b []byte) []byte {
	if n := len(b); n > 0 && b[n-1] == '\n' {
		b = b[:n-1]
		if n := len(b); n > 0 && b[n-1] == '\r' {
			b = b[:n-1]
		}
	}
	return b
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// parser reads a line from the left. Every method returns false when the
// line does not continue as asked; p.eof then tells whether that was
// because the line ended.
type parser struct {
	b []byte
	i int
}

func (p *parser) eof() bool { return p.i >= len(p.b) }

// lit reads s. Where the line ends inside s, it is not read and p.eof()
// becomes true, so that a truncated line is told from a wrong one.
func (p *parser) lit(s string) bool {
	rest := p.b[p.i:]
	if len(rest) < len(s) {
		if string(rest) == s[:len(rest)] {
			p.i = len(p.b)
		}
		return false
	}
	if string(rest[:len(s)]) != s {
		return false
	}
	p.i += len(s)
	return true
}

// uint reads a decimal number of at most 19 digits, with no sign (leading
// zeros are read, though the runtime prints none).
func (p *parser) uint() (uint64, bool) {
	start := p.i
	var v uint64
	for p.i < len(p.b) && isDigit(p.b[p.i]) {
		if p.i-start == 19 {
			return 0, false
		}
		v = v*10 + uint64(p.b[p.i]-'0')
		p.i++
	}
	return v, p.i > start
}

// decimal reads digits[.digits] and returns the number × 10^scale,
// dropping the digits past scale: the runtime prints at most three
// decimals of milliseconds and of seconds.
func (p *parser) decimal(scale int) (int64, bool) {
	whole, ok := p.uint()
	if !ok || whole > uint64(1<<62/pow10[scale]) {
		return 0, false
	}
	v := int64(whole) * pow10[scale]
	if p.i < len(p.b) && p.b[p.i] == '.' {
		p.i++
		start := p.i
		for p.i < len(p.b) && isDigit(p.b[p.i]) {
			if n := p.i - start; n < scale {
				v += int64(p.b[p.i]-'0') * pow10[scale-1-n]
			}
			p.i++
		}
		if p.i == start {
			return 0, false
		}
	}
	return v, true
}

var pow10 = [...]int64{1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9}

// ms reads a time the runtime prints in milliseconds.
func (p *parser) ms() (time.Duration, bool) {
	v, ok := p.decimal(6)
	return time.Duration(v), ok
}

// times reads numbers of milliseconds separated by '+' and '/', at most
// len(d) of them, into d, and the separators into sep (sep[i] follows d[i];
// len(sep) is len(d)-1).
func (p *parser) times(d []time.Duration, sep []byte) (int, bool) {
	for n := 0; ; n++ {
		v, ok := p.ms()
		if !ok {
			return 0, false
		}
		d[n] = v
		if p.eof() || (p.b[p.i] != '+' && p.b[p.i] != '/') {
			return n + 1, true
		}
		if n == len(sep) {
			return 0, false // more times than any layout has
		}
		sep[n] = p.b[p.i]
		p.i++
	}
}

// note reads " (text)" and returns text.
func (p *parser) note() ([]byte, bool) {
	if !p.lit(" (") {
		return nil, false
	}
	end := bytes.IndexByte(p.b[p.i:], ')')
	if end < 0 {
		p.i = len(p.b)
		return nil, false
	}
	text := p.b[p.i : p.i+end]
	p.i += end + 1
	return text, true
}

// parseCycle reads a cycle's line (without its line break) into c, and
// clears c if it cannot. With truncated (the input ended before the line's
// break), a line that ends early is accepted once its wall times are read,
// and c.Truncated says so.
func parseCycle(c *Cycle, b []byte, truncated bool) bool {
	*c = Cycle{}
	p := parser{b: b}
	if p.whole(c) || (truncated && p.eof() && c.Has&HasClock != 0) {
		// A line with no line break was cut short, if only of its break:
		// a note such as " (forced)" may be missing even when every part is
		// there.
		c.Truncated = truncated
		return true
	}
	*c = Cycle{}
	return false
}

// whole reads a cycle's line; c.Has records the parts read so far, for a
// line that ends early.
func (p *parser) whole(c *Cycle) bool {
	if !p.head(c) {
		return false
	}
	nc, ok := p.clock(c)
	if !ok || !p.cpu(c, nc) || !p.heap(c) || !p.sizes(c) {
		return false
	}
	switch {
	case nc == 5 && c.Has&(HasStacks|HasGlobals) != 0:
		return false
	case c.Layout == 0:
		c.Layout = Layout17
	}
	for !p.eof() {
		text, ok := p.note()
		if !ok {
			return false
		}
		if string(text) == "forced" {
			c.Forced = true
		}
	}
	return true
}

// head reads "gc # @#s #%" and the notes up to ": ".
func (p *parser) head(c *Cycle) bool {
	if !p.lit("gc ") {
		return false
	}
	n, ok := p.uint()
	if !ok || n > 1<<62 || !p.lit(" @") {
		return false
	}
	c.N = int(n)
	at, ok := p.decimal(9)
	if !ok || !p.lit("s ") {
		return false
	}
	c.At = time.Duration(at)
	pct, ok := p.uint()
	if !ok || pct > 1<<30 || !p.lit("%") {
		return false
	}
	c.CPUPercent = int(pct)
	// Notes between the share and the colon: Go 1.26's
	// "(checking for goroutine leaks)", or one to come.
	for p.i < len(p.b) && p.b[p.i] == ' ' {
		text, ok := p.note()
		if !ok {
			return false
		}
		if string(text) == "checking for goroutine leaks" {
			c.LeakCheck = true
		}
	}
	return p.lit(": ")
}

// clock reads the wall times, "#+#+# ms clock, ", and returns how many
// there were: 3, or 5 before Go 1.7.
func (p *parser) clock(c *Cycle) (int, bool) {
	var clock [5]time.Duration
	var csep [4]byte
	nc, ok := p.times(clock[:], csep[:])
	if !ok || (nc != 3 && nc != 5) || !p.lit(" ms clock, ") {
		return 0, false
	}
	for _, s := range csep[:nc-1] {
		if s != '+' {
			return 0, false
		}
	}
	c.SweepTermWall, c.MarkTermWall = clock[0], clock[nc-1]
	for _, d := range clock[1 : nc-1] {
		c.MarkWall += d
	}
	if nc == 5 {
		c.Layout = Layout15
	}
	c.Has |= HasClock
	return nc, true
}

// cpu reads the CPU times, "#+#/#/#+# ms cpu, ", of a line with nc wall
// times.
func (p *parser) cpu(c *Cycle, nc int) bool {
	var cpu [7]time.Duration
	var sep [6]byte
	n2, ok := p.times(cpu[:], sep[:])
	if !ok {
		return false
	}
	// Go 1.7 on: st+assist/background/idle+mt; Go 1.5-1.6: st+scan+syncPs+assist/background/idle+mt.
	want := "+//+"
	if nc == 5 {
		want = "+++//+"
	}
	if n2 != nc+2 || string(sep[:n2-1]) != want {
		return false
	}
	c.SweepTermCPU, c.MarkTermCPU = cpu[0], cpu[n2-1]
	c.AssistCPU, c.BackgroundCPU, c.IdleCPU = cpu[n2-4], cpu[n2-3], cpu[n2-2]
	if nc == 5 {
		c.ScanCPU = cpu[1] + cpu[2]
	}
	if !p.lit(" ms cpu, ") {
		return false
	}
	c.Has |= HasCPU
	return true
}

// heap reads the heap sizes, "#->#-># MB, ", and the goal, "# MB goal, ".
func (p *parser) heap(c *Cycle) bool {
	h0, ok0 := p.uint()
	if !ok0 || !p.lit("->") {
		return false
	}
	h1, ok1 := p.uint()
	if !ok1 || !p.lit("->") {
		return false
	}
	h2, ok2 := p.uint()
	if !ok2 || !p.lit(" MB, ") {
		return false
	}
	c.HeapStartMiB, c.HeapEndMiB, c.HeapLiveMiB = h0, h1, h2
	c.Has |= HasHeap

	goal, ok := p.uint()
	if !ok || !p.lit(" MB goal, ") {
		return false
	}
	c.HeapGoalMiB = goal
	c.Has |= HasGoal
	return true
}

// sizes reads "# MB stacks, # MB globals, " (Go 1.18 on), and "# P". A
// part of the form "# MB word" that is not known, as a later Go may add,
// is read and passed over.
func (p *parser) sizes(c *Cycle) bool {
	for {
		v, ok := p.uint()
		if !ok || !p.lit(" ") {
			return false
		}
		if rest := p.b[p.i:]; len(rest) > 0 && rest[0] == 'P' && (len(rest) == 1 || bytes.HasPrefix(rest[1:], []byte(" ("))) {
			p.i++
			if v < 1 || v > 1<<30 {
				return false
			}
			c.Procs = int(v)
			c.Has |= HasProcs
			return true
		}
		if p.eof() {
			return false
		}
		end := bytes.Index(p.b[p.i:], []byte(", "))
		if end == 0 {
			return false
		}
		if end < 0 {
			p.i = len(p.b) // the part is cut short, or the line has no "# P"
			return false
		}
		switch string(p.b[p.i : p.i+end]) {
		case "MB stacks":
			c.StacksMiB = v
			c.Has |= HasStacks
			c.Layout = Layout118
		case "MB globals":
			c.GlobalsMiB = v
			c.Has |= HasGlobals
			c.Layout = Layout118
		default:
			if !isWords(p.b[p.i : p.i+end]) {
				return false
			}
		}
		p.i += end + 2
	}
}

// isWords reports whether b is letters and single spaces, as in "MB goal".
func isWords(b []byte) bool {
	if len(b) == 0 || b[0] == ' ' || b[len(b)-1] == ' ' {
		return false
	}
	for i, ch := range b {
		switch {
		case ch == ' ':
			if b[i-1] == ' ' {
				return false
			}
		case 'a' <= ch && ch <= 'z', 'A' <= ch && ch <= 'Z':
		default:
			return false
		}
	}
	return true
}
