package safefile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// fixture builds a directory of every kind of path an output may meet.
type fixture struct {
	dir, file, fifo, dangling, link, sub, linkDir string
}

func newFixture(t *testing.T) fixture {
	t.Helper()
	d := t.TempDir()
	f := fixture{
		dir:      d,
		file:     filepath.Join(d, "file.json"),
		fifo:     filepath.Join(d, "fifo"),
		dangling: filepath.Join(d, "dangling"),
		link:     filepath.Join(d, "link"),
		sub:      filepath.Join(d, "sub"),
		linkDir:  filepath.Join(d, "linkdir"),
	}
	must(t, os.WriteFile(f.file, []byte("{}"), 0o644))
	must(t, syscall.Mkfifo(f.fifo, 0o644))
	must(t, os.Symlink(filepath.Join(d, "nowhere"), f.dangling))
	must(t, os.Symlink(f.file, f.link))
	must(t, os.Mkdir(f.sub, 0o755))
	must(t, os.Symlink(f.sub, f.linkDir))
	return f
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func TestCheck(t *testing.T) {
	f := newFixture(t)
	in := func(name string) string { return filepath.Join(f.dir, name) }
	tests := []struct {
		name      string
		outs      []Output
		overwrite bool
		dirs      []Output
		want      string // "" for no error
		is        error
	}{
		{"new file", []Output{{Label: "-json a", Path: in("a.json")}}, false, nil, "", nil},
		{"stdout", []Output{{Label: "-json -", Path: "-"}, {Label: "-csv -", Path: "-"}}, false, nil, "", nil},
		{"existing", []Output{{Label: "-json x", Path: f.file}}, false, nil, "-json x: file exists", ErrExists},
		{"existing, overwrite", []Output{{Label: "-json x", Path: f.file}}, true, nil, "", nil},
		{"device, overwrite", []Output{{Label: "-json /dev/null", Path: "/dev/null"}}, true, nil, "-json /dev/null: not a regular file: a device", ErrNotRegular},
		{"device", []Output{{Label: "", Path: "/dev/null"}}, false, nil, "/dev/null: not a regular file: a device", ErrNotRegular},
		{"named pipe, overwrite", []Output{{Label: "-csv p", Path: f.fifo}}, true, nil, "-csv p: not a regular file: a named pipe", ErrNotRegular},
		{"dangling link", []Output{{Label: "-json d", Path: f.dangling}}, false, nil, "-json d: not a regular file: a symbolic link", ErrNotRegular},
		{"dangling link, overwrite", []Output{{Label: "-json d", Path: f.dangling}}, true, nil, "-json d: not a regular file: a symbolic link", ErrNotRegular},
		{"link to a file, overwrite", []Output{{Label: "-json l", Path: f.link}}, true, nil, "-json l: not a regular file: a symbolic link", ErrNotRegular},
		{"directory", []Output{{Label: "-html d", Path: f.sub}}, true, nil, "-html d: is a directory", ErrNotRegular},
		{"same path", []Output{{Label: "-json a", Path: in("a")}, {Label: "-cpuprofile a", Path: in("./a")}}, false, nil,
			"-cpuprofile a: the same file as -json a", ErrSameFile},
		{"same file through a linked directory", []Output{{Label: "-json a", Path: filepath.Join(f.sub, "a")}, {Label: "-csv b", Path: filepath.Join(f.linkDir, "a")}}, false, nil,
			"-csv b: the same file as -json a", ErrSameFile},
		{"same existing file, overwrite", []Output{{Label: "-cpuprofile x", Path: f.file}, {Label: "-json x", Path: in("sub/../file.json")}}, true, nil,
			"-json x: the same file as -cpuprofile x", ErrSameFile},
		{"same file under a planned directory", []Output{{Label: "-out o: o/result.json", Path: in("o/result.json")}, {Label: "-json j", Path: in("o/./result.json")}}, false, []Output{{Label: "-out o", Path: in("o")}},
			"-json j: the same file as -out o: o/result.json", ErrSameFile},
		{"missing directory", []Output{{Label: "-json m", Path: in("no/such/x.json")}}, false, nil, "-json m: cannot write there: no such file or directory", fs.ErrNotExist},
		{"planned directory", []Output{{Label: "-out o", Path: in("o/result.json")}}, false, []Output{{Label: "-out o", Path: in("o")}}, "", nil},
		{"planned directory is a file", []Output{{Label: "-out o", Path: in("file.json/result.json")}}, false, []Output{{Label: "-out f", Path: f.file}}, "-out f: not a directory", nil},
		{"under a file", []Output{{Label: "-json u", Path: in("file.json/x")}}, false, nil, "-json u: not a directory", syscall.ENOTDIR},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := Check(tt.outs, tt.overwrite, tt.dirs...)
			if tt.want == "" {
				if err != nil {
					t.Fatalf("Check: %v, want no error", err)
				}
				return
			}
			if err == nil || err.Error() != tt.want {
				t.Fatalf("Check: %v, want %q", err, tt.want)
			}
			if tt.is != nil && !errors.Is(err, tt.is) {
				t.Errorf("Check: %v is not %v", err, tt.is)
			}
		})
	}
}

