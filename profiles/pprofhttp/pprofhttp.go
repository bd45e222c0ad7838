// Package pprofhttp serves live inspection of the process while a benchmark
// runs (gcperf -http): net/http/pprof under /debug/pprof/ and a snapshot of
// every runtime/metrics value under /debug/metrics.
//
//	if err := pprofhttp.CheckAddr("127.0.0.1:6060", false); err != nil { // before anything runs
//		return err
//	}
//	s, _, err := pprofhttp.ServeLocal("127.0.0.1:6060", false)
//	if err != nil {
//		return err
//	}
//	defer s.Close()
//
// It is a package of its own so that importing [github.com/gcperf/gcperf/profiles]
// or [github.com/gcperf/gcperf/report] never links net/http/pprof, whose
// import registers its handlers on http.DefaultServeMux: only a program that
// imports this package links it. Serve itself serves from a mux of its own.
package pprofhttp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/pprof"
	"runtime/metrics"
	"time"
)

// A Server serves live inspection while a benchmark runs: net/http/pprof
// under /debug/pprof/ and a snapshot of every runtime/metrics value under
// /debug/metrics. It is the modern form of GCPerfP99's "Press ENTER to end"
// pause, which let someone attach a tool before the process went away.
type Server struct {
	srv  *http.Server
	ln   net.Listener
	done chan error
}

// Serve listens on addr at once, so that an address in use is reported
// before anything runs, and serves in the background until Close. It
// listens where addr says: "127.0.0.1:6060" keeps it on loopback.
func Serve(addr string) (*Server, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	mux.HandleFunc("/debug/metrics", serveMetrics)
	mux.HandleFunc("/{$}", func(w http.ResponseWriter, _ *http.Request) {
		fmt.Fprint(w, "gcperf: /debug/pprof/ for profiles, /debug/metrics for a runtime/metrics snapshot\n")
	})
	s := &Server{
		srv:  &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second},
		ln:   ln,
		done: make(chan error, 1),
	}
	go func() { s.done <- s.srv.Serve(ln) }()
	return s, nil
}

// Addr is the address the server listens on (with the port chosen, for ":0").
func (s *Server) Addr() string { return s.ln.Addr().String() }

// Close stops the server, giving requests in progress a second to finish.
func (s *Server) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	err := s.srv.Shutdown(ctx)
	if serr := <-s.done; !errors.Is(serr, http.ErrServerClosed) && err == nil {
		err = serr
	}
	return err
}

// serveMetrics writes every runtime/metrics value as JSON, keyed by name:
// numbers as they are, histograms as their bucket boundaries and counts.
func serveMetrics(w http.ResponseWriter, _ *http.Request) {
	descs := metrics.All()
	samples := make([]metrics.Sample, len(descs))
	for i, d := range descs {
		samples[i].Name = d.Name
	}
	metrics.Read(samples)
	type histogram struct {
		Buckets []float64 `json:"buckets"`
		Counts  []uint64  `json:"counts"`
	}
	out := make(map[string]any, len(samples))
	for _, s := range samples {
		switch s.Value.Kind() {
		case metrics.KindUint64:
			out[s.Name] = s.Value.Uint64()
		case metrics.KindFloat64:
			out[s.Name] = s.Value.Float64()
		case metrics.KindFloat64Histogram:
			h := s.Value.Float64Histogram()
			// JSON has no infinities: the open ends become the largest floats.
			b := make([]float64, len(h.Buckets))
			for i, v := range h.Buckets {
				b[i] = max(min(v, maxFloat), -maxFloat)
			}
			out[s.Name] = histogram{Buckets: b, Counts: h.Counts}
		}
	}
	w.Header().Set("Content-Type", "application/json")
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	_ = enc.Encode(out)
}

const maxFloat = 1.7976931348623157e308

// ErrNotLoopback is wrapped by CheckAddr's and ServeLocal's errors for an
// address other machines could reach.
var ErrNotLoopback = errors.New("not a loopback address: other machines could read the profiles, heap and stacks it serves")

// CheckAddr checks, before anything runs, an address Serve will listen on:
// host:port, and unless public a loopback address ("localhost", 127.0.0.1,
// ::1); a host name is checked by ServeLocal once it listens.
func CheckAddr(addr string, public bool) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return errors.New("not host:port, such as 127.0.0.1:6060")
	}
	if public || host == "localhost" {
		return nil
	}
	if ip := net.ParseIP(host); host == "" || ip != nil && !ip.IsLoopback() {
		return ErrNotLoopback
	}
	return nil
}

// ServeLocal is Serve, refusing (ErrNotLoopback) to go on listening on an
// address other machines reach unless public; exposed says when it does.
func ServeLocal(addr string, public bool) (s *Server, exposed bool, err error) {
	s, err = Serve(addr)
	if err != nil {
		return nil, false, err
	}
	tcp, _ := net.ResolveTCPAddr("tcp", s.Addr())
	if tcp != nil && tcp.IP.IsLoopback() {
		return s, false, nil
	}
	if !public {
		s.Close()
		return nil, false, fmt.Errorf("listens on %s: %w", s.Addr(), ErrNotLoopback)
	}
	return s, true, nil
}
