package latency

import (
	"math/rand/v2"
	"testing"
	"time"
)

func TestTrim(t *testing.T) {
	tests := []struct {
		n, outliers, want int
	}{
		{n: 5, outliers: 1, want: 1},   // 2*1 < 5: drop 1 each side, keep 3
		{n: 5, outliers: 0, want: 0},   // nothing requested
		{n: 5, outliers: -3, want: 0},  // negative means none
		{n: 0, outliers: 3, want: 0},   // no values
		{n: -1, outliers: 1, want: 0},  // nonsense n
		{n: 1, outliers: 1, want: 0},   // 2*1 >= 1: (1-1)/2 = 0, keep the only value
		{n: 2, outliers: 1, want: 0},   // 2*1 >= 2: (2-1)/2 = 0, keep both
		{n: 3, outliers: 1, want: 1},   // 2*1 < 3: drop 1 each side, keep 1
		{n: 4, outliers: 2, want: 1},   // 2*2 >= 4: (4-1)/2 = 1, keep 2
		{n: 5, outliers: 2, want: 2},   // 2*2 < 5: keep 1
		{n: 5, outliers: 3, want: 2},   // 2*3 >= 5: (5-1)/2 = 2, keep 1
		{n: 6, outliers: 3, want: 2},   // 2*3 >= 6: (6-1)/2 = 2, keep 2
		{n: 7, outliers: 3, want: 3},   // 2*3 < 7: keep 1
		{n: 7, outliers: 100, want: 3}, // (7-1)/2 = 3, keep 1
		{n: 100, outliers: 5, want: 5}, // keep 90
	}
	for _, tt := range tests {
		if got := Trim(tt.n, tt.outliers); got != tt.want {
			t.Errorf("Trim(%d, %d) = %d, want %d", tt.n, tt.outliers, got, tt.want)
		}
	}
}

