package env

// Fuzz targets for the parsers of cgroup v2 files (memory.max,
// memory.current, cpu.max), which a root given to Capture may hold
// anything in. go test runs the seeds;
// go test -run '^$' -fuzz '^FuzzParseCPUMax$' ./env explores.

import (
	"bytes"
	"errors"
	"io/fs"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/gcperf/gcperf/internal/fuzzcheck"
)

func FuzzParseCgroupValue(f *testing.F) {
	for _, s := range []string{
		"max\n", "1073741824\n", "  42 ", "0\n", "9223372036854775807\n", "max", " max \n",
		"lots", "", "A", "-1", "-5\n", // once two-line errors, or negatives taken as no limit
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		v, err := parseCgroupValue(b)
		s := string(bytes.TrimSpace(b))
		if err != nil {
			if v != -1 {
				t.Errorf("parseCgroupValue(%q) = %d and error %v", b, v, err)
			}
			if !errors.Is(err, fs.ErrInvalid) {
				t.Errorf("parseCgroupValue(%q): error %q does not wrap fs.ErrInvalid", b, err)
			}
			fuzzcheck.ErrText(t, err)
			return
		}
		// -1 is "max", no limit; a number of bytes is never negative.
		switch {
		case s == "max":
			if v != -1 {
				t.Errorf("parseCgroupValue(%q) = %d, want -1", b, v)
			}
		case v < 0:
			t.Errorf("parseCgroupValue(%q) = %d: a negative size, which reads as %s", b, v,
				map[bool]string{true: `"max"`, false: "no limit"}[v == -1])
		default:
			if back, err := parseCgroupValue([]byte(strconv.FormatInt(v, 10))); err != nil || back != v {
				t.Errorf("parseCgroupValue(%q) = %d, which reads back as %d, %v", b, v, back, err)
			}
		}
	})
}

func FuzzParseCPUMax(f *testing.F) {
	for _, s := range []string{
		"max 100000\n", "max", "50000 100000\n", "150000 100000\n", "200000 100000", "  400000   100000  ",
		"1000 1000", "lots", "", "150000", "150000 0", "-1 100000", "0 100000", "max lots", "1 2 3",
		"150000 100000 extra", "max 0", "max -1", "9223372036854775807 1", "1 9223372036854775807",
		"9223372036854775808 100000", "+5 +10", "max\t100000", "MAX 100000", "1.5 1",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		cpus, err := parseCPUMax(b)
		fields := strings.Fields(string(b))
		if err != nil {
			if cpus != nil {
				t.Errorf("parseCPUMax(%q) = %v and error %v", b, *cpus, err)
			}
			if !errors.Is(err, fs.ErrInvalid) {
				t.Errorf("parseCPUMax(%q): error %q does not wrap fs.ErrInvalid", b, err)
			}
			fuzzcheck.ErrText(t, err)
			return
		}
		if len(fields) == 0 || len(fields) > 2 {
			t.Fatalf("parseCPUMax(%q) accepted %d fields", b, len(fields))
		}
		if cpus == nil {
			if fields[0] != "max" {
				t.Errorf("parseCPUMax(%q) = no limit, but the quota is not max", b)
			}
			return
		}
		if len(fields) != 2 || !(*cpus > 0) || math.IsInf(*cpus, 0) {
			t.Fatalf("parseCPUMax(%q) = %v", b, *cpus)
		}
		// The same limit, written as the kernel writes it, reads the same.
		q, err1 := strconv.ParseInt(fields[0], 10, 64)
		p, err2 := strconv.ParseInt(fields[1], 10, 64)
		if err1 != nil || err2 != nil || q <= 0 || p <= 0 {
			t.Fatalf("parseCPUMax(%q) = %v from a quota or period that is not a positive integer", b, *cpus)
		}
		canon := strconv.FormatInt(q, 10) + " " + strconv.FormatInt(p, 10) + "\n"
		if back, err := parseCPUMax([]byte(canon)); err != nil || back == nil || *back != *cpus {
			t.Errorf("parseCPUMax(%q) = %v, but parseCPUMax(%q) = %v, %v", b, *cpus, canon, back, err)
		}
	})
}
