package target

import (
	"fmt"
	"os"
	"strings"
)

// Settings are the collector's settings of a child, as its environment
// gives them to its runtime ("" where the environment does not set one).
type Settings struct {
	GOGC       string
	GOMEMLIMIT string
	GODEBUG    string
}

// Environ returns the environment the child gets, the settings it holds
// and, when the collector's trace may be absent although GCTrace asks for
// it, why (else ""):
//
//   - the base is Env, or the parent's environment when Env is nil;
//   - GOGC and GOMEMLIMIT, when set, replace the base's;
//   - with GCTrace set, GODEBUG gains gctrace=1 after the settings it
//     already holds (GODEBUG=madvdontneed=1 becomes
//     madvdontneed=1,gctrace=1). A gctrace of the base's own is kept as it
//     is, whatever its value, and the note says so: gctrace=0 turns the
//     trace off.
//
// A key set more than once in the base counts once, at its last value, as
// os/exec and the child's runtime read it; the result holds each key once.
func (c *Command) Environ() (env []string, set Settings, note string) {
	base := c.Env
	if base == nil {
		base = os.Environ()
	}
	last := map[string]int{} // key → index of its last entry in base
	for i, kv := range base {
		k, _, _ := strings.Cut(kv, "=")
		last[k] = i
	}
	value := func(k string) (string, bool) {
		i, ok := last[k]
		if !ok {
			return "", false
		}
		_, v, _ := strings.Cut(base[i], "=")
		return v, true
	}
	set.GOGC, _ = value("GOGC")
	set.GOMEMLIMIT, _ = value("GOMEMLIMIT")
	set.GODEBUG, _ = value("GODEBUG")
	if c.GOGC != "" {
		set.GOGC = c.GOGC
	}
	if c.GOMEMLIMIT != "" {
		set.GOMEMLIMIT = c.GOMEMLIMIT
	}
	if c.GCTrace {
		if v, ok := godebug(set.GODEBUG, "gctrace"); !ok {
			set.GODEBUG = joinDebug(set.GODEBUG, "gctrace=1")
		} else if v != "1" {
			note = fmt.Sprintf("the environment's GODEBUG sets gctrace=%s, which is kept: the collector's trace may be absent", v)
		}
	}

	env = make([]string, 0, len(base)+3)
	for i, kv := range base {
		k, _, _ := strings.Cut(kv, "=")
		switch {
		case last[k] != i:
			continue // an earlier duplicate, which the child would not see
		case k == "GOGC" || k == "GOMEMLIMIT" || k == "GODEBUG":
			continue // added below, once
		}
		env = append(env, kv)
	}
	for _, s := range [...]struct{ key, value string }{
		{"GOGC", set.GOGC}, {"GOMEMLIMIT", set.GOMEMLIMIT}, {"GODEBUG", set.GODEBUG},
	} {
		if _, inBase := last[s.key]; inBase || s.value != "" {
			env = append(env, s.key+"="+s.value)
		}
	}
	return env, set, note
}

// godebug returns the value of key in a GODEBUG list, the last one when it
// is there more than once, as the runtime reads it.
func godebug(list, key string) (string, bool) {
	var v string
	var found bool
	for s := range strings.SplitSeq(list, ",") {
		k, val, _ := strings.Cut(strings.TrimSpace(s), "=")
		if k == key {
			v, found = val, true
		}
	}
	return v, found
}

// joinDebug appends a setting to a GODEBUG list, without an empty element
// between them.
func joinDebug(list, setting string) string {
	list = strings.TrimRight(list, ", ")
	if list == "" {
		return setting
	}
	return list + "," + setting
}