func TestSummarize(t *testing.T) {
	tests := []struct {
		name     string
		values   []time.Duration
		outliers int
		want     Summary       // Percentiles are left zero: see TestSummarizePercentiles
		geoTol   time.Duration // tolerance for an irrational geomean summed over many logs
	}{
		{
			// sum 7ms, mean 7/3 ms = 2333333.33ns -> 2333333ns;
			// geomean (1*2*4)^(1/3) ms = 8^(1/3) ms = 2ms exactly;
			// deviations from 7/3: -4/3, -1/3, 5/3 ms; squares 16/9, 1/9, 25/9;
			// population variance (42/9)/3 = 14/9 ms² = 1.5555...e12 ns²
			// (the sample variance, /2, would be 7/3 ms²);
			// stddev sqrt(14)/3 ms = 1247219.13ns -> 1247219ns.
			name:   "1,2,4ms unsorted, no outliers",
			values: []time.Duration{ms(4), ms(1), ms(2)},
			want: Summary{
				Count: 3, Discarded: 0, Kept: 3,
				Total: ms(7), Mean: 2333333, GeoMean: ms(2), Min: ms(1), Max: ms(4),
				Variance: 14e12 / 9, StdDev: 1247219,
			},
		},
		{
			// sorted 0,1,2,4,100 ms; outliers=1 drops 0 and 100ms, leaving
			// 1,2,4 ms: the same figures as the case above.
			name:     "outliers=1 of 5 drops the smallest and the largest",
			values:   []time.Duration{ms(100), ms(1), ms(2), ms(4), 0},
			outliers: 1,
			want: Summary{
				Count: 5, Discarded: 1, Kept: 3,
				Total: ms(7), Mean: 2333333, GeoMean: ms(2), Min: ms(1), Max: ms(4),
				Variance: 14e12 / 9, StdDev: 1247219,
			},
		},
		{
			// Classic: mean 40/8 = 5ms; squared deviations 9,1,1,1,0,0,4,16 = 32
			// ms²; population variance 32/8 = 4 ms² = 4e12 ns² (not 32/7);
			// stddev 2ms; geomean (2*4*4*4*5*5*7*9)^(1/8) = 201600^(1/8) ms:
			// ln 201600 = 12.2140408, /8 = 1.5267551, e^1.5267551 =
			// 4.6032156ms -> 4603216ns (python: 201600**(1/8) = 4.60321560).
			name:   "population variance divides by n",
			values: []time.Duration{ms(9), ms(2), ms(4), ms(4), ms(4), ms(5), ms(5), ms(7)},
			want: Summary{
				Count: 8, Kept: 8,
				Total: ms(40), Mean: ms(5), GeoMean: 4603216, Min: ms(2), Max: ms(9),
				Variance: 4e12, StdDev: ms(2),
			},
			geoTol: 1,
		},
		{
			// A 0 counts as 1ns in the geometric mean: (1*4*16)^(1/3) = 64^(1/3)
			// = 4ns (dropping it would give 8ns, using it would give 0).
			// Total 20ns, mean 20/3 = 6.67 -> 7ns; deviations -20/3, -8/3, 28/3;
			// squares (400+64+784)/9 = 1248/9; variance 1248/27 = 46.222 ns²;
			// stddev 6.7987 -> 7ns.
			name:   "a zero counts as 1ns in the geometric mean",
			values: []time.Duration{16, 0, 4},
			want: Summary{
				Count: 3, Kept: 3,
				Total: 20, Mean: 7, GeoMean: 4, Min: 0, Max: 16,
				Variance: 1248.0 / 27, StdDev: 7,
			},
		},
		{
			// One value: Trim(1, 1) = 0, so it is kept; no spread.
			name:     "single value",
			values:   []time.Duration{ms(5)},
			outliers: 1,
			want: Summary{
				Count: 1, Kept: 1,
				Total: ms(5), Mean: ms(5), GeoMean: ms(5), Min: ms(5), Max: ms(5),
			},
		},
		{
			// Trim(2, 1): 2*1 >= 2, (2-1)/2 = 0 -> keep both. mean 2ms,
			// variance (1+1)/2 = 1 ms² = 1e12 ns², stddev 1ms,
			// geomean sqrt(3) ms = 1732050.8 -> 1732051ns.
			name:     "2*outliers >= n keeps (n-1)/2 per side: n=2",
			values:   []time.Duration{ms(3), ms(1)},
			outliers: 1,
			want: Summary{
				Count: 2, Kept: 2,
				Total: ms(4), Mean: ms(2), GeoMean: 1732051, Min: ms(1), Max: ms(3),
				Variance: 1e12, StdDev: ms(1),
			},
		},
		{
			// Trim(4, 2): 2*2 >= 4, (4-1)/2 = 1 -> sorted 1,2,3,100 keeps 2,3.
			// mean 2.5ms, variance (0.25+0.25)/2 = 0.25 ms² = 0.25e12 ns²,
			// stddev 0.5ms, geomean sqrt(6) ms = 2449489.7 -> 2449490ns.
			name:     "2*outliers >= n keeps (n-1)/2 per side: n=4",
			values:   []time.Duration{ms(100), ms(3), ms(1), ms(2)},
			outliers: 2,
			want: Summary{
				Count: 4, Discarded: 1, Kept: 2,
				Total: ms(5), Mean: ms(2.5), GeoMean: 2449490, Min: ms(2), Max: ms(3),
				Variance: 0.25e12, StdDev: ms(0.5),
			},
		},
		{
			// Trim(5, 10) = (5-1)/2 = 2 -> sorted 1,3,5,7,9 keeps the median.
			name:     "huge outliers keeps the median",
			values:   []time.Duration{ms(9), ms(1), ms(5), ms(3), ms(7)},
			outliers: 10,
			want: Summary{
				Count: 5, Discarded: 2, Kept: 1,
				Total: ms(5), Mean: ms(5), GeoMean: ms(5), Min: ms(5), Max: ms(5),
			},
		},
		{
			// outliers <= 0 keeps everything, even the extremes.
			name:     "negative outliers keeps all",
			values:   []time.Duration{ms(4), ms(1), ms(2)},
			outliers: -1,
			want: Summary{
				Count: 3, Kept: 3,
				Total: ms(7), Mean: 2333333, GeoMean: ms(2), Min: ms(1), Max: ms(4),
				Variance: 14e12 / 9, StdDev: 1247219,
			},
		},
		{
			// 1µs..10000µs, outliers 0. Total = 10000*10001/2 µs = 50005000µs;
			// mean 5000.5µs; population variance of 1..N is (N²-1)/12 =
			// (1e8-1)/12 = 8333333.25 µs² = 8333333250000 ns²; stddev
			// sqrt(8333333.25) µs = 2886.75133µs -> 2886751ns; geomean
			// (10000!)^(1/10000) µs: Stirling ln N! = N ln N - N + ln(2πN)/2
			// + 1/12N = 82108.92780, /N = 8.2108928, e^that = 3680.827µs
			// (python: exp(lgamma(10001)/10000) = 3680.82718) -> 3680827ns.
			name:   "1..10000µs",
			values: micros(10000),
			want: Summary{
				Count: 10000, Kept: 10000,
				Total: us(50005000), Mean: 5000500, GeoMean: 3680827, Min: us(1), Max: us(10000),
				Variance: 8333333250000, StdDev: 2886751,
			},
			geoTol: 1,
		},
		{
			// 1..10000µs, outliers 100: keeps 101..9900µs (9800 values).
			// Total = sum(1..9900) - sum(1..100) = 49009950 - 5050 = 49004900µs;
			// mean 49004900/9800 = 5000.5µs (symmetric trim keeps the mean);
			// variance of 9800 consecutive integers (9800²-1)/12 =
			// 8003333.25 µs² = 8003333250000 ns²; stddev sqrt(8003333.25) µs
			// = 2829.01630µs -> 2829016ns; geomean (9900!/100!)^(1/9800) µs
			// = exp((lgamma(9901) - lgamma(101))/9800) = 3817.73798µs ->
			// 3817738ns (python math.lgamma).
			name:     "1..10000µs, outliers 100",
			values:   micros(10000),
			outliers: 100,
			want: Summary{
				Count: 10000, Discarded: 100, Kept: 9800,
				Total: us(49004900), Mean: 5000500, GeoMean: 3817738, Min: us(101), Max: us(9900),
				Variance: 8003333250000, StdDev: 2829016,
			},
			geoTol: 1,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Summarize(tt.values, tt.outliers, nil)
			w := tt.want
			if got.Count != w.Count || got.Discarded != w.Discarded || got.Kept != w.Kept {
				t.Errorf("Count, Discarded, Kept = %d, %d, %d, want %d, %d, %d",
					got.Count, got.Discarded, got.Kept, w.Count, w.Discarded, w.Kept)
			}
			if got.Total != w.Total || got.Mean != w.Mean || got.Min != w.Min || got.Max != w.Max {
				t.Errorf("Total, Mean, Min, Max = %v, %v, %v, %v, want %v, %v, %v, %v",
					got.Total, got.Mean, got.Min, got.Max, w.Total, w.Mean, w.Min, w.Max)
			}
			if !approx(got.Variance, w.Variance, 1e-12) {
				t.Errorf("Variance = %v, want %v", got.Variance, w.Variance)
			}
			if got.StdDev != w.StdDev {
				t.Errorf("StdDev = %v (%d), want %v (%d)", got.StdDev, got.StdDev, w.StdDev, w.StdDev)
			}
			if d := got.GeoMean - w.GeoMean; d < -tt.geoTol || d > tt.geoTol {
				t.Errorf("GeoMean = %v (%d), want %v (%d) ±%dns", got.GeoMean, got.GeoMean, w.GeoMean, w.GeoMean, tt.geoTol)
			}
			if got.Percentiles != (Percentiles{}) {
				t.Errorf("Percentiles = %+v without a Recorder, want zero", got.Percentiles)
			}
		})
	}
}

