package env

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"

	"github.com/shirou/gopsutil/v4/common"
	"github.com/shirou/gopsutil/v4/cpu"
	"github.com/shirou/gopsutil/v4/host"
	"github.com/shirou/gopsutil/v4/load"
	"github.com/shirou/gopsutil/v4/mem"
)

// Capture reads the environment under root ("/" for the live machine): the
// host from gopsutil, the process's cgroup v2 limits, the Go runtime's
// settings and the build.
//
// A part that cannot be read does not stop the others: Capture returns what
// it could read together with an error joining what failed (errors.Join),
// so that a caller can print a warning and go on.
//
// Some Host fields come from system calls, not from files, and so describe
// the running machine whatever root is: Hostname, Kernel, Arch and
// UptimeSeconds (see the package documentation).
func Capture(ctx context.Context, root string) (Env, error) {
	e, err := CaptureMachine(ctx, root)
	e.Go = ReadGo()
	bi, _ := debug.ReadBuildInfo()
	e.Build = buildFrom(bi)
	return e, err
}

// CaptureMachine reads the machine's part of the environment, Host and
// Cgroup, as Capture does, for a result measured in another process (a
// user's command): this process's Go runtime and build are not that
// program's, and are left zero.
func CaptureMachine(ctx context.Context, root string) (Env, error) {
	var e Env
	var errs []error
	var err error
	if e.Host, err = readHost(withRoot(ctx, root), root); err != nil {
		errs = append(errs, err)
	}
	if e.Cgroup, err = readCgroup(root); err != nil {
		errs = append(errs, err)
	}
	return e, errors.Join(errs...)
}

// withRoot points gopsutil's file readers at root: root/proc, root/sys,
// root/etc, root/var, root/run, root/dev, and root itself (for /.dockerenv).
func withRoot(ctx context.Context, root string) context.Context {
	return context.WithValue(ctx, common.EnvKey, common.EnvMap{
		common.HostProcEnvKey: filepath.Join(root, "proc"),
		common.HostSysEnvKey:  filepath.Join(root, "sys"),
		common.HostEtcEnvKey:  filepath.Join(root, "etc"),
		common.HostVarEnvKey:  filepath.Join(root, "var"),
		common.HostRunEnvKey:  filepath.Join(root, "run"),
		common.HostDevEnvKey:  filepath.Join(root, "dev"),
		common.HostRootEnvKey: root,
	})
}

// readHost fills Host from gopsutil, one call at a time: a call that fails
// leaves its fields zero and adds its error to the one returned.
func readHost(ctx context.Context, root string) (Host, error) {
	var h Host
	var errs []error
	if info, err := host.InfoWithContext(ctx); err != nil {
		errs = append(errs, fmt.Errorf("env: host: %w", err))
	} else {
		h.Hostname = info.Hostname
		h.OS = info.OS
		h.Platform = info.Platform
		h.PlatformVersion = info.PlatformVersion
		h.Kernel = info.KernelVersion
		h.Arch = info.KernelArch
		h.Virtualization = virtualization(info.VirtualizationSystem, info.VirtualizationRole)
		h.UptimeSeconds = info.Uptime
	}
	if cpus, err := cpu.InfoWithContext(ctx); err != nil {
		errs = append(errs, fmt.Errorf("env: cpu: %w", err))
	} else if len(cpus) == 0 {
		errs = append(errs, fmt.Errorf("env: cpu: no processor in %s", filepath.Join(root, "proc", "cpuinfo")))
	} else {
		h.CPUModel = cpus[0].ModelName
		h.CPUMHz = cpus[0].Mhz
	}
	if n, err := cpu.CountsWithContext(ctx, false); err != nil {
		errs = append(errs, fmt.Errorf("env: physical cpus: %w", err))
	} else {
		h.PhysicalCPUs = n
	}
	if n, err := cpu.CountsWithContext(ctx, true); err != nil {
		errs = append(errs, fmt.Errorf("env: logical cpus: %w", err))
	} else {
		h.LogicalCPUs = n
	}
	if vm, err := mem.VirtualMemoryWithContext(ctx); err != nil {
		errs = append(errs, fmt.Errorf("env: memory: %w", err))
	} else {
		h.MemoryTotalBytes = vm.Total
		h.MemoryAvailableBytes = vm.Available
	}
	if avg, err := loadAvg(ctx, root); err != nil {
		errs = append(errs, fmt.Errorf("env: load: %w", err))
	} else {
		h.Load1, h.Load5, h.Load15 = avg.Load1, avg.Load5, avg.Load15
	}
	return h, errors.Join(errs...)
}

// loadAvg is gopsutil's load average. gopsutil falls back to sysinfo(2),
// the live machine's load, when root/proc/loadavg cannot be read: that is
// right for "/" but would mix the live machine into any other root, so there
// the file must exist.
func loadAvg(ctx context.Context, root string) (*load.AvgStat, error) {
	if filepath.Clean(root) != "/" {
		if _, err := os.Stat(filepath.Join(root, "proc", "loadavg")); err != nil {
			return nil, err
		}
	}
	return load.AvgWithContext(ctx)
}

// virtualization spells gopsutil's virtualization system and role as one
// string: "kvm guest", "docker guest", "kvm host"; "" when neither is known.
func virtualization(system, role string) string {
	return strings.TrimSpace(system + " " + role)
}

// buildFrom describes a binary from its build information; nil (no build
// information) gives the zero Build.
func buildFrom(bi *debug.BuildInfo) Build {
	if bi == nil {
		return Build{}
	}
	b := Build{Path: bi.Path, Module: bi.Main.Path, Version: bi.Main.Version}
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			b.VCSRevision = s.Value
		case "vcs.time":
			b.VCSTime = s.Value
		case "vcs.modified":
			b.VCSModified = s.Value == "true"
		}
	}
	return b
}

// isNotExist reports whether err says a file is missing.
func isNotExist(err error) bool { return errors.Is(err, fs.ErrNotExist) }
