package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strings"
	"testing"
	"time"
)

// small is a server small enough for tests: a 1 MiB cache.
func small(items, garbageKiB int) *server {
	return &server{cache: newCache(1, 1), items: items, garbage: garbageKiB << 10}
}

func TestItems(t *testing.T) {
	tests := []struct {
		name    string
		items   int
		garbage int // KiB
		target  string
		status  int
		firstID int // of the first item; -1: any
	}{
		{"random", 8, 32, "/", http.StatusOK, -1},
		{"one item, no garbage", 1, 0, "/", http.StatusOK, -1},
		{"by id", 3, 4, "/item?id=5", http.StatusOK, 5},
		{"by id, wrapping", 4, 4, "/item?id=1487", http.StatusOK, 1487}, // of 1489 entries
		{"id out of range", 4, 4, "/item?id=99999999", http.StatusBadRequest, 0},
		{"id not a number", 4, 4, "/item?id=x", http.StatusBadRequest, 0},
		{"no id", 4, 4, "/item", http.StatusBadRequest, 0},
		{"unknown path", 4, 4, "/nosuch", http.StatusNotFound, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := small(tt.items, tt.garbage)
			if n := len(s.cache.entries); tt.firstID >= n {
				t.Fatalf("the test's id %d is past the cache's %d entries", tt.firstID, n)
			}
			rec := httptest.NewRecorder()
			s.handler().ServeHTTP(rec, httptest.NewRequest("GET", tt.target, nil))
			if rec.Code != tt.status {
				t.Fatalf("GET %s: status %d, want %d; body %q", tt.target, rec.Code, tt.status, rec.Body.String())
			}
			if tt.status != http.StatusOK {
				return
			}
			if ct := rec.Header().Get("Content-Type"); ct != "application/json" {
				t.Errorf("Content-Type %q, want application/json", ct)
			}
			var resp response
			if err := json.Unmarshal(rec.Body.Bytes(), &resp); err != nil {
				t.Fatalf("body does not parse: %v", err)
			}
			if len(resp.Items) != tt.items {
				t.Fatalf("%d items, want %d", len(resp.Items), tt.items)
			}
			if resp.Garbage != tt.garbage<<10 || resp.Request != 1 {
				t.Errorf("garbage_bytes %d, request %d: want %d, 1", resp.Garbage, resp.Request, tt.garbage<<10)
			}
			n := len(s.cache.entries)
			for i, it := range resp.Items {
				if tt.firstID >= 0 && it.ID != (tt.firstID+i)%n {
					t.Errorf("item %d: id %d, want %d", i, it.ID, (tt.firstID+i)%n)
				}
				if it.Name == "" || len(it.Tags) != tagsPer || len(it.Attrs) != len(attrKeys) || it.Summary == "" || it.Updated.IsZero() {
					t.Errorf("item %d is not complete: %+v", i, it)
				}
			}
		})
	}
}

// TestChurn checks that requests replace entries, every replaceEvery-th
// one, with fresh versions.
func TestChurn(t *testing.T) {
	s := small(1, 0)
	h := s.handler()
	const requests = 400
	for range requests {
		h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", "/", nil))
	}
	var versions uint64
	for i := range s.cache.entries {
		versions += s.cache.entries[i].Load().version
	}
	if versions != requests/replaceEvery {
		t.Errorf("%d replacements after %d requests, want %d", versions, requests, requests/replaceEvery)
	}
}

func TestHealthz(t *testing.T) {
	rec := httptest.NewRecorder()
	small(1, 0).handler().ServeHTTP(rec, httptest.NewRequest("GET", "/healthz", nil))
	if rec.Code != http.StatusOK || rec.Body.String() != "ok" {
		t.Errorf("GET /healthz: %d %q, want 200 \"ok\"", rec.Code, rec.Body.String())
	}
}

