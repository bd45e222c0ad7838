package main

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"net/http"
	"runtime/metrics"
	"strconv"
	"sync/atomic"
	"time"
)

// Sizes of the cache's entries and of the garbage a request makes.
const (
	nameBytes = 24 // an entry's name: a size class of its own
	tagBytes  = 16 // each tag string
	tagsPer   = 6  // tags per entry
	// entryBytes estimates the heap one entry holds: the entry struct
	// (80 bytes), its name, its tags and their slice, its attribute map
	// (header and one group of eight slots) and the map's four values,
	// and the cache's pointer to it. TestLiveHeap checks it.
	entryBytes = 80 + nameBytes + tagsPer*tagBytes + tagsPer*16 + 48 + 288 + 4*16 + 8
	// replaceEvery is how often requests churn the cache: every
	// replaceEvery-th request replaces one random entry with a fresh one.
	replaceEvery = 4
	// scratchBytes is the buffer of one node of a request's garbage.
	scratchBytes = 4064
)

// attrKeys are the keys of every entry's attribute map.
var attrKeys = [4]string{"color", "owner", "region", "size"}

// An entry is a cached value: pointer-rich (strings, a slice of strings, a
// map), about 16 heap objects for 0.7 KiB, so that marking the cache is
// real work for the collector. An entry is never changed once published,
// so requests read it without a lock.
type entry struct {
	id      int
	name    string
	tags    []string
	attrs   map[string]string
	version uint64
	price   float64
	updated int64 // Unix nanoseconds
}

// A cache is n entries, indexed 0 to n-1, replaced one at a time.
type cache struct {
	entries []atomic.Pointer[entry]
	seed    uint64
	served  atomic.Uint64 // requests for items answered (refused ones aside), for the churn
}

// newCache fills a cache of about liveMiB mebibytes of entries, their
// contents drawn from seed.
func newCache(liveMiB int, seed uint64) *cache {
	n := max(1, liveMiB<<20/entryBytes)
	c := &cache{entries: make([]atomic.Pointer[entry], n), seed: seed}
	rng := rand.New(rand.NewPCG(seed, 0))
	for i := range c.entries {
		c.entries[i].Store(newEntry(i, 0, rng))
	}
	return c
}

// newEntry builds version version of entry id.
func newEntry(id int, version uint64, rng *rand.Rand) *entry {
	e := &entry{
		id:      id,
		name:    fixed("item-"+strconv.Itoa(id)+"-v"+strconv.FormatUint(version, 10), nameBytes),
		tags:    make([]string, tagsPer),
		attrs:   make(map[string]string, len(attrKeys)),
		version: version,
		price:   float64(rng.IntN(100000)) / 100,
		updated: time.Now().UnixNano(),
	}
	for i := range e.tags {
		e.tags[i] = fixed("t"+strconv.FormatUint(rng.Uint64()%1e9, 36), tagBytes)
	}
	for _, k := range attrKeys {
		e.attrs[k] = fixed(k[:1]+strconv.FormatUint(rng.Uint64(), 36), tagBytes)
	}
	return e
}

// fixed returns s cut or padded with dots to n bytes, in a string of its
// own.
func fixed(s string, n int) string {
	b := make([]byte, n)
	copy(b, s)
	for i := len(s); i < n; i++ {
		b[i] = '.'
	}
	return string(b)
}

// An item is an entry as a response shows it: built per request, with
// copies of the entry's tags and attributes, so that a response allocates
// as a real one would.
type item struct {
	ID      int               `json:"id"`
	Name    string            `json:"name"`
	Version uint64            `json:"version"`
	Price   float64           `json:"price"`
	Tags    []string          `json:"tags"`
	Attrs   map[string]string `json:"attrs"`
	Summary string            `json:"summary"`
	Updated time.Time         `json:"updated"`
}

// A response is the body of GET / and GET /item.
type response struct {
	Request  uint64 `json:"request"`
	Items    []item `json:"items"`
	Garbage  int    `json:"garbage_bytes"` // the short-lived garbage the request made
	Checksum uint64 `json:"checksum"`      // of the garbage, so that it is not optimised away
}

// A scratch node is part of a request's short-lived garbage: a buffer and
// a pointer to the next node, so that the garbage is pointer-rich too.
type scratch struct {
	buf  []byte
	next *scratch
}

// A server serves the cache over HTTP.
type server struct {
	cache   *cache
	items   int // entries per response
	garbage int // bytes of short-lived garbage per request
}

// handler returns the server's routes.
func (s *server) handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", s.handleItems)
	mux.HandleFunc("GET /item", s.handleItems)
	mux.HandleFunc("GET /debug/gc", handleGC)
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.Write([]byte("ok"))
	})
	return mux
}

