package report

import (
	"bytes"
	"encoding/csv"
	"errors"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// exec.json is a command's result saved by gcperf exec -json: a go test
// binary of alloc printing three results of one benchmark, its RSS series
// and heap goals thinned to 16 points each.
func TestExecFormatsGolden(t *testing.T) {
	d, _ := readFixture(t, "exec.json")
	for _, tc := range []struct {
		ext   string
		write func(io.Writer, *Document) error
	}{
		{"txt", Text},
		{"csv", CSV},
		{"bench", Bench},
		{"xml", XML},
	} {
		t.Run(tc.ext, func(t *testing.T) {
			var b bytes.Buffer
			if err := tc.write(&b, d); err != nil {
				t.Fatal(err)
			}
			golden(t, filepath.Join("testdata", "exec."+tc.ext), b.Bytes())
		})
	}
}

func TestExecHGRM(t *testing.T) {
	d, _ := readFixture(t, "exec.json")
	var b bytes.Buffer
	err := HGRM(&b, d)
	if !errors.Is(err, ErrNoDistribution) {
		t.Fatalf("HGRM: %v, want ErrNoDistribution", err)
	}
	if b.Len() > 0 {
		t.Errorf("HGRM wrote %q", b.String())
	}
}

func TestExecCSVReadBack(t *testing.T) {
	d, _ := readFixture(t, "exec.json")
	var b bytes.Buffer
	if err := CSV(&b, d); err != nil {
		t.Fatal(err)
	}
	r := csv.NewReader(&b)
	r.FieldsPerRecord = -1
	recs, err := r.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	head, vals := recs[0], recs[1]
	if len(head) != len(vals) {
		t.Fatalf("%d headers, %d values", len(head), len(vals))
	}
	cell := func(name string) string {
		i := slices.Index(head, name)
		if i < 0 {
			t.Fatalf("no column %q", name)
		}
		return vals[i]
	}
	for name, want := range map[string]string{
		"Status": "exit status 0", "Exit Code": "0", "GOGC": "100", "GC Cycles": "4005",
		"Peak RSS Bytes": "181583872", "Peak Heap Bytes": "174063616",
	} {
		if got := cell(name); got != want {
			t.Errorf("%s = %q, want %q", name, got, want)
		}
	}
	var titles []string // encoding/csv skips the empty lines: a block opens with its one-cell title
	for _, rec := range recs[2:] {
		if len(rec) == 1 {
			titles = append(titles, rec[0])
		}
	}
	want := []string{csvBenchmarks, csvRSS, csvGoal, csvEnv}
	if !slices.Equal(titles, want) {
		t.Errorf("blocks %q, want %q", titles, want)
	}
	i := slices.IndexFunc(recs, func(r []string) bool { return len(r) > 2 && r[2] == "sec/op" })
	if i < 0 || recs[i][0] != "Workloads/list-2" || recs[i][4] != "3" || len(recs[i]) != 9 {
		t.Errorf("sec/op row: %q", recs[i])
	}
}

// TestExecBenchReadBack: benchfmt reads the command's figures as one
// benchmark and its own benchmarks as a line per result, with the
// names a sweep's points give them.
func TestExecBenchReadBack(t *testing.T) {
	d, _ := readFixture(t, "exec.json")
	for _, tc := range []struct {
		name  string
		parts []benchPart
		want  []string // the names, in order
		cfg   map[string]string
	}{
		{
			name:  "one",
			parts: []benchPart{{Doc: d}},
			want:  []string{"Exec/cmd=alloc.test", "Workloads/list-2", "Workloads/list-2", "Workloads/list-2"},
			// The settings are a comment, not configuration keys, so that
			// benchstat compares two files that differ in them.
			cfg: map[string]string{"gogc": "", "gomemlimit": "", "goos": "linux", "goarch": "amd64"},
		},
		{
			name: "sweep points",
			parts: []benchPart{
				{Doc: d, Label: "a", Params: "gogc=100 memlimit=off", Drop: []string{"gogc", "gomemlimit"}},
				{Doc: d, Label: "b", Params: "gogc=200 memlimit=off", Drop: []string{"gogc", "gomemlimit"}},
			},
			want: []string{
				"Exec/gogc=100/memlimit=off/cmd=alloc.test", "Workloads/list/gogc=100/memlimit=off-2",
				"Workloads/list/gogc=100/memlimit=off-2", "Workloads/list/gogc=100/memlimit=off-2",
				"Exec/gogc=200/memlimit=off/cmd=alloc.test", "Workloads/list/gogc=200/memlimit=off-2",
				"Workloads/list/gogc=200/memlimit=off-2", "Workloads/list/gogc=200/memlimit=off-2",
			},
		},
		{
			name: "gomaxprocs axis",
			parts: []benchPart{
				{Doc: d, Label: "a", Params: "gogc=100 memlimit=off gomaxprocs=2", Drop: []string{"gogc", "gomemlimit", "gomaxprocs"}},
			},
			want: []string{
				"Exec/gogc=100/memlimit=off/gomaxprocs=2/cmd=alloc.test", "Workloads/list/gogc=100/memlimit=off/gomaxprocs=2",
				"Workloads/list/gogc=100/memlimit=off/gomaxprocs=2", "Workloads/list/gogc=100/memlimit=off/gomaxprocs=2",
			},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := benchJoin(&b, tc.parts); err != nil {
				t.Fatal(err)
			}
			res, units := readBench(t, b.Bytes())
			var names []string
			for _, r := range res {
				names = append(names, string(r.Name))
			}
			if !slices.Equal(names, tc.want) {
				t.Fatalf("names:\n%q\nwant\n%q\n%s", names, tc.want, b.String())
			}
			for k, v := range tc.cfg {
				if got := res[0].GetConfig(k); got != v {
					t.Errorf("config %s = %q, want %q", k, got, v)
				}
			}
			if got := res[1].GetConfig("pkg"); got != "github.com/gcperf/gcperf/alloc" {
				t.Errorf("pkg %q", got)
			}
			if v, ok := benchValue(res[0], "ns/op"); !ok || v != float64(d.Exec.Wall) {
				t.Errorf("the command's ns/op %v, want its wall time %d", v, d.Exec.Wall)
			}
			if v, ok := benchValue(res[0], "pause-max-ns"); !ok || v != float64(d.Exec.GC.Pauses.Max) {
				t.Errorf("pause-max-ns %v", v)
			}
			if v, ok := benchValue(res[2], "sec/op"); !ok || v != d.Exec.Benchmarks[0].Metrics[0].Values[1] {
				t.Errorf("the second result's sec/op %v", v)
			}
			if len(units) == 0 {
				t.Error("no Unit lines")
			}
			if n := strings.Count(b.String(), "# Exec/cmd=PROGRAM"); n != 1 {
				t.Errorf("%d definition lines, want 1", n)
			}
		})
	}
}

