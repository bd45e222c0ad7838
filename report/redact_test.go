package report_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/gcperf/gcperf/report"
	"github.com/gcperf/gcperf/workload"
)

// TestNewRedactsCommand: the command line a result records shows a URL's
// password as xxxxx (issue 24, item 31).
func TestNewRedactsCommand(t *testing.T) {
	cfg := workload.DefaultConfig()
	cfg.Warmups, cfg.Runs, cfg.Outliers, cfg.Seed = 0, 2, 0, 1
	res, err := workload.Run(context.Background(), cfg, workload.Mix{workload.Spin{D: time.Microsecond}})
	if err != nil {
		t.Fatal(err)
	}
	d := report.New(res, report.Meta{Command: []string{"gcperf", "run", "http", "-url", "http://u:s3cr3t@h/"}})
	if got := strings.Join(d.Tool.Command, " "); strings.Contains(got, "s3cr3t") || !strings.Contains(got, "http://u:xxxxx@h/") {
		t.Errorf("Tool.Command = %q, want the password as xxxxx", got)
	}
}
