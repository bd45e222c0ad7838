// Package mixfile reads operations written as text, as gcperf's command
// line and mix files (gcperf run -mix FILE, gcperf sweep -mix FILE) give
// them: a name and its parameters, OP [-key value | -key=value | key=value]...
//
// A mix file lists operations, one a line:
//
//	# a comment, from # at the start of a line or after a space to its end
//	spin d=100us
//	sleep -d 1ms          # -key value, -key=value and key=value all work
//	spin d=100us          # an operation may appear several times
//	mix common.mix        # the operations of another file, here
//
// Blank lines are ignored. The path of a nested mix is relative to the
// directory of the file that names it; files nest at most MaxDepth deep,
// and a file that includes itself, directly or not, is refused. A file is
// read line by line, from a regular file of at most MaxFile bytes, each line
// at most MaxLine bytes. A bad line is reported as FILE:LINE: message.
//
// Every error about the text wraps ErrInvalid; ReadFile's error for the
// file given to it (missing, not a regular file, too large) is the file's
// own, an *fs.PathError. Package workload builds the operations and knows
// nothing of files; this package knows nothing of flags but what
// Reader.IsFlag tells it.
package mixfile

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/gcperf/gcperf/internal/quote"
	"github.com/gcperf/gcperf/internal/safefile"
	"github.com/gcperf/gcperf/workload"
)

// ErrInvalid is wrapped by every error about the text of operations.
var ErrInvalid = errors.New("invalid operations")

// invalid is an error about the text of operations: its message only.
type invalid struct{ msg string }

func (e *invalid) Error() string        { return e.msg }
func (e *invalid) Is(target error) bool { return target == ErrInvalid }

func invalidf(format string, args ...any) error {
	return &invalid{fmt.Sprintf(format, args...)}
}

// A Reader reads operations.
type Reader struct {
	// IsFlag reports whether a name is one of the command's flags, so that
	// a flag given among the operations is named as one; nil: none is.
	IsFlag func(name string) bool
	// Registry builds the operations by name; nil: the default registry
	// (workload.DefaultRegistry).
	Registry *workload.Registry
}

func (r Reader) isFlag(name string) bool { return r.IsFlag != nil && r.IsFlag(name) }

func (r Reader) registry() *workload.Registry {
	if r.Registry != nil {
		return r.Registry
	}
	return workload.DefaultRegistry()
}

// MaxDepth is how deep mix files may nest, the file given to ReadFile
// being the first.
const MaxDepth = 16

// An Op is one operation of a mix file.
type Op struct {
	Op   workload.Operation
	Args []string // as command-line arguments: name key=value...
	Pos  string   // where it was read: FILE:LINE
}

// Load builds a mix: the operations of the mix file at path (none when path
// is ""), then those of args, a command line's. It also returns them as
// command-line arguments, the mix file's written as name key=value..., which
// Args reads back into the same operations.
func (r Reader) Load(path string, args []string) (workload.Mix, []string, error) {
	var mix workload.Mix
	var text []string
	if path != "" {
		ops, err := r.ReadFile(path)
		if err != nil {
			return nil, nil, err
		}
		for _, o := range ops {
			mix = append(mix, o.Op)
			text = append(text, o.Args...)
		}
	}
	if len(args) > 0 || path == "" {
		m, err := r.Args(args)
		if err != nil {
			return nil, nil, err
		}
		mix = append(mix, m...)
		text = append(text, args...)
	}
	return mix, text, nil
}

// ReadFile reads the mix file at path, and those it includes, into
// operations, in the order of their lines. An error opening path itself is
// the file's (*fs.PathError); every other wraps ErrInvalid and names the
// file, and its line when it has one.
func (r Reader) ReadFile(path string) ([]Op, error) {
	f, info, err := openFile(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	mr := &mixReader{Reader: r}
	switch err := mr.read(path, info, f); {
	case errors.Is(err, errNoOperation):
		return nil, invalidf("%s: no operation", path)
	case err != nil:
		return nil, err
	}
	return mr.ops, nil
}

// errNoOperation is a mix file that gives no operation, itself or through
// the files it includes.
var errNoOperation = errors.New("no operation")

// errTooDeep is a mix line that would nest files deeper than MaxDepth.
var errTooDeep = fmt.Errorf("mix files nest more than %d deep", MaxDepth)

// mixCycle is a file that includes itself, on its way up the files being
// read to the line that started the cycle, which reports it.
type mixCycle struct {
	depth   int      // the index of the file included again in mixReader.stack
	through []string // the files between that line's file and the file again
}

func (c *mixCycle) Error() string { return "mix files include each other" }

// mixReader reads nested mix files.
type mixReader struct {
	Reader
	stack []mixFrame // the files being read, the outermost first
	ops   []Op
}

type mixFrame struct {
	name string // as messages name it: as given, or joined to its includer's directory
	info fs.FileInfo
}

// Limits of a mix file: it is read line by line, each line at most MaxLine
// bytes, each file at most MaxFile bytes.
const (
	MaxLine = 64 << 10
	MaxFile = 16 << 20
)

// read reads the mix file name, open as in, line by line, appending its
// operations to r.ops.
func (r *mixReader) read(name string, info fs.FileInfo, in io.Reader) error {
	depth := len(r.stack)
	r.stack = append(r.stack, mixFrame{name, info})
	defer func() { r.stack = r.stack[:depth] }()
	before := len(r.ops)
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 0, 4096), MaxLine)
	for i := 1; ; i++ {
		pos := fmt.Sprintf("%s:%d", name, i)
		at := func(format string, args ...any) error {
			return invalidf("%s: %s", pos, fmt.Sprintf(format, args...))
		}
		if !sc.Scan() {
			switch err := sc.Err(); {
			case errors.Is(err, bufio.ErrTooLong):
				return at("a line longer than %dKiB: not a mix file", MaxLine>>10)
			case errors.Is(err, safefile.ErrTooLarge):
				return invalidf("%s: larger than %dMiB: not a mix file", name, MaxFile>>20)
			case err != nil:
				return invalidf("%s: %s", name, safefile.Cause(err))
			}
			break
		}
		line := sc.Text()
		if i == 1 {
			// A byte order mark, which some editors write, is dropped; the
			// \r of a CRLF line end is a space to strings.Fields.
			line = strings.TrimPrefix(line, "\ufeff")
		}
		fields := strings.Fields(stripComment(line))
		if len(fields) == 0 {
			continue
		}
		var err error
		switch first := fields[0]; {
		case first == "mix":
			err = r.mixLine(name, depth, fields, at)
		case strings.HasPrefix(first, "-") || strings.Contains(first, "="):
			err = at("%s before any operation name: a line is OP key=value ...", quote.Clip(first))
		default:
			err = r.opLine(fields, pos, at)
		}
		if err != nil {
			return err
		}
	}
	if len(r.ops) == before {
		return errNoOperation
	}
	return nil
}

