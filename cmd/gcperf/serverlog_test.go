package main

import (
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"syscall"
	"testing"
)

// TestServerLogChecked: -server-log goes through the one output check with
// the other outputs, before anything starts: an existing file without
// -overwrite, a named pipe, a device, the same file as another output are
// refused in one line (exit 2), the file untouched and no server started;
// so is one file for the servers of -count's processes.
func TestServerLogChecked(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("a server's figures are Linux's")
	}
	dir := t.TempDir()
	keep := filepath.Join(dir, "keep.log")
	if err := os.WriteFile(keep, []byte("precious\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	so2 := filepath.Join(dir, "so2")
	for _, tc := range []struct {
		name  string
		flags []string
		want  string // a regexp of the one line on stderr
	}{
		{"existing", []string{"-server-log", keep},
			`^gcperf: -server-log .*keep\.log: file exists \(use -overwrite to replace it\)$`},
		{"same file as -out's", []string{"-out", so2, "-server-log", filepath.Join(so2, "result.json")},
			`^gcperf: -server-log .*so2/result\.json: the same file as -out .*so2: .*so2/result\.json$`},
		{"same file as -json", []string{"-json", filepath.Join(dir, "r.json"), "-server-log", filepath.Join(dir, "r.json")},
			`^gcperf: -server-log .*r\.json: the same file as -json .*r\.json$`},
		{"named pipe", []string{"-overwrite", "-server-log", fifo}, `^gcperf: -server-log .*fifo: not a regular file: a named pipe$`},
		{"device", []string{"-overwrite", "-server-log", os.DevNull}, `^gcperf: -server-log /dev/null: not a regular file: a device$`},
		{"read-only", []string{"-server-log", "/proc/gcperf-server.log"}, `^gcperf: -server-log /proc/gcperf-server\.log: cannot write there: `},
		{"count", []string{"-count", "2", "-server-log", filepath.Join(dir, "c.log")}, `^gcperf: -server-log .*c\.log: the output of one process's server, not for -count 2`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			addr := freeAddr(t)
			args := append([]string{"run", "-q", "-runs", "10", "-ready", "http://" + addr + "/"}, tc.flags...)
			args = append(append(args, "noop", "--"), serverArgv(t, addr, "ok")...)
			code, _, stderr := gcperf(t, nil, args...)
			if code != exitUsage || strings.Count(stderr, "\n") != 1 || !regexp.MustCompile(tc.want).MatchString(strings.TrimSuffix(stderr, "\n")) {
				t.Errorf("exit %d, stderr %q; want exit 2 and %s", code, stderr, tc.want)
			}
			if strings.Contains(stderr, "starting the server") {
				t.Error("the server started")
			}
		})
	}
	if b, _ := os.ReadFile(keep); string(b) != "precious\n" {
		t.Errorf("keep.log now holds %q", b)
	}
	if _, err := os.Stat(so2); err == nil {
		t.Errorf("-out so2 was created for a refused command")
	}
	// With -overwrite, an existing regular file is replaced.
	addr := freeAddr(t)
	args := append([]string{"run", "-q", "-runs", "10", "-ready", "http://" + addr + "/", "-overwrite", "-server-log", keep, "noop", "--"}, serverArgv(t, addr, "ok")...)
	if code, _, stderr := gcperf(t, nil, args...); code != 0 {
		t.Fatalf("-overwrite -server-log: exit %d; stderr:\n%s", code, stderr)
	}
	if pid := serverPid(t, keep); !gone(pid) {
		t.Errorf("the server %d is still running", pid)
	}
}
