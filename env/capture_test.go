package env

import (
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/shirou/gopsutil/v4/host"
)

// The fixtures testdata/host1 (a Debian 12 KVM guest, 2 cores x 2 threads,
// in a systemd service limited to 1.5 CPUs and 2GiB) and testdata/host2
// (Ubuntu 24.04 on bare metal, 4 cores x 2 threads, cgroup v2 without
// limits) hold the files Capture reads, with made-up values:
//
//	etc/os-release, etc/debian_version  platform and version
//	etc/lsb-release                      read first by gopsutil; without it,
//	                                     gopsutil runs the live machine's
//	                                     /usr/bin/lsb_release. Debian does not
//	                                     ship one: host1 has it to stay hermetic.
//	proc/cpuinfo                         model, MHz, logical CPUs, "Common KVM
//	                                     processor" (kvm guest), and physical
//	                                     CPUs for host2 (physical id, cpu cores)
//	sys/devices/system/cpu/cpuN/...      host1: topology/core_cpus_list
//	                                     (physical CPUs); host2:
//	                                     cpufreq/cpuinfo_max_freq (MHz)
//	proc/meminfo, proc/loadavg           memory, load
//	proc/stat                            btime: gopsutil's host.Info fails
//	                                     without it
//	proc/self -> <pid>                   a symlink, as in the real /proc
//	proc/<pid>/cgroup                    the process's cgroup v2 path
//	sys/fs/cgroup/cgroup.controllers     cgroup v2 is mounted
//	sys/fs/cgroup/<path>/{cpu.max,memory.max,memory.current}, and ancestors

// Capture in a child process: gopsutil caches the virtualization it detects
// first for the life of the process, whatever root later calls pass, so each
// root is captured in a fresh process (this test binary, run again).
const (
	childRootEnv = "GCPERF_ENV_TEST_CAPTURE_ROOT"
	childOutEnv  = "GCPERF_ENV_TEST_CAPTURE_OUT"
)

type childCapture struct {
	Env Env
	Err string
}

