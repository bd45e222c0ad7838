//go:build unix

package safefile

import (
	"bufio"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"syscall"
	"testing"
	"time"
)

// One LockDir at a time holds a directory, however it is spelled; the lock
// adds nothing to the directory; Unlock frees it.
func TestLockDir(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "out")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(root, "link")
	if err := os.Symlink(dir, link); err != nil {
		t.Fatal(err)
	}
	l, err := LockDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !l.Holds(dir) || !l.Holds(link) || l.Holds(root) || l.Dir() != dir {
		t.Errorf("Holds: %v %v %v, Dir %q", l.Holds(dir), l.Holds(link), l.Holds(root), l.Dir())
	}
	for _, d := range []string{dir, link, dir + "/."} {
		if l2, err := LockDir(d); !errors.Is(err, ErrLocked) || err.Error() != "another gcperf is using this directory" {
			t.Errorf("LockDir(%s) while held: %v, want ErrLocked", d, err)
			l2.Unlock()
		}
	}
	if entries, err := os.ReadDir(dir); err != nil || len(entries) != 0 {
		t.Errorf("the locked directory holds %v, %v: want nothing", entries, err)
	}
	if err := l.Unlock(); err != nil {
		t.Fatal(err)
	}
	if err := l.Unlock(); err != nil || l.Holds(dir) {
		t.Errorf("a second Unlock: %v; Holds %v", err, l.Holds(dir))
	}
	l2, err := LockDir(link)
	if err != nil {
		t.Fatalf("LockDir after Unlock: %v", err)
	}
	l2.Unlock()
	var none *DirLock
	if none.Unlock() != nil || none.Holds(dir) {
		t.Error("a nil DirLock holds something")
	}
	for _, bad := range []struct {
		path string
		want error
	}{
		{filepath.Join(root, "missing"), fs.ErrNotExist},
	} {
		if _, err := LockDir(bad.path); !errors.Is(err, bad.want) {
			t.Errorf("LockDir(%s): %v, want %v", bad.path, err, bad.want)
		}
	}
	file := filepath.Join(root, "f")
	os.WriteFile(file, nil, 0o644)
	if _, err := LockDir(file); err == nil || err.Error() != "not a directory" {
		t.Errorf("LockDir of a file: %v", err)
	}
}

const lockChildEnv = "SAFEFILE_TEST_LOCK_CHILD"

// TestLockChild is the process TestLockDirKilled kills while it holds a
// lock; it does nothing in the tests' own run.
func TestLockChild(t *testing.T) {
	dir := os.Getenv(lockChildEnv)
	if dir == "" {
		t.Skip("the child of TestLockDirKilled")
	}
	if _, err := LockDir(dir); err != nil {
		os.Stdout.WriteString("error " + err.Error() + "\n")
		os.Exit(1)
	}
	os.Stdout.WriteString("locked\n")
	time.Sleep(time.Minute)
	os.Exit(0)
}

// A process that holds a lock and is killed (SIGKILL: it cleans nothing)
// leaves no stale lock: the kernel releases it. While it lives, the lock
// refuses another process.
func TestLockDirKilled(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("flock(2) and SIGKILL")
	}
	dir := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^TestLockChild$")
	cmd.Env = append(os.Environ(), lockChildEnv+"="+dir)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	line, _ := bufio.NewReader(out).ReadString('\n')
	if line != "locked\n" {
		t.Fatalf("the child said %q", line)
	}
	if _, err := LockDir(dir); !errors.Is(err, ErrLocked) {
		t.Fatalf("LockDir while another process holds it: %v, want ErrLocked", err)
	}
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	l, err := LockDir(dir)
	if err != nil {
		t.Fatalf("LockDir after the holder was killed: %v", err)
	}
	l.Unlock()
}

// CreateLog refuses what Check refuses: an existing file without
// overwrite, and whatever is not a regular file (a named pipe, a device,
// a link), never waiting on a pipe and never truncating what it refuses.
func TestCreateLog(t *testing.T) {
	dir := t.TempDir()
	keep := filepath.Join(dir, "keep.log")
	os.WriteFile(keep, []byte("precious\n"), 0o644)
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link")
	os.Symlink(keep, link)
	for _, tc := range []struct {
		path      string
		overwrite bool
		want      error
	}{
		{keep, false, ErrExists},
		{fifo, true, ErrNotRegular},
		{os.DevNull, true, ErrNotRegular},
		{link, true, ErrNotRegular},
		{filepath.Join(dir, "missing", "x.log"), false, fs.ErrNotExist},
	} {
		f, err := CreateLog(tc.path, tc.overwrite)
		if !errors.Is(err, tc.want) {
			t.Errorf("CreateLog(%s, %v): %v, want %v", tc.path, tc.overwrite, err, tc.want)
		}
		if f != nil {
			f.Close()
		}
	}
	if b, _ := os.ReadFile(keep); string(b) != "precious\n" {
		t.Errorf("keep.log now holds %q", b)
	}
	f, err := CreateLog(keep, true)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("new\n")
	f.Close()
	if b, _ := os.ReadFile(keep); string(b) != "new\n" {
		t.Errorf("with overwrite, keep.log holds %q", b)
	}
	f, err = CreateLog(filepath.Join(dir, "new.log"), false)
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
}
