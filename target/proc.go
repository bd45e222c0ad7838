package target

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"syscall"

	"github.com/prometheus/procfs"
)

// MaxTree is the most processes a tree walk reads; the rest of a larger
// tree is not counted (nor known to the stop).
const MaxTree = 4096

// A treeReader reads a process tree from root/proc: the process pid (the
// child, leader of its own process group) and its descendants. It finds a
// process's children in root/proc/<pid>/task/<tid>/children, one file per
// thread (the kernel's CONFIG_PROC_CHILDREN), so a walk reads the tree's
// files only; on a kernel without them it reads the parent of every
// process of root/proc instead.
//
// It remembers every descendant it has seen, while it lives (by its pid
// and its start time, so a reused pid is not taken for it): one that left
// the process group, or whose parent died before it, is still the child's
// to stop.
//
// In a process that is a subreaper (Subreaper), the orphans of the tree
// (a process whose parent ended: a double fork, a daemon) become this
// process's children: a walk takes those ascribed to the tree (registry)
// as roots of it beside the child, and reaps those that have ended.
type treeReader struct {
	fs    procfs.FS
	proc  string // root/proc
	pid   int
	start uint64 // the child's start time, in clock ticks since boot
	// dying counts the orphans ascribed to the tree that have ended but
	// could not be waited for yet, at the last walk.
	dying int
	scan  bool
	known map[int]member // descendants seen, not the child itself
}

// member is a descendant as a walk saw it.
type member struct {
	start uint64 // the start time, in clock ticks since boot
	pgrp  int
}

// newTreeReader reads the tree of process pid under root ("/" for the
// live machine). It fails when root/proc/<pid> cannot be read (no /proc,
// not Linux).
func newTreeReader(root string, pid int) (*treeReader, error) {
	proc := filepath.Join(root, "proc")
	pfs, err := procfs.NewFS(proc)
	if err != nil {
		return nil, err
	}
	t := &treeReader{fs: pfs, proc: proc, pid: pid, known: map[int]member{}}
	st, err := t.stat(pid)
	if err != nil {
		return nil, err
	}
	t.start = st.Starttime
	_, err = os.Stat(filepath.Join(proc, strconv.Itoa(pid), "task", strconv.Itoa(pid), "children"))
	t.scan = errors.Is(err, fs.ErrNotExist)
	return t, nil
}

func (t *treeReader) stat(pid int) (procfs.ProcStat, error) {
	p, err := t.fs.Proc(pid)
	if err != nil {
		return procfs.ProcStat{}, err
	}
	return p.Stat()
}

// walk reads the tree: the sum of its processes' resident sets, in bytes,
// and their number (zombies, which hold no memory, left out). ok is false
// when the child itself cannot be read or has ended (a zombie, whose
// children the kernel has given to another parent already).
//
// The orphans ascribed to the tree (adopted) are read as roots of it beside
// the child.
func (t *treeReader) walk() (rss int64, n int, ok bool) {
	root, err := t.stat(t.pid)
	if err != nil || root.State == "Z" {
		return 0, 0, false
	}
	var parents map[int][]int
	if t.scan {
		parents = t.parents()
	}
	rss, n = t.visit(append([]int{t.pid}, t.adopted(parents)...), root, parents)
	return rss, n, true
}

// adopt reads, once the child has ended, the orphans ascribed to the tree
// and their descendants into the known descendants.
func (t *treeReader) adopt() {
	var parents map[int][]int
	if t.scan {
		parents = t.parents()
	}
	t.visit(t.adopted(parents), procfs.ProcStat{}, parents)
}

// adopted lists the orphans ascribed to the tree among this process's
// children, in a process that is a subreaper; parents is the map of
// parents() when the kernel has no children files.
func (t *treeReader) adopted(parents map[int][]int) []int {
	reg.mu.Lock()
	on := reg.subreaper
	reg.mu.Unlock()
	if !on {
		return nil
	}
	self := os.Getpid()
	kids := parents[self]
	if !t.scan {
		kids = t.children(self)
	}
	var mine []int
	mine, t.dying = reg.adopted(t, kids)
	return mine
}

