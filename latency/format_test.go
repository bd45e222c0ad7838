package latency

import (
	"testing"
	"time"
)

func TestFormatDuration(t *testing.T) {
	tests := []struct {
		d    time.Duration
		want string
	}{
		{0, "0ns"},
		{999, "999ns"},
		{time.Microsecond, "1.00µs"},
		{1234 * time.Nanosecond, "1.23µs"},
		{12345 * time.Nanosecond, "12.3µs"},
		{123456 * time.Nanosecond, "123µs"},
		{999_499 * time.Nanosecond, "999µs"},
		{999_960 * time.Nanosecond, "1.00ms"}, // not "1000µs"
		{99_996 * time.Microsecond, "100ms"},
		{10_800 * time.Microsecond, "10.8ms"},
		{999_960 * time.Microsecond, "1.00s"},
		{90 * time.Second, "90.0s"},
		{-1500 * time.Microsecond, "-1.50ms"},
	}
	for _, tt := range tests {
		if got := FormatDuration(tt.d); got != tt.want {
			t.Errorf("FormatDuration(%d) = %q, want %q", tt.d, got, tt.want)
		}
	}
	buf := make([]byte, 0, 32)
	if n := testing.AllocsPerRun(100, func() { buf = AppendDuration(buf[:0], 1234567) }); n != 0 {
		t.Errorf("AppendDuration allocates %v times per call", n)
	}
}
