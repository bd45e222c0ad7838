package alloc

import (
	"context"
	"fmt"
	"math"

	"github.com/gcperf/gcperf/internal/sat"
	"github.com/gcperf/gcperf/workload"
)

// alloc.map's defaults.
const (
	DefaultMapK     = 100000 // entries
	DefaultMapValue = 64     // bytes per value
	DefaultMapFrac  = 0.1    // fraction of the entries replaced by each run
	mapCheckEvery   = 1024   // Setup checks its context every 1024 entries

	// mapEntryBytes is the map's own memory per entry, beyond the values:
	// what a map[int64][]byte of k entries settles at under churn in Go 1.26
	// (Swiss tables of 8-slot groups, 33 bytes a slot with its control
	// byte, tables of 1024 slots taking 40 KiB in whole pages, and after a
	// turnover of deletes and inserts 2.5 to 4 slots an entry). Measured at
	// most 105 bytes (k = 100000 and 200000), as little as 65 (k = 10000),
	// so LiveBytes is an upper estimate.
	mapEntryBytes = 105
)

func init() {
	workload.MustRegister(workload.Spec{
		Name: "alloc.map",
		Doc:  "map churn: a map[int64][]byte of k entries whose oldest frac*k entries are deleted and as many new keys inserted by each run (hashing, tombstones, table growth settled in Setup)",
		Params: []workload.Param{
			{Name: "k", Kind: workload.Int, Default: fmt.Sprint(DefaultMapK), Min: "1", Doc: "entries in the map, inserted by Setup and kept"},
			{Name: "value", Kind: workload.Int, Default: fmt.Sprint(DefaultMapValue), Min: "1", Doc: "bytes per value (rounded up to Go's size class)"},
			{Name: "frac", Kind: workload.Float, Default: fmt.Sprint(DefaultMapFrac), Min: "0", Doc: "fraction of the entries replaced by each run, 0 to 1 (round(frac*k) entries, at least 1 when frac > 0)"},
		},
		New: func(p workload.Params) (workload.Operation, error) {
			return NewMap(int(p.Int("k")), int(p.Int("value")), p.Float("frac"))
		},
	})
}

// Map is the map-churn workload: a map[int64][]byte of K entries keyed by
// consecutive integers, a sliding window of keys like a cache that evicts
// its oldest entry. Each run deletes the Replaced() oldest keys and inserts
// as many new keys, each with a new value of Value bytes.
//
// It stresses the map and the collector together: hashing and probing on
// every delete and insert, tombstones left by deletes in full groups, a
// live set of K values behind pointers held in the map's slots (the
// collector scans the tables and follows each slot), and the values dying
// in age order. Inserting new keys in place of deleted ones grows the
// tables until the tombstones fit: Setup does that by replacing all K
// entries once after inserting them, so the timed runs see the map in its
// steady state (measured on Go 1.26: the map's own memory doubles over the
// first turnover, then stays put), and a run allocates only its new values:
// Replaced()*Value bytes, each value rounded up to the size class. It
// counts Replaced() results ("entries").
type Map struct {
	K, Value int
	Frac     float64

	m              map[int64][]byte
	oldest, newest int64 // the keys in the map: [oldest, newest)
}

// NewMap checks the parameters and returns a Map. Its errors are
// *workload.ConfigError values naming the parameter.
func NewMap(k, value int, frac float64) (*Map, error) {
	switch {
	case k < 1:
		return nil, &workload.ConfigError{Field: "k", Msg: fmt.Sprintf("must be at least 1, got %d", k)}
	case value < 1:
		return nil, &workload.ConfigError{Field: "value", Msg: fmt.Sprintf("must be at least 1 (bytes), got %d", value)}
	case !(frac >= 0 && frac <= 1): // NaN too
		return nil, &workload.ConfigError{Field: "frac", Msg: fmt.Sprintf("must be between 0 and 1, got %v", frac)}
	}
	return &Map{K: k, Value: value, Frac: frac}, nil
}

func (*Map) Name() string { return "alloc.map" }

// Unit is what a run's results count.
func (*Map) Unit() string { return "entries" }

func (m *Map) Describe() string { return fmt.Sprintf("k=%d value=%d frac=%v", m.K, m.Value, m.Frac) }

// Clone gives each goroutine its own map.
func (m *Map) Clone() workload.Operation { return &Map{K: m.K, Value: m.Value, Frac: m.Frac} }

// Replaced is the number of entries a run replaces: round(Frac*K), at least
// 1 when Frac > 0.
func (m *Map) Replaced() int {
	n := int(math.Round(m.Frac * float64(m.K)))
	if n == 0 && m.Frac > 0 {
		n = 1
	}
	return n
}

// LiveBytes is K values plus an upper estimate of the map's own memory
// (mapEntryBytes an entry), plus the one value a run holds before it is
// inserted, saturating at math.MaxInt64.
func (m *Map) LiveBytes() int64 {
	k := int64(m.K)
	return sat.Add(sat.Mul(k, mapEntryBytes), heapBytes(sat.Add(k, 1), int64(m.Value), false))
}

// Setup inserts K entries, then replaces each of them once so that the
// map's tables reach the size they keep under churn. It stops early, with
// the context's error, when ctx is cancelled: a large map takes a while.
func (m *Map) Setup(ctx context.Context) error {
	m.m, m.oldest, m.newest = make(map[int64][]byte, m.K), 0, 0
	for i := range 2 * m.K {
		if i%mapCheckEvery == mapCheckEvery-1 && ctx.Err() != nil {
			m.m = nil
			return ctx.Err()
		}
		if i < m.K {
			m.insert()
		} else {
			m.replace()
		}
	}
	return nil
}

// Teardown drops the map, so its memory can be collected.
func (m *Map) Teardown() error {
	m.m = nil
	return nil
}

// Run replaces Replaced() entries.
func (m *Map) Run(_ context.Context, p *workload.Probe) error {
	n := m.Replaced()
	m.step(n)
	p.Results(int64(n))
	return nil
}

// Step is one run without the engine: delete the Replaced() oldest
// entries, insert as many new ones. Without Setup, it sets the map up first.
func (m *Map) Step() { m.step(m.Replaced()) }

func (m *Map) step(n int) {
	if m.m == nil {
		_ = m.Setup(context.Background())
	}
	for range n {
		m.replace()
	}
}

// Len is the number of entries in the map.
func (m *Map) Len() int { return len(m.m) }

// replace deletes the oldest entry and inserts a new one.
func (m *Map) replace() {
	delete(m.m, m.oldest)
	m.oldest++
	m.insert()
}

// insert adds the next key with a new value.
func (m *Map) insert() {
	v := make([]byte, m.Value)
	v[0] = byte(m.newest)
	m.m[m.newest] = v
	m.newest++
}
