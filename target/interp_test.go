package target

import (
	"bytes"
	"context"
	"debug/elf"
	"errors"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// A script whose #! interpreter is missing or cannot run is refused by
// CanStart and Start, before anything runs, with an *InterpreterError
// naming the interpreter (issue 24, item 19: the kernel's "no such file or
// directory" of a file that exists). Scripts whose interpreter runs, and
// programs that are not scripts, pass.
func TestInterpreterMissing(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string, mode os.FileMode) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(text), mode); err != nil {
			t.Fatal(err)
		}
		return path
	}
	if _, err := os.Stat("/usr/bin/env"); err != nil {
		t.Skipf("no /usr/bin/env: %v", err)
	}
	noexec := write("noexec", "#!/bin/sh\n", 0o644)
	inner := write("inner.sh", "#!/no/such/interp\n", 0o755)
	tests := []struct {
		name   string
		path   string
		interp string // "": starts
		is     error
	}{
		{"missing", write("missing.sh", "#!/no/such/interp -x\necho hi\n", 0o755), "/no/such/interp", fs.ErrNotExist},
		{"spaces", write("spaces.sh", "#!  /no/such/interp\n", 0o755), "/no/such/interp", fs.ErrNotExist},
		{"not executable", write("noexec.sh", "#!"+noexec+"\n", 0o755), noexec, fs.ErrPermission},
		{"a directory", write("dir.sh", "#!"+dir+"\n", 0o755), dir, nil},
		{"its interpreter's", write("outer.sh", "#!"+inner+"\n", 0o755), "/no/such/interp", fs.ErrNotExist},
		{"env", write("env.sh", "#!/usr/bin/env no-such-program-gcperf\n", 0o755), "/usr/bin/env no-such-program-gcperf", exec.ErrNotFound},
		{"env sh", write("envsh.sh", "#!/usr/bin/env sh\nexit 0\n", 0o755), "", nil},
		{"env -S", write("envs.sh", "#!/usr/bin/env -S no-such-program-gcperf -x\n", 0o755), "", nil}, // options: not followed
		{"sh", write("ok.sh", "#!/bin/sh\nexit 0\n", 0o755), "", nil},
		{"no #!", write("plain.sh", "exit 0\n", 0o755), "", nil},
		{"a binary", "/bin/sh", "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := CanStart(tt.path)
			var ie *InterpreterError
			switch {
			case tt.interp == "" && err != nil:
				t.Fatalf("CanStart(%s): %v, want nil", tt.path, err)
			case tt.interp == "":
				return
			case !errors.Is(err, ErrNotStarted) || !errors.As(err, &ie) || ie.Interpreter != tt.interp:
				t.Fatalf("CanStart(%s): %v, want a StartError of interpreter %q", tt.path, err, tt.interp)
			case tt.is != nil && !errors.Is(err, tt.is):
				t.Errorf("CanStart(%s): %v, not %v", tt.path, err, tt.is)
			}
			// Start refuses it as CanStart does, from another directory
			// too (a relative path is the command's Dir's).
			c := &Command{Path: "./" + filepath.Base(tt.path), Dir: dir}
			if _, err := c.Start(context.Background()); !errors.As(err, &ie) || ie.Interpreter != tt.interp {
				t.Errorf("Start: %v, want a StartError of interpreter %q", err, tt.interp)
			}
		})
	}
}

// A dynamically linked program whose loader (its ELF interpreter) is
// missing is refused with the loader's name, where the kernel says "no
// such file or directory" of a program that exists.
func TestLoaderMissing(t *testing.T) {
	const prog = "/bin/true"
	f, err := elf.Open(prog)
	if err != nil {
		t.Skipf("%s: %v", prog, err)
	}
	var loader string
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP {
			b, _ := io.ReadAll(p.Open())
			loader = string(bytes.TrimRight(b, "\x00"))
		}
	}
	f.Close()
	if loader == "" {
		t.Skipf("%s is linked statically", prog)
	}
	b, err := os.ReadFile(prog)
	if err != nil {
		t.Fatal(err)
	}
	missing := "/no/such/" + strings.Repeat("x", len(loader)-len("/no/such/"))
	path := filepath.Join(t.TempDir(), "noloader")
	if err := os.WriteFile(path, bytes.Replace(b, []byte(loader), []byte(missing), 1), 0o755); err != nil {
		t.Fatal(err)
	}
	err = CanStart(path)
	var ie *InterpreterError
	if !errors.As(err, &ie) || !ie.Loader || ie.Interpreter != missing || !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("CanStart: %v, want the missing loader %q", err, missing)
	}
	if want := `target: cannot start "` + path + `": its loader (ELF interpreter) "` + missing + `": no such file or directory`; err.Error() != want {
		t.Errorf("error %q\nwant  %q", err, want)
	}
	if err := CanStart(prog); err != nil {
		t.Errorf("CanStart(%s): %v", prog, err)
	}
}
