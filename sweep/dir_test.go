package sweep

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestParseMemCap(t *testing.T) {
	machine := filepath.Join("..", "env", "testdata", "machine") // MemAvailable 24343288 kB
	tests := []struct {
		in, root string
		cap      int64
		note     string
		err      string
	}{
		{"off", machine, 0, "no memory cap", ""},
		{"OFF", machine, 0, "no memory cap", ""},
		{"4GiB", machine, 4 << 30, "memory cap 4GiB per point", ""},
		{"50%", machine, 24343288 * 1024 / 2, "memory cap 11.6GiB per point (50% of the 23.2GiB available)", ""},
		{"50%", t.TempDir(), 0, "no memory cap: the memory available is unknown here (-point-memory SIZE sets one)", ""},
		{"0%", machine, 0, "", `sweep: MemCap: "0%" is not a percentage above 0 and at most 100`},
		{"101%", machine, 0, "", `sweep: MemCap: "101%" is not a percentage above 0 and at most 100`},
		{"lots", machine, 0, "", `sweep: MemCap: "lots" is not a size such as 4GiB, a percentage of the available memory such as 80%, or off`},
		{"0", machine, 0, "", `sweep: MemCap: "0" is not a size such as 4GiB, a percentage of the available memory such as 80%, or off`},
	}
	for _, tt := range tests {
		c, note, err := ParseMemCap(tt.in, tt.root)
		if tt.err != "" {
			if err == nil || err.Error() != tt.err || !errors.Is(err, ErrUsage) {
				t.Errorf("ParseMemCap(%q): %v, want %q", tt.in, err, tt.err)
			}
			continue
		}
		if err != nil || c != tt.cap || note != tt.note {
			t.Errorf("ParseMemCap(%q) = %d, %q, %v; want %d, %q", tt.in, c, note, err, tt.cap, tt.note)
		}
	}
}

func TestPrepareDir(t *testing.T) {
	base := t.TempDir()
	full := filepath.Join(base, "full")
	file := filepath.Join(base, "file")
	os.Mkdir(full, 0o755)
	os.WriteFile(filepath.Join(full, "x"), nil, 0o644)
	os.WriteFile(file, nil, 0o644)
	tests := []struct {
		dir  string
		keep bool
		err  string
	}{
		{filepath.Join(base, "new", "sub"), false, ""},
		{full, true, ""},
		{full, false, "not empty"},
		{file, true, "not a directory"},
	}
	for _, tt := range tests {
		got, err := PrepareDir(tt.dir, tt.keep)
		switch {
		case tt.err == "" && (err != nil || got != tt.dir):
			t.Errorf("PrepareDir(%s, %t) = %q, %v", tt.dir, tt.keep, got, err)
		case tt.err != "" && (err == nil || err.Error() != tt.err):
			t.Errorf("PrepareDir(%s, %t): %v, want %q", tt.dir, tt.keep, err, tt.err)
		}
	}
	d, err := PrepareDir("", false)
	if err != nil || !strings.Contains(filepath.Base(d), "gcperf-sweep-") {
		t.Errorf("PrepareDir(\"\") = %q, %v", d, err)
	}
	os.RemoveAll(d)
}

func TestChildEnv(t *testing.T) {
	environ := []string{"HOME=/h", "GOGC=50", "GOMEMLIMIT=1GiB", "GOMAXPROCS=4", "GODEBUG=x=1"}
	if got, want := ChildEnv(environ, Grid{}), []string{"HOME=/h", "GOMAXPROCS=4", "GODEBUG=x=1"}; !slices.Equal(got, want) {
		t.Errorf("without a GOMAXPROCS axis: %q, want %q", got, want)
	}
	if got, want := ChildEnv(environ, Grid{GOMAXPROCS: []int{1, 2}}), []string{"HOME=/h", "GODEBUG=x=1"}; !slices.Equal(got, want) {
		t.Errorf("with a GOMAXPROCS axis: %q, want %q", got, want)
	}
}