func TestCheckHardLink(t *testing.T) {
	f := newFixture(t)
	hard := filepath.Join(f.dir, "hard.json")
	must(t, os.Link(f.file, hard))
	err := Check([]Output{{Label: "-json a", Path: f.file}, {Label: "-csv b", Path: hard}}, true)
	if !errors.Is(err, ErrSameFile) {
		t.Fatalf("Check of two hard links: %v, want the same file", err)
	}
}

func TestWrite(t *testing.T) {
	f := newFixture(t)
	write := func(s string) func(io.Writer) error {
		return func(w io.Writer) error { _, err := io.WriteString(w, s); return err }
	}
	tests := []struct {
		name      string
		path      string
		overwrite bool
		is        error
	}{
		{"new", filepath.Join(f.dir, "new.json"), false, nil},
		{"existing", f.file, false, ErrExists},
		{"existing, overwrite", f.file, true, nil},
		{"device, overwrite", "/dev/null", true, ErrNotRegular},
		{"named pipe, overwrite", f.fifo, true, ErrNotRegular},
		{"dangling link", f.dangling, false, ErrNotRegular},
		{"link, overwrite", f.link, true, ErrNotRegular},
		{"directory", f.sub, true, ErrNotRegular},
		{"missing directory", filepath.Join(f.dir, "no", "x"), false, fs.ErrNotExist},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := Write(tt.path, nil, tt.overwrite, write("data"))
			if tt.is == nil {
				if err != nil {
					t.Fatal(err)
				}
				if got, _ := os.ReadFile(tt.path); string(got) != "data" {
					t.Errorf("%s holds %q, want data", tt.path, got)
				}
			} else if !errors.Is(err, tt.is) || !strings.HasPrefix(err.Error(), tt.path+": ") {
				t.Errorf("Write: %v, want an error naming %s and wrapping %v", err, tt.path, tt.is)
			}
			assertNoTemps(t, f.dir)
		})
	}
	// The fifo and the links are what they were.
	if st, err := os.Lstat(f.fifo); err != nil || st.Mode()&fs.ModeNamedPipe == 0 {
		t.Errorf("the named pipe was replaced: %v %v", st, err)
	}
	if st, err := os.Lstat(f.dangling); err != nil || st.Mode()&fs.ModeSymlink == 0 {
		t.Errorf("the dangling link was replaced: %v %v", st, err)
	}
}

func TestWriteFailureLeavesNothing(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "r.json")
	boom := errors.New("boom")
	err := Write(path, nil, false, func(w io.Writer) error {
		io.WriteString(w, "half")
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("Write: %v, want boom", err)
	}
	if _, err := os.Lstat(path); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("%s exists after a failed write", path)
	}
	assertNoTemps(t, dir)
}

// TestTempsRemove: a Temps removes its own uncommitted files and no other
// owner's, and creates none after its Remove.
func TestTempsRemove(t *testing.T) {
	dir := t.TempDir()
	var mine, theirs Temps
	a, err := mine.Create(filepath.Join(dir, "a.pprof"), false)
	must(t, err)
	b, err := mine.Create(filepath.Join(dir, "b.json"), false)
	must(t, err)
	must(t, b.Commit())
	other, err := theirs.Create(filepath.Join(dir, "other.json"), false)
	must(t, err)
	plain, err := CreateTemp(filepath.Join(dir, "plain.json"), false)
	must(t, err)

	mine.Remove()
	if _, err := os.Stat(a.Name()); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Remove left its own temporary file: %v", err)
	}
	for _, tf := range []*Temp{other, plain} {
		if _, err := os.Stat(tf.Name()); err != nil {
			t.Errorf("Remove removed another's temporary file %s: %v", tf.Path(), err)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "b.json")); err != nil {
		t.Errorf("the committed file is gone: %v", err)
	}
	a.Abort() // after Remove: harmless
	if _, err := mine.Create(filepath.Join(dir, "c.json"), false); !errors.Is(err, ErrRemoved) {
		t.Errorf("Create after Remove: %v, want ErrRemoved", err)
	}
	err = mine.Write(filepath.Join(dir, "d.json"), nil, false, func(io.Writer) error { return nil })
	if !errors.Is(err, ErrRemoved) {
		t.Errorf("Write after Remove: %v, want ErrRemoved", err)
	}
	must(t, other.Commit())
	plain.Abort()
	assertNoTemps(t, dir)

	// A write through a Temps is a Write like any other.
	var g Temps
	must(t, g.Write(filepath.Join(dir, "e.json"), nil, false, func(w io.Writer) error {
		_, err := io.WriteString(w, "e")
		return err
	}))
	if data, err := os.ReadFile(filepath.Join(dir, "e.json")); err != nil || string(data) != "e" {
		t.Errorf("e.json = %q, %v", data, err)
	}
	assertNoTemps(t, dir)
}

