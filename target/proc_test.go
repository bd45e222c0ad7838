package target

import (
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestTreeWalk(t *testing.T) {
	page := int64(os.Getpagesize())
	for _, tt := range []struct {
		root     string
		wantScan bool
	}{
		{"testdata/children", false},
		{"testdata/scan", true},
	} {
		t.Run(filepath.Base(tt.root), func(t *testing.T) {
			r, err := newTreeReader(tt.root, 100)
			if err != nil {
				t.Fatal(err)
			}
			if r.scan != tt.wantScan {
				t.Errorf("scan = %v, want %v", r.scan, tt.wantScan)
			}
			rss, n, ok := r.walk()
			// 100, 101 and 102 (out of the group, still in the tree); 104
			// is a zombie and 200 is not in the tree.
			if want := (1000 + 2000 + 500) * page; rss != want || n != 3 || !ok {
				t.Errorf("walk = %d, %d, %v; want %d, 3, true", rss, n, ok, want)
			}
			want := map[int]member{101: {start: 5001, pgrp: 100}, 102: {start: 5002, pgrp: 102}}
			if !maps.Equal(r.known, want) {
				t.Errorf("known = %v, want %v", r.known, want)
			}
			if got := r.group(100); !slices.Equal(sorted(got), []int{100, 101}) {
				t.Errorf("group(100) = %v, want [100 101] (the zombie left out)", got)
			}
		})
	}
}

func sorted(s []int) []int { slices.Sort(s); return s }

// A known descendant is forgotten once it has ended, or once its pid names
// another process (another start time); one that lives on is kept even
// when it is no longer in the tree (its parent died, it was reparented).
func TestTreeKnown(t *testing.T) {
	root := t.TempDir()
	if err := os.CopyFS(root, os.DirFS("testdata/children")); err != nil {
		t.Fatal(err)
	}
	r, err := newTreeReader(root, 100)
	if err != nil {
		t.Fatal(err)
	}
	r.walk()
	// 101 ends; 100 no longer lists 102 (reparented to 1).
	if err := os.RemoveAll(filepath.Join(root, "proc", "101")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "proc", "100", "task", "103", "children"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	_, n, _ := r.walk()
	if want := map[int]member{102: {start: 5002, pgrp: 102}}; n != 1 || !maps.Equal(r.known, want) {
		t.Errorf("after 101 ended: %d in the tree, known %v; want 1, %v", n, r.known, want)
	}
	// 102 ends and its pid is reused by a process that started later.
	stat := filepath.Join(root, "proc", "102", "stat")
	b, err := os.ReadFile(stat)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(stat, []byte(replaceField(string(b), 22, "9999")), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := r.living(); len(got) != 0 {
		t.Errorf("living() = %v after 102's pid was reused, want none", got)
	}
}

// replaceField replaces the n-th space-separated field of a stat line (1 is
// the pid), counting after the command, which may hold spaces.
func replaceField(line string, n int, v string) string {
	end := strings.LastIndexByte(line, ')')
	fields := strings.Fields(line[end+2:])
	fields[n-3] = v
	return line[:end+2] + strings.Join(fields, " ") + "\n"
}

func TestTreeReaderNoProcess(t *testing.T) {
	if _, err := newTreeReader("testdata/children", 999); err == nil {
		t.Error("newTreeReader of a pid that is not there: no error")
	}
	if _, err := newTreeReader(t.TempDir(), 100); err == nil {
		t.Error("newTreeReader without proc: no error")
	}
	// The child has ended and is a zombie: no sample.
	r, err := newTreeReader("testdata/children", 104)
	if err != nil {
		t.Fatal(err)
	}
	if rss, n, ok := r.walk(); ok || rss != 0 || n != 0 {
		t.Errorf("walk of a zombie = %d, %d, %v; want 0, 0, false", rss, n, ok)
	}
}

func TestParseChildren(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want []int
	}{
		{"", nil},
		{"101 ", []int{101}},
		{"101 102 7\n", []int{101, 102, 7}},
		{"x 3 -1 0 4", []int{3, 4}},
	} {
		if got := parseChildren([]byte(tt.in), nil); !slices.Equal(got, tt.want) {
			t.Errorf("parseChildren(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
}
