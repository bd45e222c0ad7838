package latency

import (
	"strconv"
	"time"
)

// AppendDuration appends d with a unit and three significant digits, the
// precision the recorders keep (1.23ms, 45.6µs, 789ns, 12.3s), without
// allocating.
func AppendDuration(b []byte, d time.Duration) []byte {
	neg := d < 0
	if neg {
		b = append(b, '-')
		d = -d
	}
	// Each unit holds values that round, at three digits, below 1000 of it
	// (999.96µs prints as 1.00ms, not 1000µs).
	var unit string
	var v float64
	switch {
	case d < time.Microsecond:
		return append(strconv.AppendInt(b, int64(d), 10), "ns"...)
	case d < 999_500*time.Nanosecond:
		v, unit = float64(d)/1e3, "µs"
	case d < 999_500*time.Microsecond:
		v, unit = float64(d)/1e6, "ms"
	default:
		v, unit = d.Seconds(), "s"
	}
	prec := 2
	if v >= 99.95 {
		prec = 0
	} else if v >= 9.995 {
		prec = 1
	}
	b = strconv.AppendFloat(b, v, 'f', prec, 64)
	return append(b, unit...)
}

// FormatDuration formats d as AppendDuration does.
func FormatDuration(d time.Duration) string {
	return string(AppendDuration(make([]byte, 0, 16), d))
}
