// Package interrupt lets a library give up waiting on work at once, when
// its caller aborts (bench.Options.Abort), leaving the work to finish on
// its own. What the signals mean is the gcperf command's.
package interrupt

// Unless runs f in a goroutine and returns its result, or ok false as soon
// as quit is closed, leaving f to finish on its own (the process exits, or
// a test goes on).
func Unless[T any](quit <-chan struct{}, f func() (T, error)) (res T, err error, ok bool) {
	type result struct {
		res T
		err error
	}
	done := make(chan result, 1)
	go func() {
		r, err := f()
		done <- result{r, err}
	}()
	select {
	case r := <-done:
		return r.res, r.err, true
	case <-quit:
		// f may have finished at the same moment: prefer its result.
		select {
		case r := <-done:
			return r.res, r.err, true
		default:
		}
		return res, nil, false
	}
}
