package main

import (
	"encoding/hex"
	"math/rand/v2"
	"strconv"
	"sync"
	"time"
)

// Sizes of the cache's entries and of a response's parts.
const (
	payloadBytes = 576 // an entry's payload: a size class of its own
	tagBytes     = 24  // each of an entry's tag strings: a size class of its own
	valueBytes   = 64  // the part of a payload a response field copies
	// fieldBytes is what one response field allocates: the field struct
	// (48 bytes) and its value.
	fieldBytes = 48 + valueBytes
)

// entryBytes estimates the heap one entry of tags tags holds, the map's
// slot included: the entry struct (80 bytes with its size class), the
// tag strings and their slice, the key and the payload.
func entryBytes(tags int) int {
	return 80 + tags*(tagBytes+16) + 16 + payloadBytes + 32
}

// An entry is a cached value: pointer-rich, so that the collector has
// objects to mark, and never changed once built, so that readers need no
// lock to use one they have looked up.
type entry struct {
	key     string
	tags    []string
	payload []byte
	version uint64
}

// A cache is a fixed set of keys, "item-0" to "item-(n-1)", whose entries
// are replaced over time.
type cache struct {
	mu      sync.RWMutex
	entries map[string]*entry
	n       int // number of keys
	tags    int // tags per entry
}

// newCache fills a cache of about liveMiB mebibytes of entries of tags tags
// each, their contents drawn from seed.
func newCache(liveMiB, tags int, seed uint64) *cache {
	n := max(1, liveMiB<<20/entryBytes(tags))
	c := &cache{entries: make(map[string]*entry, n), n: n, tags: tags}
	rng := rand.New(rand.NewPCG(seed, 0))
	for i := range n {
		e := newEntry("item-"+strconv.Itoa(i), 0, tags, rng)
		c.entries[e.key] = e
	}
	return c
}

// newEntry builds an entry for key.
func newEntry(key string, version uint64, tags int, rng *rand.Rand) *entry {
	e := &entry{key: key, tags: make([]string, tags), payload: make([]byte, payloadBytes), version: version}
	var tag [tagBytes]byte
	for i := range e.tags {
		b := append(append(tag[:0], key...), '/')
		b = strconv.AppendUint(b, rng.Uint64()%1e6, 10)
		for len(b) < tagBytes {
			b = append(b, '.')
		}
		e.tags[i] = string(b[:tagBytes])
	}
	for i := 0; i < len(e.payload); i += 8 {
		x := rng.Uint64()
		for j := i; j < i+8 && j < len(e.payload); j++ {
			e.payload[j] = byte(x)
			x >>= 8
		}
	}
	return e
}

// get returns the entry of key.
func (c *cache) get(key []byte) *entry {
	c.mu.RLock()
	e := c.entries[string(key)] // no allocation: the compiler sees the conversion is only a lookup
	c.mu.RUnlock()
	return e
}

// replace puts a fresh version of the entry of key in the cache;
// the old one becomes garbage once no request uses it.
func (c *cache) replace(key []byte, rng *rand.Rand) {
	old := c.get(key)
	e := newEntry(old.key, old.version+1, c.tags, rng)
	c.mu.Lock()
	c.entries[e.key] = e
	c.mu.Unlock()
}

// A field is one part of a response: short-lived, with a pointer to the
// next one, so that the garbage is pointer-rich too.
type field struct {
	name  string
	value []byte
	next  *field
}

// A response is what a request builds: its fields and their rendering.
type response struct {
	fields *field
	body   []byte
}

// A worker serves requests, with a random source of its own.
type worker struct {
	cache    *cache
	rng      *rand.Rand
	lookups  int
	replace  int
	garbage  int // bytes per request
	key      []byte
	found    []*entry
	last     *response // the latest response: keeps the compiler from putting it on the stack
	checksum uint64
}

func newWorker(c *cache, cfg config, id uint64) *worker {
	return &worker{
		cache:   c,
		rng:     rand.New(rand.NewPCG(cfg.seed, id+1)), // stream 0 filled the cache
		lookups: cfg.lookups,
		replace: cfg.replace,
		garbage: cfg.garbageKiB << 10,
		key:     make([]byte, 0, 32),
		found:   make([]*entry, 0, cfg.lookups),
	}
}

// serve serves len(lat) requests, timing each into lat.
func (w *worker) serve(lat []time.Duration) {
	for i := range lat {
		start := time.Now()
		w.request()
		lat[i] = time.Since(start)
	}
}

// request serves one request: it looks up w.lookups random entries, builds
// a response of about w.garbage bytes from them and replaces w.replace
// random entries.
func (w *worker) request() {
	w.found = w.found[:0]
	for range w.lookups {
		w.found = append(w.found, w.cache.get(w.randomKey()))
	}
	r := w.respond()
	w.last = r
	if len(r.body) > 0 {
		w.checksum += uint64(len(r.body)) + uint64(r.body[len(r.body)/2])
	}
	for range w.replace {
		w.cache.replace(w.randomKey(), w.rng)
	}
}

// randomKey returns a random key of the cache in w.key, valid until the
// next call.
func (w *worker) randomKey() []byte {
	w.key = strconv.AppendInt(append(w.key[:0], "item-"...), int64(w.rng.IntN(w.cache.n)), 10)
	return w.key
}

// respond builds the response to the entries found: half of w.garbage in
// fields (a struct and a copy of part of a payload each, taken from the
// entries in turn), the other half in the body, the fields rendered as
// JSON for as long as they fit.
func (w *worker) respond() *response {
	r := &response{}
	n := w.garbage / 2 / fieldBytes
	for i := range n {
		e := w.found[i%len(w.found)]
		off := (i * valueBytes) % (payloadBytes - valueBytes)
		f := &field{name: e.tags[i%len(e.tags)], value: make([]byte, valueBytes), next: r.fields}
		copy(f.value, e.payload[off:])
		r.fields = f
	}
	size := w.garbage - n*fieldBytes
	if size == 0 {
		return r
	}
	b := make([]byte, 0, size)
	b = append(b, `{"fields":[`...)
	for f := r.fields; f != nil; f = f.next {
		need := len(`{"name":"","value":""},`) + len(f.name) + hex.EncodedLen(len(f.value)) + len(`]}`)
		if len(b)+need > cap(b) {
			break
		}
		b = append(b, `{"name":"`...)
		b = append(b, f.name...)
		b = append(b, `","value":"`...)
		b = hex.AppendEncode(b, f.value)
		b = append(b, `"},`...)
	}
	if b[len(b)-1] == ',' {
		b = b[:len(b)-1]
	}
	if len(b)+2 <= cap(b) {
		b = append(b, `]}`...)
	}
	r.body = b
	return r
}
