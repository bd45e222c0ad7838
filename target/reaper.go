package target

import (
	"maps"
	"os/exec"
	"slices"
	"sync"
)

// reg is what the package started in this process, as a whole: the
// children not yet waited for, the trees being watched, the orphans of
// those trees that this process adopted (Subreaper), and the Processes
// whose Wait has not returned (KillAll).
var reg = &registry{
	children: map[int]bool{},
	trees:    map[*treeReader]bool{},
	orphans:  map[int]orphan{},
	live:     map[*Process]bool{},
}

type registry struct {
	mu        sync.Mutex
	subreaper bool
	children  map[int]bool         // pids of the children started, until waited for
	trees     map[*treeReader]bool // the trees being watched
	orphans   map[int]orphan       // this process's children it did not start
	live      map[*Process]bool
}

// An orphan is a child of this process that the package did not start: a
// process of a tree whose parent ended, given to this process by the
// kernel because it is a subreaper.
type orphan struct {
	start uint64      // its start time, in clock ticks since boot
	tree  *treeReader // the tree it is ascribed to; nil: none
}

// Subreaper makes this process a child subreaper (Linux's
// PR_SET_CHILD_SUBREAPER): a process of a tree whose parent ends (a
// double fork, a daemon that called setsid) becomes this process's child
// instead of init's, so that the tree's stop finds it, stops it, waits for
// it and counts it. It is a setting of the whole process, for the program
// that calls it to decide (gcperf's main does): a child of this process
// that the package did not start is then taken for an orphan of the trees
// being watched, unless it is in this process's own process group (as
// os/exec starts a child by default: gopsutil's lsb_release), so such a
// program starts any other child through the package. Without it the package behaves as before: only the
// descendants a sample saw are found. Outside Linux it returns an error
// and changes nothing.
func Subreaper() error {
	if err := setSubreaper(); err != nil {
		return err
	}
	reg.mu.Lock()
	reg.subreaper = true
	reg.mu.Unlock()
	return nil
}

// KillAll kills every Process the package started in this process whose
// Wait has not returned, as Process.Kill does (why is their Result's
// Stopped; nil: ErrKilled), with their trees and the orphans adopted from
// them, and waits for them: for a program about to exit (gcperf at its
// third interrupt), so that nothing it started outlives it.
func KillAll(why error) {
	reg.mu.Lock()
	ps := slices.Collect(maps.Keys(reg.live))
	reg.mu.Unlock()
	for _, p := range ps {
		p.Kill(why)
	}
	for _, p := range ps {
		p.Wait()
	}
}

// adopted lists the orphans ascribed to tree t among kids, this process's
// children, and waits for (reaps) those that have ended, whoever's they
// were: nothing else would. dying counts t's that have ended but cannot
// be waited for yet (a Go program's main thread ends before its other
// threads: it shows as a zombie a moment before it can be reaped). An
// orphan is ascribed, when it is first seen, to the tree whose child
// leads its process group, else to the tree started last before it.
func (r *registry) adopted(t *treeReader, kids []int) (mine []int, dying int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	own := ownGroup()
	for _, pid := range kids {
		if r.children[pid] {
			continue
		}
		st, err := t.stat(pid)
		// In this process's own group: a child of its own that another
		// package started (gopsutil runs lsb_release), not an orphan.
		// Each Process leads a group of its own, and its descendants
		// stay in it or leave for one of theirs (setsid).
		if err != nil || st.PGRP == own {
			continue
		}
		o, ok := r.orphans[pid]
		if !ok || o.start != st.Starttime || o.tree == nil {
			o = orphan{start: st.Starttime, tree: r.owner(st.PGRP, st.Starttime)}
		}
		switch {
		case st.State == "Z" && reap(pid):
			delete(r.orphans, pid)
		case st.State == "Z":
			r.orphans[pid] = o
			if o.tree == t {
				dying++
			}
		default:
			r.orphans[pid] = o
			if o.tree == t {
				mine = append(mine, pid)
			}
		}
	}
	return mine, dying
}

// owner is the tree an orphan of process group pgrp, started at start, is
// ascribed to: the tree whose child leads the group, else the one started
// last at or before it, else nil.
func (r *registry) owner(pgrp int, start uint64) *treeReader {
	var last *treeReader
	for t := range r.trees {
		if t.pid == pgrp {
			return t
		}
		if t.start <= start && (last == nil || t.start > last.start) {
			last = t
		}
	}
	return last
}

// start starts cmd and records its child, at once: a walk that read this
// process's children in between would take it for an orphan.
func (r *registry) start(cmd *exec.Cmd) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if err := cmd.Start(); err != nil {
		return err
	}
	r.children[cmd.Process.Pid] = true
	return nil
}

// waited forgets the child pid once it has been waited for.
func (r *registry) waited(pid int) {
	r.mu.Lock()
	delete(r.children, pid)
	r.mu.Unlock()
}

// watch records p, and its tree t (nil without /proc), until unwatch.
func (r *registry) watch(p *Process, t *treeReader) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.live[p] = true
	if t != nil {
		r.trees[t] = true
	}
}

// unwatch forgets p and its tree once its watch has ended: the tree's
// orphans that have ended are waited for; one still running (unkilled)
// is no tree's.
func (r *registry) unwatch(p *Process, t *treeReader) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.live, p)
	if t == nil {
		return
	}
	delete(r.trees, t)
	for pid, o := range r.orphans {
		if o.tree != t {
			continue
		}
		if reap(pid) {
			delete(r.orphans, pid)
		} else {
			r.orphans[pid] = orphan{start: o.start}
		}
	}
}
