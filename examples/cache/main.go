// Command cache is a small in-memory cache service whose garbage collector
// you can tune with gcperf: it keeps a live heap of a chosen size and serves
// simulated requests that allocate short-lived garbage, then prints each
// request's latency figures in the Go benchmark format.
//
// # What it does
//
// At start it fills a cache (a map from string keys to entries) with about
// -live MiB of pointer-rich entries: each entry is a struct holding a key,
// a slice of -tags small strings and a 576-byte payload, about 1 KiB and
// eleven heap objects in all, so marking the live heap is real work. Then
// it serves -requests requests, one after the other (or spread over
// -workers goroutines). A request looks up -lookups random entries, builds
// a JSON-ish response of about -garbage KiB (a linked list of small field
// structs, each with a copy of part of an entry's payload, and a byte slice
// of the rendered text) and replaces -replace random entries with fresh
// ones, so the live heap churns but stays the same size. Each request is
// timed with time.Now and time.Since (the monotonic clock). All randomness
// comes from -seed, so a run is repeatable.
//
// # Why its collector depends on GOGC and GOMEMLIMIT
//
// Almost everything a request allocates is garbage by the time the next
// request starts, while the cache stays live. The collector starts a cycle
// when the heap reaches its goal, live heap × (1 + GOGC/100), capped by
// GOMEMLIMIT, so with a fixed live heap GOGC sets how much garbage
// accumulates between cycles: GOGC=25 collects about every 16 MiB of
// garbage at -live 64, GOGC=400 about every 256 MiB, and each cycle marks
// the whole cache again. A higher GOGC thus means fewer cycles, less
// collector CPU and fewer requests slowed by marking (assists, write
// barriers, the cores the collector takes), for a larger peak heap and
// RSS. GOGC=off never collects: the heap grows by everything the run
// allocates (0.8 GiB with the defaults, see below). With
// GOMEMLIMIT=256MiB and GOGC=off the collector stays idle until the heap
// nears the limit, then collects just enough to stay below it: a few
// cycles, and a peak RSS near the limit.
//
// # Running it with gcperf
//
//	go build -o cache ./examples/cache
//	gcperf exec -- ./cache
//	gcperf exec -gogc off -memlimit 256MiB -- ./cache
//	gcperf sweep -gogc 25,100,400,off -memlimit off,256MiB -count 3 -slo p99-ns=150us -- ./cache
//
// gcperf exec runs it once with gctrace on and reports its cycles, pauses
// and peak RSS; gcperf sweep runs it over the grid and names the setting
// with the lowest peak RSS that meets the SLO. Choose the bound from runs
// on your machine: on a shared 2-core machine the defaults gave a P99 of
// about 170µs at GOGC=25 and 85-110µs from GOGC=100 up, so p99-ns=150us
// (a bound on the p99-ns metric it prints) rules out GOGC=25 alone.
// Without gcperf, GODEBUG=gctrace=1 ./cache prints a
// "gc N @" line per cycle (those of filling the cache included: about 5
// at GOGC=100), and /usr/bin/time -v its max RSS. Measured there with the
// defaults (gctrace's cycles, max RSS):
//
//	GOGC=25                      59 cycles    94 MiB
//	GOGC=100                     17 cycles   150 MiB
//	GOGC=400                      4 cycles   365 MiB
//	GOGC=off                      0 cycles   828 MiB
//	GOGC=off GOMEMLIMIT=256MiB    5 cycles   246 MiB
//
// # Output
//
// stdout has one result in the Go benchmark format, which benchstat and
// gcperf compare read:
//
//	goos: linux
//	goarch: amd64
//	pkg: github.com/gcperf/gcperf/examples/cache
//	gogc: 100
//	gomemlimit: off
//	BenchmarkRequest-2   20000   40577 ns/op   93148 p99-ns   5080807 max-ns   0.000600 gc-cycles/op   38720 B/op   338 allocs/op
//
// The iteration count is -requests; ns/op is the mean request time,
// p99-ns and max-ns the 99th percentile (nearest rank) and the slowest
// request, gc-cycles/op the collector's cycles during the requests per
// request; B/op and allocs/op are runtime.MemStats deltas over all the
// requests, read before and after them, outside the timed code. The name
// has the -GOMAXPROCS suffix go test gives it (none for GOMAXPROCS=1).
// The gogc and gomemlimit lines are the settings the runtime applied
// (runtime/metrics), so that results of several runs concatenated can be
// told apart (benchstat -col gogc). stderr gets one line for people: the
// requests, their wall time, P99 and the collector's cycles.
//
// # Sizes
//
// With the defaults (-live 64 -garbage 32 -requests 20000 -replace 4) a
// run allocates about 64 MiB for the cache and 38 KiB per request (the
// response and the 4 replaced entries), 0.8 GiB in all: with GOGC=off
// all of it stays on the heap, for a max RSS of about 830 MiB. Scale
// -requests or -garbage down before running with GOGC=off on a small
// machine.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/metrics"
	"slices"
	"strconv"
	"sync"
	"time"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// config holds the flags.
