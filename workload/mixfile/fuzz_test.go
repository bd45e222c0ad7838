package mixfile

// Fuzz targets for the operations given as arguments (Reader.Args) and for
// mix files (Reader.ReadFile). go test runs the seeds;
// go test -run '^$' -fuzz '^FuzzParseMixFile$' ./workload/mixfile explores.

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gcperf/gcperf/workload"

	"github.com/gcperf/gcperf/internal/fuzzcheck"
)

// fuzzDescribe lists the operations of a mix as name and parameters.
func fuzzDescribe(mix workload.Mix) []string {
	out := make([]string, len(mix))
	for i, op := range mix {
		out[i] = op.Name()
		if d, ok := op.(workload.Describer); ok {
			out[i] += " " + d.Describe()
		}
	}
	return out
}

// fuzzCanonical is the operations of args, which parseMix accepted, as
// parseMix's canonical arguments: name key=value..., one slice an operation.
func fuzzCanonical(t *testing.T, args []string) [][]string {
	t.Helper()
	var ops [][]string
	for len(args) > 0 {
		ot, n, err := scanOp(workload.DefaultRegistry(), args)
		if err != nil || n < 1 {
			t.Fatalf("scanOp(%q) = %d, %v, after parseMix accepted it", args, n, err)
		}
		ops = append(ops, ot.args())
		args = args[n:]
	}
	return ops
}

// fuzzMixLine reports whether an operation's arguments can be a line of a
// mix file: no field with a space, none starting a comment, not an include.
func fuzzMixLine(args []string) bool {
	if len(args) == 0 || args[0] == "mix" {
		return false
	}
	for _, a := range args {
		if a == "" || strings.HasPrefix(a, "#") || len(strings.Fields(a)) != 1 {
			return false
		}
	}
	return true
}

func FuzzParseMix(f *testing.F) {
	for _, s := range []string{
		"noop", "spin", "spin -d 10us noop", "spin d=2ms", "spin d=0s", "sleep -d=1.5ms", "sleep d=1ms spin d=2ms noop",
		"alloc.list -size 8 -base 32 -chunk 32", "alloc.list size=1024 chunk=32", "alloc.map k=100 frac=0.5",
		"alloc.ring k=4 per=2 fluff=0", "alloc.tree depth=3 live=2", "alloc.small n=10 size=8", "",
		"nope", "noop d=1ms", "spin size=3", "spin d=abc", "spin d=-1s", "sleep d=", "noop -runs 5",
		"noop -mix a.mix", "spin -d", "spin d=1ms -d 2ms", "-runs 5 noop", "spin --d=1ms", "spin -d -1s",
		"alloc.list size=0", "alloc.ring k=1 per=2", "alloc.map frac=NaN", "alloc.map frac=2", "alloc.tree depth=100",
		"spin  noop", " noop", "noop ", "spin =1ms", "spin - 1ms", "spin -=1ms", "noop\tnoop",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		defer fuzzcheck.Watchdog(10 * time.Second)()
		var args []string
		if s != "" {
			args = strings.Split(s, " ")
		}
		mix, err := Reader{}.Args(args)
		if err != nil {
			if mix != nil {
				t.Errorf("Reader{}.Args(%q) = %q and error %v", args, fuzzDescribe(mix), err)
			}
			if !errors.Is(err, ErrInvalid) && !errors.Is(err, workload.ErrUnknownOperation) && !errors.Is(err, workload.ErrUnknownParam) &&
				!errors.Is(err, workload.ErrBadParam) && !errors.Is(err, workload.ErrConfig) {
				t.Errorf("Reader{}.Args(%q): error %q (%T) is neither a usage error nor a workload error", args, err, err)
			}
			fuzzcheck.ErrText(t, err)
			return
		}
		if len(mix) == 0 {
			t.Fatalf("Reader{}.Args(%q): no operation and no error", args)
		}
		want := fuzzDescribe(mix)

		// The canonical arguments, name key=value..., as gcperf sweep
		// gives its children, build the same operations.
		ops := fuzzCanonical(t, args)
		if len(ops) != len(mix) {
			t.Fatalf("Reader{}.Args(%q) built %d operations of %d", args, len(mix), len(ops))
		}
		canon := slices.Concat(ops...)
		back, err := Reader{}.Args(canon)
		if err != nil || !slices.Equal(fuzzDescribe(back), want) {
			t.Errorf("Reader{}.Args(%q) = %q, but Reader{}.Args(%q) = %q, %v", args, want, canon, fuzzDescribe(back), err)
		}

		// The same operations, one a line of a mix file, read the same.
		lines := make([]string, len(ops))
		for i, op := range ops {
			if !fuzzMixLine(op) {
				return
			}
			lines[i] = strings.Join(op, " ")
		}
		path := filepath.Join(t.TempDir(), "canon.mix")
		if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		read, err := Reader{}.ReadFile(path)
		var got []string
		for _, o := range read {
			got = append(got, fuzzDescribe(workload.Mix{o.Op})...)
		}
		if err != nil || !slices.Equal(got, want) {
			t.Errorf("Reader{}.Args(%q) = %q, but the mix file\n%s\nreads as %q, %v", args, want, strings.Join(lines, "\n"), got, err)
		}
	})
}

