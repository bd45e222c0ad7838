package profiles

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/pprof/profile"
)

// A handSample is one sample of a hand-built profile: its stack, leaf
// first, of locations, and its values. A location is its functions,
// innermost first, joined by "<" ("inl<b": inl inlined into b, at b's
// location); "@0x4242" is a location without symbols at that address.
type handSample struct {
	stack  []string
	values []int64
}

// writeHand writes a hand-built profile with the sample types ("type/unit")
// and samples given to path.
func writeHand(t *testing.T, path string, types []string, def string, samples []handSample) {
	t.Helper()
	p := &profile.Profile{DefaultSampleType: def}
	for _, st := range types {
		typ, unit, _ := strings.Cut(st, "/")
		p.SampleType = append(p.SampleType, &profile.ValueType{Type: typ, Unit: unit})
	}
	funcs := map[string]*profile.Function{}
	locs := map[string]*profile.Location{}
	for _, hs := range samples {
		s := &profile.Sample{Value: hs.values}
		for _, frame := range hs.stack {
			loc := locs[frame]
			if loc == nil {
				loc = &profile.Location{ID: uint64(len(p.Location) + 1), Address: 0x1000 + uint64(len(p.Location))}
				if addr, ok := strings.CutPrefix(frame, "@"); ok {
					fmt.Sscanf(addr, "0x%x", &loc.Address)
				} else {
					for _, name := range strings.Split(frame, "<") {
						fn := funcs[name]
						if fn == nil {
							fn = &profile.Function{ID: uint64(len(p.Function) + 1), Name: name, SystemName: name, Filename: name + ".go"}
							funcs[name] = fn
							p.Function = append(p.Function, fn)
						}
						loc.Line = append(loc.Line, profile.Line{Function: fn, Line: int64(10 * len(loc.Line))})
					}
				}
				locs[frame] = loc
				p.Location = append(p.Location, loc)
			}
			s.Location = append(s.Location, loc)
		}
		p.Sample = append(p.Sample, s)
	}
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Write(f); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// handCPU is a CPU-like profile whose sums are worked out by hand in
// TestSummarize: inl is inlined into b, rec recurses, and one location has
// no symbols.
var handCPU = []handSample{
	{[]string{"inl<b", "a", "main"}, []int64{1, 100}},
	{[]string{"a", "main"}, []int64{2, 200}},
	{[]string{"rec", "rec", "rec", "main"}, []int64{3, 300}},
	{[]string{"c", "rec", "main"}, []int64{4, 400}},
	{[]string{"@0x4242", "main"}, []int64{5, 0}},
}

func TestSummarize(t *testing.T) {
	dir := t.TempDir()
	cpu := filepath.Join(dir, "cpu.pprof")
	writeHand(t, cpu, []string{"samples/count", "cpu/nanoseconds"}, "", handCPU)
	counts := filepath.Join(dir, "counts.pprof")
	writeHand(t, counts, []string{"samples/count", "cpu/nanoseconds"}, "samples", handCPU)

	// cpu, total 1000: flat c 400, rec 300, a 200, inl 100 (the leaf of
	// "inl<b"), b and main 0; cum main 1000, rec 700 (300 once however deep
	// the recursion, and 400 under c), c 400, a 300, b 100, inl 100.
	// 0x4242's sample has no cpu value: it is left out.
	// samples, total 15: flat 0x4242 5, c 4, rec 3, a 2, inl 1; cum main 15.
	tests := []struct {
		name       string
		path       string
		n          int
		cum        bool
		sampleType string
		unit       string
		total      int64
		want       []string // "name flat cum"
	}{
		{"flat", cpu, 0, false, "cpu", "nanoseconds", 1000,
			[]string{"c 400 400", "rec 300 700", "a 200 300", "inl 100 100", "b 0 100", "main 0 1000"}},
		{"flat top 3", cpu, 3, false, "cpu", "nanoseconds", 1000,
			[]string{"c 400 400", "rec 300 700", "a 200 300"}},
		{"cum", cpu, 0, true, "cpu", "nanoseconds", 1000,
			[]string{"main 0 1000", "rec 300 700", "c 400 400", "a 200 300", "b 0 100", "inl 100 100"}},
		{"cum top 2", cpu, 2, true, "cpu", "nanoseconds", 1000,
			[]string{"main 0 1000", "rec 300 700"}},
		{"default sample type", counts, 0, false, "samples", "count", 15,
			[]string{"0x4242 5 5", "c 4 4", "rec 3 7", "a 2 3", "inl 1 1", "b 0 1", "main 0 15"}},
		{"n above the functions", counts, 100, true, "samples", "count", 15,
			[]string{"main 0 15", "rec 3 7", "0x4242 5 5", "c 4 4", "a 2 3", "b 0 1", "inl 1 1"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := Summarize(tt.path, tt.n, tt.cum)
			if err != nil {
				t.Fatal(err)
			}
			if s.SampleType != tt.sampleType || s.Unit != tt.unit || s.Total != tt.total {
				t.Errorf("%s %s total %d, want %s %s total %d", s.SampleType, s.Unit, s.Total, tt.sampleType, tt.unit, tt.total)
			}
			var got []string
			for _, f := range s.Funcs {
				got = append(got, fmt.Sprintf("%s %d %d", f.Name, f.Flat, f.Cum))
				if want := 100 * float64(f.Flat) / float64(tt.total); math.Abs(f.FlatPct-want) > 1e-9 {
					t.Errorf("%s: flat%% %v, want %v", f.Name, f.FlatPct, want)
				}
				if want := 100 * float64(f.Cum) / float64(tt.total); math.Abs(f.CumPct-want) > 1e-9 {
					t.Errorf("%s: cum%% %v, want %v", f.Name, f.CumPct, want)
				}
			}
			if strings.Join(got, ", ") != strings.Join(tt.want, ", ") {
				t.Errorf("got\n  %s\nwant\n  %s", strings.Join(got, ", "), strings.Join(tt.want, ", "))
			}
		})
	}
}

func TestSummarizeEmpty(t *testing.T) {
	path := filepath.Join(t.TempDir(), "block.pprof")
	writeHand(t, path, []string{"contentions/count", "delay/nanoseconds"}, "", nil)
	s, err := Summarize(path, 10, false)
	if err != nil {
		t.Fatal(err)
	}
	if s.SampleType != "delay" || s.Unit != "nanoseconds" || s.Total != 0 || len(s.Funcs) != 0 {
		t.Errorf("%+v, want delay nanoseconds, no total and no functions", s)
	}
}

// badProfiles writes files that are no pprof profiles and returns the
// directory holding them.
func badProfiles(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range map[string]string{
		"notes.txt":   "no profile here\n",
		"empty":       "",
		"trace.out":   "go 1.26 trace\x00\x00\x00\x01\x02\x03",
		"broken.gz":   "\x1f\x8b\x08junk",
		"result.json": `{"schema": "gcperf/v1"}`,
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, "adir"), 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestSummarizeBadFile(t *testing.T) {
	dir := badProfiles(t)
	tests := []struct{ name, want string }{
		{"nosuch.pprof", "no such file or directory"},
		{"adir", "is a directory"},
		{"notes.txt", "not a pprof profile: parsing profile: unrecognized profile format"},
		{"result.json", "not a pprof profile: parsing profile: unrecognized profile format"},
		{"empty", "not a pprof profile: parsing profile: empty input file"},
		{"broken.gz", "not a pprof profile: decompressing profile: unexpected EOF"},
		{"trace.out", "not a pprof profile: a Go execution trace (go tool trace reads it)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(dir, tt.name)
			_, err := Summarize(path, 10, false)
			if err == nil || err.Error() != path+": "+tt.want {
				t.Errorf("error %v, want %s: %s", err, path, tt.want)
			}
		})
	}
}

func TestDiff(t *testing.T) {
	dir := t.TempDir()
	oldPath, newPath := filepath.Join(dir, "old.pprof"), filepath.Join(dir, "new.pprof")
	cpu := []string{"samples/count", "cpu/nanoseconds"}
	// old, total 100: a 50%, b 30%, c 20% flat (main none).
	writeHand(t, oldPath, cpu, "", []handSample{
		{[]string{"a", "main"}, []int64{5, 50}},
		{[]string{"b", "main"}, []int64{3, 30}},
		{[]string{"c", "b", "main"}, []int64{2, 20}},
	})
	// new, total 200: a 20%, b 30%, d 50%; c is gone.
	writeHand(t, newPath, cpu, "", []handSample{
		{[]string{"a", "main"}, []int64{4, 40}},
		{[]string{"b", "main"}, []int64{6, 60}},
		{[]string{"d", "b", "main"}, []int64{10, 100}},
	})
	heap := filepath.Join(dir, "heap.pprof")
	writeHand(t, heap, []string{"alloc_objects/count", "alloc_space/bytes"}, "alloc_space", []handSample{
		{[]string{"a", "main"}, []int64{1, 4096}},
	})

	tests := []struct {
		name     string
		old, new string
		n        int
		want     []string // "name old% new% delta"
	}{
		{"all", oldPath, newPath, 0, []string{"d 0 50 +50", "a 50 20 -30", "c 20 0 -20"}},
		{"top 2", oldPath, newPath, 2, []string{"d 0 50 +50", "a 50 20 -30"}},
		{"reversed", newPath, oldPath, 0, []string{"d 50 0 -50", "a 20 50 +30", "c 0 20 +20"}},
		{"same", oldPath, oldPath, 10, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			changes, err := Diff(tt.old, tt.new, tt.n)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, c := range changes {
				got = append(got, fmt.Sprintf("%s %g %g %+g", c.Name, c.OldPct, c.NewPct, c.Delta))
			}
			if strings.Join(got, ", ") != strings.Join(tt.want, ", ") {
				t.Errorf("got\n  %s\nwant\n  %s", strings.Join(got, ", "), strings.Join(tt.want, ", "))
			}
		})
	}

	// Compare finds the same changes and keeps both summaries whole.
	c, err := Compare(oldPath, newPath, 2)
	if err != nil {
		t.Fatal(err)
	}
	if c.Old.Total != 100 || c.New.Total != 200 || len(c.Old.Funcs) != 4 || len(c.New.Funcs) != 4 ||
		c.Old.SampleType != "cpu" || c.New.Unit != "nanoseconds" || len(c.Changes) != 2 || c.Changes[0].Name != "d" {
		t.Errorf("Compare: %+v", c)
	}

	bad := badProfiles(t)
	errTests := []struct {
		name, old, new, want string
	}{
		{"sample types", oldPath, heap, oldPath + " holds cpu (nanoseconds) but " + heap + " holds alloc_space (bytes): different sample types"},
		{"old missing", filepath.Join(bad, "nosuch"), newPath, filepath.Join(bad, "nosuch") + ": no such file or directory"},
		{"new not a profile", oldPath, filepath.Join(bad, "notes.txt"), filepath.Join(bad, "notes.txt") + ": not a pprof profile: parsing profile: unrecognized profile format"},
	}
	for _, tt := range errTests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Diff(tt.old, tt.new, 10)
			if err == nil || err.Error() != tt.want {
				t.Errorf("error %v, want %s", err, tt.want)
			}
			if _, err := Compare(tt.old, tt.new, 10); err == nil || err.Error() != tt.want {
				t.Errorf("Compare: error %v, want %s", err, tt.want)
			}
		})
	}
}

// A profile is inflated within a limit: a small gzip file cannot expand
// into the whole memory (issue 10, item 6).
func TestGunzipLimit(t *testing.T) {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(make([]byte, 4096))
	zw.Close()
	if out, err := gunzip(buf.Bytes(), 4096); err != nil || len(out) != 4096 {
		t.Errorf("at the limit: %d bytes, %v", len(out), err)
	}
	if _, err := gunzip(buf.Bytes(), 4095); err == nil || !strings.Contains(err.Error(), "once decompressed") {
		t.Errorf("over the limit: %v", err)
	}
}
