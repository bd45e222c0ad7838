package profiles

import (
	"encoding/json"
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
