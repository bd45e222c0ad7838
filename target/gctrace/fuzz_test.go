package gctrace_test

// Fuzz targets: Parse against a second parser written from regular
// expressions, and the Scanner on any stderr. go test runs the seeds;
// go test -run '^$' -fuzz '^FuzzParse$' ./target/gctrace explores.

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gcperf/gcperf/target/gctrace"
)

// fixtures returns the contents of every fixture.
func fixtures(tb testing.TB) [][]byte {
	files, err := filepath.Glob("testdata/*.txt")
	if err != nil || len(files) == 0 {
		tb.Fatalf("no fixtures: %v", err)
	}
	var all [][]byte
	for _, file := range files {
		b, err := os.ReadFile(file)
		if err != nil {
			tb.Fatal(err)
		}
		all = append(all, b)
	}
	return all
}

// seeds adds every line of every fixture, and a few more.
func seeds(f *testing.F) {
	for _, b := range fixtures(f) {
		for _, line := range bytes.SplitAfter(b, []byte("\n")) {
			f.Add(line)
		}
	}
	for _, s := range []string{
		"gc 1 @0.0s 0%: 0+0+0 ms clock, 0+0/0/0+0 ms cpu, 0->0->0 MB, 0 MB goal, 1 P",
		"gc 1 @1s 1% (a) (b): 1+1+1 ms clock, 1+1/1/1+1 ms cpu, 1->1->1 MB, 1 MB goal, 1 MB x y, 1 P (c) (forced)",
		"gc 1 @1s 1%: 1+1+1 ms clock, 1+1/1/1+1 ms cpu, 1->1->1 MB, 1 MB goal, 5 P and more, 2 P",
		"gc 1 @1s 1%: 1+1+1 ms clock, 1+1/1/1+1 ms cpu, 1->1->1 MB, 1 MB goal, 5 Pages, 2 P",
		"gc 9999999999999999999 @4611686018.427387903s 1073741824%: 9223372036854+0+0 ms clock, 0+0/0/0+0 ms cpu, 9999999999999999999->0->0 MB, 0 MB goal, 1073741824 P",
		"gc 1 @1s 1%: 0.0000001+1+1 ms clock, 1+1/1/1+1 ms cpu, 1->1->1 MB, 1 MB goal, 1 P\r\n",
	} {
		f.Add([]byte(s))
	}
}

func FuzzParse(f *testing.F) {
	seeds(f)
	f.Fuzz(func(t *testing.T, line []byte) {
		c, ok := gctrace.Parse(line)
		want, wantOK := refParse(string(line))
		if ok != wantOK {
			t.Fatalf("Parse(%q): ok %v, the regexp parser says %v", line, ok, wantOK)
		}
		if !ok {
			if c != (gctrace.Cycle{}) {
				t.Errorf("Parse(%q) failed with a Cycle that is not zero: %+v", line, c)
			}
			return
		}
		if c != want {
			t.Fatalf("Parse(%q) =\n%+v\nthe regexp parser says\n%+v", line, c, want)
		}
		if !gctrace.IsTrace(line) {
			t.Errorf("Parse(%q) read a cycle, IsTrace says it is not the runtime's", line)
		}
		// Cut short anywhere after its wall times, the line still reads,
		// with a part of what it had. (Not its Ps: a part to come such as
		// "5 P and more, " cut after its P reads as the Ps.)
		b := bytes.TrimRight(line, "\r\n")
		for cut := len(b) - 1; cut > 0; cut -= 1 + len(b)/24 { // a Scanner a cut: some 24 of them

			s := gctrace.NewScanner(bytes.NewReader(b[:cut]))
			if !s.Scan() {
				continue
			}
			got := s.Cycle()
			if !got.Truncated || got.Has&^c.Has != 0 || got.N != c.N || got.SweepTermWall != c.SweepTermWall ||
				(got.Has&gctrace.HasGoal != 0 && got.HeapGoalMiB != c.HeapGoalMiB) {
				t.Fatalf("cut to %q: %+v, from %+v", b[:cut], *got, c)
			}
		}
	})
}

