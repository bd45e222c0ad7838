package latency

import (
	"slices"
	"testing"
	"time"
)

// sample10 lists 10 runs out of run-number order, so that a run's number, its
// position in the input and its position once sorted all differ. The slowest
// is run 4, 7th in the input, 10th once sorted.
func sample10() []RunTime {
	return []RunTime{
		{Run: 3, Time: ms(30)}, {Run: 1, Time: ms(45)}, {Run: 2, Time: ms(20)},
		{Run: 5, Time: ms(10)}, {Run: 6, Time: ms(50)}, {Run: 7, Time: ms(20)},
		{Run: 4, Time: ms(100)}, {Run: 8, Time: ms(60)}, {Run: 10, Time: ms(45)},
		{Run: 9, Time: ms(80)},
	}
}

// sample200 has run i take i ms, except run 37 (500ms) and run 150 (400ms),
// the two slowest; run 37 comes first in the input but is the slower.
func sample200() []RunTime {
	runs := make([]RunTime, 200)
	for i := range runs {
		runs[i] = RunTime{Run: i + 1, Time: ms(float64(i + 1))}
	}
	runs[36].Time = ms(500)
	runs[149].Time = ms(400)
	return runs
}

func TestGCPerfP99(t *testing.T) {
	tests := []struct {
		name   string
		runs   []RunTime
		perRun float64
		want   P99Figures
		aveTol time.Duration // tolerance on LatencyAve for a fractional ns
	}{
		{
			// Sorted: 10(r5) 20(r2) 20(r7) 30(r3) 45(r1) 45(r10) 50(r6)
			// 60(r8) 80(r9) | 100(r4) ms. Kept = floor(10*99/100) = 9.
			// Total = 10+20+20+30+45+45+50+60+80 = 360ms; MeanPerRun 40ms.
			// Throughput 9*32/0.36s = 800/s; Max 32/0.010s = 3200/s; Min
			// 32/0.080s = 400/s. Latency = LatencyMax = 80ms*1000/32 =
			// 2500ms; LatencyMin 10ms*1000/32 = 312.5ms; LatencyAve
			// 40ms*1000/32 = 1250ms. Processed 10*32 = 320. Worst: run 4,
			// 100ms, 32/0.1s = 320/s.
			name:   "10 runs",
			runs:   sample10(),
			perRun: 32,
			want: P99Figures{
				Runs: 10, Kept: 9, PerRun: 32, Processed: 320,
				Total: ms(360), MeanPerRun: ms(40),
				Throughput: 800, ThroughputMax: 3200, ThroughputMin: 400,
				Latency: ms(2500), LatencyMin: ms(312.5), LatencyAve: ms(1250), LatencyMax: ms(2500),
				Worst: []Worst{{Run: 4, Time: ms(100), Throughput: 320}},
			},
		},
		{
			// Kept = floor(200*99/100) = 198: every run but 37 and 150.
			// Total = (1+...+200) - 37 - 150 = 20100 - 187 = 19913ms;
			// MeanPerRun 19913e6ns/198 = 100570707.07 -> 100570707ns.
			// Throughput 198*32/19.913s = 6336/19.913 = 318.184100838648;
			// Max 32/0.001s = 32000; Min (run 200, 200ms) 32/0.2s = 160.
			// Latency 200ms*1000/32 = 6250ms; LatencyMin 1ms*1000/32 =
			// 31.25ms; LatencyAve 100570707ns*1000/32 = 3142834593.75ns.
			// Worst fastest first: run 150 (400ms, 32/0.4 = 80/s), then run
			// 37 (500ms, 32/0.5 = 64/s). Processed 200*32 = 6400.
			name:   "200 runs",
			runs:   sample200(),
			perRun: 32,
			want: P99Figures{
				Runs: 200, Kept: 198, PerRun: 32, Processed: 6400,
				Total: ms(19913), MeanPerRun: 100570707,
				Throughput: 6336 / 19.913, ThroughputMax: 32000, ThroughputMin: 160,
				Latency: ms(6250), LatencyMin: ms(31.25), LatencyAve: 3142834594, LatencyMax: ms(6250),
				Worst: []Worst{
					{Run: 150, Time: ms(400), Throughput: 80},
					{Run: 37, Time: ms(500), Throughput: 64},
				},
			},
			aveTol: 1,
		},
		{
			// Kept = max(floor(1*99/100), 1) = max(0, 1) = 1, no worst.
			// Throughput = Max = Min = 32/0.064s = 500/s; every latency
			// 64ms*1000/32 = 2s.
			name:   "1 run",
			runs:   []RunTime{{Run: 1, Time: ms(64)}},
			perRun: 32,
			want: P99Figures{
				Runs: 1, Kept: 1, PerRun: 32, Processed: 32,
				Total: ms(64), MeanPerRun: ms(64),
				Throughput: 500, ThroughputMax: 500, ThroughputMin: 500,
				Latency: 2 * time.Second, LatencyMin: 2 * time.Second, LatencyAve: 2 * time.Second, LatencyMax: 2 * time.Second,
			},
		},
		{
			// Kept = max(floor(2*99/100), 1) = 1: the zero-time run. Rates
			// over 0s are reported as 0, not +Inf; latencies are 0. Worst:
			// run 1, 10ms, 32/0.01s = 3200/s.
			name:   "zero-time run",
			runs:   []RunTime{{Run: 1, Time: ms(10)}, {Run: 2, Time: 0}},
			perRun: 32,
			want: P99Figures{
				Runs: 2, Kept: 1, PerRun: 32, Processed: 64,
				Worst: []Worst{{Run: 1, Time: ms(10), Throughput: 3200}},
			},
		},
		{
			// Fractional units: perRun 2.5, runs 10ms and 30ms (out of
			// order). Kept = max(floor(198/100), 1) = 1: the 10ms run.
			// Throughput 2.5/0.01s = 250/s = Max = Min; latency
			// 10ms*1000/2.5 = 4s. Worst: run 1, 30ms, 2.5/0.03s = 83.33/s.
			name:   "fractional units",
			runs:   []RunTime{{Run: 1, Time: ms(30)}, {Run: 2, Time: ms(10)}},
			perRun: 2.5,
			want: P99Figures{
				Runs: 2, Kept: 1, PerRun: 2.5, Processed: 5,
				Total: ms(10), MeanPerRun: ms(10),
				Throughput: 250, ThroughputMax: 250, ThroughputMin: 250,
				Latency: 4 * time.Second, LatencyMin: 4 * time.Second, LatencyAve: 4 * time.Second, LatencyMax: 4 * time.Second,
				Worst: []Worst{{Run: 1, Time: ms(30), Throughput: 2.5 / 0.03}},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkP99(t, GCPerfP99(tt.runs, tt.perRun), tt.want, tt.aveTol)
		})
	}
}