// TestDebugGC checks that /debug/gc reports the settings the runtime
// applied, set here through runtime/debug.
func TestDebugGC(t *testing.T) {
	tests := []struct {
		gogc      int
		limit     int64
		wantGOGC  string
		wantLimit string
	}{
		{50, math.MaxInt64, "50", "off"},
		{400, 128 << 20, "400", "128MiB"},
		{-1, 1 << 30, "off", "1GiB"},
	}
	h := small(1, 0).handler()
	for _, tt := range tests {
		t.Run(tt.wantGOGC+"/"+tt.wantLimit, func(t *testing.T) {
			oldGOGC := debug.SetGCPercent(tt.gogc)
			oldLimit := debug.SetMemoryLimit(tt.limit)
			defer func() {
				debug.SetGCPercent(oldGOGC)
				debug.SetMemoryLimit(oldLimit)
			}()
			runtime.GC()
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, httptest.NewRequest("GET", "/debug/gc", nil))
			var g gcStatus
			if err := json.Unmarshal(rec.Body.Bytes(), &g); err != nil {
				t.Fatalf("body %q does not parse: %v", rec.Body.String(), err)
			}
			if g.GOGC != int64(tt.gogc) || g.GOGCText != tt.wantGOGC {
				t.Errorf("gogc %d (%q), want %d (%q)", g.GOGC, g.GOGCText, tt.gogc, tt.wantGOGC)
			}
			if g.GOMEMLIMIT != tt.limit || g.GOMEMLIMITTxt != tt.wantLimit {
				t.Errorf("gomemlimit %d (%q), want %d (%q)", g.GOMEMLIMIT, g.GOMEMLIMITTxt, tt.limit, tt.wantLimit)
			}
			if g.Cycles == 0 || g.HeapLive == 0 {
				t.Errorf("gc_cycles %d, heap_live_bytes %d: want both > 0 after a GC", g.Cycles, g.HeapLive)
			}
		})
	}
}

func TestRunRefusesBadFlags(t *testing.T) {
	tests := []struct {
		args []string
		want []string // in the one line of stderr
	}{
		{[]string{"-live", "0"}, []string{"-live", "0"}},
		{[]string{"-live", "big"}, []string{"-live", "big"}},
		{[]string{"-live", "100000"}, []string{"-live", "100000"}},
		{[]string{"-items", "0"}, []string{"-items", "0"}},
		{[]string{"-items", "20000"}, []string{"-items", "20000"}},
		{[]string{"-garbage", "-1"}, []string{"-garbage", "-1"}},
		{[]string{"-seed", "-1"}, []string{"-seed", "-1"}},
		{[]string{"-addr", "8090"}, []string{"-addr", "8090"}},
		{[]string{"-nosuch"}, []string{"-nosuch"}},
		{[]string{"extra"}, []string{"extra"}},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			var stderr bytes.Buffer
			if code := run(t.Context(), tt.args, &stderr); code != 2 {
				t.Errorf("exit status %d, want 2", code)
			}
			line, ok := strings.CutSuffix(stderr.String(), "\n")
			if !ok || strings.Contains(line, "\n") {
				t.Fatalf("stderr is not one line: %q", stderr.String())
			}
			for _, w := range tt.want {
				if !strings.Contains(line, w) {
					t.Errorf("stderr %q does not name %q", line, w)
				}
			}
		})
	}
}

func TestRunHelp(t *testing.T) {
	var stderr bytes.Buffer
	if code := run(t.Context(), []string{"-h"}, &stderr); code != 0 {
		t.Errorf("-h: exit status %d, want 0", code)
	}
	if !strings.Contains(stderr.String(), "-live MiB") {
		t.Errorf("-h: stderr %q: want the usage", stderr.String())
	}
}

