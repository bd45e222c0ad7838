// Package load provides operations that drive a program under test from
// outside, over the network, for gcperf's engine to time. Importing it
// registers them by name (gcperf list shows them); each has a constructor
// for Go code.
//
//	import _ "github.com/gcperf/gcperf/load" // registers http
//	op, err := workload.New("http", map[string]string{"url": "http://127.0.0.1:8080/"})
//
//	op, err := load.NewHTTP(load.HTTPConfig{URL: "http://127.0.0.1:8080/"}) // the same, typed
//	res, err := workload.Run(ctx, cfg, workload.Mix{op})
//
// The operations time nothing themselves: the engine times each execution
// (its runtime), and an operation only marks, through its workload.Probe,
// when the response started (its response time) and counts its results.
//
// # http
//
// [HTTP] sends one request per execution and reads the whole response:
//
//   - response time: the first byte of the response (after the request was
//     written), taken by net/http/httptrace's GotFirstResponseByte as the
//     transport reads it, before the headers are parsed;
//   - runtime: the engine's, up to the last byte of the body, read and
//     discarded, and the body closed;
//   - results: 1 per successful request (unit "requests"): one whose
//     status is the expected one (-expect, 200 by default).
//
// Failures have categories of their own ([Error.Category]), counted apart by
// the engine: "connection" (the dial failed or was refused, the connection
// was reset or closed before the whole response: a transport error),
// "timeout" (a network timeout; the engine's own per-operation -timeout,
// which cancels the request's context, is counted under the engine's
// category of the same name) and "status" (a response with another status
// than expected; the message names it). A request cancelled because the
// benchmark was interrupted is the engine's "interrupt".
//
// Each goroutine of the engine has its own copy of the operation
// (workload.Cloner), with its own transport, so that each keeps one
// connection alive and reuses it (HTTP/1.1 keep-alive; no HTTP/2, no
// transparent gzip, no proxy from the environment, redirects not followed:
// a 3xx is a status like any other). The request is built once and reused
// as long as the transport is done with it; a body is sent from the bytes
// read at construction, without copying them per request.
package load