// lineError makes the error of a line, naming the file and the line.
type lineError func(format string, args ...any) error

// mixLine reads a "mix FILE" line of the file name, read at depth, which
// includes FILE.
func (r *mixReader) mixLine(name string, depth int, fields []string, at lineError) error {
	if len(fields) != 2 {
		return at("mix takes one file: mix FILE")
	}
	target := fields[1]
	err := r.include(name, target)
	if err == nil {
		return nil
	}
	var ue *invalid
	var c *mixCycle
	switch {
	case errors.As(err, &ue):
		return err // a line of the included file, which names it
	case errors.As(err, &c) && c.depth == depth:
		via := ""
		if len(c.through) > 0 {
			via = " (through " + strings.Join(c.through, ", ") + ")"
		}
		return at("mix %s: includes %s again%s", quote.Clip(target), name, via)
	case c != nil:
		return err // for the line that started the cycle
	case errors.Is(err, errNoOperation), errors.Is(err, errTooDeep):
		return at("mix %s: %v", quote.Clip(target), err)
	}
	return at("mix %s: %s", quote.Clip(target), safefile.Cause(err))
}

// opLine reads the line of one operation, OP key=value ..., read at pos,
// and adds the operation to r.ops.
func (r *mixReader) opLine(fields []string, pos string, at lineError) error {
	first := fields[0]
	if _, ok := r.registry().Lookup(first); !ok {
		return at("unknown operation %q (gcperf list shows them)", quote.Clip(first))
	}
	ot, n, err := scanOp(r.registry(), fields)
	if err != nil {
		return at("%v", err)
	}
	if n < len(fields) {
		return at("%s: %s is not a parameter (key=value or -key value): one operation a line", first, quote.Clip(fields[n]))
	}
	op, err := r.registry().New(first, ot.params)
	if err != nil {
		switch key := r.engineFlag(ot); {
		case key == "" || !errors.Is(err, workload.ErrUnknownParam):
		case key == "mix":
			return at("%v; a line of its own, mix FILE, includes a file", err)
		default:
			return at("%v; -%s is a flag: flags go on the command line", err, key)
		}
		return at("%v", err)
	}
	if len(r.ops) == workload.MaxOps {
		// Checked as the lines are read: files that include each other
		// many times over would otherwise build millions.
		return at("more than %d operations in the mix files, the most a mix holds", workload.MaxOps)
	}
	r.ops = append(r.ops, Op{Op: op, Args: ot.args(), Pos: pos})
	return nil
}

// include reads the file that the file name, the innermost being read,
// names on a mix line. Its errors are: the file's own (an *fs.PathError), a
// *mixCycle, errTooDeep, errNoOperation, or a usage error of a line in it.
func (r *mixReader) include(name, target string) error {
	path := target
	if !filepath.IsAbs(path) {
		path = filepath.Join(filepath.Dir(name), target)
	}
	in, info, err := openFile(path)
	if err != nil {
		return err
	}
	defer in.Close()
	for i, f := range r.stack {
		if os.SameFile(f.info, info) {
			c := &mixCycle{depth: i}
			if i+2 <= len(r.stack) {
				for _, g := range r.stack[i+2:] {
					c.through = append(c.through, g.name)
				}
			}
			return c
		}
	}
	if len(r.stack) >= MaxDepth {
		return errTooDeep
	}
	return r.read(path, info, in)
}

// openFile opens a mix file, a regular file of at most MaxFile
// bytes, and stats it, for the cycle check.
func openFile(path string) (*safefile.File, fs.FileInfo, error) {
	f, err := safefile.Open(path, MaxFile)
	if err != nil {
		return nil, nil, err
	}
	info, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, info, nil
}

// stripComment removes a comment: from a # at the start of the line or
// after a space or tab, to the end of the line. A # inside a word, as in
// name=a#b, is kept.
func stripComment(line string) string {
	for i := 0; i < len(line); i++ {
		if line[i] == '#' && (i == 0 || line[i-1] == ' ' || line[i-1] == '\t') {
			return line[:i]
		}
	}
	return line
}
