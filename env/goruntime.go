package env

import (
	"math"
	"os"
	"runtime"
	"runtime/metrics"
	"strconv"
)

// Go holds the Go runtime's settings. GOGC and GOMEMLIMIT are read back from
// runtime/metrics (/gc/gogc:percent, /gc/gomemlimit:bytes), so they are what
// the runtime applies, whether set by environment or by runtime/debug.
type Go struct {
	Version    string `json:"version"`
	GOOS       string `json:"goos"`
	GOARCH     string `json:"goarch"`
	GOMAXPROCS int    `json:"gomaxprocs"`
	NumCPU     int    `json:"num_cpu"`
	GOGC       int    `json:"gogc"`       // percent; -1 when off
	GOMEMLIMIT int64  `json:"gomemlimit"` // bytes; math.MaxInt64 when off (no limit)
	GODEBUG    string `json:"godebug"`    // the GODEBUG environment variable
}

// ReadGo reads the running program's Go settings.
func ReadGo() Go {
	s := []metrics.Sample{{Name: "/gc/gogc:percent"}, {Name: "/gc/gomemlimit:bytes"}}
	metrics.Read(s)
	g := Go{
		Version:    runtime.Version(),
		GOOS:       runtime.GOOS,
		GOARCH:     runtime.GOARCH,
		GOMAXPROCS: runtime.GOMAXPROCS(0),
		NumCPU:     runtime.NumCPU(),
		GOGC:       -1,
		GOMEMLIMIT: math.MaxInt64,
		GODEBUG:    os.Getenv("GODEBUG"),
	}
	if v := s[0].Value.Uint64(); v <= math.MaxInt32 {
		g.GOGC = int(v)
	}
	if v := s[1].Value.Uint64(); v < math.MaxInt64 {
		g.GOMEMLIMIT = int64(v)
	}
	return g
}

// GOGCString is GOGC as the environment variable spells it: "100", "off".
func (g Go) GOGCString() string {
	if g.GOGC < 0 {
		return "off"
	}
	return strconv.Itoa(g.GOGC)
}

// GOMEMLIMITString is GOMEMLIMIT in bytes with a binary unit ("1GiB"), or
// "off" when there is no limit.
func (g Go) GOMEMLIMITString() string {
	if g.GOMEMLIMIT == math.MaxInt64 {
		return "off"
	}
	return Bytes(g.GOMEMLIMIT)
}

// Bytes formats a byte count with the largest binary unit it reaches: exact
// when that unit divides it, as GOMEMLIMIT spells it ("1GiB", "512MiB"),
// else with one decimal ("23.2GiB"). Below 1KiB it is in bytes ("512B").
func Bytes(n int64) string {
	units := [...]string{"B", "KiB", "MiB", "GiB", "TiB", "PiB"}
	i := 0
	for i < len(units)-1 && n>>(10*(i+1)) != 0 {
		i++
	}
	if n%(1<<(10*i)) == 0 {
		return strconv.FormatInt(n>>(10*i), 10) + units[i]
	}
	return strconv.FormatFloat(float64(n)/float64(int64(1)<<(10*i)), 'f', 1, 64) + units[i]
}

// HeapGoal formats a heap goal from /gc/heap/goal:bytes: with GOGC=off and
// no memory limit the runtime has no goal and reports one near
// math.MaxInt64, which reads "none".
func HeapGoal(goal uint64) string {
	if goal >= 1<<62 {
		return "none"
	}
	return Bytes(int64(goal))
}
