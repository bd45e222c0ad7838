// Command server is a small HTTP service whose tail latency and memory
// depend on GOGC and GOMEMLIMIT, for tuning with gcperf: it keeps a cache
// of a chosen size live and answers each request with JSON built from
// several cached entries, plus some short-lived garbage.
//
// # What it does
//
// At start it fills a cache with about -live MiB of pointer-rich entries:
// each entry is a struct holding a name, a slice of 6 tag strings and a
// map of 4 attributes, about 0.7 KiB and 16 heap objects, so that marking
// the cache is real work for the collector. Then it listens on -addr
// (loopback by default) and serves:
//
//	GET /           -items random entries as JSON
//	GET /item?id=N  entry N and the -items-1 after it, as JSON
//	GET /debug/gc   the collector's settings and state, as JSON
//	GET /healthz    200 "ok"
//
// A request for items copies each entry into a response struct (its tags,
// its map, a summary string), allocates -garbage KiB of short-lived
// scratch buffers in a linked list, and encodes the response with
// encoding/json; every 4th request also replaces a random entry with a
// fresh version, so the live heap churns but stays about -live MiB. The
// cache's contents and the requests' choices come from -seed.
//
// /debug/gc reports what the runtime applied, read from runtime/metrics:
//
//	{"gogc":100,"gogc_env":"100","gomemlimit":134217728,"gomemlimit_env":"128MiB","gc_cycles":42,"heap_live_bytes":70254592}
//
// gogc is -1 when GOGC=off, gomemlimit 9223372036854775807 when there is
// no limit; gc_cycles are the cycles completed since the start and
// heap_live_bytes the heap the last cycle marked. Use it to check that
// GOGC and GOMEMLIMIT reached the server and not only the load generator.
//
// The server prints "server: listening on ADDR" to stderr once its
// listener is bound (with -addr 127.0.0.1:0, ADDR has the port it got), so
// a request sent after that line is answered. On SIGTERM or SIGINT it
// stops accepting, lets requests in flight finish (2 s at most), prints
// "server: stopped after N requests, M GC cycles" (N counts the requests
// for items it answered) and exits 0. A bad flag
// is one line on stderr and exit status 2; a port it cannot bind, 1.
//
// # Why GOGC and GOMEMLIMIT move its P99 and RSS
//
// Nearly all that a request allocates is garbage once it is answered,
// while the cache stays live. The collector starts a cycle when the heap
// reaches its goal, live heap × (1 + GOGC/100), capped by GOMEMLIMIT; each
// cycle marks the whole cache again. With a fixed live heap, GOGC thus
// sets how often the collector runs, and so how much of the time requests
// run beside a mark phase: the collector takes a quarter of the CPU for
// its background workers plus any idle core, requests that allocate
// during the mark are made to help it (assists) and pay the write
// barrier, and on a small machine the load generator and the server's own
// goroutines wait for the cores the collector holds. A low GOGC means
// many cycles, more CPU for the collector and more requests slowed by a
// mark, for a small heap; a high GOGC few cycles and a fast tail, for a
// heap and RSS that grow to about (1 + GOGC/100) times the cache.
// GOMEMLIMIT with GOGC=off lets the heap grow to the limit and then
// collects as often as it must to stay below it: close to the limit,
// cycles are frequent; a limit below the live heap would collect without
// end.
//
// # Tuning it with gcperf
//
// Build it, then measure one setting, with gcperf starting the server,
// waiting for it, and sending 2000 requests per second for 10 seconds:
//
//	go build -o server ./examples/server
//	gcperf run -rate 2000/s -duration 10s http -url http://127.0.0.1:8090/ -- ./server -addr 127.0.0.1:8090
//
// Then sweep GOGC and GOMEMLIMIT, three runs each, against an SLO on the
// P99 latency; gcperf names the setting with the lowest peak RSS that
// meets it:
//
//	gcperf sweep -gogc 50,100,200,400 -memlimit off,128MiB -count 3 -rate 2000/s -duration 10s -slo p99=5ms -out server-sweep/ http -url http://127.0.0.1:8090/ -- ./server -addr 127.0.0.1:8090
//
// The -out directory holds sweep.html, the sweep as a page with its
// charts; gcperf run -html FILE writes the same page for one run.
// Without gcperf, GODEBUG=gctrace=1 ./server prints a "gc N @" line per
// cycle, /usr/bin/time -v its max RSS, and any HTTP load generator gives
// the latency.
//
// # Measured
//
// With the defaults (-live 64 -items 8 -garbage 64), a request allocates
// about 81 KiB and costs the server about 0.2 ms of CPU, network
// included: 2000 requests per second take about 40% of one core at
// GOGC=100. Measured on a 2-core machine shared with other work (load
// average 4 to 12), the client an open-loop Go loop on the same machine
// sending 2000 requests per second for 10 s over 64 connections, the
// latency counted from each request's scheduled start; GODEBUG=gctrace=1
// for the cycles during the load, /usr/bin/time -v for the max RSS and
// the server's CPU (its 0.2 s start included); medians of 5 runs:
//
//	                             cycles   max RSS   CPU     P99
//	GOGC=50                          48   134 MiB   5.0 s   62 ms
//	GOGC=100                         24   185 MiB   4.2 s   52 ms
//	GOGC=200                         12   244 MiB   4.3 s   25 ms
//	GOGC=400                          5   397 MiB   4.0 s   7.7 ms
//	GOGC=off GOMEMLIMIT=128MiB       57   130 MiB   5.6 s   30 ms
//
// The cycles halve and the RSS grows with each doubling of GOGC, while
// the P99 falls: the best of the 5 runs went from 18 ms at GOGC=50 to
// 6.4 ms at GOGC=400. The 128 MiB limit holds the RSS at GOGC=50's for
// more cycles than GOGC=50, as the heap sits at the limit. The P99s move
// with the machine's other load (at every setting, one or two runs in five
// exceeded 200 ms): compare settings over several runs, as gcperf sweep -count
// does, on a machine as quiet as you can get, and set the SLO from what
// you measure there.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"runtime"
	"syscall"
	"time"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	code := run(ctx, os.Args[1:], os.Stderr)
	stop()
	os.Exit(code)
}

