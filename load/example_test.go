package load_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"time"

	"github.com/gcperf/gcperf/load"
	"github.com/gcperf/gcperf/workload"
)

// Build the http operation and run it through the engine, open loop: 200
// requests a second for half a second, on two goroutines (each with its own
// kept-alive connection).
func Example() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "pong\n")
	}))
	defer srv.Close()

	op, err := load.NewHTTP(load.HTTPConfig{
		URL:    srv.URL + "/ping",
		Header: http.Header{"Accept": {"text/plain"}},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	// The same from text, as gcperf run http -url URL -header 'Accept: text/plain' builds it:
	//	op, err := workload.New("http", map[string]string{"url": srv.URL + "/ping", "header": "Accept: text/plain"})

	cfg := workload.DefaultConfig()
	cfg.Warmups, cfg.Runs, cfg.Outliers, cfg.Threads = 10, 0, 0, 2
	cfg.Rate, cfg.Duration = 200, 500*time.Millisecond
	cfg.Timeout = time.Second // per request: past it, a failure of category timeout
	res, err := workload.Run(context.Background(), cfg, workload.Mix{op})
	if err != nil {
		fmt.Println(err)
		return
	}
	s := res.Operations[0].Stats
	// The requests due within the 500ms: made, or skipped by a machine too
	// busy to keep the schedule (the timed runs end at Duration).
	fmt.Printf("%d %s due, %d failed\n", s.Results+res.OpenLoop.SkippedStarts, res.Operations[0].Unit, s.Errors)
	fmt.Println("response time before runtime:", s.Response.Percentiles.P50 <= s.Runtime.Percentiles.P50)
	// Output:
	// 100 requests due, 0 failed
	// response time before runtime: true
}
