package sweep

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"

	"github.com/gcperf/gcperf/internal/safefile"
)

// PlanFile is the name of a sweep's plan in its directory.
const PlanFile = "sweep.plan.json"

// PlanSchema identifies the layout of sweep.plan.json.
const PlanSchema = "gcperf-sweep-plan/v1"

// A Plan records what a sweep measures, written into its directory before
// its first point runs, so that a resumed sweep (-resume) finishes the same
// sweep: the grid, the count, the shard, the children's flags and their
// operations, as the sweep's own command-line arguments, canonical (each
// flag as -name=value, in name order, then the operations; a mix file's
// operations written out). What does not change what is measured (where
// the directory is, the SLO, the failure limits, the progress bar) is not
// in it.
type Plan struct {
	Schema string   `json:"schema"`
	Args   []string `json:"args"`
}

// ErrNoPlan is wrapped by ReadPlan's error when the directory holds no plan.
var ErrNoPlan = errors.New("no sweep plan")

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
	var p Plan
	if err := json.Unmarshal(data, &p); err != nil {
		return Plan{}, fmt.Errorf("%s: not a sweep plan: %w", path, err)
	}
	if p.Schema != PlanSchema {
		return Plan{}, fmt.Errorf("%s: schema %q, this gcperf reads %q", path, p.Schema, PlanSchema)
	}
	return p, nil
}
