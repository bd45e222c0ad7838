// Package env describes where a benchmark ran: the machine, its container
// limits, the Go runtime's settings as the runtime itself reports them, the
// build, and the memory the machine (or its container) can give. It is read
// once per benchmark, outside the measurement. The counters read between
// runs (the collector, the process's RSS, page faults and context switches)
// are in package [github.com/gcperf/gcperf/runstats], so that the engine
// does not link gopsutil.
//
//	e, err := env.Capture(ctx, "/") // the live machine; err: the parts that failed
//	fmt.Println(e.Host.CPUModel, e.Go.GOGCString(), e.Go.GOMEMLIMITString())
//	fmt.Println(env.Bytes(int64(e.Host.MemoryAvailableBytes)), "available")
//
// The main functions:
//
//   - [Capture] fills an [Env]: [Host], [Cgroup], [Go] and [Build];
//   - [ReadGo] reads the runtime's settings (GOGC, GOMEMLIMIT, GOMAXPROCS) as
//     the runtime applies them, whoever set them;
//   - [ReadMemory] says how much memory a benchmark can allocate ([Memory]),
//     container limits included, so that a caller can refuse a run that
//     cannot fit before it allocates;
//   - [Bytes] and [HeapGoal] format sizes as GOMEMLIMIT spells them.
//
// Readers take a root directory, as prometheus/procfs does ("/" for the live
// machine), so tests read fixtures under testdata/ and never the live
// machine.
//
// # Capture
//
// Capture(ctx, root) fills an Env. A part that fails leaves its fields zero
// and Capture returns the rest with an error joining the failures
// (errors.Join), for the caller to print as a warning. Where each field
// comes from:
//
//   - Host, through gopsutil v4 pointed at root with common.EnvKey (HOST_PROC
//     = root/proc, HOST_SYS = root/sys, HOST_ETC = root/etc, HOST_ROOT = root,
//     and HOST_VAR, HOST_RUN, HOST_DEV):
//     OS is runtime.GOOS; Platform and PlatformVersion come from
//     root/etc/lsb-release, root/etc/debian_version (or another
//     *-release file) and root/etc/os-release; Virtualization ("kvm guest",
//     "docker guest", "" when none is detected) from root/proc/cpuinfo,
//     root/proc/modules, root/proc/self/cgroup, root/.dockerenv and others;
//     CPUModel and CPUMHz from the first processor of root/proc/cpuinfo, the
//     MHz overridden by root/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq
//     when present; LogicalCPUs from root/proc/cpuinfo; PhysicalCPUs from
//     root/sys/devices/system/cpu/cpu*/topology/core_cpus_list, else from the
//     physical id and cpu cores lines of root/proc/cpuinfo;
//     MemoryTotalBytes and MemoryAvailableBytes from root/proc/meminfo;
//     Load1, Load5, Load15 from root/proc/loadavg. host.Info also needs the
//     btime line of root/proc/stat, or it fails as a whole.
//   - Host fields that come from system calls, not from root, and so always
//     describe the running machine: Hostname (os.Hostname: /proc/sys/kernel/
//     hostname or uname(2)), Kernel and Arch (uname(2)), UptimeSeconds
//     (sysinfo(2)).
//   - Cgroup, when root/sys/fs/cgroup/cgroup.controllers shows cgroup v2
//     (else every field is zero: no limit known): Path is the "0::" line of
//     root/proc/self/cgroup (procfs); CPUMax is quota/period of cpu.max and
//     MemoryMaxBytes is memory.max, each the tightest of the process's cgroup
//     and its ancestors under root/sys/fs/cgroup, nil for "max";
//     MemoryCurrent is the process's cgroup's memory.current.
//   - Go: ReadGo, from the runtime and runtime/metrics.
//   - Build: runtime/debug.ReadBuildInfo (path, main module and version,
//     vcs.revision, vcs.time, vcs.modified).
//
// gopsutil detects the virtualization once per process and caches it
// whatever root later calls pass: Capture reads it right only for the first
// root a process captures (tests capture each fixture in a child process).
package env
