package runstats

import "testing"

// TestRunSamplerThreadFallback: where the kernel refuses per-thread counts,
// a sampler asked for them counts the process's, as NewRunSampler says
// (it counted none).
func TestRunSamplerThreadFallback(t *testing.T) {
	defer func(who int) { rusageThread = who }(rusageThread)
	rusageThread = -99 // EINVAL
	if s := NewRunSampler(true); s.Scope() != ScopeProcess {
		t.Errorf("per-thread counts refused: scope %v, want process", s.Scope())
	}
}
