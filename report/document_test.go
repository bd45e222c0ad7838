package report

import (
	"encoding/json"
	"testing"

	"github.com/gcperf/gcperf/workload"
)

// An open loop's Behind is not in the JSON, its converse kept_up is: read
// back, Behind is as the engine said.
func TestOpenLoopBehindReadBack(t *testing.T) {
	for _, behind := range []bool{false, true} {
		ol := openLoopOf(&workload.OpenLoop{Rate: 100, Achieved: 50, Behind: behind})
		data, err := json.Marshal(ol)
		if err != nil {
			t.Fatal(err)
		}
		var got OpenLoop
		if err := json.Unmarshal(data, &got); err != nil {
			t.Fatal(err)
		}
		if got != *ol || got.KeptUp == behind {
			t.Errorf("Behind %v: read back %+v from %s", behind, got, data)
		}
	}
}
