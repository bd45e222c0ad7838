package profiles

import (
	"errors"
	"strings"
	"testing"
)

func TestWriteTop(t *testing.T) {
	cpu := Summary{SampleType: "cpu", Unit: "nanoseconds", Total: 2_000_000_000, Funcs: []Func{
		{Name: "main.hash", Flat: 900_000_000, Cum: 900_000_000, FlatPct: 45, CumPct: 45},
		{Name: "main.fib", Flat: 50_000_000, Cum: 50_000_000, FlatPct: 2.5, CumPct: 2.5},
		{Name: "main.main", Flat: 0, Cum: 1_750_000_000, FlatPct: 0, CumPct: 87.5},
	}}
	heap := Summary{SampleType: "alloc_space", Unit: "bytes", Total: 2<<20 + 3000, Funcs: []Func{
		{Name: "main.main", Flat: 0, Cum: 2<<20 + 3000, FlatPct: 0, CumPct: 100},
		{Name: "main.alloc", Flat: 3 << 19, Cum: 3 << 19, FlatPct: 74.89, CumPct: 74.89},
	}}
	goroutines := Summary{SampleType: "goroutine", Unit: "count", Total: 13, Funcs: []Func{
		{Name: "runtime.gopark", Flat: 13, Cum: 13, FlatPct: 100, CumPct: 100},
	}}
	tests := []struct {
		name string
		s    Summary
		cum  bool
		want string
	}{
		{"flat, nanoseconds", cpu, false, `Sample type cpu (nanoseconds), total 2.00s; top 3 functions by flat value
    flat   flat%     cum    cum%  function
   900ms  45.00%   900ms  45.00%  main.hash
  50.0ms   2.50%  50.0ms   2.50%  main.fib
     0ns   0.00%   1.75s  87.50%  main.main
`},
		{"cumulative, bytes", heap, true, `Sample type alloc_space (bytes), total 2.0MiB; top 2 functions by cumulative value
    flat   flat%     cum     cum%  function
      0B   0.00%  2.0MiB  100.00%  main.main
  1.5MiB  74.89%  1.5MiB   74.89%  main.alloc
`},
		{"count", goroutines, true, `Sample type goroutine (count), total 13; top 1 functions by cumulative value
  flat    flat%  cum     cum%  function
    13  100.00%   13  100.00%  runtime.gopark
`},
		{"no samples", Summary{SampleType: "delay", Unit: "nanoseconds"}, false,
			"Sample type delay (nanoseconds), total 0ns: no samples\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b strings.Builder
			if err := WriteTop(&b, tt.s, tt.cum); err != nil {
				t.Fatal(err)
			}
			if b.String() != tt.want {
				t.Errorf("got\n%s\nwant\n%s", b.String(), tt.want)
			}
		})
	}
}

func TestWriteDiff(t *testing.T) {
	old := Summary{SampleType: "cpu", Unit: "nanoseconds", Total: 2_000_000_000}
	new := Summary{SampleType: "cpu", Unit: "nanoseconds", Total: 1_000_000_000}
	tests := []struct {
		name string
		c    Comparison
		want string
	}{
		{"changes", Comparison{Old: old, New: new, Changes: []Change{
			{Name: "main.hash", OldPct: 45, NewPct: 10, Delta: -35},
			{Name: "main.work", OldPct: 25, NewPct: 50, Delta: 25},
			{Name: "main.fib", OldPct: 2.5, NewPct: 0, Delta: -2.5},
		}}, `Sample type cpu (nanoseconds), total 2.00s old, 1.00s new; the 3 largest changes in flat share
    old%    new%     delta  function
  45.00%  10.00%  -35.00pp  main.hash
  25.00%  50.00%  +25.00pp  main.work
   2.50%   0.00%   -2.50pp  main.fib
`},
		{"bytes", Comparison{
			Old:     Summary{SampleType: "alloc_space", Unit: "bytes", Total: 1 << 30},
			New:     Summary{SampleType: "alloc_space", Unit: "bytes", Total: 512 << 20},
			Changes: []Change{{Name: "main.list", OldPct: 100, NewPct: 60, Delta: -40}},
		}, `Sample type alloc_space (bytes), total 1GiB old, 512MiB new; the 1 largest changes in flat share
     old%    new%     delta  function
  100.00%  60.00%  -40.00pp  main.list
`},
		{"no changes", Comparison{Old: old, New: old},
			"Sample type cpu (nanoseconds), total 2.00s old, 2.00s new; no function's flat share changed\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b strings.Builder
			if err := WriteDiff(&b, tt.c); err != nil {
				t.Fatal(err)
			}
			if b.String() != tt.want {
				t.Errorf("got\n%s\nwant\n%s", b.String(), tt.want)
			}
		})
	}
}

// failWriter fails every write.
type failWriter struct{}

var errWrite = errors.New("disk full")

func (failWriter) Write([]byte) (int, error) { return 0, errWrite }

// A write error comes back, with or without a table.
func TestWriteError(t *testing.T) {
	s := Summary{SampleType: "cpu", Unit: "nanoseconds", Total: 1, Funcs: []Func{{Name: "f", Flat: 1, Cum: 1, FlatPct: 100, CumPct: 100}}}
	for name, err := range map[string]error{
		"top":           WriteTop(failWriter{}, s, false),
		"top, empty":    WriteTop(failWriter{}, Summary{}, false),
		"diff":          WriteDiff(failWriter{}, Comparison{Old: s, New: s, Changes: []Change{{Name: "f", Delta: 1}}}),
		"diff, nothing": WriteDiff(failWriter{}, Comparison{}),
	} {
		if !errors.Is(err, errWrite) {
			t.Errorf("%s: error %v, want %v", name, err, errWrite)
		}
	}
}
