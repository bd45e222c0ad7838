// Package alloc provides allocation workloads as workload operations.
// Importing it registers them by name.
//
// alloc.list is GCPerfP99's workload: a doubly linked list of objects of
// size KB (each holds size*128 int64 filled with i/2+i/3+i/4+i/5). Setup
// adds base objects that stay alive; each run adds chunk objects at the head
// and removes chunk objects from the tail, so it allocates chunk*size KB that
// become garbage, while the live set stays at base (up to base+chunk)
// objects. A run counts chunk results, in "objects".
package alloc