// WriteDir writes the sweep's own files and lists those it wrote; a page
// that fails is named and the rest are still written.
func TestWriteDir(t *testing.T) {
	dir := t.TempDir()
	s := fixtureSummary(t)
	boom := errors.New("boom")
	written, err := WriteDir(dir, s, func(io.Writer, *Summary) error { return boom })
	if want := []string{SummaryFile, CSVFile, BenchFile}; !slices.Equal(written, want) {
		t.Errorf("written %q, want %q", written, want)
	}
	if !errors.Is(err, boom) || !strings.Contains(err.Error(), PageFile) {
		t.Errorf("error %v, want boom naming %s", err, PageFile)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 3 {
		t.Errorf("%d files in the directory, want 3 (no temporary file left)", len(entries))
	}
	written, err = WriteDir(dir, s, nil)
	if err != nil || len(written) != 3 {
		t.Errorf("without a page: %q, %v", written, err)
	}
}

func TestFiles(t *testing.T) {
	pts := Grid{GOGC: gs("50", "off"), MemLimit: mls("off")}.Points()
	files := Files(pts, 2)
	for _, want := range []string{SummaryFile, PlanFile, "gogc=off,memlimit=off,rep=2.json",
		"gogc=off,memlimit=off,rep=2.json.failed", "gogc=50,memlimit=off,rep=1.log"} {
		if !slices.Contains(files, want) {
			t.Errorf("Files lacks %s: %q", want, files)
		}
	}
	if len(files) != 5+2*2*3 {
		t.Errorf("%d files, want %d", len(files), 5+2*2*3)
	}
}

// Two outcomes whose results have one name would overwrite each other in a
// merged directory: refused.
func TestCopyResultsDuplicate(t *testing.T) {
	src, dst := t.TempDir(), t.TempDir()
	for _, d := range []string{"a", "b"} {
		os.MkdirAll(filepath.Join(src, d), 0o755)
		os.WriteFile(filepath.Join(src, d, "r.json"), []byte(d), 0o644)
	}
	s := &Summary{Outcomes: []Outcome{{File: filepath.Join(src, "a", "r.json")}, {File: filepath.Join(src, "b", "r.json"), Failed: Failure{Other, "x"}}}}
	if err := CopyResults(s, dst); err == nil || !strings.Contains(err.Error(), "two results named r.json") {
		t.Errorf("CopyResults: %v, want the duplicate named", err)
	}
}

// Only a missing plan is ErrNoPlan; another error keeps its cause.
func TestReadPlanCause(t *testing.T) {
	dir := t.TempDir()
	if _, err := ReadPlan(dir); !errors.Is(err, ErrNoPlan) {
		t.Errorf("no plan: %v, want ErrNoPlan", err)
	}
	if err := os.Symlink(PlanFile, filepath.Join(dir, PlanFile)); err != nil { // a loop
		t.Fatal(err)
	}
	if _, err := ReadPlan(dir); err == nil || errors.Is(err, ErrNoPlan) {
		t.Errorf("a looping plan: %v, want its own error", err)
	}
	if err := WritePlan(t.TempDir(), Plan{Args: []string{"-runs=5"}}); err != nil {
		t.Fatal(err)
	}
}

func TestComplete(t *testing.T) {
	g := Grid{GOGC: gs("50", "100"), MemLimit: mls("off")}
	s := &Summary{Grid: g, Count: 2, Outcomes: make([]Outcome, 3)}
	if s.Complete() {
		t.Error("3 of 4 outcomes: complete")
	}
	s.Outcomes = make([]Outcome, 4)
	if !s.Complete() {
		t.Error("4 of 4 outcomes: not complete")
	}
}

// A point killed while profiling leaves its profiles' temporary files:
// they are removed, where the point's profiles are kept and where a failed
// point's are set aside; its profiles are not.
func TestCleanProfiles(t *testing.T) {
	r := &Runner{ProfileDir: t.TempDir()}
	file := "gogc=50,memlimit=off,rep=1.json"
	pd := filepath.Join(r.ProfileDir, "gogc=50,memlimit=off,rep=1")
	for _, d := range []string{pd, FailedName(pd)} {
		os.MkdirAll(d, 0o755)
		os.WriteFile(filepath.Join(d, ".cpu.pprof.tmp123"), nil, 0o644)
		os.WriteFile(filepath.Join(d, "heap.pprof"), nil, 0o644)
	}
	r.cleanProfiles(file)
	for _, d := range []string{pd, FailedName(pd)} {
		if _, err := os.Stat(filepath.Join(d, ".cpu.pprof.tmp123")); !os.IsNotExist(err) {
			t.Errorf("%s: the temporary file survived: %v", d, err)
		}
		if _, err := os.Stat(filepath.Join(d, "heap.pprof")); err != nil {
			t.Errorf("%s: a profile was removed: %v", d, err)
		}
	}
}