func checkP99(t *testing.T, got, want P99Figures, aveTol time.Duration) {
	t.Helper()
	if got.Runs != want.Runs || got.Kept != want.Kept {
		t.Errorf("Runs, Kept = %d, %d, want %d, %d", got.Runs, got.Kept, want.Runs, want.Kept)
	}
	if got.Total != want.Total || got.MeanPerRun != want.MeanPerRun {
		t.Errorf("Total, MeanPerRun = %v, %v (%d), want %v, %v (%d)",
			got.Total, got.MeanPerRun, got.MeanPerRun, want.Total, want.MeanPerRun, want.MeanPerRun)
	}
	for _, c := range []struct {
		name      string
		got, want float64
	}{
		{"PerRun", got.PerRun, want.PerRun},
		{"Processed", got.Processed, want.Processed},
		{"Throughput", got.Throughput, want.Throughput},
		{"ThroughputMax", got.ThroughputMax, want.ThroughputMax},
		{"ThroughputMin", got.ThroughputMin, want.ThroughputMin},
	} {
		if !approx(c.got, c.want, 1e-12) {
			t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
		}
	}
	if got.Latency != want.Latency || got.LatencyMin != want.LatencyMin || got.LatencyMax != want.LatencyMax {
		t.Errorf("Latency, LatencyMin, LatencyMax = %v, %v, %v, want %v, %v, %v",
			got.Latency, got.LatencyMin, got.LatencyMax, want.Latency, want.LatencyMin, want.LatencyMax)
	}
	if d := got.LatencyAve - want.LatencyAve; d < -aveTol || d > aveTol {
		t.Errorf("LatencyAve = %v (%d), want %v (%d) ±%dns", got.LatencyAve, got.LatencyAve, want.LatencyAve, want.LatencyAve, aveTol)
	}
	if len(got.Worst) != len(want.Worst) {
		t.Fatalf("Worst = %+v, want %+v", got.Worst, want.Worst)
	}
	for i, w := range want.Worst {
		g := got.Worst[i]
		if g.Run != w.Run || g.Time != w.Time || !approx(g.Throughput, w.Throughput, 1e-12) {
			t.Errorf("Worst[%d] = %+v, want %+v", i, g, w)
		}
	}
}

