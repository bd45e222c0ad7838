package interrupt

import (
	"testing"
	"testing/synctest"
)

// Unless returns f's result, or gives up on it as soon as quit is closed.
func TestUnless(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		quit := make(chan struct{})
		got, err, ok := Unless(quit, func() (int, error) { return 7, nil })
		if got != 7 || err != nil || !ok {
			t.Errorf("Unless = %d, %v, %t; want 7, nil, true", got, err, ok)
		}
		block := make(chan struct{})
		defer close(block)
		close(quit)
		if _, _, ok := Unless(quit, func() (int, error) { <-block; return 0, nil }); ok {
			t.Error("Unless after quit: ok, want given up")
		}
	})
}
