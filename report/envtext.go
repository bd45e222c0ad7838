package report

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/gcperf/gcperf/env"
)

// EnvText writes an environment as a readable block, a line per part (host,
// CPU, memory, load, cgroup, Go, build): gcperf env's output. A report's
// text form carries a shorter summary of it (Text).
func EnvText(w io.Writer, e env.Env) error {
	h, c, g, b := e.Host, e.Cgroup, e.Go, e.Build
	or := func(s, none string) string {
		if s == "" {
			return none
		}
		return s
	}
	tw := tabwriter.NewWriter(w, 0, 0, 1, ' ', 0)
	line := func(label, format string, args ...any) {
		fmt.Fprintf(tw, "%s:\t%s\n", label, fmt.Sprintf(format, args...))
	}
	system := strings.TrimSpace(strings.Join([]string{h.OS, h.Platform, h.PlatformVersion}, " "))
	host := fmt.Sprintf("%s, %s, kernel %s, %s", or(h.Hostname, "unknown"), or(system, "unknown system"),
		or(h.Kernel, "unknown"), or(h.Arch, "unknown arch"))
	if h.Virtualization != "" {
		host += ", " + h.Virtualization
	}
	if h.UptimeSeconds > 0 {
		host += ", up " + (time.Duration(h.UptimeSeconds) * time.Second).String()
	}
	line("Host", "%s", host)
	cpu := fmt.Sprintf("%s, %d logical CPUs (%d physical)", or(h.CPUModel, "unknown model"), h.LogicalCPUs, h.PhysicalCPUs)
	if h.CPUMHz > 0 {
		cpu += fmt.Sprintf(", %.0f MHz", h.CPUMHz)
	}
	line("CPU", "%s", cpu)
	line("Memory", "%s total, %s available", env.Bytes(int64(h.MemoryTotalBytes)), env.Bytes(int64(h.MemoryAvailableBytes)))
	line("Load", "%.2f %.2f %.2f (1, 5, 15 minutes)", h.Load1, h.Load5, h.Load15)
	cpus, mem := "none", "none"
	if c.CPUMax != nil {
		cpus = strconv.FormatFloat(*c.CPUMax, 'f', -1, 64) + " CPUs"
	}
	if c.MemoryMaxBytes != nil {
		mem = env.Bytes(*c.MemoryMaxBytes)
	}
	cg := fmt.Sprintf("cpu.max %s, memory.max %s", cpus, mem)
	if c.MemoryCurrent > 0 {
		cg += ", memory.current " + env.Bytes(c.MemoryCurrent)
	}
	if c.Path != "" {
		cg += " (" + c.Path + ")"
	}
	line("Cgroup", "%s", cg)
	gos := fmt.Sprintf("%s %s/%s, GOMAXPROCS %d, NumCPU %d, GOGC %s, GOMEMLIMIT %s, GODEBUG %s",
		g.Version, g.GOOS, g.GOARCH, g.GOMAXPROCS, g.NumCPU, g.GOGCString(), g.GOMEMLIMITString(), or(g.GODEBUG, "none"))
	line("Go", "%s", gos)
	build := or(b.Path, "no build information")
	if b.Module != "" {
		build += fmt.Sprintf(" in %s %s", b.Module, b.Version)
	}
	if b.VCSRevision != "" {
		build += ", revision " + b.VCSRevision
		if b.VCSTime != "" {
			build += " of " + b.VCSTime
		}
		if b.VCSModified {
			build += ", modified"
		}
	}
	line("Build", "%s", build)
	return tw.Flush()
}
