package target

import (
	"bytes"
	"cmp"
	"debug/elf"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// An InterpreterError is the cause (in a StartError) of a script that
// cannot start because the interpreter its "#!" line names cannot, or of
// a dynamically linked program whose loader (its ELF interpreter, such as
// /lib64/ld-linux-x86-64.so.2) is missing: the kernel says only "no such
// file or directory" of a file that exists.
type InterpreterError struct {
	Interpreter string // as the #! line or the ELF header names it
	Loader      bool   // an ELF program's loader, not a #! interpreter
	Err         error  // why it cannot run: fs.ErrNotExist, not executable, ...
}

func (e *InterpreterError) Error() string {
	if e.Loader {
		return fmt.Sprintf("its loader (ELF interpreter) %q: %v", e.Interpreter, e.Err)
	}
	return fmt.Sprintf("its #! interpreter %q: %v", e.Interpreter, e.Err)
}

func (e *InterpreterError) Unwrap() error { return e.Err }

// maxInterpDepth is how many interpreters of interpreters (a #! script
// run by another) the check follows, as the kernel does (Linux: 4).
const maxInterpDepth = 4

// hashBangLen is how much of a file the kernel reads for its #! line
// (Linux's BINPRM_BUF_SIZE).
const hashBangLen = 256

// checkInterpreter returns an *InterpreterError when the program at path
// (run in dir: a relative path is dir's, with the environment env: nil is
// this process's) is a script whose #! line names an interpreter that is
// not there or cannot be run (or "/usr/bin/env NAME" with no NAME in the
// PATH the child gets), or a program whose loader is missing; nil
// otherwise, or when the program itself cannot be read (its start says
// why).
func checkInterpreter(path, dir string, env []string) error {
	if !strings.ContainsRune(path, filepath.Separator) {
		p, err := exec.LookPath(path)
		if err != nil {
			return nil
		}
		path = p
	}
	for range maxInterpDepth {
		interp, arg := hashBang(inDir(path, dir))
		if interp == "" {
			return checkLoader(inDir(path, dir))
		}
		if name, ok := envProgram(interp, arg); ok && !inPath(name, dir, pathOf(env)) {
			return &InterpreterError{Interpreter: interp + " " + arg, Err: exec.ErrNotFound}
		}
		st, err := os.Stat(inDir(interp, dir))
		switch {
		case err != nil:
			var pe *fs.PathError
			if errors.As(err, &pe) {
				err = pe.Err
			}
			return &InterpreterError{Interpreter: interp, Err: err}
		case st.IsDir():
			return &InterpreterError{Interpreter: interp, Err: errors.New("is a directory")}
		case st.Mode().Perm()&0o111 == 0:
			return &InterpreterError{Interpreter: interp, Err: fs.ErrPermission}
		}
		path = interp
	}
	return nil
}

// inDir is path as seen from dir: itself when absolute or dir is "".
func inDir(path, dir string) string {
	if dir == "" || filepath.IsAbs(path) {
		return path
	}
	return filepath.Join(dir, path)
}

// hashBang is the interpreter the #! line of the file at path names, and
// the argument it gives it (the rest of the line, as the kernel passes
// it), "" for a file without one or that cannot be read.
func hashBang(path string) (interp, arg string) {
	f, err := os.Open(path)
	if err != nil {
		return "", ""
	}
	defer f.Close()
	buf := make([]byte, hashBangLen)
	n, _ := io.ReadFull(f, buf)
	line, ok := bytes.CutPrefix(buf[:n], []byte("#!"))
	if !ok {
		return "", ""
	}
	if i := bytes.IndexByte(line, '\n'); i >= 0 {
		line = line[:i]
	}
	interp, arg, _ = strings.Cut(strings.TrimSpace(strings.ReplaceAll(string(line), "\t", " ")), " ")
	return interp, strings.TrimSpace(arg)
}

// envProgram is the program a "#!/usr/bin/env NAME" line runs, when it is
// one: env with one argument, neither an option nor a setting.
func envProgram(interp, arg string) (name string, ok bool) {
	if filepath.Base(interp) != "env" || arg == "" || strings.ContainsAny(arg, " =") || strings.HasPrefix(arg, "-") {
		return "", false
	}
	return arg, true
}

// pathOf is the PATH of the environment env (nil: this process's).
func pathOf(env []string) string {
	if env == nil {
		return os.Getenv("PATH")
	}
	path := ""
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "PATH="); ok {
			path = v // the last one counts
		}
	}
	return path
}

// inPath reports whether env(1) finds the program name in the directories
// of path (name itself when it holds a slash, dir's when relative).
func inPath(name, dir, path string) bool {
	executable := func(p string) bool {
		st, err := os.Stat(inDir(p, dir))
		return err == nil && st.Mode().IsRegular() && st.Mode().Perm()&0o111 != 0
	}
	if strings.ContainsRune(name, '/') {
		return executable(name)
	}
	for _, d := range filepath.SplitList(path) {
		if executable(filepath.Join(cmp.Or(d, "."), name)) {
			return true
		}
	}
	return false
}

// checkLoader returns an *InterpreterError when the file at path is a
// dynamically linked ELF program whose loader is not there; nil
// otherwise.
func checkLoader(path string) error {
	f, err := elf.Open(path)
	if err != nil {
		return nil // not ELF, or not readable: its start says why
	}
	defer f.Close()
	for _, p := range f.Progs {
		if p.Type != elf.PT_INTERP {
			continue
		}
		b, err := io.ReadAll(io.LimitReader(p.Open(), 4096))
		if err != nil {
			return nil
		}
		loader := string(bytes.TrimRight(b, "\x00"))
		var pe *fs.PathError
		if _, err := os.Stat(loader); errors.Is(err, fs.ErrNotExist) && errors.As(err, &pe) {
			return &InterpreterError{Interpreter: loader, Loader: true, Err: pe.Err}
		}
	}
	return nil
}