// The regexp parser: what Parse must read, written another way.
var (
	refLine = regexp.MustCompile(`^gc (\d+) @(\d+(?:\.\d+)?)s (\d+)%((?: \([^)]*\))*): ` +
		`([0-9.+]+) ms clock, ([0-9.+/]+) ms cpu, (\d+)->(\d+)->(\d+) MB, (\d+) MB goal, ` +
		`((?:\d+ [A-Za-z]+(?: [A-Za-z]+)*, )*)(\d+) P((?: \([^)]*\))*)$`)
	refNote   = regexp.MustCompile(` \(([^)]*)\)`)
	refPart   = regexp.MustCompile(`(\d+) ([A-Za-z]+(?: [A-Za-z]+)*), `)
	refNumber = regexp.MustCompile(`^(\d+)(?:\.(\d+))?$`)
	refClock  = regexp.MustCompile(`^([^+]+)\+([^+]+)\+([^+]+)(?:\+([^+]+)\+([^+]+))?$`)
	refCPU3   = regexp.MustCompile(`^([^+/]+)\+([^+/]+)/([^+/]+)/([^+/]+)\+([^+/]+)$`)
	refCPU5   = regexp.MustCompile(`^([^+/]+)\+([^+/]+)\+([^+/]+)\+([^+/]+)/([^+/]+)/([^+/]+)\+([^+/]+)$`)
)

func refParse(line string) (gctrace.Cycle, bool) {
	line = strings.TrimSuffix(line, "\n")
	line = strings.TrimSuffix(line, "\r")
	m := refLine.FindStringSubmatch(line)
	if m == nil {
		return gctrace.Cycle{}, false
	}
	bad := false
	uint := func(s string, most uint64) uint64 {
		v, err := strconv.ParseUint(s, 10, 64)
		if len(s) > 19 || err != nil || v > most {
			bad = true
		}
		return v
	}
	// decimal returns s × 10^scale, dropping the digits past it.
	decimal := func(s string, scale int) int64 {
		d := refNumber.FindStringSubmatch(s)
		if d == nil {
			bad = true
			return 0
		}
		whole := uint(d[1], (1<<62)/uint64(pow(scale)))
		frac := d[2] + strings.Repeat("0", scale)
		f, _ := strconv.ParseInt(frac[:scale], 10, 64)
		return int64(whole)*pow(scale) + f
	}
	ms := func(s string) time.Duration { return time.Duration(decimal(s, 6)) }

	c := gctrace.Cycle{
		N:          int(uint(m[1], 1<<62)),
		At:         time.Duration(decimal(m[2], 9)),
		CPUPercent: int(uint(m[3], 1<<30)),
		Has:        gctrace.HasClock | gctrace.HasCPU | gctrace.HasHeap | gctrace.HasGoal | gctrace.HasProcs,
	}
	for _, n := range refNote.FindAllStringSubmatch(m[4], -1) {
		c.LeakCheck = c.LeakCheck || n[1] == "checking for goroutine leaks"
	}
	clock := refClock.FindStringSubmatch(m[5])
	if clock == nil {
		return gctrace.Cycle{}, false
	}
	five := clock[4] != ""
	if five {
		c.Layout = gctrace.Layout15
		c.SweepTermWall, c.MarkTermWall = ms(clock[1]), ms(clock[5])
		c.MarkWall = ms(clock[2]) + ms(clock[3]) + ms(clock[4])
		cpu := refCPU5.FindStringSubmatch(m[6])
		if cpu == nil {
			return gctrace.Cycle{}, false
		}
		c.SweepTermCPU, c.ScanCPU = ms(cpu[1]), ms(cpu[2])+ms(cpu[3])
		c.AssistCPU, c.BackgroundCPU, c.IdleCPU, c.MarkTermCPU = ms(cpu[4]), ms(cpu[5]), ms(cpu[6]), ms(cpu[7])
	} else {
		c.Layout = gctrace.Layout17
		c.SweepTermWall, c.MarkWall, c.MarkTermWall = ms(clock[1]), ms(clock[2]), ms(clock[3])
		cpu := refCPU3.FindStringSubmatch(m[6])
		if cpu == nil {
			return gctrace.Cycle{}, false
		}
		c.SweepTermCPU, c.AssistCPU, c.BackgroundCPU, c.IdleCPU, c.MarkTermCPU = ms(cpu[1]), ms(cpu[2]), ms(cpu[3]), ms(cpu[4]), ms(cpu[5])
	}
	c.HeapStartMiB, c.HeapEndMiB, c.HeapLiveMiB = uint(m[7], 1<<64-1), uint(m[8], 1<<64-1), uint(m[9], 1<<64-1)
	c.HeapGoalMiB = uint(m[10], 1<<64-1)
	for _, p := range refPart.FindAllStringSubmatch(m[11], -1) {
		v := uint(p[1], 1<<64-1)
		switch p[2] {
		case "MB stacks":
			c.StacksMiB, c.Has = v, c.Has|gctrace.HasStacks
		case "MB globals":
			c.GlobalsMiB, c.Has = v, c.Has|gctrace.HasGlobals
		}
	}
	if c.Has&(gctrace.HasStacks|gctrace.HasGlobals) != 0 {
		if five {
			return gctrace.Cycle{}, false
		}
		c.Layout = gctrace.Layout118
	}
	c.Procs = int(uint(m[12], 1<<30))
	for _, n := range refNote.FindAllStringSubmatch(m[13], -1) {
		c.Forced = c.Forced || n[1] == "forced"
	}
	if bad || c.Procs < 1 {
		return gctrace.Cycle{}, false
	}
	return c, true
}

