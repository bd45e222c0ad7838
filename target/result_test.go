package target

import (
	"syscall"
	"testing"
	"time"
)

// The series keeps at most max points however many samples come, each the
// largest of its span, so the peak is always in it.
func TestSeriesBounded(t *testing.T) {
	for _, m := range []int{2, 3, 4, 7, 1000} {
		for _, n := range []int{0, 1, 2, 5, 999, 1000, 1001, 4321} {
			s := newSeries(m)
			peakAt := n / 3
			for i := range n {
				rss := int64(i % 17)
				if i == peakAt {
					rss = 1000
				}
				s.add(Sample{At: time.Duration(i), RSS: rss})
			}
			got := s.samples()
			if len(got) > m {
				t.Errorf("max %d, %d samples: %d points", m, n, len(got))
			}
			if n > 0 && len(got) == 0 {
				t.Errorf("max %d, %d samples: no point", m, n)
			}
			found := false
			for i, p := range got {
				found = found || p.At == time.Duration(peakAt) && p.RSS == 1000
				if i > 0 && p.At <= got[i-1].At {
					t.Errorf("max %d, %d samples: points out of order at %d: %v", m, n, i, got)
					break
				}
			}
			if n > 0 && !found {
				t.Errorf("max %d, %d samples: the peak (sample %d) is not in %v", m, n, peakAt, got)
			}
			// Every sample is in exactly one point's span.
			if covered := s.s.Readings(); covered != n {
				t.Errorf("max %d, %d samples: the points stand for %d", m, n, covered)
			}
		}
	}
}

func TestSeriesUnderMaxKeepsEverySample(t *testing.T) {
	s := newSeries(10)
	for i := range 10 - 1 {
		s.add(Sample{At: time.Duration(i), RSS: int64(i)})
	}
	if got := s.samples(); len(got) != 9 || s.stride() != 1 {
		t.Errorf("%d points of stride %d, want 9 of 1", len(got), s.stride())
	}
}

func TestStatus(t *testing.T) {
	tests := []struct {
		r    Result
		want string
		ok   bool
	}{
		{Result{}, "exit status 0", true},
		{Result{ExitCode: 3}, "exit status 3", false},
		{Result{ExitCode: -1, Signal: syscall.SIGKILL}, "killed by SIGKILL", false},
		{Result{ExitCode: -1, Signal: syscall.Signal(60)}, "killed by signal 60 (", false},
		{Result{Stopped: ErrStopped}, "exit status 0", false},
	}
	for _, tt := range tests {
		got := tt.r.Status()
		if len(got) < len(tt.want) || got[:len(tt.want)] != tt.want {
			t.Errorf("Status() = %q, want %q...", got, tt.want)
		}
		if tt.r.Success() != tt.ok {
			t.Errorf("%+v: Success() = %v, want %v", tt.r, !tt.ok, tt.ok)
		}
	}
}