func TestMain(m *testing.M) {
	if root := os.Getenv(childRootEnv); root != "" {
		e, err := Capture(context.Background(), root)
		out := childCapture{Env: e}
		if err != nil {
			out.Err = err.Error()
		}
		b, err := json.Marshal(out)
		if err == nil {
			err = os.WriteFile(os.Getenv(childOutEnv), b, 0o644)
		}
		if err != nil {
			os.Stderr.WriteString(err.Error() + "\n")
			os.Exit(2)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func captureInChild(t *testing.T, root string) (Env, string) {
	t.Helper()
	out := filepath.Join(t.TempDir(), "capture.json")
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), childRootEnv+"="+root, childOutEnv+"="+out)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("capture %s in a child: %v\n%s", root, err, b)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var c childCapture
	if err := json.Unmarshal(b, &c); err != nil {
		t.Fatal(err)
	}
	return c.Env, c.Err
}

func ptr[T any](v T) *T { return &v }

func TestCapture(t *testing.T) {
	tests := []struct {
		root   string
		host   Host // without the fields that come from system calls
		cgroup Cgroup
	}{
		{
			root: "testdata/host1",
			host: Host{
				OS: "linux", Platform: "debian", PlatformVersion: "12.5",
				Virtualization: "kvm guest",
				CPUModel:       "Common KVM processor", CPUMHz: 2399.998,
				PhysicalCPUs: 2, LogicalCPUs: 4,
				MemoryTotalBytes: 8148324 * 1024, MemoryAvailableBytes: 6512340 * 1024,
				Load1: 0.42, Load5: 0.35, Load15: 0.30,
			},
			cgroup: Cgroup{
				Path:           "/system.slice/gcperf-bench.service",
				CPUMax:         ptr(1.5),
				MemoryMaxBytes: ptr(int64(2 << 30)),
				MemoryCurrent:  512 << 20,
			},
		},
		{
			root: "testdata/host2",
			host: Host{
				OS: "linux", Platform: "ubuntu", PlatformVersion: "24.04",
				Virtualization: "",
				CPUModel:       "Intel(R) Xeon(R) E-2234 CPU @ 3.60GHz",
				CPUMHz:         4800, // cpufreq/cpuinfo_max_freq, over cpuinfo's 800.000
				PhysicalCPUs:   4, LogicalCPUs: 8,
				MemoryTotalBytes: 65658196 * 1024, MemoryAvailableBytes: 61234568 * 1024,
				Load1: 1.25, Load5: 0.98, Load15: 0.76,
			},
			cgroup: Cgroup{
				Path:          "/user.slice/user-1000.slice/session-2.scope",
				MemoryCurrent: 73400320,
			},
		},
	}
	// Hostname, Kernel, Arch and UptimeSeconds come from system calls
	// (os.Hostname, uname(2), sysinfo(2)), not from root: they must be the
	// live machine's, whatever the fixture.
	hostname, _ := os.Hostname()
	kernel, _ := host.KernelVersion()
	arch, _ := host.KernelArch()
	bi, _ := debug.ReadBuildInfo()
	for _, tt := range tests {
		t.Run(filepath.Base(tt.root), func(t *testing.T) {
			got, errText := captureInChild(t, tt.root)
			if errText != "" {
				t.Errorf("error: %s", errText)
			}
			h := got.Host
			if h.Hostname != hostname || h.Kernel != kernel || h.Arch != arch || h.UptimeSeconds == 0 {
				t.Errorf("system call fields: hostname %q, kernel %q, arch %q, uptime %d; want %q, %q, %q, >0",
					h.Hostname, h.Kernel, h.Arch, h.UptimeSeconds, hostname, kernel, arch)
			}
			h.Hostname, h.Kernel, h.Arch, h.UptimeSeconds = "", "", "", 0
			if h != tt.host {
				t.Errorf("host:\n got %+v\nwant %+v", h, tt.host)
			}
			if !reflect.DeepEqual(got.Cgroup, tt.cgroup) {
				t.Errorf("cgroup:\n got %s\nwant %s", cgroupString(got.Cgroup), cgroupString(tt.cgroup))
			}
			if want := ReadGo(); got.Go != want {
				t.Errorf("go: got %+v, want %+v", got.Go, want)
			}
			if want := buildFrom(bi); got.Build != want || got.Build.Path == "" {
				t.Errorf("build: got %+v, want %+v", got.Build, want)
			}
		})
	}
}

func cgroupString(c Cgroup) string {
	b, _ := json.Marshal(c)
	return string(b)
}

// A root that has some files and not others: Capture keeps what it could
// read and joins the errors, each naming its file.
func TestCapturePartial(t *testing.T) {
	tests := []struct {
		root       string
		memory     uint64   // MemTotal, 0 when unreadable
		errMention []string // files the error must name
	}{
		// testdata/machine has proc/meminfo and nothing else.
		{"testdata/machine", 24683548 * 1024, []string{"proc/cpuinfo", "proc/loadavg"}},
		{"testdata/nonexistent", 0, []string{"proc/cpuinfo", "proc/meminfo", "proc/loadavg"}},
	}
	for _, tt := range tests {
		e, err := Capture(context.Background(), tt.root)
		if err == nil {
			t.Fatalf("%s: no error", tt.root)
		}
		for _, f := range tt.errMention {
			if want := filepath.Join(tt.root, f); !strings.Contains(err.Error(), want) {
				t.Errorf("%s: error does not name %s:\n%v", tt.root, want, err)
			}
		}
		if e.Host.MemoryTotalBytes != tt.memory {
			t.Errorf("%s: memory total %d, want %d", tt.root, e.Host.MemoryTotalBytes, tt.memory)
		}
		// Nothing of the live machine leaks in for what root lacks (gopsutil
		// would fall back to sysinfo(2) for the load).
		if e.Host.LogicalCPUs != 0 || e.Host.CPUModel != "" || e.Host.Load1 != 0 || e.Host.Load15 != 0 {
			t.Errorf("%s: host fields without files: %+v", tt.root, e.Host)
		}
		if e.Go.Version == "" || e.Build.Path == "" {
			t.Errorf("%s: go and build must not depend on root: %+v %+v", tt.root, e.Go, e.Build)
		}
	}
}

// The one test that reads the live machine, asserting no exact value.
func TestCaptureLive(t *testing.T) {
	e, err := Capture(context.Background(), "/")
	if err != nil {
		t.Logf("partial capture (a warning for gcperf): %v", err)
	}
	if e.Host.LogicalCPUs < 1 || e.Host.MemoryTotalBytes == 0 {
		t.Errorf("live capture: %d logical CPUs, %d bytes of memory", e.Host.LogicalCPUs, e.Host.MemoryTotalBytes)
	}
}

// writeTree makes a root under a temporary directory from files (path →
// contents) and a proc/self symlink to pid.
func writeTree(t *testing.T, pid string, files map[string]string) string {
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
	if pid != "" {
		if err := os.Symlink(pid, filepath.Join(root, "proc", "self")); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func TestReadCgroup(t *testing.T) {
	const cg = "sys/fs/cgroup/"
	v2 := func(self string, files map[string]string) map[string]string {
		files[cg+"cgroup.controllers"] = "cpu io memory pids\n"
		files["proc/7/cgroup"] = self
		return files
	}
	tests := []struct {
		name       string
		root       string
		want       Cgroup
		errMention string // "" when no error
	}{
		{name: "host1", root: "testdata/host1", want: Cgroup{
			Path: "/system.slice/gcperf-bench.service", CPUMax: ptr(1.5), MemoryMaxBytes: ptr(int64(2147483648)), MemoryCurrent: 536870912,
		}},
		{name: "host2 max", root: "testdata/host2", want: Cgroup{
			Path: "/user.slice/user-1000.slice/session-2.scope", MemoryCurrent: 73400320,
		}},
		// No cgroup.controllers: cgroup v1, or no cgroup at all.
		{name: "no cgroup v2", root: "testdata/machine"},
		{name: "hybrid v1", root: writeTree(t, "7", map[string]string{
			"proc/7/cgroup":               "4:memory:/user.slice\n1:cpu:/\n0::/\n",
			"sys/fs/cgroup/memory/tasks":  "7\n",
			"sys/fs/cgroup/unified/procs": "7\n",
		})},
		// The parent's limits bind when tighter than the process's own.
		{name: "parent tighter", root: writeTree(t, "7", v2("0::/a/b\n", map[string]string{
			cg + "a/cpu.max":          "200000 100000\n",
			cg + "a/memory.max":       "1073741824\n",
			cg + "a/b/cpu.max":        "max 100000\n",
			cg + "a/b/memory.max":     "max\n",
			cg + "a/b/memory.current": "4096\n",
			cg + "a/memory.current":   "8192\n",
		})), want: Cgroup{Path: "/a/b", CPUMax: ptr(2.0), MemoryMaxBytes: ptr(int64(1 << 30)), MemoryCurrent: 4096}},
		{name: "child tighter", root: writeTree(t, "7", v2("0::/a/b\n", map[string]string{
			cg + "a/cpu.max":      "200000 100000\n",
			cg + "a/memory.max":   "1073741824\n",
			cg + "a/b/cpu.max":    "50000 100000\n",
			cg + "a/b/memory.max": "268435456\n",
		})), want: Cgroup{Path: "/a/b", CPUMax: ptr(0.5), MemoryMaxBytes: ptr(int64(256 << 20))}},
		// A container's own cgroup namespace: the process is at "/", and its
		// limits are the mount point's files.
		{name: "namespace root", root: writeTree(t, "7", v2("0::/\n", map[string]string{
			cg + "cpu.max":        "100000 100000\n",
			cg + "memory.max":     "536870912\n",
			cg + "memory.current": "1048576\n",
		})), want: Cgroup{Path: "/", CPUMax: ptr(1.0), MemoryMaxBytes: ptr(int64(512 << 20)), MemoryCurrent: 1 << 20}},
		// A path not visible under the mount: the mount point's files.
		{name: "not visible", root: writeTree(t, "7", v2("0::/../../other.scope\n", map[string]string{
			cg + "memory.max": "536870912\n",
		})), want: Cgroup{Path: "/../../other.scope", MemoryMaxBytes: ptr(int64(512 << 20))}},
		// A bad file is an error naming it; the other files are still read.
		{name: "garbage cpu.max", root: writeTree(t, "7", v2("0::/a\n", map[string]string{
			cg + "a/cpu.max":        "lots\n",
			cg + "a/memory.max":     "1073741824\n",
			cg + "a/memory.current": "12\n",
		})), want: Cgroup{Path: "/a", MemoryMaxBytes: ptr(int64(1 << 30)), MemoryCurrent: 12}, errMention: cg + "a/cpu.max"},
		{name: "garbage memory.max", root: writeTree(t, "7", v2("0::/a\n", map[string]string{
			cg + "a/cpu.max":    "300000 100000\n",
			cg + "a/memory.max": "a lot\n",
		})), want: Cgroup{Path: "/a", CPUMax: ptr(3.0)}, errMention: cg + "a/memory.max"},
		{name: "no proc/self", root: writeTree(t, "", map[string]string{
			cg + "cgroup.controllers": "cpu memory\n",
			"proc/1/cgroup":           "0::/\n",
		}), errMention: "proc/self"},
		{name: "no v2 line", root: writeTree(t, "7", v2("1:cpu:/\n", map[string]string{})), errMention: "proc/self/cgroup"},
	}
	for _, tt := range tests {
		got, err := readCgroup(tt.root)
		if tt.errMention == "" && err != nil {
			t.Errorf("%s: %v", tt.name, err)
		}
		if tt.errMention != "" && (err == nil || !strings.Contains(err.Error(), filepath.Join(tt.root, tt.errMention))) {
			t.Errorf("%s: error %v, want one naming %s", tt.name, err, filepath.Join(tt.root, tt.errMention))
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s:\n got %s\nwant %s", tt.name, cgroupString(got), cgroupString(tt.want))
		}
	}
}

func TestParseCPUMax(t *testing.T) {
	tests := []struct {
		in   string
		want *float64 // nil: no limit
		ok   bool
	}{
		{"max 100000\n", nil, true},
		{"max", nil, true},
		{"50000 100000\n", ptr(0.5), true},
		{"150000 100000\n", ptr(1.5), true},
		{"200000 100000", ptr(2.0), true},
		{"  400000   100000  ", ptr(4.0), true},
		{"1000 1000", ptr(1.0), true},
		{"lots", nil, false},
		{"", nil, false},
		{"150000", nil, false},    // no period
		{"150000 0", nil, false},  // zero period
		{"-1 100000", nil, false}, // negative quota
		{"0 100000", nil, false},  // zero quota
		{"max lots", nil, false},  // bad period
		{"1 2 3", nil, false},     // too many fields
		{"150000 100000 extra", nil, false},
	}
	for _, tt := range tests {
		got, err := parseCPUMax([]byte(tt.in))
		if (err == nil) != tt.ok {
			t.Errorf("parseCPUMax(%q) error %v, want ok=%v", tt.in, err, tt.ok)
			continue
		}
		if err != nil && !errors.Is(err, fs.ErrInvalid) {
			t.Errorf("parseCPUMax(%q) error %v does not wrap fs.ErrInvalid", tt.in, err)
		}
		if (got == nil) != (tt.want == nil) || (got != nil && *got != *tt.want) {
			t.Errorf("parseCPUMax(%q) = %v, want %v", tt.in, deref(got), deref(tt.want))
		}
	}
}

func deref(p *float64) any {
	if p == nil {
		return "nil"
	}
	return *p
}

func TestBuildFrom(t *testing.T) {
	tests := []struct {
		name string
		in   *debug.BuildInfo
		want Build
	}{
		{"nil", nil, Build{}},
		{"stamped", &debug.BuildInfo{
			Path: "github.com/gcperf/gcperf/cmd/gcperf",
			Main: debug.Module{Path: "github.com/gcperf/gcperf", Version: "v0.3.1"},
			Settings: []debug.BuildSetting{
				{Key: "-compiler", Value: "gc"},
				{Key: "vcs", Value: "git"},
				{Key: "vcs.revision", Value: "b9ded59c0ffee0123456789abcdef0123456789a"},
				{Key: "vcs.time", Value: "2026-03-01T12:34:56Z"},
				{Key: "vcs.modified", Value: "true"},
			},
		}, Build{
			Path: "github.com/gcperf/gcperf/cmd/gcperf", Module: "github.com/gcperf/gcperf", Version: "v0.3.1",
			VCSRevision: "b9ded59c0ffee0123456789abcdef0123456789a", VCSTime: "2026-03-01T12:34:56Z", VCSModified: true,
		}},
		{"clean", &debug.BuildInfo{
			Path:     "github.com/gcperf/gcperf/cmd/gcperf",
			Main:     debug.Module{Path: "github.com/gcperf/gcperf", Version: "(devel)"},
			Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "abc"}, {Key: "vcs.modified", Value: "false"}},
		}, Build{Path: "github.com/gcperf/gcperf/cmd/gcperf", Module: "github.com/gcperf/gcperf", Version: "(devel)", VCSRevision: "abc"}},
		// go test, or -buildvcs=false: no vcs settings.
		{"unstamped", &debug.BuildInfo{
			Path: "github.com/gcperf/gcperf/env.test",
			Main: debug.Module{Path: "github.com/gcperf/gcperf", Version: "(devel)"},
		}, Build{Path: "github.com/gcperf/gcperf/env.test", Module: "github.com/gcperf/gcperf", Version: "(devel)"}},
	}
	for _, tt := range tests {
		if got := buildFrom(tt.in); got != tt.want {
			t.Errorf("%s: got %+v, want %+v", tt.name, got, tt.want)
		}
	}
}

func TestVirtualization(t *testing.T) {
	tests := []struct{ system, role, want string }{
		{"kvm", "guest", "kvm guest"},
		{"docker", "guest", "docker guest"},
		{"kvm", "host", "kvm host"},
		{"linux-vserver", "", "linux-vserver"},
		{"", "guest", "guest"}, // virtio devices, hypervisor unknown
		{"", "", ""},
	}
	for _, tt := range tests {
		if got := virtualization(tt.system, tt.role); got != tt.want {
			t.Errorf("virtualization(%q, %q) = %q, want %q", tt.system, tt.role, got, tt.want)
		}
	}
}
