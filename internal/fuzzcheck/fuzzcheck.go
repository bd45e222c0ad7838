// Package fuzzcheck holds what gcperf's fuzz targets check of every parser:
// an error is one line of at most MaxErr bytes, and no input hangs or grows
// the heap past MaxHeap (Watchdog). It is for tests only.
package fuzzcheck

import (
	"fmt"
	"runtime/debug"
	"runtime/metrics"
	"strings"
	"testing"
	"time"
)

// MaxErr is the most bytes an error message may hold, whatever the size
// of the input: an error quotes a value clipped to about 80 bytes
// (internal/quote), which %q may escape to four times as many, never the
// whole input.
const MaxErr = 1024

// ErrText checks that err, when not nil, is one line of at most
// MaxErr bytes.
func ErrText(t testing.TB, err error) {
	t.Helper()
	if err == nil {
		return
	}
	msg := err.Error()
	if msg == "" {
		t.Errorf("empty error message (%T)", err)
	}
	if i := strings.IndexAny(msg, "\n\r\v\f\u0085\u2028\u2029"); i >= 0 {
		t.Errorf("error message is not one line (line break at byte %d): %.400q", i, msg)
	}
	if len(msg) > MaxErr {
		t.Errorf("error message is %d bytes, more than %d: %.400q...", len(msg), MaxErr, msg)
	}
}

// MaxHeap is the most heap an input may make a parser use: inputs are
// kilobytes, so a gigabyte means that a count in the input sized an
// allocation, or a loop that never ends.
const MaxHeap = 1 << 30

// Watchdog makes an input that runs longer than d, or grows the heap
// past MaxHeap, a crash with every goroutine's stack: the fuzzer has no
// limit of its own, and it records the input of a crash. Use:
// defer Watchdog(10 * time.Second)().
func Watchdog(d time.Duration) (stop func()) {
	done := make(chan struct{})
	go func() {
		tick := time.NewTicker(20 * time.Millisecond)
		defer tick.Stop()
		deadline := time.Now().Add(d)
		heap := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
		for {
			select {
			case <-done:
				return
			case now := <-tick.C:
				metrics.Read(heap)
				why := ""
				switch {
				case heap[0].Value.Kind() == metrics.KindUint64 && heap[0].Value.Uint64() > MaxHeap:
					why = fmt.Sprintf("fuzz input grew the heap to %d bytes", heap[0].Value.Uint64())
				case now.After(deadline):
					why = fmt.Sprintf("fuzz input still running after %v", d)
				default:
					continue
				}
				debug.SetTraceback("all")
				panic(why)
			}
		}
	}()
	return func() { close(done) }
}