type config struct {
	liveMiB    int
	garbageKiB int
	requests   int
	lookups    int
	replace    int
	tags       int
	workers    int
	seed       uint64
}

// parseFlags reads args into a config. Its error is one line naming the
// flag and its value; flag.ErrHelp after -h (the usage written to stderr).
func parseFlags(args []string, stderr io.Writer) (config, error) {
	var c config
	fs := flag.NewFlagSet("cache", flag.ContinueOnError)
	fs.SetOutput(io.Discard) // the error is ours to write, in one line
	fs.IntVar(&c.liveMiB, "live", 64, "keep a cache of about `MiB` mebibytes live")
	fs.IntVar(&c.garbageKiB, "garbage", 32, "each request allocates a response of about `KiB` kibibytes of short-lived objects")
	fs.IntVar(&c.requests, "requests", 20000, "serve `n` requests (the benchmark's iteration count)")
	fs.IntVar(&c.lookups, "lookups", 8, "each request looks up `n` random entries")
	fs.IntVar(&c.replace, "replace", 4, "each request replaces `n` random entries with fresh ones (the live heap's churn)")
	fs.IntVar(&c.tags, "tags", 8, "each entry holds `n` small strings (the cache's pointers per entry)")
	fs.IntVar(&c.workers, "workers", 1, "serve the requests from `n` goroutines")
	fs.Uint64Var(&c.seed, "seed", 1, "seed of the random choices, for repeatable runs")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fs.SetOutput(stderr)
			fmt.Fprintln(stderr, "usage: cache [flags]\n\nA cache of -live MiB serving -requests requests; results on stdout in the Go benchmark format.\n\nFlags:")
			fs.PrintDefaults()
		}
		return c, err
	}
	if fs.NArg() > 0 {
		return c, fmt.Errorf("unexpected argument %q (flags only)", fs.Arg(0))
	}
	for _, f := range []struct {
		name  string
		value int
		min   int
	}{
		{"live", c.liveMiB, 1},
		{"garbage", c.garbageKiB, 0},
		{"requests", c.requests, 1},
		{"lookups", c.lookups, 1},
		{"replace", c.replace, 0},
		{"tags", c.tags, 1},
		{"workers", c.workers, 1},
	} {
		if f.value < f.min {
			return c, fmt.Errorf("-%s %d: must be at least %d", f.name, f.value, f.min)
		}
	}
	// Bounds that keep the sizes' arithmetic far from overflow and a typo
	// from asking for a terabyte.
	if c.liveMiB > 1<<20 {
		return c, fmt.Errorf("-live %d: must be at most %d (1 TiB)", c.liveMiB, 1<<20)
	}
	if c.garbageKiB > 1<<20 {
		return c, fmt.Errorf("-garbage %d: must be at most %d (1 GiB)", c.garbageKiB, 1<<20)
	}
	if c.tags > 1024 {
		return c, fmt.Errorf("-tags %d: must be at most 1024", c.tags)
	}
	return c, nil
}

