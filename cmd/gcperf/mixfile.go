package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/gcperf/gcperf/internal/safefile"
	"github.com/gcperf/gcperf/workload"

	"github.com/gcperf/gcperf/internal/quote"
)

// Mix files (gcperf run -mix FILE, gcperf sweep -mix FILE) list operations,
// one a line, as the command line gives them after the flags:
//
//	# a comment, from # at the start of a line or after a space to its end
//	spin d=100us
//	sleep -d 1ms          # -key value, -key=value and key=value all work
//	spin d=100us          # an operation may appear several times
//	mix common.mix        # the operations of another file, here
//
// Blank lines are ignored. The path of a nested mix is relative to the
// directory of the file that names it; files nest at most maxMixDepth deep,
// and a file that includes itself, directly or not, is refused. A bad line is
// reported as FILE:LINE: message before anything runs. Mix files are read
// here, not in package workload, which knows nothing of files.

// maxMixDepth is how deep mix files may nest, the file given to -mix being
// the first.
const maxMixDepth = 16

// mixUsage is the help of the -mix flag.
const mixUsage = "read operations from `file`, one a line: name key=value ... (# comments, mix other.mix includes another); they come before the command line's"

// registerMix declares -mix on fs.
func registerMix(fs *flag.FlagSet) *string {
	return fs.String("mix", "", mixUsage)
}

// mixOp is one operation of a mix file.
type mixOp struct {
	op   workload.Operation
	args []string // as command-line arguments: name key=value...
	pos  string   // where it was read: FILE:LINE
}

// loadMix builds the mix of gcperf run and gcperf sweep: the operations of
// the mix file at path (none when path is ""), then those of args, the
// command line's. It also returns them as command-line arguments, the mix
// file's written as name key=value..., for a sweep's children.
func loadMix(path string, args []string) (workload.Mix, []string, error) {
	var mix workload.Mix
	var text []string
	if path != "" {
		ops, err := parseMixFile(path)
		if err != nil {
			return nil, nil, err
		}
		for _, o := range ops {
			mix = append(mix, o.op)
			text = append(text, o.args...)
		}
	}
	if len(args) > 0 || path == "" {
		m, err := parseMix(args)
		if err != nil {
			return nil, nil, err
		}
		mix = append(mix, m...)
		text = append(text, args...)
	}
	return mix, text, nil
}

// parseMixFile reads the mix file at path, and those it includes, into
// operations, in the order of their lines. Every error is a usage error
// naming the file, and its line when it has one.
func parseMixFile(path string) ([]mixOp, error) {
	f, info, err := openMixFile(path)
	if err != nil {
		return nil, usagef("-mix %s: %s", path, ioReason(err))
	}
	defer f.Close()
	r := &mixReader{}
	switch err := r.read(path, info, f); {
	case errors.Is(err, errNoOperation):
		return nil, usagef("%s: no operation", path)
	case err != nil:
		return nil, err
	}
	return r.ops, nil
}

// errNoOperation is a mix file that gives no operation, itself or through
// the files it includes.
var errNoOperation = errors.New("no operation")

// errTooDeep is a mix line that would nest files deeper than maxMixDepth.
var errTooDeep = fmt.Errorf("mix files nest more than %d deep", maxMixDepth)

// mixCycle is a file that includes itself, on its way up the files being
// read to the line that started the cycle, which reports it.
type mixCycle struct {
	depth   int      // the index of the file included again in mixReader.stack
	through []string // the files between that line's file and the file again
}

func (c *mixCycle) Error() string { return "mix files include each other" }

// mixReader reads nested mix files.
type mixReader struct {
	stack []mixFrame // the files being read, the outermost first
	ops   []mixOp
}

type mixFrame struct {
	name string // as messages name it: as given, or joined to its includer's directory
	info fs.FileInfo
}

// Limits of a mix file: it is read line by line, each line at most
// maxMixLine bytes, each file at most maxMixFile bytes.
const (
	maxMixLine = 64 << 10
	maxMixFile = 16 << 20
)

// read reads the mix file name, open as in, line by line, appending its
// operations to r.ops.
func (r *mixReader) read(name string, info fs.FileInfo, in io.Reader) error {
	depth := len(r.stack)
	r.stack = append(r.stack, mixFrame{name, info})
	defer func() { r.stack = r.stack[:depth] }()
	before := len(r.ops)
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 0, 4096), maxMixLine)
	for i := 1; ; i++ {
		pos := fmt.Sprintf("%s:%d", name, i)
		at := func(format string, args ...any) error {
			return usagef("%s: %s", pos, fmt.Sprintf(format, args...))
		}
		if !sc.Scan() {
			switch err := sc.Err(); {
			case errors.Is(err, bufio.ErrTooLong):
				return at("a line longer than %dKiB: not a mix file", maxMixLine>>10)
			case errors.Is(err, safefile.ErrTooLarge):
				return usagef("%s: larger than %dMiB: not a mix file", name, maxMixFile>>20)
			case err != nil:
				return usagef("%s: %s", name, ioReason(err))
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
		first := fields[0]
		switch {
		case first == "mix":
			if len(fields) != 2 {
				return at("mix takes one file: mix FILE")
			}
			target := fields[1]
			if err := r.include(name, target); err != nil {
				var ue *usageError
				var c *mixCycle
				switch {
				case errors.As(err, &ue):
					return err // a line of the included file, which names it
				case errors.As(err, &c) && c.depth == depth:
					via := ""
					if len(c.through) > 0 {
						via = " (through " + strings.Join(c.through, ", ") + ")"
					}
					return at("mix %s: includes %s again%s", target, name, via)
				case c != nil:
					return err // for the line that started the cycle
				case errors.Is(err, errNoOperation), errors.Is(err, errTooDeep):
					return at("mix %s: %v", target, err)
				}
				return at("mix %s: %s", target, ioReason(err))
			}
		case strings.HasPrefix(first, "-") || strings.Contains(first, "="):
			return at("%s before any operation name: a line is OP key=value ...", quote.Clip(first))
		default:
			if _, ok := workload.Lookup(first); !ok {
				return at("unknown operation %q (gcperf list shows them)", quote.Clip(first))
			}
			ot, n, err := scanOp(fields)
			if err != nil {
				return at("%v", err)
			}
			if n < len(fields) {
				return at("%s: %s is not a parameter (key=value or -key value): one operation a line", first, quote.Clip(fields[n]))
			}
			op, err := workload.New(first, ot.params)
			if err != nil {
				switch key := ot.engineFlag(); {
				case key == "" || !errors.Is(err, workload.ErrUnknownParam):
				case key == "mix":
					return at("%v; a line of its own, mix FILE, includes a file", err)
				default:
					return at("%v; -%s is a flag: flags go on the command line", err, key)
				}
				return at("%v", err)
			}
			r.ops = append(r.ops, mixOp{op: op, args: ot.args(), pos: pos})
		}
	}
	if len(r.ops) == before {
		return errNoOperation
	}
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
	in, info, err := openMixFile(path)
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
	if len(r.stack) >= maxMixDepth {
		return errTooDeep
	}
	return r.read(path, info, in)
}

// openMixFile opens a mix file, a regular file of at most maxMixFile
// bytes, and stats it, for the cycle check.
func openMixFile(path string) (*safefile.File, fs.FileInfo, error) {
	f, err := safefile.Open(path, maxMixFile)
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

// ioReason is the reason of a file error, without the operation and path
// that the message names already: "no such file or directory".
func ioReason(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
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
