package main

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// readmeSmaller lists the README commands the test runs with smaller
// sizes, so that it stays fast: the command as README shows it, and the one
// run in its place. Every other `gcperf` line of README's code blocks runs
// as shown. PORT is replaced by a free loopback port.
var readmeSmaller = map[string]string{
	"gcperf -size 1024 -chunk 32 -runs 1000":                                                                             "gcperf -size 64 -chunk 4 -warmup 2 -runs 20",
	"gcperf sweep -gogc 50,100,200 -size 64 -runs 200 -out sweep/":                                                       "gcperf sweep -gogc 50,100 -size 16 -chunk 2 -warmup 2 -runs 10 -out sweep/",
	"gcperf exec -gogc 50 -- ./cache":                                                                                    "gcperf exec -gogc 50 -- ./cache -live 1 -garbage 4 -requests 200",
	"gcperf sweep -gogc 50,100,400 -out cache-sweep/ -- ./cache":                                                         "gcperf sweep -gogc 50,100 -out cache-sweep/ -- ./cache -live 1 -garbage 4 -requests 200",
	"gcperf run -threads 4 -rate 2000/s -duration 10s http -url http://127.0.0.1:8090/ -- ./server -addr 127.0.0.1:8090": "gcperf run -threads 2 -rate 200/s -duration 300ms -warmup 2 http -url http://127.0.0.1:PORT/ -- ./server -addr 127.0.0.1:PORT -live 1",
}

// readmeCommand is one command of README's code blocks.
type readmeCommand struct {
	line int
	text string
}

// readmeCommands returns the shell lines of README's code blocks that are
// commands (`gcperf ...` or `go build ...`), comments removed and
// continuation lines joined.
func readmeCommands(t *testing.T, path string) []readmeCommand {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var cmds []readmeCommand
	in, shell := false, false
	pending, start := "", 0
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		l := sc.Text()
		if strings.HasPrefix(l, "```") {
			in, shell = !in, l == "```sh"
			continue
		}
		if !in || !shell {
			continue
		}
		if i := strings.Index(l, " #"); i >= 0 {
			l = l[:i]
		}
		l = strings.TrimSpace(l)
		if pending == "" {
			start = n
		}
		if s, ok := strings.CutSuffix(l, "\\"); ok {
			pending += strings.TrimSpace(s) + " "
			continue
		}
		l, pending = pending+l, ""
		if strings.HasPrefix(l, "gcperf ") || strings.HasPrefix(l, "go build ") {
			cmds = append(cmds, readmeCommand{start, l})
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return cmds
}

// TestReadmeCommands runs every command of README's code blocks, in order,
// in one directory, as a new user would: `go build` lines build the
// examples, `gcperf` lines run in-process (the smaller ones of
// readmeSmaller in their place) and must exit 0.
func TestReadmeCommands(t *testing.T) {
	if testing.Short() {
		t.Skip("runs README's commands")
	}
	sweepTest(t)
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	cmds := readmeCommands(t, filepath.Join(root, "README.md"))
	if len(cmds) == 0 {
		t.Fatal("README.md shows no command")
	}
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "examples"), 0o755); err != nil {
		t.Fatal(err)
	}
	mix, err := os.ReadFile(filepath.Join(root, "examples", "service.mix"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "examples", "service.mix"), mix, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	used := map[string]bool{}
	for _, c := range cmds {
		text := c.text
		if s, ok := readmeSmaller[text]; ok {
			used[text] = true
			text = strings.ReplaceAll(s, "PORT", freePort(t))
		}
		t.Logf("README.md:%d: %s", c.line, text)
		args := strings.Fields(text)
		if args[0] == "go" {
			readmeBuild(t, root, dir, c, args)
			continue
		}
		var stdout, stderr bytes.Buffer
		if code := run(args[1:], &stdout, &stderr, nil); code != 0 {
			t.Fatalf("README.md:%d: %s: exit status %d, want 0\nstdout:\n%s\nstderr:\n%s", c.line, text, code, stdout.String(), stderr.String())
		}
	}
	for k := range readmeSmaller {
		if !used[k] {
			t.Errorf("readmeSmaller: %q is no longer in README.md", k)
		}
	}
}

// readmeBuild runs one `go build -o OUT ./PKG` line of README, from the
// module's root, writing OUT into dir.
func readmeBuild(t *testing.T, root, dir string, c readmeCommand, args []string) {
	t.Helper()
	if len(args) != 5 || args[2] != "-o" {
		t.Fatalf("README.md:%d: %s: want go build -o OUT ./PKG", c.line, c.text)
	}
	cmd := exec.Command("go", "build", "-o", filepath.Join(dir, args[3]), args[4])
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("README.md:%d: %s: %v\n%s", c.line, c.text, err, out)
	}
}

// TestReadmeShape holds README to what issue 25 asks of it: at most 300
// lines, and every command of its quick start within the first 60.
func TestReadmeShape(t *testing.T) {
	path := filepath.Join("..", "..", "README.md")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if n := bytes.Count(b, []byte("\n")); n > 300 {
		t.Errorf("README.md has %d lines, want at most 300 (the rest goes in docs/)", n)
	}
	for _, c := range readmeCommands(t, path) {
		if c.line > 60 {
			t.Errorf("README.md:%d: %s: want the quick starts in the first 60 lines", c.line, c.text)
		}
	}
}
