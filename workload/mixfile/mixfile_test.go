package mixfile

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gcperf/gcperf/workload"
)

// goodMix is testdata/good.mix's operations, with where each was read.
var goodMix = []string{
	"good.mix:3: spin d=10us",
	"good.mix:4: sleep d=100us",
	"good.mix:5: noop",
	"good.mix:6: spin d=20us",
	"sub/common.mix:2: sleep d=50us",
	"sub/leaf.mix:1: noop",
	"good.mix:9: spin d=10us",
}

// describe lists the operations of a mix file as goodMix does.
func describe(ops []Op) []string {
	var got []string
	for _, o := range ops {
		got = append(got, o.Pos+": "+strings.Join(o.Args, " "))
	}
	return got
}

// writeFiles writes files (name: content) under dir, creating directories.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestMixFileBad runs gcperf run -mix a.mix on every kind of bad file,
// written to a temporary directory, from that directory.
// nested is a chain of n mix files, d1.mix including d2.mix ... dn.mix.
func nested(n int) map[string]string {
	files := map[string]string{}
	for i := 1; i < n; i++ {
		files[fmt.Sprintf("d%d.mix", i)] = fmt.Sprintf("mix d%d.mix\n", i+1)
	}
	files[fmt.Sprintf("d%d.mix", n)] = "noop\n"
	return files
}

func TestMixFileGood(t *testing.T) {
	t.Chdir("testdata")
	ops, err := Reader{}.ReadFile("good.mix")
	if err != nil {
		t.Fatal(err)
	}
	if got := describe(ops); !slices.Equal(got, goodMix) {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(goodMix, "\n"))
	}
	// The operations are built with their parameters.
	var names []string
	for _, o := range ops {
		names = append(names, o.Op.Name())
	}
	if want := []string{"spin", "sleep", "noop", "spin", "sleep", "noop", "spin"}; !slices.Equal(names, want) {
		t.Errorf("operations %q, want %q", names, want)
	}
}

// A mix file read from another directory names its files from there.
func TestMixFilePaths(t *testing.T) {
	ops, err := Reader{}.ReadFile(filepath.Join("testdata", "good.mix"))
	if err != nil {
		t.Fatal(err)
	}
	got := describe(ops)
	for i, w := range goodMix {
		if want := filepath.Join("testdata", w); got[i] != want {
			t.Errorf("operation %d: %q, want %q", i, got[i], want)
		}
	}
	// An absolute path in a mix line is used as it is.
	dir := t.TempDir()
	abs, err := filepath.Abs(filepath.Join("testdata", "sub", "leaf.mix"))
	if err != nil {
		t.Fatal(err)
	}
	writeFiles(t, dir, map[string]string{"a.mix": "mix " + abs + "\n"})
	ops, err = Reader{}.ReadFile(filepath.Join(dir, "a.mix"))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := describe(ops), []string{abs + ":1: noop"}; !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

// A byte order mark and CRLF line ends, as some editors write, are read.
func TestMixFileBOMAndCRLF(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"w.mix": "\ufeffnoop\r\n# comment\r\n\r\nspin d=1ms # fast\r\n"})
	ops, err := Reader{}.ReadFile(filepath.Join(dir, "w.mix"))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{filepath.Join(dir, "w.mix") + ":1: noop", filepath.Join(dir, "w.mix") + ":4: spin d=1ms"}
	if got := describe(ops); !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestStripComment(t *testing.T) {
	for line, want := range map[string]string{
		"":                      "",
		"# all":                 "",
		"spin d=1ms # trailing": "spin d=1ms ",
		"spin d=1ms\t#tab":      "spin d=1ms\t",
		"  # indented":          "  ",
		"x name=a#b":            "x name=a#b",
		"x name=a#b # c":        "x name=a#b ",
		"x#":                    "x#",
	} {
		if got := stripComment(line); got != want {
			t.Errorf("stripComment(%q) = %q, want %q", line, got, want)
		}
	}
}

// MaxDepth files nest, one more do not (gcperf's TestMixFileBad).
func TestMixFileDepth(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, nested(MaxDepth))
	ops, err := Reader{}.ReadFile(filepath.Join(dir, "d1.mix"))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{filepath.Join(dir, fmt.Sprintf("d%d.mix", MaxDepth)) + ":1: noop"}
	if got := describe(ops); !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
	// A file included twice, not inside itself, is no cycle.
	writeFiles(t, dir, map[string]string{"twice.mix": "mix d16.mix\nmix d16.mix\n"})
	ops, err = Reader{}.ReadFile(filepath.Join(dir, "twice.mix"))
	if err != nil || len(ops) != 2 {
		t.Errorf("a file included twice: %d operations, %v", len(ops), err)
	}
}

// A mix file is read line by line within limits (README's Guarantees): a
// line longer than MaxLine, a file larger than MaxFile and anything but a
// regular file are one error each, before any operation is built.
func TestReadFileLimits(t *testing.T) {
	dir := t.TempDir()
	long := filepath.Join(dir, "long.mix")
	if err := os.WriteFile(long, []byte("noop\nspin d="+strings.Repeat("9", MaxLine)+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(dir, "big.mix")
	if err := os.WriteFile(big, []byte("noop\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(big, MaxFile+1); err != nil { // sparse: costs no disk
		t.Fatal(err)
	}
	tests := []struct {
		path string
		want string
	}{
		{long, long + ":2: a line longer than 64KiB: not a mix file"},
		{big, "larger than 16MiB"},
		{dir, "is a directory"},
	}
	for _, tt := range tests {
		_, err := Reader{}.ReadFile(tt.path)
		if err == nil || !strings.Contains(err.Error(), tt.want) || len(err.Error()) > 300 {
			t.Errorf("ReadFile(%s): %.300v, want an error saying %q", tt.path, err, tt.want)
		}
	}
}

// Includes multiply operations: the count is bounded as the lines are
// read, not after millions are built.
func TestReadFileTooManyOps(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"a.mix": strings.Repeat("mix b.mix\n", 200),
		"b.mix": strings.Repeat("mix c.mix\n", 200),
		"c.mix": strings.Repeat("noop\n", 200),
	})
	_, err := Reader{}.ReadFile(filepath.Join(dir, "a.mix"))
	if err == nil || !strings.Contains(err.Error(), "more than 32768 operations") {
		t.Errorf("ReadFile: %v, want the operation limit", err)
	}
}

// A Reader builds operations from its own registry when it has one, and
// from the default one otherwise.
func TestReaderRegistry(t *testing.T) {
	reg := workload.NewRegistry()
	reg.MustRegister(workload.Spec{Name: "own.op", New: func(workload.Params) (workload.Operation, error) {
		return workload.Spin{}, nil
	}})
	if mix, err := (Reader{Registry: reg}).Args([]string{"own.op"}); err != nil || len(mix) != 1 {
		t.Errorf("Args(own.op) with its registry = %v, %v", mix, err)
	}
	if _, err := (Reader{Registry: reg}).Args([]string{"noop"}); err == nil {
		t.Errorf("Args(noop) with a registry without it succeeded")
	}
	if _, err := (Reader{}).Args([]string{"own.op"}); err == nil {
		t.Errorf("Args(own.op) with the default registry succeeded")
	}
}