// fuzzMixFiles are the files beside the fuzzed in.mix, for it to include.
var fuzzMixFiles = map[string]string{
	"sub/common.mix": "# Included by good.mix.\nsleep d=50us\nmix leaf.mix   # sub/leaf.mix: relative to sub/, not to good.mix's directory\n",
	"sub/leaf.mix":   "noop # the last of the nested files\n",
	"sub/back.mix":   "noop\nmix ../in.mix\n",
	"b.mix":          "noop\n",
	"c.mix":          "mix in.mix\n",
	"d.mix":          "mix sub/back.mix\n",
	"empty.mix":      "# nothing\n\n   \t\n",
	"bad.mix":        "noop\nspin d=abc\n",
	"adir/x.mix":     "noop\n",
}

// fuzzSafeIncludes reports whether every mix line of the mix file data
// includes a file of fuzzMixFiles' directory, none outside it.
func fuzzSafeIncludes(data string) bool {
	for line := range strings.SplitSeq(data, "\n") {
		fields := strings.Fields(stripComment(strings.TrimPrefix(line, "\ufeff")))
		if len(fields) >= 2 && fields[0] == "mix" {
			target := fields[1]
			if filepath.IsAbs(target) || strings.Contains(target, "..") || strings.HasPrefix(target, "~") {
				return false
			}
		}
	}
	return true
}

func FuzzParseMixFile(f *testing.F) {
	good, err := os.ReadFile(filepath.Join("testdata", "good.mix"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(string(good))
	const ok = "noop\n"
	for _, s := range []string{
		"\ufeffnoop\r\n# comment\r\n\r\nspin d=1ms # fast\r\n",
		ok + "nosuch d=1ms\n", ok + "spin x=1\n", ok + "spin -x 1\n", ok + "noop -runs 5\n", ok + "noop -mix b.mix\n",
		ok + "spin d=abc\n", ok + "sleep -d -1s\n", ok + "alloc.list size=0 # too small\n", ok + "d=1ms spin\n",
		ok + "-d 1ms spin\n", ok + "spin -d # no value\n", ok + "spin d=1ms -d 2ms\n", ok + "spin d=1ms sleep\n",
		ok + "mix # which?\n", ok + "mix b.mix c.mix\n", ok + "\n# comment\nmix nosuch.mix\n", ok + "mix adir\n",
		"", "# nothing\n\n   \t\n  # here\n", ok + "mix empty.mix\n", ok + "mix bad.mix\n", ok + "\nmix in.mix\n",
		ok + "\nmix c.mix\n", ok + "\nmix d.mix\n", "mix sub/common.mix\nmix sub/common.mix\n", "mix ./b.mix\n",
		"alloc.list -size 8 -base 32 -chunk 32\nalloc.map k=10 frac=0.25 value=64\nalloc.ring k=4 per=2\n",
		"alloc.tree depth=3 live=0\nalloc.small n=100 size=16 # tiny\n", "noop#\n", "x name=a#b\n", "noop\x00\n",
		"spin\vd=1ms\n", "spin\u00a0d=1ms\n", "spin d=1ms\u2028noop\n", "mix\n", "mix sub\n", "sleep d=10us\r",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data string) {
		defer fuzzcheck.Watchdog(10 * time.Second)()
		if !fuzzSafeIncludes(data) {
			t.Skip("includes a file outside the test's directory")
		}
		dir := t.TempDir()
		for name, content := range fuzzMixFiles {
			if !strings.Contains(data, "mix") {
				break // no include: no file needed beside in.mix
			}
			path := filepath.Join(dir, name)
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.WriteFile(filepath.Join(dir, "in.mix"), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Chdir(dir)

		ops, err := Reader{}.ReadFile("in.mix")
		if err != nil {
			if ops != nil {
				t.Errorf("parseMixFile = %d operations and error %v", len(ops), err)
			}
			if !errors.Is(err, ErrInvalid) {
				t.Errorf("error %q (%T) is not a usage error", err, err)
			}
			fuzzcheck.ErrText(t, err)
			return
		}
		if len(ops) == 0 {
			t.Fatal("parseMixFile: no operation and no error")
		}
		var mix workload.Mix
		var args []string
		lines := make([]string, len(ops))
		for i, o := range ops {
			// Where it was read: in.mix or a file it may include, and a
			// line number.
			file, line, found := strings.Cut(o.Pos, ":")
			if n, err := strconv.Atoi(line); !found || err != nil || n < 1 {
				t.Errorf("operation %d read at %q: no line number", i, o.Pos)
			}
			if _, ok := fuzzMixFiles[filepath.ToSlash(filepath.Clean(file))]; !ok && file != "in.mix" {
				t.Errorf("operation %d read at %q: no such file", i, o.Pos)
			}
			mix = append(mix, o.Op)
			args = append(args, o.Args...)
			lines[i] = strings.Join(o.Args, " ")
		}
		want := fuzzDescribe(mix)

		// The operations as command-line arguments, as gcperf sweep gives
		// them to its children, build the same operations.
		back, err := Reader{}.Args(args)
		if err != nil || !slices.Equal(fuzzDescribe(back), want) {
			t.Errorf("mix file read as %q; as arguments %q, %q, %v", want, args, fuzzDescribe(back), err)
		}
		// Written one a line, they read the same.
		if err := os.WriteFile("canon.mix", []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		again, err := Reader{}.ReadFile("canon.mix")
		var got []string
		for _, o := range again {
			got = append(got, fuzzDescribe(workload.Mix{o.Op})...)
		}
		if err != nil || !slices.Equal(got, want) {
			t.Errorf("mix file read as %q; written back as\n%s\nit reads as %q, %v", want, strings.Join(lines, "\n"), got, err)
		}
	})
}