func pow(n int) int64 {
	v := int64(1)
	for range n {
		v *= 10
	}
	return v
}

// FuzzScan reads any stderr: what goes to Other is the input's bytes, in
// order, less the cycles', "GC forced"'s and the scavenger's lines; and an
// input in which nothing begins like the runtime's passes on unchanged.
func FuzzScan(f *testing.F) {
	for _, b := range fixtures(f) {
		f.Add(b)
	}
	f.Add([]byte("gc 1\ngc 2 @\ngc 3 @1s 1%: 1+1+1 ms clock, \n\n\nscvg: x\nGC forced\r\n"))
	f.Fuzz(func(t *testing.T, in []byte) {
		var out bytes.Buffer
		s := gctrace.NewScanner(bytes.NewReader(in))
		s.Other = &out
		cycles := 0
		for s.Scan() {
			cycles++
			if c := s.Cycle(); c.Has&gctrace.HasClock == 0 || c.Seq < 0 || c.Seq >= cycles {
				t.Fatalf("cycle %d: %+v", cycles, *c)
			}
		}
		if err := s.Err(); err != nil {
			t.Fatal(err)
		}
		n := s.Counts()
		if n.Cycles != cycles || n.Truncated > cycles || n.Repaired > cycles {
			t.Fatalf("%d cycles, counts %+v", cycles, n)
		}
		if !isSubsequence(out.Bytes(), in) {
			t.Fatalf("Other got %q, not a subsequence of the input %q", out.Bytes(), in)
		}
		if !bytes.Contains(in, []byte("gc ")) && !bytes.Contains(in, []byte("GC forced")) && !bytes.Contains(in, []byte("scvg")) {
			if !bytes.Equal(out.Bytes(), in) || cycles != 0 {
				t.Fatalf("Other got %q from %q, %d cycles", out.Bytes(), in, cycles)
			}
		}
	})
}

// isSubsequence reports whether a's bytes appear in b in the same order.
func isSubsequence(a, b []byte) bool {
	for _, c := range a {
		i := bytes.IndexByte(b, c)
		if i < 0 {
			return false
		}
		b = b[i+1:]
	}
	return true
}
