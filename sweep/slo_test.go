package sweep

import (
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
		{"p95=20ms", SLO{}, "", `-slo: unknown key "p95" in "p95=20ms" (want p99, p999, max or throughput)`},
		{"p99=fast", SLO{}, "", `-slo: p99 "fast" is not a positive duration such as 20ms`},
		{"p99=20", SLO{}, "", `-slo: p99 "20" is not a positive duration such as 20ms`},
		{"p999=0s", SLO{}, "", `-slo: p999 "0s" is not a positive duration such as 20ms`},
		{"max=-1ms", SLO{}, "", `-slo: max "-1ms" is not a positive duration such as 20ms`},
		{"throughput=0", SLO{}, "", `-slo: throughput "0" is not a positive number`},
		{"throughput=many", SLO{}, "", `-slo: throughput "many" is not a positive number`},
		{"throughput=NaN", SLO{}, "", `-slo: throughput "NaN" is not a positive number`},
		{"throughput=+Inf", SLO{}, "", `-slo: throughput "+Inf" is not a positive number`},
		{"p99", SLO{}, "", `-slo: "p99" is not key=value, such as p99=20ms`},
		{"p99=1ms,p99=2ms", SLO{}, "", `-slo: p99 is given twice`},
		{"p99=1ms,", SLO{}, "", `-slo: "p99=1ms," has an empty item`},
	} {
		got, err := ParseSLO(c.in)
		checkErr(t, "ParseSLO("+c.in+")", err, c.wantErr)
		if got != c.want {
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
		{Max: 100 * ms, Throughput: 2.5}} {
		text, err := slo.MarshalText()
		if err != nil || string(text) != slo.String() {
			t.Errorf("%+v.MarshalText() = %q, %v; want %q", slo, text, err, slo.String())
		}
		var back SLO
		if err := back.UnmarshalText(text); err != nil || back != slo {
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
		if err := got.UnmarshalText([]byte(text)); err != nil || got != want {
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
