package runstats

import (
	"fmt"
	"math"
	"path/filepath"
	"time"

	"github.com/prometheus/procfs"
)

// SystemCPU is the machine's CPU time since boot, all CPUs summed, from the
// cpu line of root/proc/stat (prometheus/procfs). Steal is the time a
// hypervisor ran something else while one of this guest's CPUs had work:
// time the benchmark may have waited for without any cause of its own.
type SystemCPU struct {
	CPUs  int           `json:"cpus"`         // CPUs listed (cpuN lines)
	Total time.Duration `json:"total_cpu_ns"` // every class: user, nice, system, idle, iowait, irq, softirq, steal
	Steal time.Duration `json:"steal_ns"`
}

// ReadSystemCPU reads the machine's CPU times under root ("/" for the live
// machine). It allocates (procfs parses the whole file): read it outside
// the measured runs.
func ReadSystemCPU(root string) (SystemCPU, error) {
	fs, err := procfs.NewFS(filepath.Join(root, "proc"))
	if err != nil {
		return SystemCPU{}, fmt.Errorf("runstats: %w", err)
	}
	st, err := fs.Stat()
	if err != nil {
		return SystemCPU{}, fmt.Errorf("runstats: %w", err)
	}
	c := st.CPUTotal
	// Guest and GuestNice are already counted in User and Nice.
	total := c.User + c.Nice + c.System + c.Idle + c.Iowait + c.IRQ + c.SoftIRQ + c.Steal
	return SystemCPU{CPUs: len(st.CPU), Total: seconds(total), Steal: seconds(c.Steal)}, nil
}

// Sub returns the CPU time between an earlier reading and s.
func (s SystemCPU) Sub(earlier SystemCPU) SystemCPU {
	return SystemCPU{CPUs: s.CPUs, Total: s.Total - earlier.Total, Steal: s.Steal - earlier.Steal}
}

func seconds(s float64) time.Duration { return time.Duration(math.Round(s * 1e9)) }
