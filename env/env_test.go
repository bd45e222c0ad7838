package env

import (
	"context"
	"math"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
)

func TestReadMemory(t *testing.T) {
	machine, err := os.ReadFile("testdata/machine/proc/meminfo")
	if err != nil {
		t.Fatal(err)
	}
	kB := func(key string) int64 {
		for _, l := range strings.Split(string(machine), "\n") {
			if f := strings.Fields(l); len(f) >= 2 && f[0] == key+":" {
				v, _ := strconv.ParseInt(f[1], 10, 64)
				return v * 1024
			}
		}
		t.Fatalf("fixture has no %s", key)
		return 0
	}
	tests := []struct {
		root string
		want Memory
	}{
		// No cgroup files: the machine's MemAvailable.
		{"testdata/machine", Memory{Total: kB("MemTotal"), Available: kB("MemAvailable"), CgroupMax: -1, Limit: "machine"}},
		// memory.max 2 GiB with 512 MiB used leaves 1.5 GiB, below the
		// machine's 12000000 kB available.
		{"testdata/limited", Memory{Total: 16384000 * 1024, Available: 1536 << 20, CgroupMax: 2 << 30, Limit: "cgroup"}},
		// memory.max "max": no limit.
		{"testdata/unlimited", Memory{Total: 16384000 * 1024, Available: 12000000 * 1024, CgroupMax: -1, Limit: "machine"}},
	}
	for _, tt := range tests {
		got, err := ReadMemory(context.Background(), tt.root)
		if err != nil {
			t.Fatalf("%s: %v", tt.root, err)
		}
		if got != tt.want {
			t.Errorf("%s: got %+v, want %+v", tt.root, got, tt.want)
		}
	}
	if _, err := ReadMemory(context.Background(), "testdata/nonexistent"); err == nil {
		t.Errorf("a root without /proc/meminfo must be an error")
	}
}

func TestParseCgroupValue(t *testing.T) {
	tests := []struct {
		in   string
		want int64
		ok   bool
	}{
		{"max\n", -1, true},
		{"1073741824\n", 1 << 30, true},
		{"  42 ", 42, true},
		{"lots", -1, false},
		{"", -1, false},
	}
	for _, tt := range tests {
		got, err := parseCgroupValue([]byte(tt.in))
		if got != tt.want || (err == nil) != tt.ok {
			t.Errorf("parseCgroupValue(%q) = %d, %v; want %d, ok=%v", tt.in, got, err, tt.want, tt.ok)
		}
	}
}

func TestBytes(t *testing.T) {
	tests := []struct {
		n    int64
		want string
	}{
		{0, "0B"},
		{512, "512B"},
		{1024, "1KiB"},
		{1536, "1.5KiB"},
		{256 << 20, "256MiB"},
		{1 << 30, "1GiB"},
		{3 << 29, "1.5GiB"},
		{24328240 * 1024, "23.2GiB"},
		{33 << 40, "33TiB"},
	}
	for _, tt := range tests {
		if got := Bytes(tt.n); got != tt.want {
			t.Errorf("Bytes(%d) = %q, want %q", tt.n, got, tt.want)
		}
	}
}

func TestReadGo(t *testing.T) {
	old := debug.SetGCPercent(42)
	defer debug.SetGCPercent(old)
	oldLimit := debug.SetMemoryLimit(3 << 30)
	defer debug.SetMemoryLimit(oldLimit)
	g := ReadGo()
	if g.GOGC != 42 || g.GOGCString() != "42" {
		t.Errorf("GOGC %d (%s), want 42", g.GOGC, g.GOGCString())
	}
	if g.GOMEMLIMIT != 3<<30 || g.GOMEMLIMITString() != "3GiB" {
		t.Errorf("GOMEMLIMIT %d (%s), want 3GiB", g.GOMEMLIMIT, g.GOMEMLIMITString())
	}
	debug.SetGCPercent(-1)
	debug.SetMemoryLimit(math.MaxInt64)
	g = ReadGo()
	if g.GOGCString() != "off" || g.GOMEMLIMITString() != "off" {
		t.Errorf("GOGC %s, GOMEMLIMIT %s; want off, off", g.GOGCString(), g.GOMEMLIMITString())
	}
	if g.Version == "" || g.GOMAXPROCS < 1 {
		t.Errorf("incomplete: %+v", g)
	}
}
