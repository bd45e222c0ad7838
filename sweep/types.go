package sweep

import (
	"time"

	"github.com/gcperf/gcperf/report"
)

// A Point is one setting of the grid. GOGC is "off" or a percentage,
// MemLimit "off" or a size in Go's syntax ("256MiB"), GOMAXPROCS 0 when it
// is not an axis of the grid (the child inherits the parent's).
type Point struct {
	Index      int    `json:"index"` // position in the grid, for -shard
	GOGC       string `json:"gogc"`
	MemLimit   string `json:"memlimit"`
	GOMAXPROCS int    `json:"gomaxprocs,omitempty"`
}

// An Outcome is one repeat of one point: its result file and document, or
// why it failed.
type Outcome struct {
	Point  Point         `json:"point"`
	Rep    int           `json:"rep"`  // 1-based
	File   string        `json:"file"` // the child's JSON result, relative to the sweep's directory
	Wall   time.Duration `json:"wall_ns"`
	Failed Failure       `json:"failed,omitzero"` // why the point failed; zero when it did not
	// LogError says why the child's log could not be written (a full
	// disk), for a point that succeeded nonetheless.
	LogError string `json:"log_error,omitempty"`
	// StderrTail holds the last lines the child wrote on stderr, for a
	// failed point.
	StderrTail []string         `json:"stderr_tail,omitempty"`
	Doc        *report.Document `json:"-"` // the child's result, when it did not fail
}
