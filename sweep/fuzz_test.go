package sweep

// Fuzz targets for the parsers of untrusted input: the flag values of
// gcperf sweep (-gogc, -memlimit, -gomaxprocs, -shard, -slo) and sweep.json.
// go test runs the seeds; go test -run '^$' -fuzz '^FuzzParseGOGC$' ./sweep
// explores.

import (
	"bytes"
	"errors"
	"math"
	"math/big"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gcperf/gcperf/internal/setting"

	"github.com/gcperf/gcperf/report"

	"github.com/gcperf/gcperf/internal/fuzzcheck"
)

// fuzzCheckFlagErr checks an error of a parser: a *ValueError naming
// field, wrapping ErrUsage, one short line.
func fuzzCheckFlagErr(t *testing.T, field string, err error) {
	t.Helper()
	var ve *ValueError
	if !errors.As(err, &ve) || ve.Field != field || !errors.Is(err, ErrUsage) {
		t.Errorf("error %q (%T) is not a ValueError of %s wrapping ErrUsage", err, err, field)
	}
	fuzzcheck.ErrText(t, err)
}

// fuzzItems is the number of comma-separated items of a flag value.
func fuzzItems(s string) int { return strings.Count(s, ",") + 1 }

func FuzzParseGOGC(f *testing.F) {
	for _, s := range []string{
		"100", " 50, 100 ,OFF", "0,off", "0100", "2147483647", "fast", "-5", "+5", "1.5",
		"100%", "2147483648", "", " ", "100,,200", "100,", "100,200,100", "100,0100", "off,Off",
		"25,50,100,200,400,off", "oFf", "00", "٣", "1_000", "0x10", "100\n", "9223372036854775808",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out, err := ParseGOGC(s)
		if err != nil {
			if out != nil {
				t.Errorf("ParseGOGC(%q) = %q and error %v", s, out, err)
			}
			fuzzCheckFlagErr(t, "GOGC", err)
			return
		}
		if len(out) != fuzzItems(s) {
			t.Errorf("ParseGOGC(%q) = %q: %d values of %d items", s, out, len(out), fuzzItems(s))
		}
		seen := map[string]bool{}
		for _, v := range strs(out) {
			if seen[v] {
				t.Errorf("ParseGOGC(%q) = %q: %q twice", s, out, v)
			}
			seen[v] = true
			if v == "off" {
				continue
			}
			// A percentage as the runtime reads GOGC, and as CheckApplied
			// reads it back: canonical decimal, 0 to 2³¹-1.
			n, err := strconv.Atoi(v)
			if err != nil || n < 0 || n > math.MaxInt32 || strconv.Itoa(n) != v {
				t.Errorf("ParseGOGC(%q) = %q: %q is not off or a canonical percentage", s, out, v)
			}
		}
		// The normalised values read back as themselves.
		back, err := ParseGOGC(strings.Join(strs(out), ","))
		if err != nil || !slices.Equal(back, out) {
			t.Errorf("ParseGOGC(%q) = %q, which reads back as %q, %v", s, out, back, err)
		}
	})
}

// fuzzByteCount is parseByteCount's oracle, in arbitrary precision: digits
// with an optional unit, ok when the size fits an int64, tooLarge when it
// does not.
func fuzzByteCount(s string) (n int64, ok, tooLarge bool) {
	num, size := s, int64(1)
	for _, u := range []struct {
		suffix string
		size   int64
	}{{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}, {"TiB", 1 << 40}, {"B", 1}} {
		if rest, found := strings.CutSuffix(s, u.suffix); found {
			num, size = rest, u.size
			break
		}
	}
	if num == "" || strings.Trim(num, "0123456789") != "" {
		return 0, false, false
	}
	v, _ := new(big.Int).SetString(num, 10)
	v.Mul(v, big.NewInt(size))
	if !v.IsInt64() {
		return 0, false, true
	}
	return v.Int64(), true, false
}

