package pprofhttp

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
)

func get(t *testing.T, url string) (int, string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, string(b)
}

func TestServe(t *testing.T) {
	s, err := Serve("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	base := "http://" + s.Addr()
	if code, body := get(t, base+"/debug/pprof/"); code != 200 || !strings.Contains(body, "goroutine") {
		t.Errorf("/debug/pprof/: %d\n%.200s", code, body)
	}
	if code, body := get(t, base+"/debug/pprof/heap?debug=1"); code != 200 || !strings.Contains(body, "heap profile") {
		t.Errorf("/debug/pprof/heap: %d\n%.200s", code, body)
	}
	code, body := get(t, base+"/debug/metrics")
	var m map[string]any
	if err := json.Unmarshal([]byte(body), &m); code != 200 || err != nil {
		t.Fatalf("/debug/metrics: %d, %v", code, err)
	}
	if _, ok := m["/gc/cycles/total:gc-cycles"].(float64); !ok {
		t.Errorf("/debug/metrics has no /gc/cycles/total:gc-cycles number")
	}
	if h, ok := m["/sched/pauses/total/gc:seconds"].(map[string]any); !ok || h["counts"] == nil {
		t.Errorf("/debug/metrics has no pause histogram: %v", m["/sched/pauses/total/gc:seconds"])
	}
	if code, _ := get(t, base+"/nosuch"); code != 404 {
		t.Errorf("/nosuch: %d, want 404", code)
	}

	// The address is taken while the server runs, and free after Close.
	if _, err := Serve(s.Addr()); err == nil {
		t.Errorf("a second server on %s started", s.Addr())
	}
	addr := s.Addr()
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := http.Get("http://" + addr + "/"); err == nil {
		t.Errorf("the server still answers after Close")
	}
}

// -http serves on loopback unless asked (issue 10, item 13).
func TestCheckAddr(t *testing.T) {
	tests := []struct {
		addr   string
		public bool
		err    error // nil: accepted; ErrNotLoopback; errAny: another error
	}{
		{"127.0.0.1:6060", false, nil},
		{"[::1]:6060", false, nil},
		{"localhost:0", false, nil},
		{"0.0.0.0:6060", false, ErrNotLoopback},
		{":6060", false, ErrNotLoopback},
		{"[::]:6060", false, ErrNotLoopback},
		{"10.1.2.3:6060", false, ErrNotLoopback},
		{"0.0.0.0:6060", true, nil},
		{":6060", true, nil},
		{"nope", false, errAny},
		{"nope", true, errAny},
	}
	for _, tt := range tests {
		err := CheckAddr(tt.addr, tt.public)
		switch {
		case tt.err == nil && err != nil, tt.err == ErrNotLoopback && !errors.Is(err, ErrNotLoopback),
			tt.err == errAny && (err == nil || errors.Is(err, ErrNotLoopback)):
			t.Errorf("CheckAddr(%q, %t) = %v, want %v", tt.addr, tt.public, err, tt.err)
		}
	}
}

var errAny = errors.New("any error but ErrNotLoopback")

func TestServeLocal(t *testing.T) {
	s, exposed, err := ServeLocal("127.0.0.1:0", false)
	if err != nil || exposed {
		t.Fatalf("ServeLocal on loopback: exposed %t, %v", exposed, err)
	}
	s.Close()
	// (Listening on every interface, even for a moment, is not for a test:
	// CheckAddr refuses those addresses before ServeLocal is reached.)
}