func TestGCPerfP99Kept(t *testing.T) {
	tests := []struct {
		n, kept int
	}{
		{1, 1},      // floor(99/100) = 0 -> at least 1
		{2, 1},      // floor(198/100) = 1
		{50, 49},    // floor(4950/100)
		{99, 98},    // floor(9801/100)
		{100, 99},   // 9900/100
		{101, 99},   // floor(9999/100)
		{199, 197},  // floor(19701/100)
		{200, 198},  // 19800/100
		{1000, 990}, // 99000/100
	}
	for _, tt := range tests {
		runs := make([]RunTime, tt.n)
		for i := range runs {
			// Run i+1 takes (n-i) ms: the slowest come first.
			runs[i] = RunTime{Run: i + 1, Time: ms(float64(tt.n - i))}
		}
		f := GCPerfP99(runs, 1)
		if f.Kept != tt.kept || len(f.Worst) != tt.n-tt.kept {
			t.Errorf("n=%d: Kept = %d, len(Worst) = %d, want %d, %d", tt.n, f.Kept, len(f.Worst), tt.kept, tt.n-tt.kept)
			continue
		}
		// The worst are runs 1..n-kept (the slowest), fastest first: run
		// n-kept down to run 1.
		for i, w := range f.Worst {
			if want := tt.n - tt.kept - i; w.Run != want {
				t.Errorf("n=%d: Worst[%d].Run = %d, want %d", tt.n, i, w.Run, want)
			}
		}
	}
}

func TestGCPerfP99Degenerate(t *testing.T) {
	tests := []struct {
		name   string
		runs   []RunTime
		perRun float64
	}{
		{name: "nil runs", runs: nil, perRun: 32},
		{name: "empty runs", runs: []RunTime{}, perRun: 32},
		{name: "perRun 0", runs: sample10(), perRun: 0},
		{name: "perRun negative", runs: sample10(), perRun: -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := GCPerfP99(tt.runs, tt.perRun)
			if f.Kept != 0 || f.Total != 0 || f.MeanPerRun != 0 ||
				f.Throughput != 0 || f.ThroughputMax != 0 || f.ThroughputMin != 0 ||
				f.Latency != 0 || f.LatencyMin != 0 || f.LatencyAve != 0 || f.LatencyMax != 0 ||
				f.Worst != nil {
				t.Errorf("GCPerfP99 = %+v, want zero figures", f)
			}
		})
	}
}

// TestGCPerfP99ZeroValue checks the doc comment's "It returns the zero value
// for no runs or perRun <= 0".
func TestGCPerfP99ZeroValue(t *testing.T) {
	tests := []struct {
		name   string
		runs   []RunTime
		perRun float64
	}{
		{name: "nil runs", runs: nil, perRun: 32},
		{name: "perRun negative", runs: sample10(), perRun: -1},
	}
	for _, tt := range tests {
		if f := GCPerfP99(tt.runs, tt.perRun); f.Runs != 0 || f.PerRun != 0 || f.Processed != 0 {
			t.Errorf("%s: GCPerfP99 = %+v, want the zero value", tt.name, f)
		}
	}
}

func TestGCPerfP99DoesNotModifyInput(t *testing.T) {
	tests := []struct {
		name string
		runs []RunTime
	}{
		{name: "10 runs", runs: sample10()},
		{name: "200 runs", runs: sample200()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := slices.Clone(tt.runs)
			GCPerfP99(tt.runs, 32)
			if !slices.Equal(tt.runs, before) {
				t.Errorf("GCPerfP99 reordered or changed its input:\n got %v\nwant %v", tt.runs, before)
			}
		})
	}
}
