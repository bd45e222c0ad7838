// Command vegetacmp compares gcperf's http operation, run open loop by
// gcperf's engine, with vegeta's attacker (github.com/tsenart/vegeta/v12),
// at the same rates for the same duration, against a trivial Go HTTP
// server on loopback: the highest rate each sustains without falling
// behind its schedule, their latencies, and what each client allocates
// per request.
//
// The server runs in a child process (this program with -serve), so that
// neither client shares a Go heap or a scheduler with it and the
// allocations counted are the client's alone. It lives in its own module
// so that vegeta stays out of gcperf's go.mod.
//
//	go run . -rates 1000,2000,5000,10000,20000 -duration 5s
package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/gcperf/gcperf/load"
	"github.com/gcperf/gcperf/workload"
	vegeta "github.com/tsenart/vegeta/v12/lib"
)

func main() {
	serve := flag.Bool("serve", false, "run the trivial server (the child process): print its address, stop when stdin closes")
	rates := flag.String("rates", "1000,2000,5000,10000,20000", "the rates compared, requests per second, comma-separated")
	duration := flag.Duration("duration", 5*time.Second, "how long each client runs at each rate")
	threads := flag.Int("threads", 2, "gcperf's goroutines (each with its own keep-alive connection)")
	workers := flag.Uint64("workers", vegeta.DefaultWorkers, "vegeta's initial workers (it adds more when behind)")
	flag.Parse()
	if *serve {
		runServer()
		return
	}
	var rs []float64
	for _, f := range strings.Split(*rates, ",") {
		r, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
		if err != nil || r <= 0 {
			fmt.Fprintf(os.Stderr, "vegetacmp: -rates: %q is not a positive rate\n", f)
			os.Exit(2)
		}
		rs = append(rs, r)
	}
	if err := compare(rs, *duration, *threads, *workers); err != nil {
		fmt.Fprintln(os.Stderr, "vegetacmp:", err)
		os.Exit(1)
	}
}

// runServer answers every request with "hello\n" until its stdin closes
// (the parent exited) or an hour has passed.
func runServer() {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, "vegetacmp -serve:", err)
		os.Exit(1)
	}
	fmt.Println(ln.Addr())
	go func() {
		_, _ = io.Copy(io.Discard, os.Stdin)
		os.Exit(0)
	}()
	go func() {
		time.Sleep(time.Hour)
		os.Exit(0)
	}()
	_ = http.Serve(ln, http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		_, _ = io.WriteString(w, "hello\n")
	}))
}

// startServer starts this program with -serve and returns the URL it serves.
func startServer() (string, func(), error) {
	self, err := os.Executable()
	if err != nil {
		return "", nil, err
	}
	cmd := exec.Command(self, "-serve")
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return "", nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return "", nil, err
	}
	if err := cmd.Start(); err != nil {
		return "", nil, err
	}
	stop := func() {
		stdin.Close()
		_ = cmd.Wait()
	}
	addr, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		stop()
		return "", nil, fmt.Errorf("the server child printed no address: %v", err)
	}
	return "http://" + strings.TrimSpace(addr) + "/", stop, nil
}

// row is one client at one rate.
type row struct {
	tool           string
	asked          float64
	achieved       float64
	keptUp         bool
	p50, p99, p99c time.Duration // p99c: from the intended start (gcperf only)
	requests       int64
	errors         int64
	bytesPerReq    float64
	allocsPerReq   float64
}

func compare(rates []float64, d time.Duration, threads int, workers uint64) error {
	url, stop, err := startServer()
	if err != nil {
		return err
	}
	defer stop()
	fmt.Printf("server: %s (a child process), %d CPUs, GOMAXPROCS %d, %s, each client %v at each rate\n",
		url, runtime.NumCPU(), runtime.GOMAXPROCS(0), runtime.Version(), d)
	fmt.Printf("gcperf: http op, open loop, %d goroutines; vegeta: %d initial workers, keep-alive\n\n", threads, workers)
	var rows []row
	for _, r := range rates {
		for _, f := range []func(string, float64, time.Duration) (row, error){
			func(u string, r float64, d time.Duration) (row, error) { return runGcperf(u, r, d, threads) },
			func(u string, r float64, d time.Duration) (row, error) { return runVegeta(u, r, d, workers) },
		} {
			runtime.GC()
			x, err := f(url, r, d)
			if err != nil {
				return err
			}
			fmt.Fprintf(os.Stderr, "%s at %.0f/s: %.0f/s, P99 %v\n", x.tool, x.asked, x.achieved, x.p99)
			rows = append(rows, x)
		}
	}
	tw := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "rate asked/s\tclient\tachieved/s\tkept up\tP50\tP99\tP99 from intended start\trequests\terrors\tB/req\tallocs/req\t")
	for _, x := range rows {
		{
			p99c := "-"
			if x.p99c > 0 {
				p99c = x.p99c.Round(time.Microsecond).String()
			}
			fmt.Fprintf(tw, "%.0f\t%s\t%.0f\t%s\t%v\t%v\t%s\t%d\t%d\t%.0f\t%.1f\t\n", x.asked, x.tool, x.achieved, yesNo(x.keptUp),
				x.p50.Round(time.Microsecond), x.p99.Round(time.Microsecond), p99c, x.requests, x.errors, x.bytesPerReq, x.allocsPerReq)
		}
	}
	return tw.Flush()
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "NO"
}

