package load_test

import (
	"context"
	"net"
	"sync"
	"testing"

	"github.com/gcperf/gcperf/workload"
)

// BenchmarkHTTP is one request of the http operation, sent and read to its
// end, on one kept-alive connection. B/op and allocs/op are the client's
// against "raw", a server that allocates nothing per request (it answers
// each request's blank line with the same bytes); against "httptest",
// net/http's server in the same process, they include the server's.
func BenchmarkHTTP(b *testing.B) {
	b.Run("raw", func(b *testing.B) {
		benchHTTP(b, rawServer(b), nil)
	})
	b.Run("httptest", func(b *testing.B) {
		srv, _ := server(b, ok)
		benchHTTP(b, srv.URL, nil)
	})
	b.Run("raw-post", func(b *testing.B) {
		benchHTTP(b, rawServer(b), map[string]string{"method": "POST", "body": `{"key":"value"}`, "header": "Content-Type: application/json"})
	})
}

func benchHTTP(b *testing.B, url string, args map[string]string) {
	if args == nil {
		args = map[string]string{}
	}
	args["url"] = url
	op := newOp(b, args)
	ctx := context.Background()
	p := new(workload.Probe)
	if err := op.Run(ctx, p); err != nil { // the connection, outside the loop
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if err := op.Run(ctx, p); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	if t, ok := op.(workload.Teardowner); ok {
		_ = t.Teardown()
	}
}

// rawServer listens on loopback and answers every request (its headers'
// end, a blank line; a body is read as more bytes and ignored, so it must
// hold no blank line) with the same response, allocating nothing per
// request. It stops when the benchmark ends.
func rawServer(b *testing.B) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	var mu sync.Mutex
	var conns []net.Conn
	b.Cleanup(func() {
		ln.Close()
		mu.Lock()
		for _, c := range conns {
			c.Close()
		}
		mu.Unlock()
	})
	resp := []byte("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 6\r\n\r\nhello\n")
	end := []byte("\r\n\r\n")
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, c)
			mu.Unlock()
			go func() {
				defer c.Close()
				buf := make([]byte, 4096)
				matched := 0
				for {
					n, err := c.Read(buf)
					if err != nil {
						return
					}
					for _, ch := range buf[:n] {
						switch {
						case ch == end[matched]:
							matched++
						case ch == '\r':
							matched = 1
						default:
							matched = 0
						}
						if matched == len(end) {
							matched = 0
							if _, err := c.Write(resp); err != nil {
								return
							}
						}
					}
				}
			}()
		}
	}()
	return "http://" + ln.Addr().String() + "/"
}
