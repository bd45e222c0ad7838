package report

import (
	"bytes"
	"errors"
	"flag"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

func golden(t *testing.T, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test -update creates it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs (go test -update rewrites it):\n--- got\n%s\n--- want\n%s", path, got, want)
	}
}

func readFixture(t *testing.T, name string) (*Document, []byte) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	d, err := ReadJSON(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return d, data
}

// The fixtures are results saved by gcperf -json: one operation
// (alloc.list), two operations on two threads (the Actual figures), a
// mix whose every run failed, alloc.list with the causes of its slow runs
// (tail.json), and alloc.list with GOGC=off (no GC cycle: the live heap
// unknown).
var fixtures = []string{"list.json", "threads.json", "errors.json", "tail.json", "gogcoff.json"}

// TestTextGolden: the default report (NAME.txt) and the verbose one
// (NAME.v.txt) of each fixture.
func TestTextGolden(t *testing.T) {
	for _, name := range fixtures {
		for _, verbose := range []bool{false, true} {
			file := strings.TrimSuffix(name, ".json")
			if verbose {
				file += ".v"
			}
			t.Run(file, func(t *testing.T) {
				d, _ := readFixture(t, name)
				var b bytes.Buffer
				if err := WriteText(&b, d, TextOptions{Verbose: verbose}); err != nil {
					t.Fatal(err)
				}
				golden(t, filepath.Join("testdata", file+".txt"), b.Bytes())
			})
		}
	}
}

// TestJSONRoundTrip: what ReadJSON reads, JSON writes back byte for byte.
func TestJSONRoundTrip(t *testing.T) {
	for _, name := range fixtures {
		d, data := readFixture(t, name)
		var b bytes.Buffer
		if err := JSON(&b, d); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(b.Bytes(), data) {
			t.Errorf("%s: JSON(ReadJSON(file)) differs from the file", name)
		}
	}
}

func TestReadJSONErrors(t *testing.T) {
	_, list := readFixture(t, "list.json")
	tests := []struct {
		name  string
		input string
		is    error
		want  string
	}{
		{"empty", "", ErrNotResult, "truncated JSON"},
		{"truncated", string(list[:len(list)/2]), ErrNotResult, "truncated JSON"},
		{"not JSON", "hello", ErrNotResult, "invalid character"},
		{"no schema", `{"runs": []}`, ErrNotResult, `no "schema" key`},
		{"other tool", `{"schema": "jmh/1"}`, ErrNotResult, `schema "jmh/1"`},
		{"future", `{"schema": "gcperf/v9"}`, ErrSchema, `unsupported schema "gcperf/v9": this gcperf reads "gcperf/v2"`},
		{"wrong type", `{"schema": "gcperf/v1", "runs": 3}`, ErrNotResult, "cannot unmarshal"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ReadJSON(strings.NewReader(tt.input))
			if !errors.Is(err, tt.is) {
				t.Fatalf("err = %v, want one wrapping %v", err, tt.is)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %q, want it to contain %q", err, tt.want)
			}
		})
	}
}

func TestWriteFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "r.txt")
	if err := WriteFile(path, nil, false, func(w io.Writer) error { _, err := io.WriteString(w, "one"); return err }); err != nil {
		t.Fatal(err)
	}
	err := WriteFile(path, nil, false, func(w io.Writer) error { _, err := io.WriteString(w, "two"); return err })
	if !errors.Is(err, ErrExists) {
		t.Errorf("second write without overwrite: %v, want ErrExists", err)
	}
	// A writer that fails half-way leaves the old file and no temporary.
	boom := errors.New("boom")
	err = WriteFile(path, nil, true, func(w io.Writer) error { io.WriteString(w, "half"); return boom })
	if !errors.Is(err, boom) {
		t.Errorf("failing writer: %v, want boom", err)
	}
	if b, _ := os.ReadFile(path); string(b) != "one" {
		t.Errorf("file holds %q after failed writes, want %q", b, "one")
	}
	if err := WriteFile(path, nil, true, func(w io.Writer) error { _, err := io.WriteString(w, "three"); return err }); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(path); string(b) != "three" {
		t.Errorf("file holds %q after overwrite, want three", b)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("directory holds %d entries, want only the report (no temporary left)", len(entries))
	}
	var out bytes.Buffer
	if err := WriteFile("-", &out, false, func(w io.Writer) error { _, err := io.WriteString(w, "std"); return err }); err != nil || out.String() != "std" {
		t.Errorf(`"-" wrote %q, %v; want "std" on stdout`, out.String(), err)
	}
}

func TestDocumentKind(t *testing.T) {
	for _, tc := range []struct {
		d    Document
		want DocumentKind
		name string
	}{
		{Document{}, BenchmarkDocument, "benchmark"},
		{Document{Server: &Exec{}}, ServerDocument, "server"},
		{Document{Exec: &Exec{}}, CommandDocument, "command"},
	} {
		if got := tc.d.Kind(); got != tc.want || got.String() != tc.name {
			t.Errorf("Kind() = %v, want %v", got, tc.name)
		}
	}
	for _, name := range v1Docs {
		d, err := ReadFile(filepath.Join("testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]DocumentKind{"v1_exec.json": CommandDocument, "v1_server.json": ServerDocument}[name]
		if got := d.Kind(); got != want {
			t.Errorf("%s: Kind() = %v, want %v", name, got, want)
		}
	}
}

// TestSummaryFits: the default report's first screen, up to the tail, is
// lines of at most SummaryWidth columns; the P99 is in its first lines.
func TestSummaryFits(t *testing.T) {
	for _, name := range fixtures {
		d, _ := readFixture(t, name)
		var b bytes.Buffer
		if err := Text(&b, d); err != nil {
			t.Fatal(err)
		}
		screen, _, _ := strings.Cut(b.String(), "\nWhy the tail")
		lines := strings.Split(screen, "\n")
		for _, l := range lines {
			if n := utf8.RuneCountInString(l); n > SummaryWidth {
				t.Errorf("%s: a line of %d columns: %q", name, n, l)
			}
		}
		if p99 := slices.IndexFunc(lines, func(l string) bool { return strings.Contains(l, "P99") }); p99 < 0 || p99 > 5 {
			t.Errorf("%s: the P99 is on line %d:\n%s", name, p99+1, screen)
		}
	}
}

func TestFewRuns(t *testing.T) {
	tests := []struct {
		n    int64
		want string
	}{
		{1000, "P99.9 of 1000 runs: the second slowest run."},
		{5000, ""},
		{25, "P99 and P99.9 of 25 runs are the max: too few runs to differ from it (a P99 needs 100 runs, a P99.9 1000)."},
		{200, "P99.9 of 200 runs is the max: too few runs to differ from it (a P99.9 needs 1000 runs)."},
		{12, "P99 and P99.9 of 12 runs are the max: too few runs to differ from it (a P99 needs 100 runs, a P99.9 1000); P90 of 12 runs: the second slowest run."},
		{1, "P50, P90, P99 and P99.9 of 1 run are the max: too few runs to differ from it (a P50 needs 2 runs, a P90 10, a P99 100, a P99.9 1000)."},
		{0, ""},
	}
	for _, tt := range tests {
		if got := fewRuns(tt.n); got != tt.want {
			t.Errorf("fewRuns(%d) = %q, want %q", tt.n, got, tt.want)
		}
	}
}
