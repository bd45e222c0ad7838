package figure

import (
	"math"
	"testing"
)

func TestFigures(t *testing.T) {
	tests := []struct {
		name string
		got  string
		want string
	}{
		{"Num large", Num(29412345.6), "29412346"},
		{"Num", Num(12.3456), "12.35"},
		{"Num small", Num(0.01234), "0.01234"},
		{"Num whole", Num(42), "42"},
		{"Num negative", Num(-1.23456), "-1.235"},
		{"Num NaN", Num(math.NaN()), "NaN"},
		{"Pct", Pct(12.345), "12.3%"},
		{"Pct small", Pct(3.14159), "3.14%"},
		{"Pct large", Pct(1234.6), "1235%"}, {"Pct half to even", Pct(1234.5), "1234%"},
		{"Pct zero", Pct(0), "0%"},
		{"Percent", Percent(0.3126), "31.3%"},
		{"Percent whole", Percent(0.14), "14%"},
		{"Decimal", Decimal(0.1), "0.1"},
		{"Decimal no exponent", Decimal(1e21), "1000000000000000000000"},
		{"Decimal tiny", Decimal(1.5e-7), "0.00000015"},
		{"Decimal NaN", Decimal(math.NaN()), ""},
		{"Decimal Inf", Decimal(math.Inf(-1)), ""},
		{"Plural one", Plural(1, "run", "runs"), "run"},
		{"Plural zero", Plural(0, "run", "runs"), "runs"},
		{"Plural many", Plural(2, "run", "runs"), "runs"},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%s: %q, want %q", tt.name, tt.got, tt.want)
		}
	}
}