func TestSummarizeEmpty(t *testing.T) {
	tests := []struct {
		name     string
		values   []time.Duration
		outliers int
		r        *Recorder
	}{
		{name: "nil values, nil recorder", outliers: 1},
		{name: "empty values, nil recorder", values: []time.Duration{}},
		{name: "empty values, empty recorder", values: []time.Duration{}, outliers: 2, r: NewRecorder()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Summarize(tt.values, tt.outliers, tt.r); got != (Summary{}) {
				t.Errorf("Summarize = %+v, want the zero Summary", got)
			}
		})
	}
}

// nearest-rank percentiles of the samples below, by hand: with n sorted
// values the p-th percentile is the value of rank ceil(p*n) (1-based).
func TestSummarizePercentiles(t *testing.T) {
	shuffled := micros(10000)
	rand.New(rand.NewPCG(1, 2)).Shuffle(len(shuffled), func(i, j int) {
		shuffled[i], shuffled[j] = shuffled[j], shuffled[i]
	})
	tests := []struct {
		name     string
		values   []time.Duration
		outliers int
		want     Percentiles
		keptMax  time.Duration // Summary.Max: over kept values only
	}{
		{
			// n=10 sorted 1..10ms. Ranks: P50 ceil(5)=5 -> 5ms; P90 ceil(9)=9
			// -> 9ms; P99 ceil(9.9)=10, P99.9 ceil(9.99)=10, P99.99
			// ceil(9.999)=10 -> 10ms. Percentiles include the discarded
			// outliers; the kept maximum (outliers=1) is 9ms.
			name:     "1..10ms reversed, outliers 1",
			values:   []time.Duration{ms(10), ms(9), ms(8), ms(7), ms(6), ms(5), ms(4), ms(3), ms(2), ms(1)},
			outliers: 1,
			want:     Percentiles{P50: ms(5), P90: ms(9), P99: ms(10), P999: ms(10), P9999: ms(10), Max: ms(10)},
			keptMax:  ms(9),
		},
		{
			// n=10000, value of rank k is k µs. P50 rank 5000, P90 9000, P99
			// 9900, P99.9 9990, P99.99 9999.
			name:    "1..10000µs shuffled",
			values:  shuffled,
			want:    Percentiles{P50: us(5000), P90: us(9000), P99: us(9900), P999: us(9990), P9999: us(9999), Max: us(10000)},
			keptMax: us(10000),
		},
		{
			// n=100, 0..99ns, value of rank k is k-1 ns (exact in HDR below
			// 2048). P50 rank 50 -> 49ns; P90 rank 90 -> 89ns; P99 rank 99 ->
			// 98ns; P99.9 rank ceil(99.9)=100 -> 99ns; P99.99 -> 99ns.
			name: "0..99ns",
			values: func() []time.Duration {
				v := make([]time.Duration, 100)
				for i := range v {
					v[i] = time.Duration(99 - i)
				}
				return v
			}(),
			outliers: 5,
			want:     Percentiles{P50: 49, P90: 89, P99: 98, P999: 99, P9999: 99, Max: 99},
			keptMax:  94, // drops 95..99
		},
		{
			// n=1000: ranks 1..990 are 1ms, 991..999 are 50ms, 1000 is 2s.
			// P50 rank 500, P90 900, P99 990 -> 1ms; P99.9 rank 999 -> 50ms;
			// P99.99 rank ceil(999.9)=1000 -> 2s.
			name:     "heavy tail",
			values:   concat(repeat(time.Second*2, 1), repeat(ms(50), 9), repeat(ms(1), 990)),
			outliers: 1,
			want:     Percentiles{P50: ms(1), P90: ms(1), P99: ms(1), P999: ms(50), P9999: 2 * time.Second, Max: 2 * time.Second},
			keptMax:  ms(50),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := NewRecorder()
			for _, v := range tt.values {
				r.Record(v)
			}
			s := Summarize(tt.values, tt.outliers, r)
			got, w := s.Percentiles, tt.want
			for _, c := range []struct {
				name      string
				got, want time.Duration
			}{
				{"P50", got.P50, w.P50},
				{"P90", got.P90, w.P90},
				{"P99", got.P99, w.P99},
				{"P99.9", got.P999, w.P999},
				{"P99.99", got.P9999, w.P9999},
			} {
				if !withinHDR(c.got, c.want) {
					t.Errorf("%s = %v, want %v within 0.1%%+1ns", c.name, c.got, c.want)
				}
			}
			if got.Max != w.Max {
				t.Errorf("Percentiles.Max = %v, want exactly %v", got.Max, w.Max)
			}
			if s.Max != tt.keptMax {
				t.Errorf("Summary.Max = %v, want %v (largest kept value)", s.Max, tt.keptMax)
			}
		})
	}
}