// execSet is report/testdata/exec.json run four times (gcperf exec -count
// 4): three successful runs of different wall times and RSS, the third
// failed.
func execSet(t *testing.T) *Set {
	t.Helper()
	s := &Set{Tool: Tool{Name: "gcperf", Version: "0.1.0-dev"}, Count: 4}
	for i, wall := range []time.Duration{2e9, 3e9, 1e9, 4e9} {
		d, _ := readFixture(t, "exec.json")
		e := d.Exec
		e.Wall, e.PeakRSSBytes = wall, e.PeakRSSBytes+int64(i)<<20
		e.GC.Pauses.Max += time.Duration(i) * 1000
		for j := range e.Benchmarks[0].Metrics[0].Values {
			e.Benchmarks[0].Metrics[0].Values[j] *= float64(i + 1)
		}
		if i == 2 {
			e.Status, e.ExitCode, e.Success = "exit status 1", 1, false
		}
		s.Processes = append(s.Processes, ProcessResult{N: i + 1, Wall: time.Duration(wall), Result: d})
	}
	return s
}

func TestExecSetGolden(t *testing.T) {
	s := execSet(t)
	var txt, bench bytes.Buffer
	if err := SetText(&txt, s); err != nil {
		t.Fatal(err)
	}
	golden(t, "testdata/exec_set.txt", txt.Bytes())
	if err := SetBench(&bench, s); err != nil {
		t.Fatal(err)
	}
	golden(t, "testdata/exec_set.bench", bench.Bytes())
	// benchstat's view: three samples of the command, nine of its
	// benchmark (three results in each of three successful runs).
	res, _ := readBench(t, bench.Bytes())
	n := map[string]int{}
	for _, r := range res {
		n[string(r.Name)]++
	}
	if n["Exec/cmd=alloc.test"] != 3 || n["Workloads/list-2"] != 9 {
		t.Errorf("samples per benchmark: %v", n)
	}
	if !strings.Contains(bench.String(), "# process 3: no result: the command did not succeed: exit status 1") {
		t.Error("no comment line for the failed run")
	}
}

// TestExecSetNoRun: gcperf exec -count 3 interrupted during its first run
// reports that no run finished, not gcperf run -count's table.
func TestExecSetNoRun(t *testing.T) {
	s := &Set{Tool: Tool{Name: "gcperf", Version: "v", Command: []string{"gcperf", "exec", "-count", "3", "--", "./cache", "-x"}}, Count: 3, Interrupted: true}
	var b strings.Builder
	if err := SetText(&b, s); err != nil {
		t.Fatal(err)
	}
	if want := "gcperf v exec: ./cache -x, asked 3 times (-count 3): no run finished (interrupted).\n"; b.String() != want {
		t.Errorf("got %q, want %q", b.String(), want)
	}
}
