package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gcperf/gcperf/workload/mixfile"
)

// writeFiles writes files (name: content) under dir, creating directories.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestMixFileBad runs gcperf run -mix a.mix on every kind of bad file,
// written to a temporary directory, from that directory.
func TestMixFileBad(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	if err := os.Mkdir("adir", 0o755); err != nil {
		t.Fatal(err)
	}
	const ok = "noop\n" // a good first line, so that the bad one is line 2
	tests := []struct {
		name  string
		files map[string]string // a.mix and those it includes
		want  string            // the whole of stderr, one line
	}{
		{"unknown operation", map[string]string{"a.mix": ok + "nosuch d=1ms\n"},
			`gcperf: a.mix:2: unknown operation "nosuch" (gcperf list shows them)`},
		{"unknown parameter", map[string]string{"a.mix": ok + "spin x=1\n"},
			`gcperf: a.mix:2: spin: unknown parameter "x" (spin takes d)`},
		{"unknown parameter, dashed", map[string]string{"a.mix": ok + "spin -x 1\n"},
			`gcperf: a.mix:2: spin: unknown parameter "x" (spin takes d)`},
		{"run flag in a file", map[string]string{"a.mix": ok + "noop -runs 5\n"},
			`gcperf: a.mix:2: noop: unknown parameter "runs" (noop takes no parameters); -runs is a flag: flags go on the command line`},
		{"-mix in a file", map[string]string{"a.mix": ok + "noop -mix b.mix\n", "b.mix": ok},
			`gcperf: a.mix:2: noop: unknown parameter "mix" (noop takes no parameters); a line of its own, mix FILE, includes a file`},
		{"bad value", map[string]string{"a.mix": ok + "spin d=abc\n"},
			`gcperf: a.mix:2: spin: bad parameter value: d="abc": not a duration (such as 100us or 1.5ms)`},
		{"bad value, dashed", map[string]string{"a.mix": ok + "sleep -d -1s\n"},
			`gcperf: a.mix:2: sleep: bad parameter value: d="-1s": must be at least 0s`},
		{"value below the minimum", map[string]string{"a.mix": ok + "alloc.list size=0 # too small\n"},
			`gcperf: a.mix:2: alloc.list: bad parameter value: size="0": must be at least 1`},
		{"parameter before the name", map[string]string{"a.mix": ok + "d=1ms spin\n"},
			`gcperf: a.mix:2: d=1ms before any operation name: a line is OP key=value ...`},
		{"dashed parameter before the name", map[string]string{"a.mix": ok + "-d 1ms spin\n"},
			`gcperf: a.mix:2: -d before any operation name: a line is OP key=value ...`},
		{"parameter without a value", map[string]string{"a.mix": ok + "spin -d # no value\n"},
			`gcperf: a.mix:2: spin: parameter -d needs a value`},
		{"parameter given twice", map[string]string{"a.mix": ok + "spin d=1ms -d 2ms\n"},
			`gcperf: a.mix:2: spin: parameter d given twice`},
		{"two operations on a line", map[string]string{"a.mix": ok + "spin d=1ms sleep\n"},
			`gcperf: a.mix:2: spin: sleep is not a parameter (key=value or -key value): one operation a line`},
		{"mix without a file", map[string]string{"a.mix": ok + "mix # which?\n"},
			`gcperf: a.mix:2: mix takes one file: mix FILE`},
		{"mix with two files", map[string]string{"a.mix": ok + "mix b.mix c.mix\n", "b.mix": ok, "c.mix": ok},
			`gcperf: a.mix:2: mix takes one file: mix FILE`},
		{"mix of a missing file", map[string]string{"a.mix": ok + "\n# comment\nmix nosuch.mix\n"},
			`gcperf: a.mix:4: mix nosuch.mix: no such file or directory`},
		{"mix of a directory", map[string]string{"a.mix": ok + "mix adir\n"},
			`gcperf: a.mix:2: mix adir: is a directory`},
		{"empty file", map[string]string{"a.mix": ""},
			`gcperf: a.mix: no operation`},
		{"comments and blanks only", map[string]string{"a.mix": "# nothing\n\n   \t\n  # here\n"},
			`gcperf: a.mix: no operation`},
		{"empty included file", map[string]string{"a.mix": ok + "mix b.mix\n", "b.mix": "# nothing\n"},
			`gcperf: a.mix:2: mix b.mix: no operation`},
		{"bad line in an included file", map[string]string{"a.mix": ok + "mix sub/b.mix\n", "sub/b.mix": ok + "spin d=abc\n"},
			`gcperf: sub/b.mix:2: spin: bad parameter value: d="abc": not a duration (such as 100us or 1.5ms)`},
		{"missing file two levels down", map[string]string{"a.mix": ok + "mix sub/b.mix\n", "sub/b.mix": ok + "mix c.mix\n"},
			`gcperf: sub/b.mix:2: mix c.mix: no such file or directory`},
		{"includes itself", map[string]string{"a.mix": ok + "\nmix a.mix\n"},
			`gcperf: a.mix:3: mix a.mix: includes a.mix again`},
		{"cycle of two", map[string]string{"a.mix": ok + "\nmix b.mix\n", "b.mix": ok + "mix a.mix\n"},
			`gcperf: a.mix:3: mix b.mix: includes a.mix again`},
		{"cycle of three", map[string]string{"a.mix": ok + "\nmix sub/b.mix\n", "sub/b.mix": "mix ../c.mix\n", "c.mix": "mix a.mix\n"},
			`gcperf: a.mix:3: mix sub/b.mix: includes a.mix again (through c.mix)`},
		{"cycle below the first file", map[string]string{"a.mix": ok + "mix b.mix\n", "b.mix": ok + "mix c.mix\n", "c.mix": "mix ./b.mix\n"},
			`gcperf: b.mix:2: mix c.mix: includes b.mix again`},
		{"cycle through a symbolic link", map[string]string{"a.mix": ok + "mix link/a.mix\n"},
			`gcperf: a.mix:2: mix link/a.mix: includes a.mix again`},
		{"nested too deep", nested(mixfile.MaxDepth + 1),
			fmt.Sprintf("gcperf: d%d.mix:1: mix d%d.mix: mix files nest more than %d deep", mixfile.MaxDepth, mixfile.MaxDepth+1, mixfile.MaxDepth)},
	}
	if err := os.Symlink(".", "link"); err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for name := range tt.files {
				os.Remove(name)
			}
			writeFiles(t, ".", tt.files)
			defer func() {
				for name := range tt.files {
					os.Remove(name)
				}
			}()
			top := "a.mix"
			if _, ok := tt.files["d1.mix"]; ok {
				top = "d1.mix"
			}
			code, stdout, stderr := gcperf(t, nil, "run", "-runs", "5", "-mix", top)
			checkBad(t, code, stdout, stderr, tt.want)
			// With operations on the command line too, the same error.
			code, stdout, stderr = gcperf(t, nil, "run", "-runs", "5", "-mix", top, "noop")
			checkBad(t, code, stdout, stderr, tt.want)
		})
	}

	// The file given to -mix itself.
	code, stdout, stderr := gcperf(t, nil, "run", "-mix", "nosuch.mix")
	checkBad(t, code, stdout, stderr, "gcperf: -mix nosuch.mix: no such file or directory")
	code, stdout, stderr = gcperf(t, nil, "run", "-mix", "adir", "noop")
	checkBad(t, code, stdout, stderr, "gcperf: -mix adir: is a directory")
	// -mix after the operations is a flag out of place, as -runs is.
	code, stdout, stderr = gcperf(t, nil, "run", "noop", "-mix", "a.mix")
	checkBad(t, code, stdout, stderr, "gcperf: flag -mix after the operations: flags go before the first operation")
	// An operation of the command line is still checked.
	writeFiles(t, ".", map[string]string{"a.mix": "noop\n"})
	code, stdout, stderr = gcperf(t, nil, "run", "-mix", "a.mix", "nosuch")
	checkBad(t, code, stdout, stderr, `gcperf: unknown operation "nosuch" (gcperf list shows them)`)
}

