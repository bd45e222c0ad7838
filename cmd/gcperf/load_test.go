package main

import (
	"context"
	"fmt"
	"net"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/gcperf/gcperf/env"
)

// freePort is a loopback port nothing listens on (one that was free a
// moment ago).
func freePort(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return strconv.Itoa(l.Addr().(*net.TCPAddr).Port)
}

// Issue 24, item 32: -http on the address the http operation loads would
// have the operations load gcperf's own pprof server: refused, naming
// both flags, before anything runs.
func TestHTTPIsTheLoadedAddress(t *testing.T) {
	p := freePort(t)
	other := freePort(t)
	for _, tc := range []struct {
		http, url string
		refused   bool
	}{
		{"127.0.0.1:" + p, "http://127.0.0.1:" + p + "/", true},
		{"localhost:" + p, "http://127.0.0.1:" + p + "/x", true},
		{"127.0.0.1:" + p, "http://localhost:" + p + "/", true},
		{"0.0.0.0:" + p, "http://127.0.0.1:" + p + "/", true}, // with -http-public: every interface, loopback among them
		{"127.0.0.1:" + p, "http://127.0.0.1:" + other + "/", false},
		{"127.0.0.1:0", "http://127.0.0.1:" + p + "/", false},
	} {
		t.Run(tc.http+" "+tc.url, func(t *testing.T) {
			args := []string{"run", "-q", "-runs", "2", "-warmup", "0", "-http", tc.http}
			if strings.HasPrefix(tc.http, "0.0.0.0") {
				args = append(args, "-http-public")
			}
			code, stdout, stderr := gcperf(t, nil, append(args, "http", "-url", tc.url)...)
			if !tc.refused {
				if code == 2 {
					t.Errorf("exit 2: %s", stderr)
				}
				return
			}
			want := "gcperf: -http " + tc.http + ": the address -url " + tc.url + " loads: the operations would load gcperf's own pprof server, not the program under test\n"
			if code != 2 || stdout != "" || stderr != want {
				t.Errorf("exit %d, stdout %q, stderr %q; want exit 2 and %q", code, stdout, stderr, want)
			}
		})
	}
}

// Issue 24, item 8: runs whose records fit in memory but whose report
// does not are refused before they run, in one line naming -keep-runs and
// the format that needs the most: at -keep-runs of one run per 2,000 B
// available, the records take 280 B a run and the text report about 600,
// the JSON (with the collector's figures per run) about 4,500.
func TestKeepRunsReportTooLarge(t *testing.T) {
	keep := availableMemory(t) / 2000
	file := filepath.Join(t.TempDir(), "r.json")
	code, stdout, stderr := gcperf(t, nil, "run", "-q", "-duration", "1s", "-keep-runs", fmt.Sprint(keep), "-json", file, "noop")
	want := fmt.Sprintf("gcperf: -keep-runs %d: writing the report of %d kept runs needs ", keep, keep)
	if code != 2 || stdout != "" || !strings.HasPrefix(stderr, want) || !strings.Contains(stderr, "(for -json "+file+")") ||
		strings.Count(stderr, "\n") != 1 {
		t.Errorf("exit %d, stdout %q, stderr %q; want exit 2 and one line starting %q, naming -json", code, stdout, stderr, want)
	}
}

// Issue 24, item 20, on -ready too: a readiness URL that cannot be
// dialled is refused before the server starts, not after -ready-timeout.
func TestReadyURLChecked(t *testing.T) {
	for _, tc := range []struct{ ready, want string }{
		{"http://127.0.0.1:99999/", `gcperf: -ready "http://127.0.0.1:99999/": port 99999 is not from 1 to 65535` + "\n"},
		{"http://:8080/", `gcperf: -ready "http://:8080/": has no host` + "\n"},
	} {
		code, stdout, stderr := gcperf(t, nil, "run", "-q", "-runs", "2", "-ready", tc.ready, "-ready-timeout", "1m",
			"http", "-url", "http://127.0.0.1:9/", "--", "sleep", "2")
		if code != 2 || stdout != "" || stderr != tc.want {
			t.Errorf("-ready %s: exit %d, stdout %q, stderr %q; want exit 2 and %q", tc.ready, code, stdout, stderr, tc.want)
		}
	}
}

// Issue 24, item 8, with -count: the processes' results, which gcperf
// reads back and holds together to write the set's report, are counted
// before any process starts: -count 20 of runs whose report takes about a
// third of the memory available each is refused, naming -keep-runs and
// -count.
func TestCountResultsTooLarge(t *testing.T) {
	keep := availableMemory(t) / 2000
	code, stdout, stderr := gcperf(t, nil, "run", "-q", "-count", "20", "-duration", "1s", "-keep-runs", fmt.Sprint(keep), "noop")
	want := fmt.Sprintf("gcperf: -keep-runs %d: the results of -count 20 processes of %d kept runs each need ", keep, keep)
	if code != 2 || stdout != "" || !strings.HasPrefix(stderr, want) || strings.Count(stderr, "\n") != 1 {
		t.Errorf("exit %d, stdout %q, stderr %q; want exit 2 and one line starting %q", code, stdout, stderr, want)
	}
}

// availableMemory is the memory the check before the runs compares with;
// the test is skipped where there is none to read.
func availableMemory(t *testing.T) int64 {
	t.Helper()
	if runtime.GOOS != "linux" {
		t.Skip("the memory check reads /proc")
	}
	m, err := env.ReadMemory(context.Background(), "/")
	if err != nil {
		t.Skip(err)
	}
	return m.Available
}

// Issue 24, item 8, in a sweep: each point's process writes its result as
// JSON, whose memory is counted before the first point starts.
func TestSweepPointReportTooLarge(t *testing.T) {
	keep := availableMemory(t) / 2000
	code, stdout, stderr := gcperf(t, nil, "sweep", "-q", "-gogc", "50", "-duration", "1s", "-keep-runs", fmt.Sprint(keep),
		"-out", filepath.Join(t.TempDir(), "sw"), "noop")
	want := fmt.Sprintf("gcperf: -keep-runs %d: writing the report of %d kept runs needs ", keep, keep)
	if code != 2 || stdout != "" || !strings.HasPrefix(stderr, want) || !strings.Contains(stderr, "result.json)") ||
		strings.Count(stderr, "\n") != 1 {
		t.Errorf("exit %d, stdout %q, stderr %q; want exit 2 and one line starting %q, naming the points' JSON result", code, stdout, stderr, want)
	}
}
