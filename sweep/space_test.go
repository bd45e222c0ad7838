package sweep

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/gcperf/gcperf/target"
)

// smallDisk mounts a tmpfs of size bytes at a new directory and returns it,
// unmounted at the end of the test; it skips the test where it cannot
// mount one (not root, not Linux).
func smallDisk(t *testing.T, size string) string {
	t.Helper()
	dir := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size="+size, "tmpfs", dir).CombinedOutput(); err != nil {
		t.Skipf("no tmpfs to fill (mount: %v: %s): it takes root on Linux", err, strings.TrimSpace(string(out)))
	}
	t.Cleanup(func() {
		if out, err := exec.Command("umount", dir).CombinedOutput(); err != nil {
			t.Errorf("umount %s: %v: %s", dir, err, out)
		}
	})
	return dir
}

// A sweep whose directory cannot take another repeat's files stops there,
// saying why, instead of running every remaining point to fail writing
// its result (issue 24, item 27): before a repeat, and after one that
// failed without a result, whose failure then carries the cause (Reason
// CannotWrite, ENOSPC) rather than "exit status 1".
func TestRunnerStopsWhenTheDiskIsFull(t *testing.T) {
	tests := []struct {
		name     string
		fill     int    // bytes written into the directory before the sweep
		readOnly bool   // the file system is remounted read-only before the sweep
		cmd      string // the point's command
		outs     int    // outcomes before it stops
		errno    syscall.Errno
	}{
		// Less room than a repeat needs: not one point runs.
		{"before", 280 << 10, false, "exit 0", 0, syscall.ENOSPC},
		// The first point fills the disk and fails: the sweep stops there.
		{"after", 0, false, `head -c 400000 /dev/zero > "$FILL"; exit 1`, 1, syscall.ENOSPC},
		// The first point fills the disk and succeeds: its result cannot
		// be written, and the sweep stops there.
		{"result", 0, false, `head -c 400000 /dev/zero > "$FILL"; exit 0`, 1, syscall.ENOSPC},
		// Room, but nothing can be written: the probe finds it.
		{"read-only", 0, true, "exit 0", 0, syscall.EROFS},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := smallDisk(t, "300k")
			if tt.fill > 0 {
				os.WriteFile(filepath.Join(dir, "fill"), make([]byte, tt.fill), 0o644) // as much as fits
			}
			if tt.readOnly {
				if out, err := exec.Command("mount", "-o", "remount,ro", dir).CombinedOutput(); err != nil {
					t.Fatalf("remount read-only: %v: %s", err, out)
				}
			}
			r, progress := commandRunner(t, "")
			r.Dir = dir
			r.Command = &target.Command{Path: "/bin/sh", Args: []string{"-c", tt.cmd}}
			r.Env = append(r.Env, "FILL="+filepath.Join(dir, "fill"))
			outs, err := r.Run(context.Background(), grid(t, "50,100,200", "off"))
			var cw *CannotWriteError
			if !errors.As(err, &cw) || !errors.Is(err, ErrCannotWrite) || !errors.Is(err, tt.errno) || cw.Dir != dir {
				t.Fatalf("Run: %v, want a *CannotWriteError of %s wrapping %v; progress:\n%s", err, dir, tt.errno, progress)
			}
			if len(outs) != tt.outs {
				t.Fatalf("%d outcomes, want %d: it ran on; progress:\n%s", len(outs), tt.outs, progress)
			}
			for _, o := range outs {
				if o.Failed.Reason != CannotWrite || !strings.Contains(o.Failed.Text, "no space left on device") {
					t.Errorf("%s: failed %v %q, want the cause", o.Point.Name(), o.Failed.Reason, o.Failed.Text)
				}
			}
			if left, _ := filepath.Glob(filepath.Join(dir, ".room.tmp*")); len(left) > 0 {
				t.Errorf("left behind: %q", left)
			}
		})
	}
}