// nested is a chain of n mix files, d1.mix including d2.mix ... dn.mix.
func nested(n int) map[string]string {
	files := map[string]string{}
	for i := 1; i < n; i++ {
		files[fmt.Sprintf("d%d.mix", i)] = fmt.Sprintf("mix d%d.mix\n", i+1)
	}
	files[fmt.Sprintf("d%d.mix", n)] = "noop\n"
	return files
}

// runOps runs gcperf run with -json - and returns its operations: name
// and parameters.
func runOps(t *testing.T, args ...string) []string {
	t.Helper()
	code, stdout, stderr := gcperf(t, nil, append([]string{"run", "-json", "-"}, args...)...)
	if code != 0 {
		t.Fatalf("%q: exit %d; stderr:\n%s", args, code, stderr)
	}
	var doc struct {
		Operations []struct{ Name, Params string }
		Config     struct{ Runs int }
	}
	if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
		t.Fatalf("%v in:\n%s", err, stdout)
	}
	if doc.Config.Runs != 5 {
		t.Errorf("%q: config.runs %d, want 5", args, doc.Config.Runs)
	}
	var ops []string
	for _, o := range doc.Operations {
		ops = append(ops, strings.TrimSpace(o.Name+" "+o.Params))
	}
	return ops
}

// TestRunMix runs gcperf run -mix end to end: the file's operations, in the
// file's order, then the command line's.
func TestRunMix(t *testing.T) {
	t.Chdir(filepath.Join("..", "..", "workload", "mixfile", "testdata"))
	fromFile := []string{"spin d=10µs", "sleep d=100µs", "noop", "spin#2 d=20µs", "sleep#2 d=50µs", "noop#2", "spin#3 d=10µs"}
	tests := []struct {
		args []string
		want []string
	}{
		{[]string{"-mix", "good.mix", "-runs", "5"}, fromFile},
		{[]string{"-runs", "5", "-norandom", "-mix", "good.mix"}, fromFile},
		{[]string{"-runs", "5", "-mix", "sub/leaf.mix", "spin", "-d", "10us", "noop"}, []string{"noop", "spin d=10µs", "noop#2"}},
		{[]string{"-runs", "5", "-mix", "good.mix", "sleep", "d=10us"}, append(slices.Clone(fromFile), "sleep#3 d=10µs")},
	}
	for _, tt := range tests {
		if got := runOps(t, tt.args...); !slices.Equal(got, tt.want) {
			t.Errorf("%q: operations\n%q\nwant\n%q", tt.args, got, tt.want)
		}
	}
}