func FuzzParseMemLimit(f *testing.F) {
	for _, s := range []string{
		"off", "512MiB, 1GiB,OFF", "1073741824,4096B,0,2KiB,1TiB", "8388607TiB", "1GB", "1.5GiB",
		"1 GiB", "1gib", "1Gi", "1PiB", "MiB", "B", "-1MiB", "+1MiB", "8388608TiB",
		"9223372036854775808", "9223372036854775807", "9223372036854775807B", "", "off,,1GiB",
		"1GiB,1024MiB", "off,off", "256MiB,off", "0B,0", "00001KiB", "1KiBB", "1iB", "1e9",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		// parseByteCount against its oracle, on every item.
		for _, item := range strings.Split(s, ",") {
			item = strings.TrimSpace(item)
			n, ok, tooLarge := setting.ParseByteCount(item)
			wn, wok, wtoo := fuzzByteCount(item)
			if n != wn || ok != wok || tooLarge != wtoo {
				t.Errorf("setting.ParseByteCount(%q) = %d, %t, %t; want %d, %t, %t", item, n, ok, tooLarge, wn, wok, wtoo)
			}
			if mb, mok := setting.MemLimitBytes(item); item != "off" && (mb != wn || mok != wok) {
				t.Errorf("setting.MemLimitBytes(%q) = %d, %t; want %d, %t", item, mb, mok, wn, wok)
			}
		}

		out, err := ParseMemLimit(s)
		if err != nil {
			if out != nil {
				t.Errorf("ParseMemLimit(%q) = %q and error %v", s, out, err)
			}
			fuzzCheckFlagErr(t, "MemLimit", err)
			return
		}
		if len(out) != fuzzItems(s) {
			t.Errorf("ParseMemLimit(%q) = %q: %d values of %d items", s, out, len(out), fuzzItems(s))
		}
		seen := map[int64]string{}
		for _, v := range strs(out) {
			n := int64(-1)
			if v != "off" {
				var ok bool
				if n, ok = setting.MemLimitBytes(v); !ok || n < 0 {
					t.Errorf("ParseMemLimit(%q) = %q: setting.MemLimitBytes(%q) = %d, %t", s, out, v, n, ok)
				}
			}
			if first, dup := seen[n]; dup {
				t.Errorf("ParseMemLimit(%q) = %q: %q and %q are the same limit", s, out, first, v)
			}
			seen[n] = v
		}
		back, err := ParseMemLimit(strings.Join(strs(out), ","))
		if err != nil || !slices.Equal(back, out) {
			t.Errorf("ParseMemLimit(%q) = %q, which reads back as %q, %v", s, out, back, err)
		}
	})
}

func FuzzParseGOMAXPROCS(f *testing.F) {
	for _, s := range []string{
		"1", "1, 2,4", "0", "-1", "two", "2147483648", "2147483647", "", "1,,2", "2,02",
		"1,2,4,8,16", "+1", "1.0", " 8 ", "0x4", "1024", "1025", "01024", "99999999999999999999",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out, err := ParseGOMAXPROCS(s)
		if err != nil {
			if out != nil {
				t.Errorf("ParseGOMAXPROCS(%q) = %v and error %v", s, out, err)
			}
			fuzzCheckFlagErr(t, "GOMAXPROCS", err)
			return
		}
		if len(out) != fuzzItems(s) {
			t.Errorf("ParseGOMAXPROCS(%q) = %v: %d values of %d items", s, out, len(out), fuzzItems(s))
		}
		text := make([]string, len(out))
		seen := map[int]bool{}
		for i, n := range out {
			if n < 1 || n > MaxGOMAXPROCS || seen[n] {
				t.Errorf("ParseGOMAXPROCS(%q) = %v: %d out of range or repeated", s, out, n)
			}
			seen[n] = true
			text[i] = strconv.Itoa(n)
		}
		back, err := ParseGOMAXPROCS(strings.Join(text, ","))
		if err != nil || !slices.Equal(back, out) {
			t.Errorf("ParseGOMAXPROCS(%q) = %v, which reads back as %v, %v", s, out, back, err)
		}
	})
}

