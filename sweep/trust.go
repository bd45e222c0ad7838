package sweep

import (
	"debug/buildinfo"
	"debug/elf"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"github.com/gcperf/gcperf/env"
	"github.com/gcperf/gcperf/internal/figure"
	"github.com/gcperf/gcperf/latency"
	"github.com/gcperf/gcperf/target"
	"github.com/gcperf/gcperf/target/gctrace"
)

// Slack for the trace's own rounding: its times are in milliseconds.
const traceClockSlack = 10 * time.Millisecond

// untrustedTrace says why the collector's figures that a command's trace
// gives cannot be true of its run r (argv run for r.Wall, its memory r's),
// "" when they can: stop-the-world pauses or mark phases longer than the
// run, a cycle that began after the run ended or before the cycle before
// it, a heap far larger than the process tree's memory, or cycles from a
// program that is not Go and ran nothing else. A program's own lines that
// look like the runtime's (spoofed, or a trace it prints from elsewhere)
// are what it catches; figures that could be true pass.
func untrustedTrace(argv []string, r *target.Result, s gctrace.Summary) string {
	if s.Cycles == 0 {
		return ""
	}
	ns := latency.FormatDuration
	span := r.Wall * time.Duration(max(1, s.Sequences)) // processes may overlap
	switch {
	case s.Pauses.Max > r.Wall:
		return fmt.Sprintf("a stop-the-world pause of %s in a run of %s", ns(s.Pauses.Max), ns(r.Wall))
	case s.Pauses.Total > span:
		return fmt.Sprintf("%d stop-the-world pauses totalling %s in a run of %s", s.Pauses.Count, ns(s.Pauses.Total), ns(r.Wall))
	case s.MarkWall > span:
		return fmt.Sprintf("mark phases totalling %s in a run of %s", ns(s.MarkWall), ns(r.Wall))
	case s.Last > r.Wall+traceClockSlack && r.Leftovers == 0: // a leftover may print after the end
		return fmt.Sprintf("a cycle at %s since its program started, in a run of %s", ns(s.Last), ns(r.Wall))
	case s.Backwards > 0 && s.Sequences == 1: // two processes' lines may be taken for one's
		return fmt.Sprintf("%d %s before the cycle before %s", s.Backwards, figure.Plural(s.Backwards, "cycle began", "cycles began"), figure.Plural(s.Backwards, "it", "them"))
	}
	// A heap may hold memory never touched, so never resident (a large
	// buffer, zeroed by the kernel): only a heap far beyond the memory
	// the run had tells.
	if rss := max(r.PeakRSS, r.OwnPeakRSS, r.MaxRSS); rss > 0 && int64(s.PeakHeapMiB)<<20 > 32*rss+1<<30 {
		return fmt.Sprintf("a heap of %dMiB with at most %s resident", s.PeakHeapMiB, env.Bytes(rss))
	}
	if prog, ok := notGo(argv, r); ok {
		return fmt.Sprintf("%s is not a Go program, and it ran no other", prog)
	}
	return ""
}

// launchers are programs that are not Go but commonly run others, whose
// trace may be a Go descendant's: shells and interpreters, build and
// tracing tools.
var launchers = map[string]bool{
	"sh": true, "bash": true, "dash": true, "zsh": true, "ksh": true, "mksh": true, "fish": true, "busybox": true,
	"make": true, "xargs": true, "parallel": true, "strace": true, "ltrace": true, "perf": true, "valgrind": true,
	"gdb": true, "dlv": true, "su": true, "sudo": true, "runuser": true, "doas": true, "flock": true, "unshare": true,
	"nsenter": true, "systemd-run": true, "firejail": true, "bwrap": true, "docker": true, "podman": true, "hyperfine": true,
	"python": true, "python3": true, "perl": true, "ruby": true, "node": true,
}

// notGo returns the program argv runs (through env, nice, time...) when
// it is surely not a Go program that could have printed a trace: an
// executable that is not Go and not a shell or launcher, whose process
// tree was never seen with more than one process. ok is false when it is
// Go, or may have run one, or cannot be read.
func notGo(argv []string, r *target.Result) (prog string, ok bool) {
	argv = unwrap(argv)
	if len(argv) == 0 || launchers[filepath.Base(argv[0])] || r.Leftovers > 0 {
		return "", false
	}
	for _, p := range r.RSS {
		if p.Processes > 1 {
			return "", false
		}
	}
	path, err := exec.LookPath(argv[0])
	if err != nil {
		return "", false
	}
	f, err := elf.Open(path)
	if err != nil {
		return "", false // a script (an interpreter's), or not readable
	}
	f.Close()
	if _, err := buildinfo.ReadFile(path); err == nil {
		return "", false
	}
	if st, err := os.Stat(path); err != nil || st.IsDir() {
		return "", false
	}
	return argv[0], true
}