// TestSweepMix runs a sweep of a mix file: the children are given the
// file's operations as arguments, then the command line's.
func TestSweepMix(t *testing.T) {
	sweepTest(t)
	mixPath := filepath.Join("..", "..", "workload", "mixfile", "testdata", "good.mix")
	dir := filepath.Join(t.TempDir(), "out")
	code, stdout, stderr := gcperf(t, nil, "sweep", "-gogc", "100", "-out", dir, "-warmup", "1", "-runs", "5", "-mix", mixPath, "noop")
	if code != 0 {
		t.Fatalf("exit %d; stdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	outs, _ := loadSweep(t, dir)
	if len(outs) != 1 {
		t.Fatalf("%d outcomes, want 1", len(outs))
	}
	o := outs[0]
	want := []string{"gcperf", "run", "-runs=5", "-warmup=1", "-json", filepath.Join(dir, o.File), "-overwrite",
		"spin", "d=10us", "sleep", "d=100us", "noop", "spin", "d=20us", "sleep", "d=50us", "noop", "spin", "d=10us", "noop"}
	if !slices.Equal(o.Doc.Tool.Command, want) {
		t.Errorf("child command\n%q\nwant\n%q", o.Doc.Tool.Command, want)
	}
	if n := len(o.Doc.Operations); n != 8 {
		t.Errorf("the child ran %d operations, want 8", n)
	}

	// A bad mix file stops the sweep before any child runs or -out is made.
	bad := filepath.Join(t.TempDir(), "bad.mix")
	if err := os.WriteFile(bad, []byte("noop\nspin d=abc\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	badOut := filepath.Join(t.TempDir(), "out")
	code, stdout, stderr = gcperf(t, nil, "sweep", "-gogc", "100", "-out", badOut, "-mix", bad)
	checkBad(t, code, stdout, stderr, "gcperf: "+bad+`:2: spin: bad parameter value: d="abc": not a duration (such as 100us or 1.5ms)`)
	if _, err := os.Stat(badOut); !os.IsNotExist(err) {
		t.Errorf("-out was created for a refused sweep: %v", err)
	}
	// -mix is gcperf run's: not with alloc.list's flags, nor -merge.
	code, stdout, stderr = gcperf(t, nil, "sweep", "-size", "8", "-mix", mixPath)
	checkBad(t, code, stdout, stderr, "gcperf: flag provided but not defined: -size (gcperf sweep -h lists the flags)")
	code, stdout, stderr = gcperf(t, nil, "sweep", "-merge", "-mix", mixPath, dir)
	checkBad(t, code, stdout, stderr, "gcperf: -mix does not apply to -merge: the directories hold their sweeps")
}
