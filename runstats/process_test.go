package runstats

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/procfs"
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
		{badStat, 4242, "4242"},
	}
	for _, tt := range tests {
		_, err := ReadProcess(tt.root, tt.pid)
		if err == nil || !strings.Contains(err.Error(), tt.mention) {
			t.Errorf("ReadProcess(%s, %d): error %v, want one naming %s", tt.root, tt.pid, err, tt.mention)
		}
	}
}

func TestProcessFrom(t *testing.T) {
	page := uint64(os.Getpagesize())
	tests := []struct {
		stat   procfs.ProcStat
		status procfs.ProcStatus
		want   Process
	}{
		{procfs.ProcStat{}, procfs.ProcStatus{}, Process{}},
		{
			procfs.ProcStat{MinFlt: 10, CMinFlt: 99, MajFlt: 1, CMajFlt: 99, UTime: 1, STime: 100, CUTime: 99, CSTime: 99, RSS: 3},
			procfs.ProcStatus{VmHWM: 1 << 20, VmRSS: 12288, VoluntaryCtxtSwitches: 5, NonVoluntaryCtxtSwitches: 6},
			Process{
				RSSBytes: 3 * page, PeakRSSBytes: 1 << 20, MinorFaults: 10, MajorFaults: 1,
				VoluntaryCtxSwitches: 5, InvoluntaryCtxSwitches: 6,
				UserCPU: 10 * time.Millisecond, SystemCPU: time.Second,
			},
		},
		// A negative RSS (procfs reads it as a signed int) is no RSS.
		{procfs.ProcStat{RSS: -1}, procfs.ProcStatus{}, Process{}},
	}
	for _, tt := range tests {
		if got := processFrom(tt.stat, tt.status); got != tt.want {
			t.Errorf("processFrom(%+v, %+v):\n got %+v\nwant %+v", tt.stat, tt.status, got, tt.want)
		}
	}
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
