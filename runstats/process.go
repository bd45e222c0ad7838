package runstats

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/prometheus/procfs"
)

// userHZ is the unit of the CPU times in /proc/<pid>/stat: clock ticks of
// 1/100 s, the value procfs assumes too (USER_HZ is 100 on every Linux
// architecture Go supports).
const userHZ = 100

// ReadProcess reads process pid's counters under root ("/" for the live
// machine) with prometheus/procfs: root/proc/<pid>/stat and
// root/proc/<pid>/status. It reads two small files and allocates a little;
// call it around the timed runs, not inside them.
func ReadProcess(root string, pid int) (Process, error) {
	pfs, err := procfs.NewFS(filepath.Join(root, "proc"))
	if err != nil {
		return Process{}, fmt.Errorf("runstats: process %d: %w", pid, err)
	}
	p, err := pfs.Proc(pid)
	if err != nil {
		return Process{}, fmt.Errorf("runstats: process %d: %w", pid, err)
	}
	stat, err := p.Stat()
	if err != nil {
		return Process{}, fmt.Errorf("runstats: process %d: %w", pid, err)
	}
	status, err := p.NewStatus()
	if err != nil {
		return Process{}, fmt.Errorf("runstats: process %d: %w", pid, err)
	}
	return processFrom(stat, status), nil
}

// ReadSelf reads the running process's counters from the live /proc.
func ReadSelf() (Process, error) {
	return ReadProcess("/", os.Getpid())
}

// processFrom takes a Process out of procfs's parses of /proc/<pid>/stat
// (faults, CPU ticks, RSS in pages) and /proc/<pid>/status (VmHWM, context
// switches). RSS uses this machine's page size, as procfs does.
func processFrom(stat procfs.ProcStat, status procfs.ProcStatus) Process {
	return Process{
		RSSBytes:               uint64(max(stat.ResidentMemory(), 0)),
		PeakRSSBytes:           status.VmHWM,
		MinorFaults:            uint64(stat.MinFlt),
		MajorFaults:            uint64(stat.MajFlt),
		VoluntaryCtxSwitches:   status.VoluntaryCtxtSwitches,
		InvoluntaryCtxSwitches: status.NonVoluntaryCtxtSwitches,
		UserCPU:                ticks(stat.UTime),
		SystemCPU:              ticks(stat.STime),
	}
}

// ticks converts clock ticks to a duration.
func ticks(n uint) time.Duration {
	return time.Duration(n) * (time.Second / userHZ)
}

// Process is a reading of the process's own counters (procfs:
// /proc/self/stat and /proc/self/status), taken before and after the timed
// runs.
type Process struct {
	RSSBytes               uint64        `json:"rss_bytes"`
	PeakRSSBytes           uint64        `json:"peak_rss_bytes"` // VmHWM
	MinorFaults            uint64        `json:"minor_faults"`
	MajorFaults            uint64        `json:"major_faults"`
	VoluntaryCtxSwitches   uint64        `json:"voluntary_ctx_switches"`
	InvoluntaryCtxSwitches uint64        `json:"involuntary_ctx_switches"`
	UserCPU                time.Duration `json:"user_cpu_ns"`
	SystemCPU              time.Duration `json:"system_cpu_ns"`
}
