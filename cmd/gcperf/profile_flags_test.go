package main

import (
	"encoding/json"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestProfileFlagsBadInput(t *testing.T) {
	dir := t.TempDir()
	existing := filepath.Join(dir, "cpu.pprof")
	if err := os.WriteFile(existing, []byte("keep"), 0o644); err != nil {
		t.Fatal(err)
	}
	notDir := filepath.Join(dir, "file")
	if err := os.WriteFile(notDir, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	busy := ln.Addr().String()
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"-profile-runs", "0", "-profile", dir}, "gcperf: -profile-runs must be at least 1, got 0"},
		{[]string{"-profile-runs", "-2"}, "gcperf: -profile-runs must be at least 1, got -2"},
		{[]string{"-cpuprofile", existing}, "gcperf: -cpuprofile " + existing + ": file exists (use -overwrite to replace it)"},
		{[]string{"-profile", notDir}, "gcperf: -profile " + notDir + ": not a directory"},
		{[]string{"-trace", filepath.Join(notDir, "trace.out")}, "gcperf: -trace " + filepath.Join(notDir, "trace.out") + ": "},
		{[]string{"-http", busy}, "gcperf: -http " + busy + ": "},
		{[]string{"-http", "nohost:port"}, "gcperf: -http nohost:port: "},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			args := append([]string{"-size", "1", "-runs", "5", "-outliers", "0", "-warmup", "0"}, tt.args...)
			code, stdout, stderr := gcperf(t, nil, args...)
			if code != 2 || strings.Count(stderr, "\n") != 1 || !strings.HasPrefix(stderr, tt.want) || stdout != "" {
				t.Errorf("exit %d, stderr %q, stdout %q; want 2 and one line starting %q", code, stderr, stdout, tt.want)
			}
		})
	}
	if b, _ := os.ReadFile(existing); string(b) != "keep" {
		t.Errorf("the existing profile was touched: %q", b)
	}
}

// TestProfileDir: -profile DIR writes every kind from a separate pass, and
// the report lists them.
func TestProfileDir(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "prof")
	out := filepath.Join(t.TempDir(), "r.json")
	code, stdout, stderr := gcperf(t, nil, "-size", "64", "-runs", "30", "-warmup", "2", "-profile-runs", "40",
		"-profile", dir, "-json", out)
	if code != 0 {
		t.Fatalf("exit %d; stderr:\n%s", code, stderr)
	}
	for _, name := range []string{"cpu.pprof", "heap.pprof", "block.pprof", "mutex.pprof", "trace.out", "fgprof.pprof"} {
		if st, err := os.Stat(filepath.Join(dir, name)); err != nil || st.Size() == 0 {
			t.Errorf("%s: %v", name, err)
		}
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 6 {
		t.Errorf("%d files in %s, want the 6 profiles and no temporary", len(entries), dir)
	}
	if !strings.Contains(stdout, "Profiles, from a separate pass of 40 runs") || !strings.Contains(stdout, "cpu: "+filepath.Join(dir, "cpu.pprof")) {
		t.Errorf("the text report does not list the profiles:\n%s", stdout)
	}
	var doc struct {
		Profiling struct {
			Inline   bool `json:"inline"`
			Runs     int  `json:"runs"`
			Profiles []struct {
				Kind string `json:"kind"`
				Top  []struct {
					Name string `json:"name"`
				} `json:"top"`
			} `json:"profiles"`
		} `json:"profiling"`
		Config struct {
			Runs int `json:"runs"`
		} `json:"config"`
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	p := doc.Profiling
	if p.Inline || p.Runs != 40 || len(p.Profiles) != 6 || doc.Config.Runs != 30 {
		t.Fatalf("profiling %+v, config.runs %d", p, doc.Config.Runs)
	}
	if p.Profiles[0].Kind != "cpu" || len(p.Profiles[1].Top) == 0 {
		t.Errorf("cpu first with a top, heap with a top: %+v", p.Profiles[:2])
	}
}

func TestProfileInline(t *testing.T) {
	path := filepath.Join(t.TempDir(), "heap.pprof")
	code, stdout, stderr := gcperf(t, nil, "-size", "64", "-runs", "20", "-warmup", "0", "-memprofile", path, "-profile-inline")
	if code != 0 {
		t.Fatalf("exit %d; stderr:\n%s", code, stderr)
	}
	if !strings.Contains(stdout, "taken DURING the measured runs (-profile-inline)") {
		t.Errorf("the report does not say its figures were taken under a profiler:\n%s", stdout)
	}
	if strings.Contains(stderr, "separate pass") {
		t.Errorf("an inline profile ran a separate pass too:\n%s", stderr)
	}
	if _, err := os.Stat(path); err != nil {
		t.Error(err)
	}
}
