package env

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/prometheus/procfs"

	"github.com/gcperf/gcperf/internal/quote"
)

// readCgroup reads the cgroup v2 limits of the process that root/proc/self
// names. Without cgroup v2 (no root/sys/fs/cgroup/cgroup.controllers, as on
// a cgroup v1 or hybrid machine) it returns the zero Cgroup and no error.
//
// The limits are the tightest of the process's cgroup and its ancestors up
// to the mount point, as the kernel enforces each of them: a scope left at
// "max" inside a slice limited to 4GiB can use 4GiB. memory.current is the
// process's cgroup's own. When the process's cgroup is not visible under the
// mount (a cgroup namespace whose root is not an ancestor, shown as a path
// with ".."), the mount point's files are read instead, as ReadMemory does.
func readCgroup(root string) (Cgroup, error) {
	mount := filepath.Join(root, "sys", "fs", "cgroup")
	if _, err := os.Stat(filepath.Join(mount, "cgroup.controllers")); err != nil {
		if isNotExist(err) {
			return Cgroup{}, nil
		}
		return Cgroup{}, fmt.Errorf("env: cgroup: %w", err)
	}
	path, err := selfCgroupPath(filepath.Join(root, "proc"))
	if err != nil {
		return Cgroup{}, fmt.Errorf("env: cgroup: %w", err)
	}
	c := Cgroup{Path: path}
	dirs := cgroupDirs(mount, path)
	var errs []error
	for _, dir := range dirs {
		file := filepath.Join(dir, "cpu.max")
		b, err := os.ReadFile(file)
		if err != nil {
			if !isNotExist(err) {
				errs = append(errs, fmt.Errorf("env: cgroup: %w", err))
			}
			continue
		}
		cpus, err := parseCPUMax(b)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", file, err))
			continue
		}
		if cpus != nil && (c.CPUMax == nil || *cpus < *c.CPUMax) {
			c.CPUMax = cpus
		}
	}
	for _, dir := range dirs {
		file := filepath.Join(dir, "memory.max")
		v, err := readCgroupValue(file)
		if err != nil {
			if !isNotExist(err) {
				errs = append(errs, fmt.Errorf("%s: %w", file, err))
			}
			continue
		}
		if v >= 0 && (c.MemoryMaxBytes == nil || v < *c.MemoryMaxBytes) {
			c.MemoryMaxBytes = &v
		}
	}
	file := filepath.Join(dirs[0], "memory.current")
	if v, err := readCgroupValue(file); err == nil {
		c.MemoryCurrent = max(v, 0)
	} else if !isNotExist(err) {
		errs = append(errs, fmt.Errorf("%s: %w", file, err))
	}
	return c, errors.Join(errs...)
}

// selfCgroupPath is the cgroup v2 path ("0::/path") of the process that
// procDir/self names, from procfs's parse of procDir/self/cgroup.
func selfCgroupPath(procDir string) (string, error) {
	pfs, err := procfs.NewFS(procDir)
	if err != nil {
		return "", err
	}
	// Self follows the procDir/self symlink (a fixture's points to its
	// pid directory), so it names the live process only under the live /proc.
	p, err := pfs.Self()
	if err != nil {
		return "", err
	}
	cgroups, err := p.Cgroups()
	if err != nil {
		return "", err
	}
	for _, cg := range cgroups {
		if cg.HierarchyID == 0 && len(cg.Controllers) == 0 {
			return cg.Path, nil
		}
	}
	return "", fmt.Errorf("%s: no cgroup v2 line (0::/path)", filepath.Join(procDir, "self", "cgroup"))
}

// cgroupDirs lists the directories whose limits bind a process in cgroup
// path, the process's own first, up to and including the mount point. A
// path that is not visible under the mount gives the mount point alone.
func cgroupDirs(mount, path string) []string {
	if !strings.HasPrefix(path, "/") || strings.Contains(path, "..") {
		return []string{mount}
	}
	leaf := filepath.Join(mount, path)
	if fi, err := os.Stat(leaf); err != nil || !fi.IsDir() {
		return []string{mount}
	}
	dirs := []string{leaf}
	for dir := leaf; dir != mount; {
		parent := filepath.Dir(dir)
		if parent == dir { // cannot happen: leaf is mount joined with a path
			break
		}
		dir = parent
		dirs = append(dirs, dir)
	}
	return dirs
}

// parseCPUMax parses a cgroup v2 cpu.max file, "$MAX $PERIOD", into the
// number of CPUs it allows (MAX/PERIOD: "150000 100000" is 1.5), or nil when
// MAX is "max" (no limit).
func parseCPUMax(b []byte) (*float64, error) {
	s := strings.TrimSpace(string(b))
	f := strings.Fields(s)
	bad := func(why string) (*float64, error) {
		return nil, fmt.Errorf("env: cpu.max %q: %s: %w", quote.Clip(s), why, fs.ErrInvalid)
	}
	if len(f) == 0 || len(f) > 2 {
		return bad("want \"$MAX $PERIOD\"")
	}
	var period int64
	if len(f) == 2 {
		p, err := strconv.ParseInt(f[1], 10, 64)
		if err != nil || p <= 0 {
			return bad("period is not a positive integer")
		}
		period = p
	}
	if f[0] == "max" {
		return nil, nil
	}
	if period == 0 {
		return bad("no period")
	}
	quota, err := strconv.ParseInt(f[0], 10, 64)
	if err != nil || quota <= 0 {
		return bad("quota is neither \"max\" nor a positive integer")
	}
	cpus := float64(quota) / float64(period)
	return &cpus, nil
}
