package report

// A layout orders the figures of an engine's type, which the document
// embeds, in the XML and the CSV as they were before it did: the fields it
// names first, in its order, each under the XML attribute and the CSV
// column (with its options) that it gives where the type's own tags say
// otherwise or nothing; then every other field, in field order under its
// tags. A figure added to the type so reaches the XML and the CSV after
// the others, with no change here; the JSON follows the type's own order.
type layout []laidOut

// laidOut is one field of a layout: its Go name, and the XML attribute
// and the CSV column to use instead of its tags' (empty: the tag's).
type laidOut struct{ field, xml, csv string }

// apply returns fields in the order of l, each field it names given the
// layout's names by set.
func apply[T any](l layout, fields []T, name func(*T) string, set func(*T, laidOut)) []T {
	out := make([]T, 0, len(fields))
	used := make([]bool, len(fields))
	for _, e := range l {
		for i := range fields {
			if !used[i] && name(&fields[i]) == e.field {
				used[i] = true
				f := fields[i]
				set(&f, e)
				out = append(out, f)
			}
		}
	}
	for i, f := range fields {
		if !used[i] {
			out = append(out, f)
		}
	}
	return out
}

// gcLayout is the collector's figures (GC) in the XML and the CSV:
// workload.GCSummary embeds runstats.GCDelta, whose fields, which have
// no csv tags, come first in the JSON; the XML and the CSV keep the order
// they had, and the XML the attribute "cycles" that gcperf/v1's JSON had.
var gcLayout = layout{
	{"Mode", "", ""},
	{"Cycles", "cycles", "GC Cycles"},
	{"Pauses", "", "STW Pauses"},
	{"STW", "", "STW Total"},
	{"Stopping", "", ""},
	{"STWMax", "", "STW Max"},
	{"PauseP50", "", ""},
	{"PauseP90", "", ""},
	{"PauseP99", "", ""},
	{"PauseP999", "", ""},
	{"AssistCPU", "", "GC Assist CPU"},
	{"DedicatedCPU", "", "GC Dedicated CPU"},
	{"IdleCPU", "", "GC Idle CPU"},
	{"PauseCPU", "", "GC Pause CPU"},
	{"GCCPU", "", "GC CPU"},
	{"TotalCPU", "", "Total CPU"},
	{"CPUFraction", "", ""},
	{"AllocBytes", "", "Alloc Bytes"},
	{"AllocObjects", "", "Alloc Objects"},
	{"AllocRate", "", ""},
	{"AllocBytesPerOp", "", ""},
	{"HeapLive", "", "Heap Live Bytes,omitzero"},
	{"HeapObjects", "", ""},
	{"HeapGoal", "", "Heap Goal Bytes"},
}
