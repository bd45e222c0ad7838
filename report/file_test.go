package report

import (
	"cmp"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// inputFiles writes the inputs ReadFile and ReadSamplesFile refuse to a
// directory and returns it.
func inputFiles(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range map[string]string{
		"notes.txt":  "no result here\n",
		"empty.json": "",
		"blank.json": " \n\t\n",
		"v9.json":    `{"schema": "gcperf/v9"}`,
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, "adir"), 0o755); err != nil {
		t.Fatal(err)
	}
	// Sparse: larger than any result, without the disk space.
	huge, err := os.Create(filepath.Join(dir, "huge.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := huge.Truncate(512<<20 + 1); err != nil {
		t.Fatal(err)
	}
	huge.Close()
	return dir
}

func TestReadFile(t *testing.T) {
	want, _ := readFixture(t, "list.json")
	got, err := ReadFile(filepath.Join("testdata", "list.json"))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Error("ReadFile gives another document than ReadJSON")
	}
	for _, tt := range []struct{ name, kind string }{{"list.json", KindResult}, {"list.bench", KindBench}} {
		path := filepath.Join("testdata", tt.name)
		s, err := ReadSamplesFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if s.File != path || s.Kind != tt.kind || len(s.Metrics) == 0 {
			t.Errorf("%s: file %q, kind %q, %d metrics; want %q, %q and some", tt.name, s.File, s.Kind, len(s.Metrics), path, tt.kind)
		}
	}
}

// TestReadFileErrors checks the errors of ReadFile and ReadSamplesFile,
// which read alike.
func TestReadFileErrors(t *testing.T) {
	dir := inputFiles(t)
	notResult := "not a gcperf result: invalid character 'o' in literal null (expecting 'u')"
	tests := []struct {
		name        string
		is          error  // nil: none in particular
		want        string // the whole message; "PATH" stands for the file's path
		wantSamples string // ReadSamplesFile's when it differs
	}{
		{"missing.json", fs.ErrNotExist, "open PATH: no such file or directory", ""},
		{"adir", ErrNotRegular, "read PATH: is a directory", ""},
		{"huge.json", ErrTooLarge, "read PATH: larger than 512MiB, the most gcperf reads of such a file", ""},
		{"notes.txt", ErrNotResult, notResult, "not a gcperf result nor a Go benchmark file: no benchmark result line"},
		{"empty.json", nil, "not a gcperf result: truncated JSON", "empty file"},
		{"blank.json", nil, "not a gcperf result: truncated JSON", "empty file"},
		{"v9.json", ErrSchema, `unsupported schema "gcperf/v9": this gcperf reads "gcperf/v2"`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(dir, tt.name)
			d, err := ReadFile(path)
			if d != nil {
				t.Error("ReadFile: a document with the error")
			}
			checkReadError(t, err, tt.is, strings.ReplaceAll(tt.want, "PATH", path))
			want := cmp.Or(tt.wantSamples, tt.want)
			s, err := ReadSamplesFile(path)
			if s != nil {
				t.Error("ReadSamplesFile: samples with the error")
			}
			checkReadError(t, err, tt.is, strings.ReplaceAll(want, "PATH", path))
		})
	}
}

// checkReadError checks an error: its message, and what it wraps unless is
// is nil.
func checkReadError(t *testing.T, err, is error, want string) {
	t.Helper()
	switch {
	case err == nil:
		t.Fatalf("no error, want %q", want)
	case is != nil && !errors.Is(err, is):
		t.Errorf("error %q does not wrap %v", err, is)
	case err.Error() != want:
		t.Errorf("error %q, want %q", err, want)
	}
}
