package report_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/gcperf/gcperf/report"
)

// TestReadJSONNoMeasurement: a result that holds no measurement at all
// (no operations, no command, no server) and no failure is not a result;
// one that holds only its failure still reads as a *FailedRunError.
func TestReadJSONNoMeasurement(t *testing.T) {
	for _, tc := range []struct {
		in      string
		notIt   bool
		failure bool
	}{
		{in: `{"schema":"gcperf/v2"}`, notIt: true},
		{in: `{"schema":"gcperf/v2","tool":{"name":"gcperf"},"config":{},"timing":{}}`, notIt: true},
		{in: `{"schema":"gcperf/v1"}`, notIt: true},
		{in: `{"schema":"gcperf/v2","failed":{"reason":"start","text":"boom"}}`, failure: true},
	} {
		_, err := report.ReadJSON(strings.NewReader(tc.in))
		if got := errors.Is(err, report.ErrNotResult); got != tc.notIt {
			t.Errorf("ReadJSON(%s) = %v, want errors.Is(ErrNotResult) %v", tc.in, err, tc.notIt)
		}
		var fe *report.FailedRunError
		if got := errors.As(err, &fe); got != tc.failure {
			t.Errorf("ReadJSON(%s) = %v, want a *FailedRunError %v", tc.in, err, tc.failure)
		}
		if tc.notIt && err != nil && !strings.Contains(err.Error(), "no measurement") {
			t.Errorf("ReadJSON(%s) = %v, want it to say it holds no measurement", tc.in, err)
		}
	}
}
