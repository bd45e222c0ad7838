package main

import (
	"net"
	"strconv"
	"strings"
	"testing"
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
