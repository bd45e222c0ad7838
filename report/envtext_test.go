package report

import (
	"bytes"
	"math"
	"testing"

	"github.com/gcperf/gcperf/env"
)

// EnvText, gcperf env's block, on a full environment and on an empty one
// (what a machine without /proc leaves: nothing is invented).
func TestEnvText(t *testing.T) {
	cpus, mem := 1.5, int64(2<<30)
	full := env.Env{
		Host: env.Host{Hostname: "bench1", OS: "linux", Platform: "debian", PlatformVersion: "12.5", Kernel: "6.1.0-18-amd64",
			Arch: "x86_64", Virtualization: "kvm guest", UptimeSeconds: 3600, CPUModel: "AMD EPYC", PhysicalCPUs: 2, LogicalCPUs: 4,
			CPUMHz: 2450, MemoryTotalBytes: 8 << 30, MemoryAvailableBytes: 6 << 30, Load1: 0.5, Load5: 0.25, Load15: 0.125},
		Cgroup: env.Cgroup{Path: "/user.slice", CPUMax: &cpus, MemoryMaxBytes: &mem, MemoryCurrent: 1 << 30},
		Go:     env.Go{Version: "go1.26.8", GOOS: "linux", GOARCH: "amd64", GOMAXPROCS: 4, NumCPU: 4, GOGC: 100, GOMEMLIMIT: math.MaxInt64, GODEBUG: "madvdontneed=1"},
		Build:  env.Build{Path: "github.com/gcperf/gcperf/cmd/gcperf", Module: "github.com/gcperf/gcperf", Version: "(devel)", VCSRevision: "abc123", VCSTime: "2026-12-03T07:00:00Z", VCSModified: true},
	}
	for _, tt := range []struct {
		name string
		e    env.Env
	}{{"envtext_full.golden", full}, {"envtext_empty.golden", env.Env{}}} {
		var b bytes.Buffer
		if err := EnvText(&b, tt.e); err != nil {
			t.Fatal(err)
		}
		golden(t, "testdata/"+tt.name, b.Bytes())
	}
}
