// Package alloc provides allocation workloads as workload operations: each a
// different shape of garbage, for a different part of the collector and the
// allocator. Importing it registers them by name, with typed parameters and
// defaults that gcperf list shows; each has a constructor for Go code.
//
//	import _ "github.com/gcperf/gcperf/alloc" // registers alloc.list, alloc.tree...
//	op, err := workload.New("alloc.tree", map[string]string{"depth": "10"})
//
//	tree, err := alloc.NewTree(10, 18) // the same, typed
//	res, err := workload.Run(ctx, cfg, workload.Mix{tree})
//
// # The workloads
//
//   - alloc.list ([List]) is GCPerfP99's workload: a doubly linked list of
//     objects of size KB (each holds size*128 int64 filled with
//     i/2+i/3+i/4+i/5). Setup adds base objects that stay alive; each run
//     adds chunk objects at the head and removes chunk objects from the
//     tail, so it allocates chunk*size KB that become garbage, while the
//     live set stays at base (up to base+chunk) objects. Large objects:
//     it stresses the allocation of big spans and the heap's growth.
//   - alloc.tree ([Tree]): complete binary trees of 16-byte nodes, built and
//     dropped by each run beside a long-lived tree built by Setup: the
//     collector's work is all pointer chasing (marking), the GC-bench
//     binary-trees shape.
//   - alloc.small ([Small]): many tiny pointer-free objects per run: the
//     allocator's fast path (per-processor caches, span refills, the tiny
//     allocator under 16 bytes) and the sweeping of many dead objects.
//   - alloc.ring ([Ring]): a ring of buffers replaced oldest first, with
//     optional short-lived fluff: a large live set that ages, as
//     golang.org/x/benchmarks' gc_latency makes it, with write barriers into
//     old, marked memory.
//   - alloc.map ([Map]): a map whose oldest entries are deleted and replaced
//     each run: hashing, tombstones, and values dying in age order behind
//     the map's slots.
//
// # Guarantees
//
// Each workload states what one run allocates in terms of its parameters
// (rounded up to Go's size classes where that applies), and its tests check
// the claim against runtime/metrics. A run counts its results in a unit of
// its own ("objects", "nodes", "buffers", "entries"), so that reports give
// throughputs in it. Long-lived data is built by Setup, outside the timed
// runs, and dropped by Teardown; each workload implements
// workload.Footprinter, so that a caller can refuse a configuration that
// cannot fit in memory before allocating anything, and workload.Cloner, so
// that every goroutine of a multi-threaded benchmark has its own data. Step
// runs one run without the engine, for comparisons with a plain loop.
package alloc
