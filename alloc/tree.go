package alloc

import (
	"context"
	"fmt"

	"github.com/gcperf/gcperf/internal/sat"
	"github.com/gcperf/gcperf/workload"
)

// alloc.tree's defaults: the shape of the binary-trees benchmark (Boehm's
// GCBench, the Benchmarks Game) at a size that runs in about a millisecond.
const (
	DefaultTreeDepth = 12 // each run builds 8191 nodes (128 KiB)
	DefaultTreeLive  = 18 // 524287 long-lived nodes (8 MiB)
	maxTreeDepth     = 62 // 2^63-1 nodes, the most an int64 counts
	nodeBytes        = 16 // two pointers: a size class of its own
	treeCheckDepth   = 12 // Setup checks its context every 8191 nodes
)

func init() {
	workload.MustRegister(workload.Spec{
		Name: "alloc.tree",
		Doc:  "binary trees: each run builds, checks and drops a complete tree of the given depth, beside a long-lived tree of depth live built by Setup (pointer-dense marking work, the GC-bench binary-trees shape)",
		Params: []workload.Param{
			{Name: "depth", Kind: workload.Int, Default: fmt.Sprint(DefaultTreeDepth), Min: "0", Doc: "depth of the tree each run builds and drops (2^(depth+1)-1 nodes of 16 bytes)"},
			{Name: "live", Kind: workload.Int, Default: fmt.Sprint(DefaultTreeLive), Min: "0", Doc: "depth of the tree built by Setup and kept alive"},
		},
		New: func(p workload.Params) (workload.Operation, error) {
			return NewTree(int(p.Int("depth")), int(p.Int("live")))
		},
	})
}

// Tree is the binary-trees workload. Setup builds a complete binary tree of
// depth Live that stays reachable for the whole benchmark; each run builds a
// complete binary tree of depth Depth bottom-up, walks it to count its nodes
// (the benchmark's check, which also keeps the compiler from discarding it)
// and drops it.
//
// It stresses marking: every node is a 16-byte object holding two pointers,
// so the collector's work is all pointer chasing, over 2^(Live+1)-1 long-lived
// nodes per cycle, while the runs allocate 2^(Depth+1)-1 short-lived ones at
// the allocator's fastest size class. A run allocates (2^(Depth+1)-1)*16
// bytes and counts its nodes as results ("nodes").
type Tree struct {
	Depth, Live int

	long    *node // the long-lived tree
	checked int64 // nodes counted by the last run's check
}

// A node is the benchmark's tree node: two pointers, 16 bytes, no payload.
// A leaf has both nil.
type node struct{ left, right *node }

// NewTree checks the parameters and returns a Tree. Its errors are
// *workload.ConfigError values naming the parameter.
func NewTree(depth, live int) (*Tree, error) {
	bad := func(field string, v int) error {
		return &workload.ConfigError{Field: field, Msg: fmt.Sprintf("must be between 0 and %d (2^%d-1 nodes), got %d", maxTreeDepth, maxTreeDepth+1, v)}
	}
	switch {
	case depth < 0 || depth > maxTreeDepth:
		return nil, bad("depth", depth)
	case live < 0 || live > maxTreeDepth:
		return nil, bad("live", live)
	}
	return &Tree{Depth: depth, Live: live}, nil
}

func (*Tree) Name() string { return "alloc.tree" }

// Unit is what a run's results count.
func (*Tree) Unit() string { return "nodes" }

func (t *Tree) Describe() string { return fmt.Sprintf("depth=%d live=%d", t.Depth, t.Live) }

// Clone gives each goroutine its own trees.
func (t *Tree) Clone() workload.Operation { return &Tree{Depth: t.Depth, Live: t.Live} }

// treeNodes is the number of nodes of a complete binary tree of depth d
// (0 <= d <= 62): 2^(d+1)-1.
func treeNodes(d int) int64 { return int64(uint64(1)<<(d+1) - 1) }

// LiveBytes is the long-lived tree plus the one a run holds, 16 bytes a
// node, saturating at math.MaxInt64.
func (t *Tree) LiveBytes() int64 {
	return sat.Mul(sat.Add(treeNodes(t.Live), treeNodes(t.Depth)), nodeBytes)
}

// Setup builds the long-lived tree. It stops early, with the context's
// error, when ctx is cancelled: a deep tree takes a while.
func (t *Tree) Setup(ctx context.Context) error {
	t.long = nil
	long, err := buildTree(ctx, t.Live)
	if err != nil {
		return err
	}
	t.long = long
	return nil
}

// Teardown drops the long-lived tree, so its memory can be collected.
func (t *Tree) Teardown() error {
	t.long = nil
	return nil
}

// Run builds, checks and drops one tree.
func (t *Tree) Run(_ context.Context, p *workload.Probe) error {
	t.Step()
	p.Results(t.checked)
	return nil
}

// Step is one run without the engine: build a tree of depth Depth, count
// its nodes, drop it.
func (t *Tree) Step() {
	t.checked = bottomUp(t.Depth).check()
}

// Checked is the node count of the last run's tree: 2^(Depth+1)-1.
func (t *Tree) Checked() int64 { return t.checked }

// bottomUp builds a complete tree of depth d, children before parents.
func bottomUp(d int) *node {
	if d <= 0 {
		return &node{}
	}
	return &node{left: bottomUp(d - 1), right: bottomUp(d - 1)}
}

// check counts the nodes of a tree (the benchmark's itemCheck).
func (n *node) check() int64 {
	if n.left == nil {
		return 1
	}
	return 1 + n.left.check() + n.right.check()
}

// buildTree is bottomUp that checks ctx before each subtree deeper than
// treeCheckDepth.
func buildTree(ctx context.Context, d int) (*node, error) {
	if d <= treeCheckDepth {
		return bottomUp(d), nil
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	left, err := buildTree(ctx, d-1)
	if err != nil {
		return nil, err
	}
	right, err := buildTree(ctx, d-1)
	if err != nil {
		return nil, err
	}
	return &node{left: left, right: right}, nil
}