func FuzzParseShard(f *testing.F) {
	for _, s := range []string{
		"0/1", "0/2", "2/3", "3/3", "0/0", "-1/2", "1", "a/b", "1/2/3", "", " 1/4 ", "01/02",
		"1 / 2", "+0/1", "0/9223372036854775807", "0/9223372036854775808", "/", "0/", "/1",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		i, n, err := ParseShard(s)
		if err != nil {
			if i != 0 || n != 0 {
				t.Errorf("ParseShard(%q) = %d, %d and error %v", s, i, n, err)
			}
			fuzzCheckFlagErr(t, "Shard", err)
			return
		}
		if i < 0 || n < 1 || i >= n {
			t.Fatalf("ParseShard(%q) = %d, %d: not 0 <= i < n", s, i, n)
		}
		canon := strconv.Itoa(i) + "/" + strconv.Itoa(n)
		if bi, bn, err := ParseShard(canon); err != nil || bi != i || bn != n {
			t.Errorf("ParseShard(%q) = %d, %d, but ParseShard(%q) = %d, %d, %v", s, i, n, canon, bi, bn, err)
		}
	})
}

// fuzzSLOText is the SLO as -slo would give it, each bound it sets.
func fuzzSLOText(s SLO) string {
	var items []string
	for _, b := range []struct {
		key string
		d   time.Duration
	}{{"p99", s.P99}, {"p999", s.P999}, {"max", s.Max}, {"wall", s.Wall}, {"cpu", s.CPU}, {"pause-max", s.PauseMax}} {
		if b.d != 0 {
			items = append(items, b.key+"="+b.d.String())
		}
	}
	if s.Throughput != 0 {
		items = append(items, "throughput="+strconv.FormatFloat(s.Throughput, 'g', -1, 64))
	}
	for _, m := range s.Metrics {
		// In the tidied unit, as a plain number of it.
		items = append(items, m.Unit+"="+strconv.FormatFloat(m.Limit, 'g', -1, 64))
	}
	return strings.Join(items, ",")
}

func FuzzParseSLO(f *testing.F) {
	for _, s := range []string{
		"", "p99=20ms", "p999=50ms,max=100ms", "throughput=1000", " P99 = 1.5ms , throughput=2.5e3",
		"max=1s,p99=250us,p999=1ms,throughput=0.5", "p95=20ms", "p99=fast", "p99=20", "p999=0s",
		"max=-1ms", "throughput=0", "throughput=many", "throughput=NaN", "throughput=+Inf", "p99",
		"p99=1ms,p99=2ms", "p99=1ms,", "P99=1ms,p99=2ms", "p99=2562047h47m16.854775807s",
		"p99=2562047h47m16.854775808s", "throughput=1e-320", "throughput=1e309", "=", "p99==1ms",
		"max=1µs", "throughput=0x1p10", "-=1", "wall=1s,cpu=2s,pause-max=1ms", "sec/op=2ms", "ns/op=5", "B/op=64KiB",
		"MB/s=100", "p99-ns=150us", "x-=1", "/op=1",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		slo, err := ParseSLO(s)
		if err != nil {
			if !slo.IsZero() {
				t.Errorf("ParseSLO(%q) = %+v and error %v", s, slo, err)
			}
			fuzzCheckFlagErr(t, "SLO", err)
			return
		}
		if slo.P99 < 0 || slo.P999 < 0 || slo.Max < 0 || !(slo.Throughput >= 0) || math.IsInf(slo.Throughput, 0) {
			t.Errorf("ParseSLO(%q) = %+v: a negative or infinite bound", s, slo)
		}
		if (slo.String() == "") != slo.IsZero() {
			t.Errorf("ParseSLO(%q) = %+v: String %q, IsZero %t", s, slo, slo.String(), slo.IsZero())
		}
		// The bounds, written back as -slo values, read back the same.
		// (by Unit: the user's spelling, Key, aside).
		text := fuzzSLOText(slo)
		back, err := ParseSLO(text)
		bare := slo
		bare.Metrics = slices.Clone(slo.Metrics)
		for i := range bare.Metrics {
			bare.Metrics[i].Key = ""
		}
		if err != nil || !reflect.DeepEqual(back, bare) {
			t.Errorf("ParseSLO(%q) = %+v; its bounds %q read back as %+v, %v", s, slo, text, back, err)
		}
		// As String echoes it, the SLO reads back whole.
		var echo SLO
		if err := echo.UnmarshalText([]byte(slo.String())); err != nil || !reflect.DeepEqual(echo, slo) {
			t.Errorf("ParseSLO(%q) = %+v; String %q reads back as %+v, %v", s, slo, slo.String(), echo, err)
		}
	})
}

