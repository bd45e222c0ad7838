package safefile

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// CreateIncomplete streams to FILE.incomplete, in sight; Commit renames it
// FILE, Abort removes it; an existing FILE or FILE.incomplete (a killed
// run's) is kept unless overwrite.
func TestCreateIncomplete(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "rl.csv")
	inc := path + IncompleteSuffix
	tmp, err := CreateIncomplete(path, false)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tmp.WriteString("run\n1\n"); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(inc); err != nil || string(b) != "run\n1\n" {
		t.Fatalf("%s while streaming: %q, %v", inc, b, err)
	}
	if _, err := CreateIncomplete(path, false); !errors.Is(err, ErrExists) {
		t.Errorf("a second CreateIncomplete while the first streams: %v, want ErrExists", err)
	}
	if err := tmp.Commit(); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(path); err != nil || string(b) != "run\n1\n" {
		t.Errorf("%s after Commit: %q, %v", path, b, err)
	}
	if _, err := os.Stat(inc); err == nil {
		t.Errorf("%s left after Commit", inc)
	}
	// FILE exists: refused, replaced only with overwrite.
	if _, err := CreateIncomplete(path, false); !errors.Is(err, ErrExists) {
		t.Errorf("over an existing file: %v, want ErrExists", err)
	}
	// A killed run's FILE.incomplete: kept, replaced with overwrite.
	if err := os.WriteFile(inc, []byte("killed\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if other, err := CreateIncomplete(filepath.Join(dir, "other.csv"), false); err != nil {
		t.Errorf("another file: %v", err)
	} else {
		other.Abort()
	}
	os.Remove(path)
	if _, err := CreateIncomplete(path, false); !errors.Is(err, ErrExists) {
		t.Errorf("over a killed run's %s: %v, want ErrExists", inc, err)
	}
	tmp, err = CreateIncomplete(path, true)
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(inc); len(b) != 0 {
		t.Errorf("%s with overwrite: %q, want emptied", inc, b)
	}
	tmp.Abort()
	if _, err := os.Stat(inc); err == nil {
		t.Errorf("%s left after Abort", inc)
	}
	// Never through a symbolic link.
	if err := os.Symlink(filepath.Join(dir, "target"), inc); err != nil {
		t.Fatal(err)
	}
	if _, err := CreateIncomplete(path, true); !errors.Is(err, ErrNotRegular) {
		t.Errorf("%s a symbolic link: %v, want ErrNotRegular", inc, err)
	}
}