func TestStatsFinish(t *testing.T) {
	tests := []struct {
		name       string
		in         Stats
		mix        bool
		actual     time.Duration
		executions int64
		want       Stats // only the derived fields are compared
	}{
		{
			// 12 runs, 2 errors -> 10 successful; AvgResults 50/10 = 5.
			// OpsPerRun 0 -> 1. OpsPerSecond = Kept*OpsPerRun/Total =
			// 8*1/2s = 4 (Count 10 must not be used); OpsPerHour 4*3600 =
			// 14400. Not a mix: no MixesPerHour. actual < 0: no Actual.
			name: "operation, single thread",
			in: Stats{Runs: 12, Errors: 2, Results: 50,
				Runtime: Summary{Count: 10, Kept: 8, Total: 2 * time.Second, Mean: ms(250)}},
			actual: -1,
			want:   Stats{OpsPerRun: 1, AvgResults: 5, OpsPerSecond: 4, OpsPerHour: 14400},
		},
		{
			// AvgResults 6/4 = 1.5. OpsPerSecond 4*5/8s = 2.5; OpsPerHour
			// 2.5*3600 = 9000; MixesPerHour 3600/2s = 1800.
			name: "mix, single thread",
			in: Stats{Runs: 4, Results: 6, OpsPerRun: 5,
				Runtime: Summary{Count: 4, Kept: 4, Total: 8 * time.Second, Mean: 2 * time.Second}},
			mix:    true,
			actual: -1,
			want:   Stats{OpsPerRun: 5, AvgResults: 1.5, OpsPerSecond: 2.5, OpsPerHour: 9000, MixesPerHour: 1800},
		},
		{
			// OpsPerSecond 8*1/4s = 2, OpsPerHour 7200. Actual: Runtime 1s,
			// Mean 1s/10 = 100ms, OpsPerSecond 10*1/1s = 10, OpsPerHour 36000,
			// no MixesPerHour for an operation.
			name: "operation, threads",
			in: Stats{Runs: 10, Results: 0, OpsPerRun: 1,
				Runtime: Summary{Count: 10, Kept: 8, Total: 4 * time.Second, Mean: ms(500)}},
			actual:     time.Second,
			executions: 10,
			want: Stats{OpsPerRun: 1, OpsPerSecond: 2, OpsPerHour: 7200,
				ActualRuntime: &Actual{Runtime: time.Second, Mean: ms(100), OpsPerSecond: 10, OpsPerHour: 36000}},
		},
		{
			// OpsPerSecond 3*4/6s = 2, OpsPerHour 7200, MixesPerHour 3600/2s =
			// 1800. Actual: Runtime 3s, Mean 3s/6 = 500ms, OpsPerSecond
			// 6*4/3s = 8, OpsPerHour 28800, MixesPerHour 6/(3s/3600) = 7200.
			name: "mix, threads",
			in: Stats{Runs: 7, Errors: 1, Results: 12, OpsPerRun: 4,
				Runtime: Summary{Count: 6, Discarded: 1, Kept: 3, Total: 6 * time.Second, Mean: 2 * time.Second}},
			mix:        true,
			actual:     3 * time.Second,
			executions: 6,
			want: Stats{OpsPerRun: 4, AvgResults: 2, OpsPerSecond: 2, OpsPerHour: 7200, MixesPerHour: 1800,
				ActualRuntime: &Actual{Runtime: 3 * time.Second, Mean: ms(500), OpsPerSecond: 8, OpsPerHour: 28800, MixesPerHour: 7200}},
		},
		{
			// Actual Mean truncates: 1e9ns/3 = 333333333ns; OpsPerSecond
			// 3*2/1s = 6, OpsPerHour 21600, MixesPerHour 3/(1s/3600) = 10800.
			// Main: 3*2/0.75s = 8, 28800; MixesPerHour 3600/0.25s = 14400.
			name: "actual mean truncates",
			in: Stats{Runs: 3, Results: 3, OpsPerRun: 2,
				Runtime: Summary{Count: 3, Kept: 3, Total: ms(750), Mean: ms(250)}},
			mix:        true,
			actual:     time.Second,
			executions: 3,
			want: Stats{OpsPerRun: 2, AvgResults: 1, OpsPerSecond: 8, OpsPerHour: 28800, MixesPerHour: 14400,
				ActualRuntime: &Actual{Runtime: time.Second, Mean: 333333333, OpsPerSecond: 6, OpsPerHour: 21600, MixesPerHour: 10800}},
		},
		{
			// actual == 0 still yields Actual figures, all zero (no division
			// by zero).
			name:   "actual zero",
			in:     Stats{OpsPerRun: 1},
			mix:    true,
			actual: 0,
			want:   Stats{OpsPerRun: 1, ActualRuntime: &Actual{}},
		},
		{
			// Every execution failed: nothing to divide by, every rate 0.
			name:   "all failed",
			in:     Stats{Runs: 3, Errors: 3, OpsPerRun: 2},
			mix:    true,
			actual: -time.Nanosecond,
			want:   Stats{OpsPerRun: 2},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := tt.in
			s.Finish(tt.mix, tt.actual, tt.executions)
			w := tt.want
			if s.OpsPerRun != w.OpsPerRun {
				t.Errorf("OpsPerRun = %d, want %d", s.OpsPerRun, w.OpsPerRun)
			}
			for _, c := range []struct {
				name      string
				got, want float64
			}{
				{"AvgResults", s.AvgResults, w.AvgResults},
				{"OpsPerSecond", s.OpsPerSecond, w.OpsPerSecond},
				{"OpsPerHour", s.OpsPerHour, w.OpsPerHour},
				{"MixesPerHour", s.MixesPerHour, w.MixesPerHour},
			} {
				if !approx(c.got, c.want, 1e-12) {
					t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
				}
			}
			if s.Runtime != tt.in.Runtime {
				t.Errorf("Runtime changed: %+v, was %+v", s.Runtime, tt.in.Runtime)
			}
			switch a, wa := s.ActualRuntime, w.ActualRuntime; {
			case wa == nil && a != nil:
				t.Errorf("ActualRuntime = %+v, want nil", *a)
			case wa != nil && a == nil:
				t.Errorf("ActualRuntime = nil, want %+v", *wa)
			case wa != nil:
				if a.Runtime != wa.Runtime || a.Mean != wa.Mean {
					t.Errorf("Actual Runtime, Mean = %v, %v, want %v, %v", a.Runtime, a.Mean, wa.Runtime, wa.Mean)
				}
				for _, c := range []struct {
					name      string
					got, want float64
				}{
					{"Actual.OpsPerSecond", a.OpsPerSecond, wa.OpsPerSecond},
					{"Actual.OpsPerHour", a.OpsPerHour, wa.OpsPerHour},
					{"Actual.MixesPerHour", a.MixesPerHour, wa.MixesPerHour},
				} {
					if !approx(c.got, c.want, 1e-12) {
						t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
					}
				}
			}
		})
	}
}