func TestRemoveStale(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{".sweep.html.tmp123", ".a,rep=1.json.tmp9", "keep.json", ".keep", ".x.tmpabc"} {
		must(t, os.WriteFile(filepath.Join(dir, n), nil, 0o644))
	}
	must(t, RemoveStale(dir))
	var left []string
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		left = append(left, e.Name())
	}
	if got := strings.Join(left, " "); got != ".keep .x.tmpabc keep.json" {
		t.Errorf("left %q", got)
	}
}

func assertNoTemps(t *testing.T, dir string) {
	t.Helper()
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if IsTemp(e.Name()) {
			t.Errorf("temporary file %s left in %s", e.Name(), dir)
		}
	}
}

func TestRead(t *testing.T) {
	f := newFixture(t)
	big := filepath.Join(f.dir, "big")
	must(t, os.WriteFile(big, make([]byte, 2000), 0o644))
	tests := []struct {
		name  string
		path  string
		limit int64
		want  string // the error's text, "" for none
		is    error
	}{
		{"regular", f.file, 100, "", nil},
		{"through a link", f.link, 100, "", nil},
		{"at the limit", big, 2000, "", nil},
		{"over the limit", big, 1999, "read " + big + ": larger than 1999 bytes, the most gcperf reads of such a file", ErrTooLarge},
		{"zero device", "/dev/zero", MiB, "read /dev/zero: not a regular file: a device", ErrNotRegular},
		{"named pipe", f.fifo, MiB, "read " + f.fifo + ": not a regular file: a named pipe", ErrNotRegular},
		{"directory", f.sub, MiB, "read " + f.sub + ": is a directory", ErrNotRegular},
		{"missing", filepath.Join(f.dir, "none"), MiB, "open " + filepath.Join(f.dir, "none") + ": no such file or directory", fs.ErrNotExist},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data, err := Read(tt.path, tt.limit)
			if tt.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				if len(data) == 0 {
					t.Error("read nothing")
				}
				return
			}
			if err == nil || err.Error() != tt.want || !errors.Is(err, tt.is) {
				t.Errorf("Read: %v, want %q (%v)", err, tt.want, tt.is)
			}
		})
	}
}

// TestReadGrowing bounds a file that grows past the limit after it was
// opened: the stat said it fit.
func TestReadGrowing(t *testing.T) {
	path := filepath.Join(t.TempDir(), "grow")
	must(t, os.WriteFile(path, []byte("small"), 0o644))
	r, err := Open(path, 10)
	must(t, err)
	defer r.Close()
	must(t, os.WriteFile(path, make([]byte, 100), 0o644))
	if _, err := io.ReadAll(r); !errors.Is(err, ErrTooLarge) {
		t.Errorf("ReadAll of a grown file: %v, want ErrTooLarge", err)
	}
}

// "L/../y" where L links to real/deep names real/y, not ./y: the same-file
// check follows the links before it reads "..", as the kernel does.
func TestCheckDotDotThroughLink(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	if err := os.MkdirAll(filepath.Join("real", "deep"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join("real", "deep"), "L"); err != nil {
		t.Fatal(err)
	}
	err := Check([]Output{{Label: "-json", Path: "L/../y.json"}, {Label: "-csv", Path: "real/y.json"}}, true)
	if !errors.Is(err, ErrSameFile) {
		t.Errorf("Check: %v, want ErrSameFile", err)
	}
	if err := Check([]Output{{Path: "L/../y.json"}, {Path: "y.json"}}, true); err != nil {
		t.Errorf("Check of two files: %v", err)
	}
}

func TestWithOverwrite(t *testing.T) {
	exists := fmt.Errorf("-json x: %w", ErrExists)
	if got := WithOverwrite(exists); got != "-json x: file exists (use -overwrite to replace it)" {
		t.Errorf("WithOverwrite(exists) = %q", got)
	}
	if got := WithOverwrite(fmt.Errorf("-json x: %w", ErrNotRegular)); strings.Contains(got, "-overwrite") {
		t.Errorf("WithOverwrite(not regular) = %q", got)
	}
}