// shutdownTimeout bounds how long a stop waits for requests in flight.
const shutdownTimeout = 2 * time.Second

// config holds the flags.
type config struct {
	addr       string
	liveMiB    int
	items      int
	garbageKiB int
	seed       uint64
}

// parseFlags reads args into a config. Its error is one line naming the
// flag and its value; flag.ErrHelp after -h (the usage written to stderr).
func parseFlags(args []string, stderr io.Writer) (config, error) {
	var c config
	fs := flag.NewFlagSet("server", flag.ContinueOnError)
	fs.SetOutput(io.Discard) // the error is ours to write, in one line
	fs.StringVar(&c.addr, "addr", "127.0.0.1:8090", "listen on `host:port` (port 0: any free port, printed)")
	fs.IntVar(&c.liveMiB, "live", 64, "keep a cache of about `MiB` mebibytes live")
	fs.IntVar(&c.items, "items", 8, "each response shows `n` cache entries")
	fs.IntVar(&c.garbageKiB, "garbage", 64, "each request also allocates `KiB` kibibytes of short-lived objects")
	fs.Uint64Var(&c.seed, "seed", 1, "seed of the cache's contents and of the requests' random choices")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fs.SetOutput(stderr)
			fmt.Fprintln(stderr, "usage: server [flags]\n\nAn HTTP service keeping a cache of -live MiB; GET /, /item?id=N, /debug/gc, /healthz.\n\nFlags:")
			fs.PrintDefaults()
		}
		return c, err
	}
	if fs.NArg() > 0 {
		return c, fmt.Errorf("unexpected argument %q (flags only)", fs.Arg(0))
	}
	if _, _, err := net.SplitHostPort(c.addr); err != nil {
		return c, fmt.Errorf("-addr %q: want host:port", c.addr)
	}
	// The upper bounds keep the sizes' arithmetic far from overflow and a
	// typo from asking for a terabyte.
	for _, f := range []struct {
		name     string
		value    int
		min, max int
		unit     string
	}{
		{"live", c.liveMiB, 1, 1 << 16, " (64 GiB)"},
		{"items", c.items, 1, 10000, ""},
		{"garbage", c.garbageKiB, 0, 1 << 16, " (64 MiB)"},
	} {
		if f.value < f.min {
			return c, fmt.Errorf("-%s %d: must be at least %d", f.name, f.value, f.min)
		}
		if f.value > f.max {
			return c, fmt.Errorf("-%s %d: must be at most %d%s", f.name, f.value, f.max, f.unit)
		}
	}
	return c, nil
}

// run is the program: main calls it with the process's arguments and exits
// with its status, 0 after a stop (ctx done), 1 if it cannot serve, 2 for
// a bad flag. It prints "server: listening on ADDR" to stderr once the
// listener is bound, and one line when it stops.
func run(ctx context.Context, args []string, stderr io.Writer) int {
	c, err := parseFlags(args, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if err != nil {
		fmt.Fprintf(stderr, "server: %v\n", err)
		return 2
	}

	s := &server{cache: newCache(c.liveMiB, c.seed), items: c.items, garbage: c.garbageKiB << 10}
	ln, err := net.Listen("tcp", c.addr)
	if err != nil {
		fmt.Fprintf(stderr, "server: %v\n", err)
		return 1
	}
	srv := &http.Server{Handler: s.handler(), ReadHeaderTimeout: 10 * time.Second}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	fmt.Fprintf(stderr, "server: listening on %s\n", ln.Addr())

	code := 0
	select {
	case err := <-served: // Serve failed by itself
		fmt.Fprintf(stderr, "server: %v\n", err)
		code = 1
	case <-ctx.Done():
		sctx, cancel := context.WithTimeout(context.Background(), shutdownTimeout)
		if err := srv.Shutdown(sctx); err != nil {
			srv.Close() // the requests still in flight after the timeout
		}
		cancel()
		<-served // http.ErrServerClosed
	}
	runtime.KeepAlive(s.cache)
	fmt.Fprintf(stderr, "server: stopped after %d requests, %d GC cycles\n", s.cache.served.Load(), readGC().Cycles)
	return code
}
