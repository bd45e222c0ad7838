package alloc

import (
	"context"
	"errors"
	"math"
	"runtime"
	"runtime/metrics"
	"slices"
	"strings"
	"testing"

	"github.com/gcperf/gcperf/workload"
)

// A stepper is one of this package's workloads: every optional interface of
// an operation, and a Step that does one run without the engine.
type stepper interface {
	workload.Operation
	workload.Setupper
	workload.Teardowner
	workload.Cloner
	workload.Uniter
	workload.Describer
	workload.Footprinter
	Step()
}

var (
	_ stepper = (*List)(nil)
	_ stepper = (*Tree)(nil)
	_ stepper = (*Small)(nil)
	_ stepper = (*Ring)(nil)
	_ stepper = (*Map)(nil)
)

// newOp builds a registered workload from its parameters, as gcperf run does.
func newOp(t testing.TB, name string, args map[string]string) stepper {
	t.Helper()
	op, err := workload.New(name, args)
	if err != nil {
		t.Fatal(err)
	}
	return op.(stepper)
}

func readMetric(name string) uint64 {
	s := []metrics.Sample{{Name: name}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

func errOf[T any](_ T, err error) error { return err }

func TestNewWorkloadErrors(t *testing.T) {
	tests := []struct {
		call  string
		err   error
		field string
	}{
		{"NewTree(-1, 0)", errOf(NewTree(-1, 0)), "depth"},
		{"NewTree(63, 0)", errOf(NewTree(63, 0)), "depth"},
		{"NewTree(0, -1)", errOf(NewTree(0, -1)), "live"},
		{"NewTree(0, 63)", errOf(NewTree(0, 63)), "live"},
		{"NewSmall(0, 32)", errOf(NewSmall(0, 32)), "n"},
		{"NewSmall(-5, 32)", errOf(NewSmall(-5, 32)), "n"},
		{"NewSmall(10, 0)", errOf(NewSmall(10, 0)), "size"},
		{"NewRing(0, 1024, 1, 0)", errOf(NewRing(0, 1024, 1, 0)), "k"},
		{"NewRing(10, 0, 1, 0)", errOf(NewRing(10, 0, 1, 0)), "size"},
		{"NewRing(10, 1024, 0, 0)", errOf(NewRing(10, 1024, 0, 0)), "per"},
		{"NewRing(10, 1024, 11, 0)", errOf(NewRing(10, 1024, 11, 0)), "per"},
		{"NewRing(10, 1024, 1, -1)", errOf(NewRing(10, 1024, 1, -1)), "fluff"},
		{"NewMap(0, 64, 0.1)", errOf(NewMap(0, 64, 0.1)), "k"},
		{"NewMap(10, 0, 0.1)", errOf(NewMap(10, 0, 0.1)), "value"},
		{"NewMap(10, 64, -0.1)", errOf(NewMap(10, 64, -0.1)), "frac"},
		{"NewMap(10, 64, 1.5)", errOf(NewMap(10, 64, 1.5)), "frac"},
		{"NewMap(10, 64, NaN)", errOf(NewMap(10, 64, math.NaN())), "frac"},
		{"NewMap(10, 64, +Inf)", errOf(NewMap(10, 64, math.Inf(1))), "frac"},
	}
	for _, tt := range tests {
		var ce *workload.ConfigError
		if !errors.As(tt.err, &ce) || ce.Field != tt.field {
			t.Errorf("%s = %v, want a ConfigError on %s", tt.call, tt.err, tt.field)
		}
	}
	// The bounds themselves are accepted.
	for _, err := range []error{
		errOf(NewTree(0, 0)), errOf(NewTree(maxTreeDepth, maxTreeDepth)),
		errOf(NewSmall(1, 1)),
		errOf(NewRing(1, 1, 1, 0)), errOf(NewRing(10, 1, 10, 0)),
		errOf(NewMap(1, 1, 0)), errOf(NewMap(1, 1, 1)),
	} {
		if err != nil {
			t.Errorf("a boundary value was refused: %v", err)
		}
	}
	// Through the registry, the upper bound of frac is the constructor's:
	// Param.Min only expresses the lower one.
	if _, err := workload.New("alloc.map", map[string]string{"frac": "1.01"}); !errors.Is(err, workload.ErrConfig) {
		t.Errorf("alloc.map frac=1.01: %v, want a configuration error", err)
	}
	if _, err := workload.New("alloc.small", map[string]string{"size": "0"}); !errors.Is(err, workload.ErrBadParam) {
		t.Errorf("alloc.small size=0: %v, want a bad parameter (below Min)", err)
	}
}

// TestRegisteredWorkloads builds every registered alloc workload with its defaults
// and checks what gcperf list and the reports show of it.
func TestRegisteredWorkloads(t *testing.T) {
	want := map[string]string{
		"alloc.list":  "size=1024 base=32 chunk=32",
		"alloc.tree":  "depth=12 live=18",
		"alloc.small": "n=100000 size=32",
		"alloc.ring":  "k=10000 size=1024 per=100 fluff=0",
		"alloc.map":   "k=100000 value=64 frac=0.1",
	}
	units := map[string]string{"alloc.list": "objects", "alloc.tree": "nodes", "alloc.small": "objects", "alloc.ring": "buffers", "alloc.map": "entries"}
	seen := 0
	for _, s := range workload.Specs() {
		if !strings.HasPrefix(s.Name, "alloc.") {
			continue
		}
		seen++
		if s.Doc == "" {
			t.Errorf("%s has no Doc", s.Name)
		}
		for _, p := range s.Params {
			if p.Default == "" || p.Doc == "" || p.Min == "" {
				t.Errorf("%s -%s: default %q, min %q, doc %q: want all three", s.Name, p.Name, p.Default, p.Min, p.Doc)
			}
		}
		op := newOp(t, s.Name, nil)
		if op.Name() != s.Name {
			t.Errorf("%s builds an operation named %s", s.Name, op.Name())
		}
		if got := op.Describe(); got != want[s.Name] {
			t.Errorf("%s Describe = %q, want %q", s.Name, got, want[s.Name])
		}
		if got := op.Unit(); got != units[s.Name] {
			t.Errorf("%s Unit = %q, want %q", s.Name, got, units[s.Name])
		}
		if lb := op.LiveBytes(); lb <= 0 || lb == math.MaxInt64 {
			t.Errorf("%s LiveBytes at its defaults = %d", s.Name, lb)
		}
		c := op.Clone()
		if c == workload.Operation(op) || c.(stepper).Describe() != op.Describe() {
			t.Errorf("%s Clone: %p %q, want a new operation with the same parameters", s.Name, c, c.(stepper).Describe())
		}
	}
	if seen != len(want) {
		t.Errorf("%d alloc workloads registered, want %d", seen, len(want))
	}
	op := newOp(t, "alloc.ring", map[string]string{"k": "50", "size": "8", "per": "5", "fluff": "100"})
	if d := op.Describe(); d != "k=50 size=8 per=5 fluff=100" {
		t.Errorf("Describe = %q", d)
	}
}

// TestWorkloadsAllocateWhatTheyClaim measures each workload's bytes allocated per
// run (runtime/metrics /gc/heap/allocs:bytes over many Steps) against the
// bytes its parameters imply, computed by hand. Go counts an object in the
// bytes of its size class (16, 24, 32, 48, 64, ..., 512, 576, ..., 1024,
// ...) or in whole 8 KiB pages above 32 KiB, so the sizes below are size
// classes unless a comment says how they round.
func TestWorkloadsAllocateWhatTheyClaim(t *testing.T) {
	tests := []struct {
		name string
		args map[string]string
		want int64 // bytes per run
		tiny bool  // relies on the tiny allocator, which the race detector disables
	}{
		// 2^(d+1)-1 nodes of 16 bytes (two pointers, a size class).
		{"alloc.tree", nil, 8191 * 16, false},
		{"alloc.tree", map[string]string{"depth": "10", "live": "4"}, 2047 * 16, false},
		{"alloc.tree", map[string]string{"depth": "0", "live": "0"}, 16, false},
		// n objects of size bytes; the slice holding them is Setup's.
		{"alloc.small", nil, 100000 * 32, false},
		{"alloc.small", map[string]string{"n": "1000", "size": "64"}, 64000, false},
		{"alloc.small", map[string]string{"n": "1000", "size": "48"}, 48000, false},
		{"alloc.small", map[string]string{"n": "1000", "size": "33"}, 1000 * 48, false},      // 33 rounds up to the 48-byte class
		{"alloc.small", map[string]string{"n": "1000", "size": "1000"}, 1000 * 1024, false},  // 1000 rounds up to 1024
		{"alloc.small", map[string]string{"n": "20", "size": "40000"}, 20 * 5 * 8192, false}, // large: 5 pages
		{"alloc.small", map[string]string{"n": "1000", "size": "8"}, 1000 * 8, true},         // two to a 16-byte tiny block
		{"alloc.small", map[string]string{"n": "999", "size": "5"}, 333 * 16, true},          // three to a block
		// per buffers of size bytes, plus fluff in pieces of at most size bytes.
		{"alloc.ring", nil, 100 * 1024, false},
		{"alloc.ring", map[string]string{"k": "1000", "per": "100", "fluff": "10240"}, 100*1024 + 10240, false},
		// 1000 rounds up to 1024; the fluff is two pieces of 1000 (1024 each) and one of 500 (512).
		{"alloc.ring", map[string]string{"k": "500", "size": "1000", "per": "50", "fluff": "2500"}, 50*1024 + 2*1024 + 512, false},
		// round(frac*k) values of value bytes; Setup has grown the map to
		// the size it keeps under churn, so the map itself allocates nothing.
		{"alloc.map", nil, 10000 * 64, false},
		{"alloc.map", map[string]string{"k": "10000", "frac": "0.05"}, 500 * 64, false},
		{"alloc.map", map[string]string{"k": "2000", "value": "1024", "frac": "0.5"}, 1000 * 1024, false},
	}
	for _, tt := range tests {
		if tt.tiny && raceEnabled {
			continue
		}
		op := newOp(t, tt.name, tt.args)
		if err := op.Setup(context.Background()); err != nil {
			t.Fatal(err)
		}
		// Enough runs for 8 MiB or more: the runtime counts small objects
		// when their span is handed back, so a span's worth (8 KiB or more)
		// may not be counted yet.
		runs := int(max(8<<20/tt.want, 20))
		for range 3 {
			op.Step()
		}
		runtime.GC()
		before := readMetric("/gc/heap/allocs:bytes")
		for range runs {
			op.Step()
		}
		got := float64(readMetric("/gc/heap/allocs:bytes")-before) / float64(runs)
		_ = op.Teardown()
		want := float64(tt.want)
		if got < want*0.95 || got > want*1.05 {
			t.Errorf("%s %s: %.0f bytes per run, want %.0f within 5%%", tt.name, op.Describe(), got, want)
		} else {
			t.Logf("%s %s: %.0f bytes per run, want %.0f (%+.2f%%)", tt.name, op.Describe(), got, want, 100*(got/want-1))
		}
	}
}

// TestLiveBytesClaims measures the live heap a workload holds at its peak
// (after Setup, and for tree and small with a run's objects still held)
// against LiveBytes: the bytes /gc/heap/live:bytes gains, read after a
// runtime.GC before and after, within 10%. For the map, LiveBytes is an
// upper estimate of the map's own memory (see mapEntryBytes), close at the
// defaults, 30% high for k=10000 with small values.
func TestLiveBytesClaims(t *testing.T) {
	tests := []struct {
		name  string
		args  map[string]string
		upper bool // LiveBytes only bounds the live heap from above
		tiny  bool
	}{
		{"alloc.tree", nil, false, false},
		{"alloc.tree", map[string]string{"depth": "14", "live": "14"}, false, false},
		{"alloc.small", nil, false, false},
		{"alloc.small", map[string]string{"n": "100000", "size": "8"}, false, true},
		{"alloc.ring", nil, false, false},
		{"alloc.ring", map[string]string{"k": "20000", "size": "100", "fluff": "1000000"}, false, false},
		{"alloc.map", nil, false, false},
		{"alloc.map", map[string]string{"k": "10000", "value": "1024"}, false, false},
		{"alloc.map", map[string]string{"k": "10000", "value": "64"}, true, false},
	}
	for _, tt := range tests {
		if tt.tiny && raceEnabled {
			continue
		}
		op := newOp(t, tt.name, tt.args)
		runtime.GC()
		base := readMetric("/gc/heap/live:bytes")
		if err := op.Setup(context.Background()); err != nil {
			t.Fatal(err)
		}
		release := func() {}
		switch o := op.(type) {
		case *Tree:
			root := bottomUp(o.Depth)
			release = func() { runtime.KeepAlive(root) }
		case *Small:
			o.fill()
			release = o.drop
		}
		runtime.GC()
		got := float64(readMetric("/gc/heap/live:bytes")) - float64(base)
		release()
		_ = op.Teardown()
		claim := float64(op.LiveBytes())
		if got > claim*1.10 || !tt.upper && got < claim*0.90 {
			t.Errorf("%s %s: %.0f bytes live, LiveBytes claims %.0f (%+.1f%%)", tt.name, op.Describe(), got, claim, 100*(got/claim-1))
		} else {
			t.Logf("%s %s: %.0f bytes live, LiveBytes claims %.0f (%+.1f%%)", tt.name, op.Describe(), got, claim, 100*(got/claim-1))
		}
	}
}

// TestWorkloadsThroughEngine runs each workload through workload.Run with small
// parameters: every run counts what one Step makes.
func TestWorkloadsThroughEngine(t *testing.T) {
	tests := []struct {
		name   string
		args   map[string]string
		perRun int64
		unit   string
	}{
		{"alloc.tree", map[string]string{"depth": "6", "live": "10"}, 127, "nodes"},
		{"alloc.small", map[string]string{"n": "500", "size": "24"}, 500, "objects"},
		{"alloc.ring", map[string]string{"k": "100", "size": "64", "per": "7", "fluff": "300"}, 7, "buffers"},
		{"alloc.map", map[string]string{"k": "1000", "value": "16", "frac": "0.25"}, 250, "entries"},
	}
	for _, tt := range tests {
		op := newOp(t, tt.name, tt.args)
		cfg := workload.DefaultConfig()
		cfg.Warmups, cfg.Runs, cfg.Seed = 3, 20, 1
		res, err := workload.Run(context.Background(), cfg, workload.Mix{op})
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if got := res.Operations[0].Stats.Results; got != 20*tt.perRun {
			t.Errorf("%s: results %d, want %d", tt.name, got, 20*tt.perRun)
		}
		if res.Unit != tt.unit || res.P99.PerRun != float64(tt.perRun) {
			t.Errorf("%s: unit %q, per run %v; want %s, %d", tt.name, res.Unit, res.P99.PerRun, tt.unit, tt.perRun)
		}
	}
}

// TestSetupHonoursContext: a cancelled Setup stops with the context's
// error and keeps nothing.
func TestSetupHonoursContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	tree, _ := NewTree(2, 16)
	ring, _ := NewRing(5000, 64, 1, 0)
	m, _ := NewMap(5000, 8, 0.1)
	for _, op := range []stepper{tree, ring, m} {
		if err := op.Setup(ctx); !errors.Is(err, context.Canceled) {
			t.Errorf("%s: Setup with a cancelled context = %v, want context.Canceled", op.Name(), err)
		}
	}
	if tree.long != nil || ring.ring != nil || m.m != nil {
		t.Errorf("a cancelled Setup kept its partial state")
	}
}

// TestTeardownDrops: Teardown drops every reference to the workload's
// memory; Clone shares none of it.
func TestTeardownDrops(t *testing.T) {
	tree, _ := NewTree(3, 5)
	small, _ := NewSmall(10, 16)
	ring, _ := NewRing(10, 16, 2, 64)
	m, _ := NewMap(10, 16, 0.5)
	for _, op := range []stepper{tree, small, ring, m} {
		if err := op.Setup(context.Background()); err != nil {
			t.Fatal(err)
		}
		op.Step()
	}
	if tree.long == nil || small.objs == nil || ring.ring == nil || m.m == nil {
		t.Fatal("Setup built nothing")
	}
	if c := tree.Clone().(*Tree); c.long != nil {
		t.Error("a Tree's clone shares its long-lived tree")
	}
	if c := small.Clone().(*Small); c.objs != nil {
		t.Error("a Small's clone shares its slice")
	}
	if c := ring.Clone().(*Ring); c.ring != nil || c.Fluff != 64 {
		t.Error("a Ring's clone shares its ring, or lost its parameters")
	}
	if c := m.Clone().(*Map); c.m != nil || c.Frac != 0.5 {
		t.Error("a Map's clone shares its map, or lost its parameters")
	}
	for _, op := range []stepper{tree, small, ring, m} {
		if err := op.Teardown(); err != nil {
			t.Fatal(err)
		}
	}
	if tree.long != nil || small.objs != nil || ring.ring != nil || ring.fluff != nil || m.m != nil {
		t.Error("Teardown kept a reference")
	}
}

func TestTreeSemantics(t *testing.T) {
	for _, tt := range []struct {
		depth int
		nodes int64
	}{{0, 1}, {1, 3}, {2, 7}, {10, 2047}, {12, 8191}} {
		if got := bottomUp(tt.depth).check(); got != tt.nodes || treeNodes(tt.depth) != tt.nodes {
			t.Errorf("depth %d: %d nodes built, treeNodes %d; want %d", tt.depth, got, treeNodes(tt.depth), tt.nodes)
		}
	}
	if n := treeNodes(maxTreeDepth); n != math.MaxInt64 {
		t.Errorf("treeNodes(62) = %d, want 2^63-1", n)
	}
	tr, _ := NewTree(5, 13)
	if err := tr.Setup(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := tr.long.check(); got != treeNodes(13) {
		t.Errorf("long-lived tree of depth 13 (built with context checks) has %d nodes, want %d", got, treeNodes(13))
	}
	tr.Step()
	if tr.Checked() != 63 {
		t.Errorf("a run of depth 5 checked %d nodes, want 63", tr.Checked())
	}
}

func TestSmallSemantics(t *testing.T) {
	s, _ := NewSmall(4, 3)
	s.Step() // without Setup: allocates the slice itself
	if len(s.objs) != 4 {
		t.Fatalf("slice of %d, want 4", len(s.objs))
	}
	s.fill()
	for i, b := range s.objs {
		if len(b) != 3 || b[0] != byte(i) {
			t.Errorf("object %d = %v, want 3 bytes starting with %d", i, b, i)
		}
	}
	s.drop()
	if slices.ContainsFunc(s.objs, func(b []byte) bool { return b != nil }) {
		t.Error("a run kept its objects")
	}
}

func TestRingSemantics(t *testing.T) {
	r, _ := NewRing(5, 4, 3, 10)
	if err := r.Setup(context.Background()); err != nil {
		t.Fatal(err)
	}
	first := func() []byte {
		var f []byte
		for _, b := range r.ring {
			f = append(f, b[0])
		}
		return f
	}
	if got := first(); !slices.Equal(got, []byte{0, 1, 2, 3, 4}) {
		t.Fatalf("after Setup the buffers hold %v, want 0..4", got)
	}
	r.Step() // replaces buffers 0, 1, 2 (the oldest) with buffers 5, 6, 7
	if got := first(); !slices.Equal(got, []byte{5, 6, 7, 3, 4}) || r.next != 3 {
		t.Errorf("after one run: %v, next %d; want [5 6 7 3 4], next 3", got, r.next)
	}
	r.Step() // wraps: replaces 3, 4, then 0
	if got := first(); !slices.Equal(got, []byte{10, 6, 7, 8, 9}) || r.next != 1 {
		t.Errorf("after two runs: %v, next %d; want [10 6 7 8 9], next 1", got, r.next)
	}
	for i, b := range r.ring {
		if len(b) != 4 || b[3] != b[0] {
			t.Errorf("buffer %d = %v, want 4 bytes of one value", i, b)
		}
	}
	if r.fluff != nil {
		t.Error("a run kept its fluff")
	}
}

func TestMapSemantics(t *testing.T) {
	for _, tt := range []struct {
		k    int
		frac float64
		want int
	}{
		{100000, 0.1, 10000}, {10, 0, 0}, {10, 0.04, 1}, {3, 0.5, 2}, {7, 1, 7}, {1000, 0.0015, 2},
	} {
		m, _ := NewMap(tt.k, 8, tt.frac)
		if got := m.Replaced(); got != tt.want {
			t.Errorf("k=%d frac=%v replaces %d, want %d", tt.k, tt.frac, got, tt.want)
		}
	}
	m, _ := NewMap(100, 8, 0.25)
	if err := m.Setup(context.Background()); err != nil {
		t.Fatal(err)
	}
	// Setup inserted keys 0..99, then replaced them all with 100..199.
	if m.Len() != 100 || m.oldest != 100 || m.newest != 200 {
		t.Fatalf("after Setup: %d entries, keys [%d, %d); want 100, [100, 200)", m.Len(), m.oldest, m.newest)
	}
	m.Step()
	if m.Len() != 100 || m.oldest != 125 || m.newest != 225 {
		t.Errorf("after a run: %d entries, keys [%d, %d); want 100, [125, 225)", m.Len(), m.oldest, m.newest)
	}
	for k := int64(125); k < 225; k++ {
		if v, ok := m.m[k]; !ok || len(v) != 8 || v[0] != byte(k) {
			t.Fatalf("key %d: %v, %v", k, v, ok)
		}
	}
}

// TestHeapSizes checks the rounding the claims rely on against Go's size
// classes, by hand.
func TestHeapSizes(t *testing.T) {
	for _, tt := range []struct {
		size     int64
		pointers bool
		want     int64
	}{
		{16, true, 16}, {24, false, 24}, {32, false, 32}, {33, false, 48}, {48, false, 48}, {64, false, 64},
		{100, false, 112}, {500, false, 512}, {512, true, 512}, {513, false, 576},
		{568, true, 576}, {569, true, 640}, {569, false, 576}, // a pointerful object over 512 bytes has an 8-byte header
		{1000, false, 1024}, {1024, false, 1024}, {32760, false, 32768}, {32768, false, 32768},
		{32761, false, 32768}, {32760, true, 32768}, {32769, false, 40960}, {40000, false, 40960}, {2400000, true, 2400256},
	} {
		if got := objectBytes(tt.size, tt.pointers); got != tt.want {
			t.Errorf("objectBytes(%d, %v) = %d, want %d", tt.size, tt.pointers, got, tt.want)
		}
	}
	for _, tt := range []struct{ count, size, want int64 }{
		{1000, 8, 8000}, {999, 5, 333 * 16}, {1000, 5, 334 * 16}, {7, 12, 7 * 16}, {10, 1, 16}, {17, 1, 32}, {3, 64, 192},
	} {
		if got := heapBytes(tt.count, tt.size, false); got != tt.want {
			t.Errorf("heapBytes(%d, %d) = %d, want %d", tt.count, tt.size, got, tt.want)
		}
	}
}

// TestLiveBytesSaturates: absurd parameters make LiveBytes math.MaxInt64, so
// the memory check refuses them, rather than wrap to something small.
func TestLiveBytesSaturates(t *testing.T) {
	tree, _ := NewTree(maxTreeDepth, 3)
	small, _ := NewSmall(math.MaxInt, 1<<40)
	ring, _ := NewRing(math.MaxInt/2, 1<<20, 1, 0)
	m, _ := NewMap(math.MaxInt/8, 1<<20, 1)
	for _, op := range []stepper{tree, small, ring, m} {
		if got := op.LiveBytes(); got != math.MaxInt64 {
			t.Errorf("%s %s: LiveBytes = %d, want math.MaxInt64", op.Name(), op.Describe(), got)
		}
	}
	// At the defaults, by hand.
	for _, tt := range []struct {
		name string
		want int64
	}{
		{"alloc.tree", (524287 + 8191) * 16},
		{"alloc.small", 2400256 + 100000*32},            // the slice: 2400000 bytes in whole pages
		{"alloc.ring", 245760 + 10001*1024},             // the ring: 240000 bytes in whole pages
		{"alloc.map", 100000*mapEntryBytes + 100001*64}, // an estimate of the map, and its values
	} {
		if got := newOp(t, tt.name, nil).LiveBytes(); got != tt.want {
			t.Errorf("%s LiveBytes at its defaults = %d, want %d", tt.name, got, tt.want)
		}
	}
}