// run is the program: main calls it with the process's arguments and exits
// with its status, 0 on success, 2 for a bad flag.
func run(args []string, stdout, stderr io.Writer) int {
	c, err := parseFlags(args, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if err != nil {
		fmt.Fprintf(stderr, "cache: %v\n", err)
		return 2
	}

	ca := newCache(c.liveMiB, c.tags, c.seed)
	r := serve(ca, c)
	runtime.KeepAlive(ca)

	writeBench(stdout, c, r)
	fmt.Fprintf(stderr, "cache: %d requests in %v (live %d MiB, %d KiB of garbage each, %d worker(s)): mean %v, P99 %v, max %v; %d GC cycles\n",
		c.requests, r.wall.Round(time.Millisecond), c.liveMiB, c.garbageKiB, c.workers,
		r.mean.Round(time.Microsecond/10), r.p99.Round(time.Microsecond/10), r.max.Round(time.Microsecond/10), r.cycles)
	return 0
}

// result is what serve measured.
type result struct {
	wall           time.Duration // from the first request's start to the last one's end
	mean, p99, max time.Duration // of the requests' times
	cycles         uint64        // GC cycles completed during the requests
	bytesPerOp     float64       // MemStats.TotalAlloc delta per request
	allocsPerOp    float64       // MemStats.Mallocs delta per request
	checksum       uint64        // of the responses, so that none is optimised away
}

// serve runs c.requests requests against ca from c.workers goroutines and
// measures them.
func serve(ca *cache, c config) result {
	lat := make([]time.Duration, c.requests)
	workers := make([]*worker, c.workers)
	for i := range workers {
		workers[i] = newWorker(ca, c, uint64(i))
	}

	var before, after runtime.MemStats
	cyclesBefore := gcCycles()
	runtime.ReadMemStats(&before)
	start := time.Now()
	var wg sync.WaitGroup
	per := c.requests / c.workers
	for i, w := range workers {
		lo, hi := i*per, (i+1)*per
		if i == len(workers)-1 {
			hi = c.requests
		}
		wg.Go(func() { w.serve(lat[lo:hi]) })
	}
	wg.Wait()
	wall := time.Since(start)
	runtime.ReadMemStats(&after)
	cycles := gcCycles() - cyclesBefore

	r := result{
		wall:        wall,
		cycles:      cycles,
		bytesPerOp:  float64(after.TotalAlloc-before.TotalAlloc) / float64(c.requests),
		allocsPerOp: float64(after.Mallocs-before.Mallocs) / float64(c.requests),
	}
	var total time.Duration
	for _, d := range lat {
		total += d
	}
	r.mean = total / time.Duration(c.requests)
	slices.Sort(lat)
	r.p99 = lat[rank(0.99, len(lat))]
	r.max = lat[len(lat)-1]
	for _, w := range workers {
		r.checksum += w.checksum
	}
	return r
}

// rank is the index of the q quantile of n sorted values by the nearest-rank
// rule: the smallest value with at least q·n values at or below it.
func rank(q float64, n int) int {
	i := int(q*float64(n)+0.9999999) - 1 // ceil(q·n) - 1, robust to q·n's rounding
	return min(max(i, 0), n-1)
}

// gcCycles reads the number of completed GC cycles.
func gcCycles() uint64 {
	s := []metrics.Sample{{Name: "/gc/cycles/total:gc-cycles"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// gcSettings reads the GOGC and GOMEMLIMIT the runtime applied, as the
// environment spells them ("off" for either when it is off).
func gcSettings() (gogc, memlimit string) {
	s := []metrics.Sample{{Name: "/gc/gogc:percent"}, {Name: "/gc/gomemlimit:bytes"}}
	metrics.Read(s)
	gogc = "off"
	if s[0].Value.Kind() == metrics.KindUint64 && s[0].Value.Uint64() <= 1<<32 {
		// GOGC=off reads as a negative percent, converted to a huge uint64.
		gogc = strconv.FormatUint(s[0].Value.Uint64(), 10)
	}
	memlimit = "off"
	if s[1].Value.Kind() == metrics.KindUint64 && s[1].Value.Uint64() < 1<<62 {
		memlimit = bytesText(s[1].Value.Uint64())
	}
	return gogc, memlimit
}

// bytesText spells n bytes as GOMEMLIMIT takes it, in the largest binary
// unit that divides it: "256MiB", "1GiB", "1000B".
func bytesText(n uint64) string {
	for _, u := range []struct {
		suffix string
		size   uint64
	}{{"TiB", 1 << 40}, {"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}} {
		if n >= u.size && n%u.size == 0 {
			return strconv.FormatUint(n/u.size, 10) + u.suffix
		}
	}
	return strconv.FormatUint(n, 10) + "B"
}

// writeBench writes r in the Go benchmark format.
func writeBench(w io.Writer, c config, r result) {
	gogc, memlimit := gcSettings()
	name := "BenchmarkRequest"
	if p := runtime.GOMAXPROCS(0); p != 1 {
		name += "-" + strconv.Itoa(p) // as go test names it
	}
	fmt.Fprintf(w, "goos: %s\ngoarch: %s\npkg: github.com/gcperf/gcperf/examples/cache\ngogc: %s\ngomemlimit: %s\n",
		runtime.GOOS, runtime.GOARCH, gogc, memlimit)
	fmt.Fprintf(w, "%s\t%8d\t%s ns/op\t%s p99-ns\t%s max-ns\t%s gc-cycles/op\t%s B/op\t%s allocs/op\n",
		name, c.requests,
		number(float64(r.mean)), number(float64(r.p99)), number(float64(r.max)),
		number(float64(r.cycles)/float64(c.requests)), number(r.bytesPerOp), number(r.allocsPerOp))
}

// number formats a metric's value as the testing package does: more
// decimals for smaller values, none from 100 up.
func number(x float64) string {
	switch y := max(x, -x); {
	case y == 0 || y >= 99.995:
		return strconv.FormatFloat(x, 'f', 0, 64)
	case y >= 9.9995:
		return strconv.FormatFloat(x, 'f', 1, 64)
	case y >= 0.99995:
		return strconv.FormatFloat(x, 'f', 2, 64)
	case y >= 0.099995:
		return strconv.FormatFloat(x, 'f', 3, 64)
	case y >= 0.0099995:
		return strconv.FormatFloat(x, 'f', 4, 64)
	case y >= 0.00099995:
		return strconv.FormatFloat(x, 'f', 5, 64)
	default:
		return strconv.FormatFloat(x, 'f', 6, 64)
	}
}