// TestRunServes starts the program on a free port, requests each endpoint
// over HTTP, stops it as a signal would and checks its two lines.
func TestRunServes(t *testing.T) {
	goroutines := runtime.NumGoroutine()
	ctx, stop := context.WithCancel(t.Context())
	defer stop()
	pr, pw := io.Pipe()
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, []string{"-addr", "127.0.0.1:0", "-live", "1", "-items", "2", "-garbage", "1"}, pw)
		pw.Close()
	}()
	lines := bufio.NewScanner(pr)
	if !lines.Scan() {
		t.Fatalf("no line on stderr: %v", lines.Err())
	}
	addr, ok := strings.CutPrefix(lines.Text(), "server: listening on ")
	if !ok {
		t.Fatalf("first line %q, want \"server: listening on ADDR\"", lines.Text())
	}
	// The rest of stderr, read meanwhile so that run never blocks on it.
	rest := make(chan []string, 1)
	go func() {
		var l []string
		for lines.Scan() {
			l = append(l, lines.Text())
		}
		rest <- l
	}()

	// No retries: the listener is bound before the line is printed.
	client := &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{}}
	defer client.CloseIdleConnections()
	for _, tt := range []struct {
		path   string
		status int
		want   string // in the body
	}{
		{"/", http.StatusOK, `"items":[`},
		{"/item?id=3", http.StatusOK, `"id":3,`},
		{"/item?id=-3", http.StatusBadRequest, "id: "}, // not counted
		{"/healthz", http.StatusOK, "ok"},
		{"/debug/gc", http.StatusOK, `"gogc":`},
	} {
		resp, err := client.Get("http://" + addr + tt.path)
		if err != nil {
			t.Fatal(err)
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil || resp.StatusCode != tt.status || !bytes.Contains(body, []byte(tt.want)) {
			t.Errorf("GET %s: %d %q (%v), want %d and %q in the body", tt.path, resp.StatusCode, body, err, tt.status, tt.want)
		}
	}

	stop()
	select {
	case code := <-done:
		if code != 0 {
			t.Errorf("exit status %d after the stop, want 0", code)
		}
	case <-time.After(shutdownTimeout + 3*time.Second):
		t.Fatal("run did not return after the stop")
	}
	l := <-rest
	if len(l) != 1 || !strings.HasPrefix(l[0], "server: stopped after 2 requests, ") || !strings.HasSuffix(l[0], " GC cycles") {
		t.Errorf("after the first line, stderr %q: want one \"server: stopped after 2 requests, N GC cycles\"", l)
	}
	if _, err := client.Get("http://" + addr + "/healthz"); err == nil {
		t.Error("the server still answers after the stop")
	}
	// Nothing of the server left running: its goroutines end with it (the
	// connections' ones as they notice the close).
	client.CloseIdleConnections()
	for deadline := time.Now().Add(2 * time.Second); runtime.NumGoroutine() > goroutines; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<16)
			t.Fatalf("%d goroutines after the stop, %d before:\n%s", runtime.NumGoroutine(), goroutines, buf[:runtime.Stack(buf, true)])
		}
	}
}

// TestRunPortInUse checks that a port it cannot bind is status 1, one line.
func TestRunPortInUse(t *testing.T) {
	ts := httptest.NewServer(http.NotFoundHandler())
	defer ts.Close()
	var stderr bytes.Buffer
	if code := run(t.Context(), []string{"-addr", ts.Listener.Addr().String(), "-live", "1"}, &stderr); code != 1 {
		t.Errorf("exit status %d, want 1", code)
	}
	if line, ok := strings.CutSuffix(stderr.String(), "\n"); !ok || strings.Contains(line, "\n") || !strings.Contains(line, ts.Listener.Addr().String()) {
		t.Errorf("stderr %q: want one line naming the address", stderr.String())
	}
}

// TestLiveHeap checks that the cache holds about -live MiB, filled and
// after churn.
func TestLiveHeap(t *testing.T) {
	for _, liveMiB := range []int{4, 16} {
		base := liveHeap()
		s := &server{cache: newCache(liveMiB, 1), items: 8, garbage: 4 << 10}
		check := func(when string) {
			t.Helper()
			got := float64(liveHeap()-base) / (1 << 20)
			t.Logf("-live %d, %s: live heap %.2f MiB", liveMiB, when, got)
			if got < 0.8*float64(liveMiB) || got > 1.25*float64(liveMiB) {
				t.Errorf("-live %d, %s: live heap %.1f MiB, want within 0.8× to 1.25×", liveMiB, when, got)
			}
		}
		check("filled")
		h := s.handler()
		for range len(s.cache.entries) / 4 { // a sixteenth of the entries replaced
			h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", "/", nil))
		}
		check("after churn")
		runtime.KeepAlive(s)
	}
}

// liveHeap collects and returns the live heap's size.
func liveHeap() uint64 {
	runtime.GC()
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

func TestBytesText(t *testing.T) {
	for n, want := range map[uint64]string{
		256 << 20: "256MiB", 1 << 30: "1GiB", 3 << 10: "3KiB", 1000: "1000B", 1<<20 + 1: "1048577B",
	} {
		if got := bytesText(n); got != want {
			t.Errorf("bytesText(%d) = %q, want %q", n, got, want)
		}
	}
}

// BenchmarkItems measures GET / with the default flags but a small cache,
// without the network: the handler's own CPU and allocation per request.
func BenchmarkItems(b *testing.B) {
	s := &server{cache: newCache(8, 1), items: 8, garbage: 64 << 10}
	h := s.handler()
	req := httptest.NewRequest("GET", "/", nil)
	b.ReportAllocs()
	for b.Loop() {
		h.ServeHTTP(httptest.NewRecorder(), req)
	}
}
