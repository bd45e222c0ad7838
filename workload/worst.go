package workload

import (
	"cmp"
	"slices"
	"sync"
	"sync/atomic"
)

// MaxWorst is how many of the slowest successful runs a Result keeps whole
// (Result.Worst), with their GC figures, however many runs there are:
// GCPerfP99 drops the slowest 1%, so its figures are exact up to about
// 100 × MaxWorst runs and its list of dropped runs shows the MaxWorst
// slowest beyond.
const MaxWorst = 1000

// worstRuns keeps the slowest successful runs offered, in a heap whose
// root is the least slow of them. Workers offer every successful run after
// it ends (outside the timed region): a run faster than the root, once the
// heap is full, costs one atomic load; the lock is taken only to insert.
type worstRuns struct {
	n     int // how many it keeps, set before the workers start
	mu    sync.Mutex
	recs  []RunRecord
	floor atomic.Int64 // the root's runtime once full; -1 before
}

func (w *worstRuns) init(n int) {
	w.n = n
	w.recs = make([]RunRecord, 0, n)
	w.floor.Store(-1)
}

// slower orders runs as GCPerfP99 does, fastest first, a tie going to
// the later run: a is slower than b.
func slower(a, b *RunRecord) bool {
	return a.Runtime > b.Runtime || a.Runtime == b.Runtime && a.Run > b.Run
}

// offer keeps rec if it is among the slowest seen. It does not allocate.
func (w *worstRuns) offer(rec *RunRecord) {
	// w.n, not cap(w.recs): the slice is written under the lock.
	if w.n == 0 || int64(rec.Runtime) < w.floor.Load() {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	h := w.recs
	switch {
	case len(h) < cap(h):
		h = append(h, *rec)
		for i := len(h) - 1; i > 0; { // up
			p := (i - 1) / 2
			if !slower(&h[p], &h[i]) {
				break
			}
			h[p], h[i] = h[i], h[p]
			i = p
		}
	case slower(rec, &h[0]):
		h[0] = *rec
		for i := 0; ; { // down
			l, m := 2*i+1, i
			if l < len(h) && slower(&h[m], &h[l]) {
				m = l
			}
			if r := l + 1; r < len(h) && slower(&h[m], &h[r]) {
				m = r
			}
			if m == i {
				break
			}
			h[i], h[m] = h[m], h[i]
			i = m
		}
	default:
		return
	}
	w.recs = h
	if len(h) == cap(h) {
		w.floor.Store(int64(h[0].Runtime))
	}
}

// sorted returns the runs kept, slowest first.
func (w *worstRuns) sorted() []RunRecord {
	out := slices.Clone(w.recs)
	slices.SortFunc(out, func(a, b RunRecord) int {
		if slower(&a, &b) {
			return -1
		}
		if slower(&b, &a) {
			return 1
		}
		return cmp.Compare(a.Thread, b.Thread)
	})
	return out
}
