package profiles

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestCheck(t *testing.T) {
	dir := t.TempDir()
	existing := filepath.Join(dir, "cpu.pprof")
	if err := os.WriteFile(existing, []byte("keep"), 0o644); err != nil {
		t.Fatal(err)
	}
	aFile := filepath.Join(dir, "file")
	if err := os.WriteFile(aFile, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	aDir := filepath.Join(dir, "adir")
	readOnly := filepath.Join(dir, "readonly")
	for _, d := range []string{aDir, readOnly} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Chmod(readOnly, 0o500); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(readOnly, 0o755) })
	in := func(name string) string { return filepath.Join(dir, name) }
	missing := filepath.Join(dir, "no", "such", "cpu.pprof")
	underFile := filepath.Join(aFile, "cpu.pprof")
	unwritable := filepath.Join(readOnly, "cpu.pprof")

	tests := []struct {
		name      string
		reqs      []Request
		overwrite bool
		rootSkips bool   // root writes anywhere
		want      string // the error, "" for none
	}{
		{"none", nil, false, false, ""},
		{"every kind", []Request{{CPU, in("c.pprof")}, {Heap, in("h.pprof")}, {Block, in("b.pprof")},
			{Mutex, in("m.pprof")}, {Trace, in("t.out")}, {FGProf, in("f.pprof")}}, false, false, ""},
		{"exists", []Request{{Heap, in("h.pprof")}, {CPU, existing}}, false, false,
			existing + ": file exists"},
		{"exists, overwrite", []Request{{CPU, existing}}, true, false, ""},
		{"a directory", []Request{{CPU, aDir}}, false, false, aDir + ": is a directory"},
		{"a directory, overwrite", []Request{{CPU, aDir}}, true, false, aDir + ": is a directory"},
		{"no directory", []Request{{Trace, missing}}, false, false, missing + ": cannot write there: no such file or directory"},
		{"under a file", []Request{{Trace, underFile}}, true, false, underFile + ": not a directory"},
		{"unwritable directory", []Request{{CPU, unwritable}}, false, true, unwritable + ": cannot write there: permission denied"},
		{"one path twice", []Request{{CPU, in("x.pprof")}, {Heap, in("x.pprof")}}, false, false,
			in("x.pprof") + ": the same file for the cpu and heap profiles"},
		{"one path, two spellings", []Request{{Block, in("x.pprof")}, {Mutex, dir + "/./x.pprof"}}, false, false,
			dir + "/./x.pprof: the same file for the block and mutex profiles"},
		{"one kind twice", []Request{{FGProf, in("a.pprof")}, {FGProf, in("b.pprof")}}, false, false,
			in("b.pprof") + ": a second fgprof profile (the first goes to " + in("a.pprof") + ")"},
		{"unknown kind", []Request{{"goroutine", in("g.pprof")}}, false, false, in("g.pprof") + `: unknown profile kind "goroutine"`},
		{"no path", []Request{{CPU, ""}}, false, false, "cpu profile: no file named"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.rootSkips && os.Geteuid() == 0 {
				t.Skip("root can write in a read-only directory (\"under a file\" covers an unwritable path for root)")
			}
			err := Check(tt.reqs, tt.overwrite)
			got := ""
			if err != nil {
				got = err.Error()
			}
			if got != tt.want {
				t.Errorf("error %q, want %q", got, tt.want)
			}
			if tt.want != "" && errors.Is(err, ErrExists) != (tt.name == "exists") {
				t.Errorf("errors.Is(err, ErrExists) = %v", errors.Is(err, ErrExists))
			}
		})
	}
	// Check created nothing, and touched nothing.
	for _, d := range []string{dir, aDir, readOnly} {
		entries, _ := os.ReadDir(d)
		if want := map[string]int{dir: 4}[d]; len(entries) != want {
			t.Errorf("%s holds %d entries, want %d", d, len(entries), want)
		}
	}
	if b, _ := os.ReadFile(existing); string(b) != "keep" {
		t.Errorf("the existing file was touched: %q", b)
	}
}
