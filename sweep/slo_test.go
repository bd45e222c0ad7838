package sweep

import (
	"reflect"
	"testing"
	"time"
)

func TestParseSLO(t *testing.T) {
	for _, c := range []struct {
		in      string
		want    SLO
		str     string
		wantErr string
	}{
		{"", SLO{}, "", ""},
		{"p99=20ms", SLO{P99: 20 * ms}, "p99<=20ms", ""},
		{"p999=50ms,max=100ms", SLO{P999: 50 * ms, Max: 100 * ms}, "p999<=50ms, max<=100ms", ""},
		{"throughput=1000", SLO{Throughput: 1000}, "throughput>=1000/s", ""},
		{" P99 = 1.5ms , throughput=2.5e3", SLO{P99: 1500 * time.Microsecond, Throughput: 2500}, "p99<=1.5ms, throughput>=2500/s", ""},
		{"max=1s,p99=250us,p999=1ms,throughput=0.5", SLO{P99: 250 * time.Microsecond, P999: ms, Max: time.Second, Throughput: 0.5},
			"p99<=250µs, p999<=1ms, max<=1s, throughput>=0.5/s", ""},
		{"p95=20ms", SLO{}, "", `sweep: SLO: unknown key "p95" in "p95=20ms" (want p99, p999, max or throughput; for a command wall, cpu, pause-max or a benchmark unit such as sec/op)`},
		{"p99=fast", SLO{}, "", `sweep: SLO: p99 "fast" is not a positive duration such as 20ms`},
		{"p99=20", SLO{}, "", `sweep: SLO: p99 "20" is not a positive duration such as 20ms`},
		{"p999=0s", SLO{}, "", `sweep: SLO: p999 "0s" is not a positive duration such as 20ms`},
		{"max=-1ms", SLO{}, "", `sweep: SLO: max "-1ms" is not a positive duration such as 20ms`},
		{"throughput=0", SLO{}, "", `sweep: SLO: throughput "0" is not a positive number`},
		{"throughput=many", SLO{}, "", `sweep: SLO: throughput "many" is not a positive number`},
		{"throughput=NaN", SLO{}, "", `sweep: SLO: throughput "NaN" is not a positive number`},
		{"throughput=+Inf", SLO{}, "", `sweep: SLO: throughput "+Inf" is not a positive number`},
		{"p99", SLO{}, "", `sweep: SLO: "p99" is not key=value, such as p99=20ms`},
		{"p99=1ms,p99=2ms", SLO{}, "", `sweep: SLO: p99 is given twice`},
		{"p99=1ms,", SLO{}, "", `sweep: SLO: "p99=1ms," has an empty item`},
		// A command's bounds.
		{"wall=30s,cpu=20s,pause-max=1ms", SLO{Wall: 30 * time.Second, CPU: 20 * time.Second, PauseMax: ms}, "wall<=30s, cpu<=20s, pause-max<=1ms", ""},
		{"sec/op=2ms", SLO{Metrics: []MetricBound{{Unit: "sec/op", Limit: 0.002}}}, "sec/op<=2ms", ""},
		{"ns/op=2000000", SLO{Metrics: []MetricBound{{Unit: "sec/op", Limit: 0.002, Key: "ns/op"}}}, "ns/op<=2ms", ""},
		{"ns/op=2ms", SLO{Metrics: []MetricBound{{Unit: "sec/op", Limit: 0.002, Key: "ns/op"}}}, "ns/op<=2ms", ""},
		{"p99-ns=150us", SLO{Metrics: []MetricBound{{Unit: "p99-sec", Limit: 0.00015, Key: "p99-ns"}}}, "p99-ns<=150µs", ""},
		{"B/op=64KiB,allocs/op=10", SLO{Metrics: []MetricBound{{Unit: "B/op", Limit: 65536}, {Unit: "allocs/op", Limit: 10}}}, "B/op<=65536, allocs/op<=10", ""},
		{"MB/s=100", SLO{Metrics: []MetricBound{{Unit: "B/s", Limit: 1e8, AtLeast: true}}}, "B/s>=1e+08", ""},
		{"sec/op=2ms,ns/op=3ms", SLO{}, "", `sweep: SLO: ns/op is given twice (as sec/op)`},
		{"sec/op=fast", SLO{}, "", `sweep: SLO: sec/op "fast" is not a positive duration such as 2ms, or a number of sec/op`},
		{"B/op=lots", SLO{}, "", `sweep: SLO: B/op "lots" is not a positive size such as 64KiB, or a number of bytes`},
		{"allocs/op=-1", SLO{}, "", `sweep: SLO: allocs/op "-1" is not a positive number`},
		{"wall=1", SLO{}, "", `sweep: SLO: wall "1" is not a positive duration such as 30s`},
	} {
		got, err := ParseSLO(c.in)
		checkErr(t, "ParseSLO("+c.in+")", err, c.wantErr)
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("ParseSLO(%q) = %+v, want %+v", c.in, got, c.want)
		}
		if s := got.String(); s != c.str {
			t.Errorf("ParseSLO(%q).String() = %q, want %q", c.in, s, c.str)
		}
	}
}

// The SLO travels typed (Advice.SLO) and as text in sweep.json: written as
// String writes it, read back from that and from -slo's spelling.
func TestSLOText(t *testing.T) {
	ms := time.Millisecond
	for _, slo := range []SLO{{}, {P99: 5 * ms}, {P99: 2500 * time.Microsecond, Throughput: 1000}, {P999: 9 * ms, P99: 4 * ms},
		{Max: 100 * ms, Throughput: 2.5}, {Wall: time.Second, PauseMax: 2 * ms},
		{Metrics: []MetricBound{{Unit: "sec/op", Limit: 0.0025}, {Unit: "B/op", Limit: 1000.5}, {Unit: "B/s", Limit: 3e9, AtLeast: true}}}} {
		text, err := slo.MarshalText()
		if err != nil || string(text) != slo.String() {
			t.Errorf("%+v.MarshalText() = %q, %v; want %q", slo, text, err, slo.String())
		}
		var back SLO
		if err := back.UnmarshalText(text); err != nil || !reflect.DeepEqual(back, slo) {
			t.Errorf("UnmarshalText(%q) = %+v, %v; want %+v", text, back, err, slo)
		}
		if a := (Advice{SLO: slo}); a.P99Bound() != slo.P99 {
			t.Errorf("Advice{SLO: %q}.P99Bound() = %v, want %v", text, a.P99Bound(), slo.P99)
		}
	}
	for text, want := range map[string]SLO{
		"p99=2.5ms":                      {P99: 2500 * time.Microsecond},
		"p999<=9ms, p99<=4ms":            {P999: 9 * ms, P99: 4 * ms},
		"max<=100ms, throughput>=1000/s": {Max: 100 * ms, Throughput: 1000},
	} {
		var got SLO
		if err := got.UnmarshalText([]byte(text)); err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("UnmarshalText(%q) = %+v, %v; want %+v", text, got, err, want)
		}
	}
	var bad SLO
	if err := bad.UnmarshalText([]byte("p99<=fast")); err == nil {
		t.Error("UnmarshalText(p99<=fast): no error")
	}
	if got := (*Advice)(nil).P99Bound(); got != 0 {
		t.Errorf("no advice: P99Bound() = %v", got)
	}
}
