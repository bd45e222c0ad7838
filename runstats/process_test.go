package runstats

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestReadProcess(t *testing.T) {
	page := uint64(os.Getpagesize())
	tests := []struct {
		root string
		pid  int
		want Process
	}{
		// host1/proc/4242: stat has minflt 1534, majflt 2, utime 250, stime
		// 75, rss 5120 pages; status has VmHWM 24576 kB and 311/27 switches.
		{"testdata/host1", 4242, Process{
			RSSBytes: 5120 * page, PeakRSSBytes: 24576 << 10,
			MinorFaults: 1534, MajorFaults: 2,
			VoluntaryCtxSwitches: 311, InvoluntaryCtxSwitches: 27,
			UserCPU: 2500 * time.Millisecond, SystemCPU: 750 * time.Millisecond,
		}},
		// host2/proc/31337: minflt 98765, majflt 12, utime 12345, stime 678,
		// rss 262144 pages; VmHWM 1153434 kB, 4096/1234 switches.
		{"testdata/host2", 31337, Process{
			RSSBytes: 262144 * page, PeakRSSBytes: 1153434 << 10,
			MinorFaults: 98765, MajorFaults: 12,
			VoluntaryCtxSwitches: 4096, InvoluntaryCtxSwitches: 1234,
			UserCPU: 123450 * time.Millisecond, SystemCPU: 6780 * time.Millisecond,
		}},
	}
	for _, tt := range tests {
		got, err := ReadProcess(tt.root, tt.pid)
		if err != nil {
			t.Errorf("%s %d: %v", tt.root, tt.pid, err)
			continue
		}
		if got != tt.want {
			t.Errorf("%s %d:\n got %+v\nwant %+v", tt.root, tt.pid, got, tt.want)
		}
	}
}

// A missing root, pid or file is an error that names what is missing.
func TestReadProcessErrors(t *testing.T) {
	stat, err := os.ReadFile("testdata/host1/proc/4242/stat")
	if err != nil {
		t.Fatal(err)
	}
	noStatus := writeTree(t, map[string]string{"proc/4242/stat": string(stat)})
	noStat := writeTree(t, map[string]string{"proc/4242/status": "Name:\tgcperf\n"})
	badStat := writeTree(t, map[string]string{"proc/4242/stat": "4242 gcperf S\n", "proc/4242/status": "Name:\tgcperf\n"})
	tests := []struct {
		root    string
		pid     int
		mention string
	}{
		{"testdata/nonexistent", 4242, "testdata/nonexistent/proc"},
		{"testdata/host1", 999, "testdata/host1/proc/999"},
		{noStatus, 4242, filepath.Join(noStatus, "proc/4242/status")},
		{noStat, 4242, filepath.Join(noStat, "proc/4242/stat")},
		{badStat, 4242, filepath.Join(badStat, "proc/4242/stat")},
	}
	for _, tt := range tests {
		_, err := ReadProcess(tt.root, tt.pid)
		if err == nil || !strings.Contains(err.Error(), tt.mention) {
			t.Errorf("ReadProcess(%s, %d): error %v, want one naming %s", tt.root, tt.pid, err, tt.mention)
		}
		if err != nil && !strings.HasPrefix(err.Error(), "runstats: process 4242: ") && tt.pid == 4242 {
			t.Errorf("ReadProcess(%s, %d): error %q, want the package and the process first", tt.root, tt.pid, err)
		}
	}
	if _, err := ReadProcess(badStat, 4242); !errors.Is(err, fs.ErrInvalid) {
		t.Errorf("a malformed stat: error %v, want one wrapping fs.ErrInvalid", err)
	}
}

// statLine is a /proc/<pid>/stat line with minflt 10, majflt 1, utime 1,
// stime 100 and rss 3 pages, and the children's counts (cminflt, cmajflt,
// cutime, cstime) at 99, which a Process leaves out.
const statLine = "7 (gc perf) S 1 7 7 0 -1 4194560 10 99 1 99 1 100 99 99 20 0 3 0 100 1000000 3 " +
	"18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 17 1 0 0 0 0 0 0 0 0 0 0 0 0\n"

func TestParseStat(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want procStat
		ok   bool
	}{
		{"full line", statLine, procStat{minflt: 10, majflt: 1, utime: 1, stime: 100, rss: 3}, true},
		// The command may hold spaces and parentheses: the fields start
		// after the last ')'.
		{"parentheses in the command", strings.Replace(statLine, "(gc perf)", "(a) b) (c)", 1),
			procStat{minflt: 10, majflt: 1, utime: 1, stime: 100, rss: 3}, true},
		// Fields up to rss are enough (older kernels write fewer at the end).
		{"ends at rss", "7 (gcperf) S 1 7 7 0 -1 0 5 0 6 0 7 8 0 0 20 0 1 0 100 1000 -1", procStat{minflt: 5, majflt: 6, utime: 7, stime: 8, rss: -1}, true},
		{"no command", "4242 gcperf S\n", procStat{}, false},
		{"empty", "", procStat{}, false},
		{"short", "7 (gcperf) S 1 7 7 0 -1 0 5 0 6 0 7 8 0 0 20 0 1 0 100 1000\n", procStat{}, false},
		{"not a number", strings.Replace(statLine, " 10 99 ", " ten 99 ", 1), procStat{}, false},
		{"negative faults", strings.Replace(statLine, " 10 99 ", " -10 99 ", 1), procStat{}, false},
	}
	for _, tt := range tests {
		got, err := parseStat([]byte(tt.in))
		if got != tt.want || (err == nil) != tt.ok {
			t.Errorf("%s: parseStat = %+v, %v; want %+v, ok=%v", tt.name, got, err, tt.want, tt.ok)
		}
		if err != nil && !errors.Is(err, fs.ErrInvalid) {
			t.Errorf("%s: error %v does not wrap fs.ErrInvalid", tt.name, err)
		}
	}
}

