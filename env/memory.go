package env

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"

	"github.com/shirou/gopsutil/v4/common"
	"github.com/shirou/gopsutil/v4/mem"

	"github.com/gcperf/gcperf/internal/quote"
)

// Memory is what a benchmark can allocate before the kernel refuses or kills.
type Memory struct {
	Total     int64 // the machine's memory (gopsutil, /proc/meminfo)
	Available int64 // what can be allocated without swapping, cgroup limit included
	// CgroupMax is the cgroup v2 memory.max of the process's cgroup, or -1
	// when there is none ("max" or no cgroup v2).
	CgroupMax int64
	// Limit says which bound Available comes from: "machine" or "cgroup".
	Limit string
}

// ReadMemory reads the memory available under root ("/" for the live
// machine): MemAvailable from root/proc/meminfo via gopsutil, bounded by the
// tightest cgroup v2 memory.max of the process's cgroup and its ancestors,
// minus the cgroup's memory.current (see readCgroup).
func ReadMemory(ctx context.Context, root string) (Memory, error) {
	ctx = context.WithValue(ctx, common.EnvKey, common.EnvMap{
		common.HostProcEnvKey: filepath.Join(root, "proc"),
		common.HostSysEnvKey:  filepath.Join(root, "sys"),
	})
	vm, err := mem.VirtualMemoryWithContext(ctx)
	if err != nil {
		return Memory{}, fmt.Errorf("env: memory: %w", err)
	}
	m := Memory{Total: int64(vm.Total), Available: int64(vm.Available), CgroupMax: -1, Limit: "machine"}
	cg, err := readCgroup(root)
	if err != nil || cg.MemoryMaxBytes == nil {
		return m, nil // no readable limit: the machine's figure stands
	}
	m.CgroupMax = *cg.MemoryMaxBytes
	if free := m.CgroupMax - cg.MemoryCurrent; free < m.Available {
		m.Available, m.Limit = max(free, 0), "cgroup"
	}
	return m, nil
}

// readCgroupValue reads a cgroup v2 single-value file: a number, or "max"
// (returned as -1). A missing file is an error wrapping fs.ErrNotExist.
func readCgroupValue(path string) (int64, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return -1, err
	}
	return parseCgroupValue(b)
}

func parseCgroupValue(b []byte) (int64, error) {
	s := string(bytes.TrimSpace(b))
	if s == "max" {
		return -1, nil
	}
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil || v < 0 {
		return -1, fmt.Errorf("env: cgroup value %q: not max or a count of bytes: %w", quote.Clip(s), fs.ErrInvalid)
	}
	return v, nil
}
