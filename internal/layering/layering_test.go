package layering

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/gcperf/gcperf/"

// Packages that a program imports to read results or to run the engine must
// not link what it did not ask for: report registering pprof handlers on
// http.DefaultServeMux, or the engine linking testing's flags.
func TestDeps(t *testing.T) {
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command to list dependencies with:", err)
	}
	tests := []struct {
		pkg  string
		must []string // packages it must not link
	}{
		{"report", []string{"net/http/pprof", "github.com/felixge/fgprof"}},
		{"profiles/profinfo", []string{"net/http/pprof", "github.com/felixge/fgprof", "runtime/pprof"}},
		{"profiles", []string{"net/http/pprof"}},
		{"latency", []string{"testing"}},
		{"runstats", []string{"testing"}},
		{"workload", []string{"testing"}},
	}
	for _, tt := range tests {
		t.Run(tt.pkg, func(t *testing.T) {
			out, err := exec.Command(goCmd, "list", "-deps", module+tt.pkg).Output()
			if err != nil {
				t.Fatalf("go list -deps %s: %v", tt.pkg, err)
			}
			deps := strings.Fields(string(out))
			for _, m := range tt.must {
				if slices.Contains(deps, m) {
					t.Errorf("%s links %s", tt.pkg, m)
				}
			}
		})
	}
}

// The libraries speak Go: only the command (and the example programs and
// tools, which are commands too) knows flags and signals. And the layers'
// imports point one way, down DESIGN's table: no library imports the one
// that runs it.
func TestImports(t *testing.T) {
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command to list imports with:", err)
	}
	out, err := exec.Command(goCmd, "list", "-f", "{{.ImportPath}} {{join .Imports \" \"}}", module+"...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	commands := []string{"cmd/", "examples/", "tools/"}
	// Project packages each library must not import (by prefix); a rule
	// of a top folder holds for the folders under it but report's, whose
	// chart and page draw sweeps.
	above := map[string][]string{
		"workload": {"env", "report", "sweep", "bench", "target", "profiles"},
		"latency":  {"workload", "runstats", "env", "report"},
		"runstats": {"workload", "latency", "env", "report"},
		"env":      {"workload", "report", "sweep", "bench", "target"},
		"report":   {"sweep", "bench", "target", "profiles/pprofhttp", "report/chart", "report/html"},
		"target":   {"sweep", "bench", "report", "workload"},
		"sweep":    {"bench", "report/chart", "report/html"},
		"profiles": {"report", "sweep", "bench"},
	}
	for line := range strings.Lines(string(out)) {
		f := strings.Fields(line)
		pkg, imports := strings.TrimPrefix(f[0], module), f[1:]
		if slices.ContainsFunc(commands, func(c string) bool { return strings.HasPrefix(pkg, c) }) {
			continue
		}
		for _, imp := range imports {
			if imp == "flag" || imp == "os/signal" {
				t.Errorf("%s imports %s: flags and signals are the command's", pkg, imp)
			}
			name := strings.TrimPrefix(imp, module)
			if name == imp {
				continue
			}
			libs := []string{pkg}
			if top, _, sub := strings.Cut(pkg, "/"); sub && top != "report" {
				libs = append(libs, top)
			}
			for _, lib := range libs {
				for _, no := range above[lib] {
					if name == no || strings.HasPrefix(name, no+"/") {
						t.Errorf("%s imports %s: the layers point the other way", pkg, name)
					}
				}
			}
		}
	}
}
