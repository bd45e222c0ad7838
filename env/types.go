package env

// Env is the environment a benchmark ran in: the machine, its container
// limits, the Go runtime and the build. Capture fills it.
type Env struct {
	Host   Host   `json:"host"`
	Cgroup Cgroup `json:"cgroup"`
	Go     Go     `json:"go"`
	Build  Build  `json:"build"`
}

// Host describes the machine (gopsutil: host, cpu, mem, load).
type Host struct {
	Hostname             string  `json:"hostname"`
	OS                   string  `json:"os"`               // linux
	Platform             string  `json:"platform"`         // debian
	PlatformVersion      string  `json:"platform_version"` // 12.5
	Kernel               string  `json:"kernel"`           // 6.1.0-18-amd64
	Arch                 string  `json:"arch"`             // x86_64
	Virtualization       string  `json:"virtualization"`   // "kvm guest", "docker guest", "" when none is detected
	UptimeSeconds        uint64  `json:"uptime_seconds"`
	CPUModel             string  `json:"cpu_model"`
	PhysicalCPUs         int     `json:"physical_cpus"`
	LogicalCPUs          int     `json:"logical_cpus"`
	CPUMHz               float64 `json:"cpu_mhz"`
	MemoryTotalBytes     uint64  `json:"memory_total_bytes"`
	MemoryAvailableBytes uint64  `json:"memory_available_bytes"`
	Load1                float64 `json:"load1"`
	Load5                float64 `json:"load5"`
	Load15               float64 `json:"load15"`
}

// Cgroup holds the process's cgroup v2 limits. A nil field means no limit
// ("max", or no cgroup v2 at all): GOMEMLIMIT advice must take them into
// account, as the kernel enforces them whatever the machine has.
type Cgroup struct {
	Path           string   `json:"path,omitempty"`       // the process's cgroup, from /proc/self/cgroup
	CPUMax         *float64 `json:"cpu_max"`              // effective CPUs: cpu.max quota / period
	MemoryMaxBytes *int64   `json:"memory_max_bytes"`     // memory.max
	MemoryCurrent  int64    `json:"memory_current_bytes"` // memory.current, 0 when unknown
}

// Build describes the running binary (runtime/debug.ReadBuildInfo).
type Build struct {
	Path        string `json:"path"`         // the main package
	Module      string `json:"module"`       // the main module's path
	Version     string `json:"version"`      // its version, "(devel)" for a local build
	VCSRevision string `json:"vcs_revision"` // vcs.revision, "" when not stamped
	VCSTime     string `json:"vcs_time"`
	VCSModified bool   `json:"vcs_modified"`
}