// visit reads the processes of queue and their descendants, breadth
// first, into the known descendants, and returns the sum of their
// resident sets and their number; root is the child's stat, when the
// child is in queue. It forgets a known descendant it did not reach that
// has ended.
func (t *treeReader) visit(queue []int, root procfs.ProcStat, parents map[int][]int) (rss int64, n int) {
	seen := map[int]bool{}
	for _, pid := range queue {
		seen[pid] = true
	}
	for len(queue) > 0 && n < MaxTree {
		pid := queue[0]
		queue = queue[1:]
		st := root
		if pid != t.pid {
			var err error
			if st, err = t.stat(pid); err != nil || st.State == "Z" {
				if ended(err, st) {
					delete(t.known, pid) // since its parent was read
				}
				continue
			}
			if _, ok := t.known[pid]; ok || len(t.known) < MaxTree {
				t.known[pid] = member{start: st.Starttime, pgrp: st.PGRP}
			}
		}
		rss += int64(st.ResidentMemory())
		n++
		var kids []int
		if t.scan {
			kids = parents[pid]
		} else {
			kids = t.children(pid)
		}
		for _, k := range kids {
			if !seen[k] {
				seen[k] = true
				queue = append(queue, k)
			}
		}
	}
	for pid := range t.known {
		if !seen[pid] {
			t.alive(pid) // escaped: reparented, or ended
		}
	}
	return rss, n
}

// hwm is the child's own peak resident set since its exec, in bytes
// (VmHWM of root/proc/<pid>/status), 0 when it cannot be read.
func (t *treeReader) hwm() int64 {
	p, err := t.fs.Proc(t.pid)
	if err != nil {
		return 0
	}
	st, err := p.NewStatus()
	if err != nil {
		return 0
	}
	return int64(st.VmHWM)
}

// children lists the children of every thread of process pid.
func (t *treeReader) children(pid int) []int {
	dir := filepath.Join(t.proc, strconv.Itoa(pid), "task")
	tasks, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var kids []int
	for _, task := range tasks {
		b, err := os.ReadFile(filepath.Join(dir, task.Name(), "children"))
		if err != nil {
			continue
		}
		kids = parseChildren(b, kids)
	}
	return kids
}

// parseChildren appends the pids of a children file ("101 102 ") to kids;
// a field that is not a pid is skipped.
func parseChildren(b []byte, kids []int) []int {
	for f := range bytes.FieldsSeq(b) {
		if pid, err := strconv.Atoi(string(f)); err == nil && pid > 0 {
			kids = append(kids, pid)
		}
	}
	return kids
}

// parents maps each process of root/proc to its children, from every
// process's stat.
func (t *treeReader) parents() map[int][]int {
	procs, err := t.fs.AllProcs()
	if err != nil {
		return nil
	}
	m := map[int][]int{}
	for _, p := range procs {
		if st, err := p.Stat(); err == nil {
			m[st.PPID] = append(m[st.PPID], p.PID)
		}
	}
	return m
}

// living returns the descendants seen that are still running (not
// zombies) and forgets those that are not: a pid whose process has ended,
// or that now names another process.
func (t *treeReader) living() map[int]member {
	for pid := range t.known {
		t.alive(pid)
	}
	return t.known
}

// alive says whether the known descendant pid still runs, forgetting it
// when it does not, and updates its process group.
func (t *treeReader) alive(pid int) bool {
	st, err := t.stat(pid)
	if err != nil && !ended(err, st) {
		return true // unreadable: kept, not taken for gone
	}
	if ended(err, st) || st.Starttime != t.known[pid].start {
		delete(t.known, pid)
		return false
	}
	t.known[pid] = member{start: st.Starttime, pgrp: st.PGRP}
	return true
}

// ended says whether a stat's reading shows its process has ended: no
// such process, or a zombie.
func ended(err error, st procfs.ProcStat) bool {
	if err != nil {
		return errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ESRCH)
	}
	return st.State == "Z"
}

// group lists the running processes of process group pgrp (zombies left
// out), reading every process of root/proc.
func (t *treeReader) group(pgrp int) []int {
	procs, err := t.fs.AllProcs()
	if err != nil {
		return nil
	}
	var pids []int
	for _, p := range procs {
		if st, err := p.Stat(); err == nil && st.PGRP == pgrp && st.State != "Z" {
			pids = append(pids, p.PID)
		}
	}
	return pids
}
