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