// runGcperf runs the http operation through gcperf's engine, open loop at
// rate for d. Kept up: the engine's own verdict (OpenLoop.Behind: achieved
// below 95% of the rate). Allocations: the engine's count over the timed
// runs (runtime/metrics), operations and harness together; the harness
// allocates nothing there.
func runGcperf(url string, rate float64, d time.Duration, threads int) (row, error) {
	op, err := load.NewHTTP(load.HTTPConfig{URL: url})
	if err != nil {
		return row{}, err
	}
	cfg := workload.DefaultConfig()
	cfg.Warmups, cfg.Runs, cfg.Outliers, cfg.Threads, cfg.Seed = 200, 0, 0, threads, 1
	cfg.Rate, cfg.Duration = rate, d
	cfg.Timeout = 10 * time.Second
	cfg.GCStats = workload.GCStatsTotal
	res, err := workload.Run(context.Background(), cfg, workload.Mix{op})
	if err != nil {
		return row{}, err
	}
	o := res.Operations[0]
	n := o.Stats.Runs
	x := row{
		tool: "gcperf", asked: rate, achieved: res.OpenLoop.Achieved, keptUp: !res.OpenLoop.Behind,
		p50: o.Stats.Runtime.Percentiles.P50, p99: o.Stats.Runtime.Percentiles.P99, p99c: o.CorrectedPercentiles.P99,
		requests: n, errors: o.Stats.Errors,
	}
	if n > 0 {
		x.bytesPerReq = float64(res.HeapAllocBytes) / float64(n)
		x.allocsPerReq = float64(res.HeapAllocObjects) / float64(n)
	}
	return x, nil
}

// runVegeta attacks at rate for d with vegeta's library: a new attacker,
// which opens its connections as the attack starts (an attacker cannot
// attack twice, so there is no warmup to keep them from). Kept up: its rate of requests sent at
// least 95% of the rate asked, as gcperf judges. Allocations: the process's
// (runtime.MemStats) over the attack, the results kept in a slice made
// before it; the metrics are computed after it.
func runVegeta(url string, rate float64, d time.Duration, workers uint64) (row, error) {
	// vegeta's own client, as NewAttacker makes it, but ours to close: an
	// attacker cannot close its idle connections, and those of one rate
	// would stay open on the server through the next.
	tr := &http.Transport{
		Proxy:               http.ProxyFromEnvironment,
		DialContext:         (&net.Dialer{LocalAddr: &net.TCPAddr{IP: vegeta.DefaultLocalAddr.IP}, KeepAlive: 30 * time.Second}).DialContext,
		TLSClientConfig:     vegeta.DefaultTLSConfig,
		MaxIdleConnsPerHost: vegeta.DefaultConnections,
		MaxConnsPerHost:     vegeta.DefaultMaxConnections,
	}
	defer tr.CloseIdleConnections()
	a := vegeta.NewAttacker(vegeta.Client(&http.Client{Transport: tr}), vegeta.KeepAlive(true), vegeta.Workers(workers), vegeta.Timeout(10*time.Second))
	tgt := vegeta.NewStaticTargeter(vegeta.Target{Method: http.MethodGet, URL: url})
	pace := vegeta.Rate{Freq: int(rate), Per: time.Second}
	results := make([]*vegeta.Result, 0, int(rate*d.Seconds())+1024)
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for res := range a.Attack(tgt, pace, d, "attack") {
		results = append(results, res)
	}
	runtime.ReadMemStats(&after)
	var m vegeta.Metrics
	for _, res := range results {
		m.Add(res)
	}
	m.Close()
	n := int64(m.Requests)
	x := row{
		tool: "vegeta", asked: rate, achieved: m.Rate, keptUp: m.Rate >= 0.95*rate,
		p50: m.Latencies.P50, p99: m.Latencies.P99,
		requests: n, errors: n - int64(m.Success*float64(n)+0.5),
	}
	if n > 0 {
		x.bytesPerReq = float64(after.TotalAlloc-before.TotalAlloc) / float64(n)
		x.allocsPerReq = float64(after.Mallocs-before.Mallocs) / float64(n)
	}
	return x, nil
}
