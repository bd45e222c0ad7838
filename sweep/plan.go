package sweep

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"

	"github.com/gcperf/gcperf/internal/safefile"
)

// PlanFile is the name of a sweep's plan in its directory.
const PlanFile = "sweep.plan.json"

// PlanSchema identifies the layout of sweep.plan.json.
const PlanSchema = "gcperf-sweep-plan/v2"

// planSchemaV1 is the layout of the plans gcperf wrote before PlanSchema:
// the sweep's command-line arguments.
const planSchemaV1 = "gcperf-sweep-plan/v1"

// A Plan records what a sweep measures, written into its directory before
// its first point runs, so that a resumed sweep (Runner.Resume) finishes
// the same sweep: the grid, the count, the shard, the children's options
// and operations (or the command, or the server), the program measured and
// the working directory its relative paths are read in. The SLO is
// recorded so that a resumed sweep advises against it, but a plan with
// another SLO measures the same sweep. What does not change what is
// measured (where the directory is, the failure limits, the progress bar)
// is not in it.
type Plan struct {
	Schema string `json:"schema"`
	Grid   Grid   `json:"grid"`
	Count  int    `json:"count"`
	// Shard of Shards, when the sweep runs one shard (Shards > 1).
	Shard  int `json:"shard,omitempty"`
	Shards int `json:"shards,omitempty"`
	// Args, Ops and Server are the Runner's: the children's options
	// before the result flag, their operations, the server they load.
	Args   []string `json:"args,omitempty"`
	Ops    []string `json:"ops,omitempty"`
	Server []string `json:"server,omitempty"`
	// Command is the command every point runs (Runner.Command), its path
	// then its arguments.
	Command    []string `json:"command,omitempty"`
	ProfileDir string   `json:"profile_dir,omitempty"`
	SLO        *SLO     `json:"slo,omitempty"`
	// WorkDir is the directory the command or the server ran in (their
	// relative paths are read there); "" for gcperf's own children.
	WorkDir string  `json:"workdir,omitempty"`
	Program Program `json:"program"`
}

// A Program identifies the program a sweep measures (the command, the
// server, or gcperf's own executable) by what it is, not where: its size
// and the SHA-256 of its bytes; its path is for a person to read. A
// rebuild that changes it is another program; a copy, a touch or the same
// source built again by go run is the same.
type Program struct {
	Path   string `json:"path"`
	Size   int64  `json:"size"`
	SHA256 string `json:"sha256"`
}

// ProgramAt identifies the program at path, looked up in $PATH when it has
// no slash, as exec runs it.
func ProgramAt(path string) (Program, error) {
	p := path
	if filepath.Base(p) == p {
		lp, err := exec.LookPath(p)
		if err != nil {
			return Program{}, err
		}
		p = lp
	}
	abs, err := filepath.Abs(p)
	if err != nil {
		return Program{}, err
	}
	f, err := os.Open(abs)
	if err != nil {
		return Program{}, err
	}
	defer f.Close()
	h := sha256.New()
	n, err := io.Copy(h, f)
	if err != nil {
		return Program{}, err
	}
	return Program{Path: abs, Size: n, SHA256: hex.EncodeToString(h.Sum(nil))}, nil
}

// Same reports whether p and q are one program: the same size and bytes,
// wherever they are.
func (p Program) Same(q Program) bool {
	return p.Size == q.Size && p.SHA256 == q.SHA256
}

func (p Program) String() string {
	sum := p.SHA256
	if len(sum) > 12 {
		sum = sum[:12]
	}
	return fmt.Sprintf("%s (%d bytes, sha256 %s…)", p.Path, p.Size, sum)
}

// Diff names the first part of what p measures that differs from q ("" if
// none): "grid", "count", "shard", "args", "ops", "server", "command",
// "profile_dir", "workdir". The SLO and the program are not compared: an
// SLO does not change what is measured, and Program.Same compares programs.
func (p Plan) Diff(q Plan) string {
	switch {
	case !slices.Equal(p.Grid.GOGC, q.Grid.GOGC) || !slices.Equal(p.Grid.MemLimit, q.Grid.MemLimit) ||
		!slices.Equal(p.Grid.GOMAXPROCS, q.Grid.GOMAXPROCS):
		return "grid"
	case p.Count != q.Count:
		return "count"
	case p.Shard != q.Shard || p.Shards != q.Shards:
		return "shard"
	case !slices.Equal(p.Args, q.Args):
		return "args"
	case !slices.Equal(p.Ops, q.Ops):
		return "ops"
	case !slices.Equal(p.Server, q.Server):
		return "server"
	case !slices.Equal(p.Command, q.Command):
		return "command"
	case p.ProfileDir != q.ProfileDir:
		return "profile_dir"
	case p.WorkDir != q.WorkDir:
		return "workdir"
	}
	return ""
}

// ErrNoPlan is wrapped by ReadPlan's error when the directory holds no plan.
var ErrNoPlan = errors.New("no sweep plan")

// ErrOldPlan is wrapped by ReadPlan's error when the directory's plan was
// written by a gcperf before this one (its arguments, not a plan): a
// program rebuilds the sweep from OldPlanArgs to resume it.
var ErrOldPlan = errors.New("a sweep plan of an earlier gcperf")

// OldPlanArgs are the arguments that dir's plan, written by a gcperf
// before PlanSchema (ErrOldPlan), records: the sweep's command line but
// where its files go, canonical (each flag as -name=value, then the
// operations, or -- and the command or the server). A program rebuilds
// the sweep from them and resumes it with Session.FromOldPlan.
func OldPlanArgs(dir string) ([]string, error) {
	path := filepath.Join(dir, PlanFile)
	data, err := safefile.Read(path, safefile.MiB)
	if err != nil {
		return nil, err
	}
	var p struct {
		Schema string   `json:"schema"`
		Args   []string `json:"args"`
	}
	if err := json.Unmarshal(data, &p); err != nil || p.Schema != planSchemaV1 {
		return nil, fmt.Errorf("%s: not a plan of schema %s", path, planSchemaV1)
	}
	return p.Args, nil
}

// WritePlan writes p into dir (replacing an earlier plan).
func WritePlan(dir string, p Plan) error {
	p.Schema = PlanSchema
	return safefile.Write(filepath.Join(dir, PlanFile), nil, true, func(w io.Writer) error {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(p)
	})
}

// ReadPlan reads dir's plan.
func ReadPlan(dir string) (Plan, error) {
	path := filepath.Join(dir, PlanFile)
	data, err := safefile.Read(path, safefile.MiB)
	if errors.Is(err, safefile.ErrNotRegular) || errors.Is(err, safefile.ErrTooLarge) {
		return Plan{}, err
	}
	if errors.Is(err, fs.ErrNotExist) {
		return Plan{}, fmt.Errorf("%s: %w", path, ErrNoPlan)
	}
	if err != nil {
		return Plan{}, err
	}
	var schema struct {
		Schema string `json:"schema"`
	}
	if err := json.Unmarshal(data, &schema); err != nil {
		return Plan{}, fmt.Errorf("%s: not a sweep plan: %w", path, err)
	}
	switch schema.Schema {
	case PlanSchema:
	case planSchemaV1:
		return Plan{}, fmt.Errorf("%s: %w (%s)", path, ErrOldPlan, planSchemaV1)
	default:
		return Plan{}, fmt.Errorf("%s: schema %q, this gcperf reads %q", path, schema.Schema, PlanSchema)
	}
	var p Plan
	if err := json.Unmarshal(data, &p); err != nil {
		return Plan{}, fmt.Errorf("%s: not a sweep plan: %w", path, err)
	}
	return p, nil
}