// handleItems serves GET / (s.items random entries) and GET /item?id=N
// (entry N and the s.items-1 after it): it builds the response from the
// cache, makes s.garbage bytes of short-lived garbage, encodes the
// response as JSON and, every replaceEvery-th request, replaces a random
// entry.
func (s *server) handleItems(w http.ResponseWriter, r *http.Request) {
	c := s.cache
	n := len(c.entries)
	first := -1 // random entries
	if r.URL.Path == "/item" {
		id, err := strconv.Atoi(r.URL.Query().Get("id"))
		if err != nil || id < 0 || id >= n {
			http.Error(w, "id: want an integer from 0 to "+strconv.Itoa(n-1), http.StatusBadRequest)
			return
		}
		first = id
	}
	// Counted here, after the checks: a refused request is not.
	seq := c.served.Add(1)
	rng := rand.New(rand.NewPCG(c.seed, seq)) // stream 0 filled the cache

	resp := response{Request: seq, Items: make([]item, s.items), Garbage: s.garbage}
	for i := range resp.Items {
		id := (first + i) % n
		if first < 0 {
			id = rng.IntN(n)
		}
		resp.Items[i] = view(c.entries[id].Load())
	}
	resp.Checksum = makeGarbage(s.garbage, rng)
	body, err := json.Marshal(&resp)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Write(body)

	if seq%replaceEvery == 0 {
		id := rng.IntN(n)
		old := c.entries[id].Load()
		// A concurrent replacement of the same entry may win; either
		// way the entry has a fresh version and the old one is garbage.
		c.entries[id].CompareAndSwap(old, newEntry(id, old.version+1, rng))
	}
}

// view builds the response's item for e.
func view(e *entry) item {
	it := item{
		ID:      e.id,
		Name:    e.name,
		Version: e.version,
		Price:   e.price,
		Tags:    append([]string(nil), e.tags...),
		Attrs:   make(map[string]string, len(e.attrs)),
		Updated: time.Unix(0, e.updated).UTC(),
	}
	for k, v := range e.attrs {
		it.Attrs[k] = v
	}
	it.Summary = e.name + " (" + e.attrs["color"] + ", " + e.attrs["size"] + ") " + strconv.FormatFloat(e.price, 'f', 2, 64)
	return it
}

// makeGarbage allocates about size bytes of short-lived scratch nodes,
// fills them from rng and returns a checksum of them.
func makeGarbage(size int, rng *rand.Rand) uint64 {
	var head *scratch
	for range size / (scratchBytes + 32) { // 32: the node itself; both round up to 4 KiB together
		head = &scratch{buf: make([]byte, scratchBytes), next: head}
		x := rng.Uint64()
		for i := 0; i < scratchBytes; i += 64 { // a byte per cache line: the memory is touched
			head.buf[i] = byte(x)
			x = x>>7 | x<<57
		}
	}
	var sum uint64
	for p := head; p != nil; p = p.next {
		sum = sum*31 + uint64(p.buf[0]) + uint64(p.buf[scratchBytes-8])
	}
	return sum
}

// gcStatus is the body of GET /debug/gc: the collector's settings as the
// runtime applied them (runtime/metrics) and its state.
type gcStatus struct {
	GOGC          int64  `json:"gogc"`           // percent; -1 when off
	GOGCText      string `json:"gogc_env"`       // as GOGC spells it: "100", "off"
	GOMEMLIMIT    int64  `json:"gomemlimit"`     // bytes; math.MaxInt64 when there is none
	GOMEMLIMITTxt string `json:"gomemlimit_env"` // as GOMEMLIMIT spells it: "128MiB", "off"
	Cycles        uint64 `json:"gc_cycles"`      // completed since the start
	HeapLive      uint64 `json:"heap_live_bytes"`
}

// readGC reads the collector's settings and state.
func readGC() gcStatus {
	s := []metrics.Sample{
		{Name: "/gc/gogc:percent"},
		{Name: "/gc/gomemlimit:bytes"},
		{Name: "/gc/cycles/total:gc-cycles"},
		{Name: "/gc/heap/live:bytes"},
	}
	metrics.Read(s)
	var g gcStatus
	// GOGC=off reads as -1 converted to a uint64.
	g.GOGC = int64(s[0].Value.Uint64())
	g.GOGCText = "off"
	if g.GOGC >= 0 {
		g.GOGCText = strconv.FormatInt(g.GOGC, 10)
	}
	g.GOMEMLIMIT = int64(min(s[1].Value.Uint64(), math.MaxInt64))
	g.GOMEMLIMITTxt = "off"
	if g.GOMEMLIMIT < math.MaxInt64 {
		g.GOMEMLIMITTxt = bytesText(uint64(g.GOMEMLIMIT))
	}
	g.Cycles = s[2].Value.Uint64()
	g.HeapLive = s[3].Value.Uint64()
	return g
}

func handleGC(w http.ResponseWriter, r *http.Request) {
	body, _ := json.Marshal(readGC()) // no error: plain fields
	w.Header().Set("Content-Type", "application/json")
	w.Write(append(body, '\n'))
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