func FuzzReadSummary(f *testing.F) {
	// The fixture's sweep.json, whole and cut short.
	outs := fixture()
	rows := Summarize(outs)
	MarkFrontier(rows)
	slo, err := ParseSLO("p99=5ms")
	if err != nil {
		f.Fatal(err)
	}
	adv := Advise(rows, outs, slo)
	var b bytes.Buffer
	if err := WriteJSON(&b, &Summary{Grid: fixtureGrid, Count: 3, Shard: "1/2", Outcomes: outs, Rows: rows, Advice: &adv}); err != nil {
		f.Fatal(err)
	}
	full := b.String()
	f.Add(full)
	f.Add(full[:len(full)/2])
	b.Reset()
	if err := WriteJSON(&b, &Summary{Grid: Grid{GOGC: gs("100"), MemLimit: mls("off"), GOMAXPROCS: []int{1, 2}}, Count: 1}); err != nil {
		f.Fatal(err)
	}
	f.Add(b.String())
	for _, s := range []string{
		`{"schema": "gcperf/v1", "operations": []}`, `{"schema": "gcperf-sweep/v2"}`, `{"count": 3}`,
		`{"schema": "gcperf-sweep/v1", `, ``, `BenchmarkX 1 2 ns/op`, `{"schema": "gcperf-sweep/v1"}`,
		`{"schema": "gcperf-sweep/v1", "rows": [{"point": {"index": 0, "gogc": "100", "memlimit": "off"}, "reps": 2, "failed": 3, "mean_ns": -5, "throughput_per_sec": 1e308, "heap_goal_bytes": 18446744073709551615}]}`,
		`{"schema": "gcperf-sweep/v1", "outcomes": [{"point": {"gogc": "x", "memlimit": "1GB"}, "rep": -1, "stderr_tail": ["a\nb"]}]}`,
		`{"schema": "gcperf-sweep/v1", "advice": {"slo": "p99<=1ms", "met": false, "closest": {}, "over": -1, "text": "x"}}`,
		`{"schema": "gcperf-sweep/v1"} trailing`, `null`, `[]`, `{"schema": 1}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		defer fuzzcheck.Watchdog(10 * time.Second)()
		s, err := ReadSummary(strings.NewReader(in))
		if err != nil {
			if s != nil {
				t.Errorf("ReadSummary = %+v and error %v", s, err)
			}
			if !errors.Is(err, ErrNotSweep) && !errors.Is(err, report.ErrSchema) {
				t.Errorf("error %q wraps neither ErrNotSweep nor report.ErrSchema", err)
			}
			fuzzcheck.ErrText(t, err)
			return
		}
		if s == nil || s.Schema != SummarySchema {
			t.Fatalf("ReadSummary = %+v, no error", s)
		}
		// What was read writes back, and reads back, the same.
		var j1, j2 bytes.Buffer
		if err := WriteJSON(&j1, s); err != nil {
			t.Fatalf("WriteJSON of what ReadSummary read: %v", err)
		}
		s2, err := ReadSummary(bytes.NewReader(j1.Bytes()))
		if err != nil {
			t.Fatalf("ReadSummary of WriteJSON's output: %v\n%s", err, j1.Bytes())
		}
		if err := WriteJSON(&j2, s2); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(j1.Bytes(), j2.Bytes()) {
			t.Errorf("round trip differs:\n%s\nthen\n%s", j1.Bytes(), j2.Bytes())
		}
		if g, g2 := s.Grid, s2.Grid; !slices.Equal(g.GOGC, g2.GOGC) || !slices.Equal(g.MemLimit, g2.MemLimit) ||
			!slices.Equal(g.GOMAXPROCS, g2.GOMAXPROCS) || s.Count != s2.Count || s.Shard != s2.Shard {
			t.Errorf("round trip changed the grid: %+v %d %q, then %+v %d %q", s.Grid, s.Count, s.Shard, s2.Grid, s2.Count, s2.Shard)
		}
		// What gcperf plot and gcperf sweep -merge do with the rows: no panic.
		var out bytes.Buffer
		if err := Table(&out, s.Rows, s.Advice); err != nil {
			t.Errorf("Table: %v", err)
		}
		if err := CSV(&out, s.Rows); err != nil {
			t.Errorf("CSV: %v", err)
		}
	})
}