func TestParseStatus(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want procStatus
	}{
		{"fields", "Name:\tgcperf\nVmHWM:\t    1024 kB\nVmRSS:\t 12 kB\nvoluntary_ctxt_switches:\t5\nnonvoluntary_ctxt_switches:\t6\n",
			procStatus{hwmKB: 1024, voluntary: 5, involuntary: 6}},
		{"no final newline", "nonvoluntary_ctxt_switches:\t6", procStatus{involuntary: 6}},
		{"empty", "", procStatus{}},
		// As procfs reads it: a value that is not a number is 0, and so
		// is a key that is missing.
		{"garbage", "VmHWM: lots\nno colon here\nvoluntary_ctxt_switches:\n:\n", procStatus{}},
		// A key must match whole: VmHWMx is another key.
		{"other keys", "VmHWMx:\t9 kB\nxVmHWM:\t9 kB\n", procStatus{}},
	}
	for _, tt := range tests {
		if got := parseStatus([]byte(tt.in)); got != tt.want {
			t.Errorf("%s: parseStatus = %+v, want %+v", tt.name, got, tt.want)
		}
	}
}

// A negative rss in stat is no RSS, and a status larger than the reader's
// first buffer is read whole.
func TestProcessReaderEdges(t *testing.T) {
	groups := "Groups:\t" + strings.Repeat("1000 ", 2000) + "\n" // 10kB, over the 4kB buffer
	root := writeTree(t, map[string]string{
		"proc/7/stat":   strings.Replace(statLine, " 1000000 3 ", " 1000000 -1 ", 1),
		"proc/7/status": "Name:\tgcperf\n" + groups + "VmHWM:\t2 kB\nvoluntary_ctxt_switches:\t5\nnonvoluntary_ctxt_switches:\t6\n",
	})
	got, err := ReadProcess(root, 7)
	want := Process{PeakRSSBytes: 2048, MinorFaults: 10, MajorFaults: 1, VoluntaryCtxSwitches: 5, InvoluntaryCtxSwitches: 6,
		UserCPU: 10 * time.Millisecond, SystemCPU: time.Second}
	if err != nil || got != want {
		t.Errorf("ReadProcess:\n got %+v, %v\nwant %+v", got, err, want)
	}
}

// Read allocates nothing once the reader is open: the engine reads it
// around the timed runs, in the heap it measures.
func TestProcessReaderReadDoesNotAllocate(t *testing.T) {
	r, err := NewProcessReader("testdata/host1", 4242)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var p Process
	if n := testing.AllocsPerRun(100, func() {
		if err := r.Read(&p); err != nil {
			t.Fatal(err)
		}
	}); n != 0 {
		t.Errorf("Read allocates %v times", n)
	}
	if p.MinorFaults != 1534 {
		t.Errorf("read %+v", p)
	}
}

// A reader kept open sees the counters move: each Read reads /proc again
// from the start (this process's own files, not the machine's).
func TestProcessReaderRereads(t *testing.T) {
	r, err := NewProcessReader("/", os.Getpid())
	if err != nil {
		t.Skip("no /proc:", err)
	}
	defer r.Close()
	var before, after Process
	if err := r.Read(&before); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 16<<20)
	for i := range buf {
		buf[i] = 1
	}
	sink = buf
	if n := testing.AllocsPerRun(10, func() {
		if err := r.Read(&after); err != nil {
			t.Fatal(err)
		}
	}); n != 0 {
		t.Errorf("Read of the live /proc allocates %v times", n)
	}
	// 16MiB touched: at least a fault per 2MiB huge page, most likely one per page.
	if after.MinorFaults < before.MinorFaults+8 || after.PeakRSSBytes < 16<<20 {
		t.Errorf("16MiB touched between two reads:\nbefore %+v\n after %+v", before, after)
	}
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
}

func FuzzParseStat(f *testing.F) {
	for _, file := range []string{"testdata/host1/proc/4242/stat", "testdata/host2/proc/31337/stat"} {
		b, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte(statLine))
	f.Add([]byte("1 ()) 2 3"))
	f.Fuzz(func(t *testing.T, b []byte) {
		s, err := parseStat(b)
		if err != nil && s != (procStat{}) {
			t.Errorf("an error with a result: %+v, %v", s, err)
		}
	})
}

func FuzzParseStatus(f *testing.F) {
	for _, file := range []string{"testdata/host1/proc/4242/status", "testdata/host2/proc/31337/status"} {
		b, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		// Any bytes: a result, never a panic, and no field from a line
		// that does not name it.
		s := parseStatus(b)
		if s.hwmKB != 0 && !strings.Contains(string(b), "VmHWM") {
			t.Errorf("VmHWM %d from %q", s.hwmKB, b)
		}
	})
}

// TestReadSelf reads this test process's own counters from the live /proc:
// the process itself, not the machine, as the collector tests do.
func TestReadSelf(t *testing.T) {
	p, err := ReadSelf()
	if err != nil {
		t.Skip("no /proc:", err)
	}
	if p.RSSBytes == 0 || p.PeakRSSBytes < p.RSSBytes/2 || p.MinorFaults == 0 {
		t.Errorf("ReadSelf: %+v", p)
	}
}

// writeTree makes a root under a temporary directory from files (path →
// contents).
func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for name, content := range files {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}
