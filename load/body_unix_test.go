//go:build unix

package load_test

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gcperf/gcperf/load"
	"github.com/gcperf/gcperf/workload"
)

// A body file is read within a bound, and only a regular file: a device
// (/dev/zero) would grow without end, a FIFO would block for ever, both
// before any interrupt is listened to.
func TestHTTPBodyBounded(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	big := filepath.Join(dir, "big")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	// Sparse: the bound's size plus one byte costs no disk.
	if err := f.Truncate(load.MaxBodyBytes + 1); err != nil {
		t.Fatal(err)
	}
	f.Close()
	for _, tc := range []struct{ file, want string }{
		{"/dev/zero", "http: body @/dev/zero: not a regular file: a device"},
		{fifo, "http: body @" + fifo + ": not a regular file: a named pipe"},
		{dir, "http: body @" + dir + ": is a directory"},
		{big, "http: body @" + big + ": larger than 64MiB, the most gcperf reads of such a file"},
	} {
		done := make(chan error, 1)
		go func() {
			_, err := workload.New("http", map[string]string{"url": "http://127.0.0.1/", "body": "@" + tc.file})
			done <- err
		}()
		select {
		case err := <-done:
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("body @%s: %v, want an error with %q", tc.file, err, tc.want)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("body @%s: still reading after 10s", tc.file)
		}
	}
}
