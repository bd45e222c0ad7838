package sweep

import (
	"errors"
	"math"
	"reflect"
	"testing"

	"github.com/gcperf/gcperf/internal/setting"
)

// checkErr compares an error with the exact text wanted ("" for none) and
// checks that a flag error wraps ErrUsage.
func checkErr(t *testing.T, what string, err error, want string) {
	t.Helper()
	switch {
	case want == "" && err != nil:
		t.Errorf("%s: unexpected error %v", what, err)
	case want != "" && err == nil:
		t.Errorf("%s: no error, want %q", what, want)
	case want != "" && err.Error() != want:
		t.Errorf("%s: error %q, want %q", what, err, want)
	case want != "" && !errors.Is(err, ErrUsage):
		t.Errorf("%s: error %q does not wrap ErrUsage", what, err)
	}
}

func TestParseGOGC(t *testing.T) {
	for _, c := range []struct {
		in      string
		want    []string
		wantErr string
	}{
		{"100", []string{"100"}, ""},
		{" 50, 100 ,OFF", []string{"50", "100", "off"}, ""},
		{"0,off", []string{"0", "off"}, ""},
		{"0100", []string{"100"}, ""},
		{"2147483647", []string{"2147483647"}, ""},
		{"fast", nil, `sweep: GOGC: "fast" is not off or a percentage`},
		{"-5", nil, `sweep: GOGC: "-5" is not off or a percentage`},
		{"+5", nil, `sweep: GOGC: "+5" is not off or a percentage`},
		{"1.5", nil, `sweep: GOGC: "1.5" is not off or a percentage`},
		{"100%", nil, `sweep: GOGC: "100%" is not off or a percentage`},
		{"2147483648", nil, `sweep: GOGC: "2147483648" is not off or a percentage`},
		{"", nil, `sweep: GOGC: no value`},
		{" ", nil, `sweep: GOGC: no value`},
		{"100,,200", nil, `sweep: GOGC: "100,,200" has an empty item`},
		{"100,", nil, `sweep: GOGC: "100," has an empty item`},
		{"100,200,100", nil, `sweep: GOGC: "100" is given twice`},
		{"100,0100", nil, `sweep: GOGC: "0100" is the same as "100"`},
		{"off,Off", nil, `sweep: GOGC: "Off" is the same as "off"`},
	} {
		got, err := ParseGOGC(c.in)
		checkErr(t, "ParseGOGC("+c.in+")", err, c.wantErr)
		if !reflect.DeepEqual(strs(got), c.want) {
			t.Errorf("ParseGOGC(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestParseMemLimit(t *testing.T) {
	for _, c := range []struct {
		in      string
		want    []string
		wantErr string
	}{
		{"off", []string{"off"}, ""},
		{"512MiB, 1GiB,OFF", []string{"512MiB", "1GiB", "off"}, ""},
		{"1073741824,4096B,0,2KiB,1TiB", []string{"1073741824", "4096B", "0", "2KiB", "1TiB"}, ""},
		{"8388607TiB", []string{"8388607TiB"}, ""},
		{"1GB", nil, `sweep: MemLimit: "1GB" is not off or a size such as 512MiB`},
		{"1.5GiB", nil, `sweep: MemLimit: "1.5GiB" is not off or a size such as 512MiB`},
		{"1 GiB", nil, `sweep: MemLimit: "1 GiB" is not off or a size such as 512MiB`},
		{"1gib", nil, `sweep: MemLimit: "1gib" is not off or a size such as 512MiB`},
		{"1Gi", nil, `sweep: MemLimit: "1Gi" is not off or a size such as 512MiB`},
		{"1PiB", nil, `sweep: MemLimit: "1PiB" is not off or a size such as 512MiB`},
		{"MiB", nil, `sweep: MemLimit: "MiB" is not off or a size such as 512MiB`},
		{"B", nil, `sweep: MemLimit: "B" is not off or a size such as 512MiB`},
		{"-1MiB", nil, `sweep: MemLimit: "-1MiB" is not off or a size such as 512MiB`},
		{"+1MiB", nil, `sweep: MemLimit: "+1MiB" is not off or a size such as 512MiB`},
		{"8388608TiB", nil, `sweep: MemLimit: "8388608TiB" is too large: the limit is 8EiB`},
		{"9223372036854775808", nil, `sweep: MemLimit: "9223372036854775808" is too large: the limit is 8EiB`},
		{"", nil, `sweep: MemLimit: no value`},
		{"off,,1GiB", nil, `sweep: MemLimit: "off,,1GiB" has an empty item`},
		{"1GiB,1024MiB", nil, `sweep: MemLimit: "1024MiB" is the same as "1GiB"`},
		{"off,off", nil, `sweep: MemLimit: "off" is given twice`},
	} {
		got, err := ParseMemLimit(c.in)
		checkErr(t, "ParseMemLimit("+c.in+")", err, c.wantErr)
		if !reflect.DeepEqual(strs(got), c.want) {
			t.Errorf("ParseMemLimit(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestMemLimitBytes(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int64
		ok   bool
	}{
		{"off", 0, false},
		{"0", 0, true},
		{"4096", 4096, true},
		{"4096B", 4096, true},
		{"3KiB", 3 << 10, true},
		{"512MiB", 512 << 20, true},
		{"2GiB", 2 << 30, true},
		{"1TiB", 1 << 40, true},
		{"8388607TiB", 8388607 << 40, true},
		{"8388608TiB", 0, false},
		{"1GB", 0, false},
		{"", 0, false},
	} {
		got, ok := setting.MemLimitBytes(c.in)
		if got != c.want || ok != c.ok {
			t.Errorf("setting.MemLimitBytes(%q) = %d, %t; want %d, %t", c.in, got, ok, c.want, c.ok)
		}
	}
}

func TestParseGOMAXPROCS(t *testing.T) {
	for _, c := range []struct {
		in      string
		want    []int
		wantErr string
	}{
		{"1", []int{1}, ""},
		{"1, 2,4", []int{1, 2, 4}, ""},
		{"0", nil, `sweep: GOMAXPROCS: "0" is not a positive integer`},
		{"-1", nil, `sweep: GOMAXPROCS: "-1" is not a positive integer`},
		{"two", nil, `sweep: GOMAXPROCS: "two" is not a positive integer`},
		{"1024", []int{1024}, ""},
		{"1025", nil, `sweep: GOMAXPROCS: 1025 is more than 1024, the most a sweep runs (the runtime's cost grows faster than the Ps)`},
		{"100000", nil, `sweep: GOMAXPROCS: 100000 is more than 1024, the most a sweep runs (the runtime's cost grows faster than the Ps)`},
		{"2147483648", nil, `sweep: GOMAXPROCS: 2147483648 is more than 1024, the most a sweep runs (the runtime's cost grows faster than the Ps)`},
		{"99999999999999999999999", nil, `sweep: GOMAXPROCS: 99999999999999999999999 is more than 1024, the most a sweep runs (the runtime's cost grows faster than the Ps)`},
		{"", nil, `sweep: GOMAXPROCS: no value`},
		{"1,,2", nil, `sweep: GOMAXPROCS: "1,,2" has an empty item`},
		{"2,02", nil, `sweep: GOMAXPROCS: "02" is the same as "2"`},
	} {
		got, err := ParseGOMAXPROCS(c.in)
		checkErr(t, "ParseGOMAXPROCS("+c.in+")", err, c.wantErr)
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("ParseGOMAXPROCS(%q) = %v, want %v", c.in, got, c.want)
		}
	}
}

func TestParseShard(t *testing.T) {
	for _, c := range []struct {
		in      string
		i, n    int
		wantErr string
	}{
		{"0/1", 0, 1, ""},
		{"0/2", 0, 2, ""},
		{"2/3", 2, 3, ""},
		{"3/3", 0, 0, `sweep: Shard: "3/3" is not i/n with 0 <= i < n, such as 0/2`},
		{"0/0", 0, 0, `sweep: Shard: "0/0" is not i/n with 0 <= i < n, such as 0/2`},
		{"-1/2", 0, 0, `sweep: Shard: "-1/2" is not i/n with 0 <= i < n, such as 0/2`},
		{"1", 0, 0, `sweep: Shard: "1" is not i/n with 0 <= i < n, such as 0/2`},
		{"a/b", 0, 0, `sweep: Shard: "a/b" is not i/n with 0 <= i < n, such as 0/2`},
		{"1/2/3", 0, 0, `sweep: Shard: "1/2/3" is not i/n with 0 <= i < n, such as 0/2`},
		{"", 0, 0, `sweep: Shard: "" is not i/n with 0 <= i < n, such as 0/2`},
	} {
		i, n, err := ParseShard(c.in)
		checkErr(t, "ParseShard("+c.in+")", err, c.wantErr)
		if i != c.i || n != c.n {
			t.Errorf("ParseShard(%q) = %d, %d; want %d, %d", c.in, i, n, c.i, c.n)
		}
	}
}

func TestPoints(t *testing.T) {
	for _, c := range []struct {
		grid  Grid
		names []string
	}{
		{Grid{GOGC: gs("50", "off"), MemLimit: mls("off", "256MiB")}, []string{
			"gogc=50,memlimit=off", "gogc=50,memlimit=256MiB", "gogc=off,memlimit=off", "gogc=off,memlimit=256MiB"}},
		{Grid{GOGC: gs("100", "200"), MemLimit: mls("1GiB"), GOMAXPROCS: []int{1, 4}}, []string{
			"gogc=100,memlimit=1GiB,gomaxprocs=1", "gogc=100,memlimit=1GiB,gomaxprocs=4",
			"gogc=200,memlimit=1GiB,gomaxprocs=1", "gogc=200,memlimit=1GiB,gomaxprocs=4"}},
		{Grid{}, []string{"gogc=100,memlimit=off"}},
		{Grid{MemLimit: mls("1GiB", "off")}, []string{"gogc=100,memlimit=1GiB", "gogc=100,memlimit=off"}},
	} {
		pts := c.grid.Points()
		var names []string
		for i, p := range pts {
			if p.Index != i {
				t.Errorf("%+v: point %d has Index %d", c.grid, i, p.Index)
			}
			names = append(names, p.Name())
		}
		if !reflect.DeepEqual(names, c.names) {
			t.Errorf("%+v.Points() = %q, want %q", c.grid, names, c.names)
		}
	}
}

func TestPointNaming(t *testing.T) {
	for _, c := range []struct {
		p                    Point
		name, file, settings string
		env                  []string
	}{
		{Point{GOGC: G("100"), MemLimit: M("off")}, "gogc=100,memlimit=off", "gogc=100,memlimit=off,rep=1.json",
			"GOGC=100 GOMEMLIMIT=off", []string{"GOGC=100", "GOMEMLIMIT=off"}},
		{Point{Index: 5, GOGC: G("off"), MemLimit: M("256MiB")}, "gogc=off,memlimit=256MiB", "gogc=off,memlimit=256MiB,rep=1.json",
			"GOGC=off GOMEMLIMIT=256MiB", []string{"GOGC=off", "GOMEMLIMIT=256MiB"}},
		{Point{GOGC: G("50"), MemLimit: M("1GiB"), GOMAXPROCS: 2}, "gogc=50,memlimit=1GiB,gomaxprocs=2",
			"gogc=50,memlimit=1GiB,gomaxprocs=2,rep=1.json",
			"GOGC=50 GOMEMLIMIT=1GiB GOMAXPROCS=2", []string{"GOGC=50", "GOMEMLIMIT=1GiB", "GOMAXPROCS=2"}},
	} {
		if got := c.p.Name(); got != c.name {
			t.Errorf("%+v.Name() = %q, want %q", c.p, got, c.name)
		}
		if got := c.p.FileName(1); got != c.file {
			t.Errorf("%+v.FileName(1) = %q, want %q", c.p, got, c.file)
		}
		if got := c.p.Settings(); got != c.settings {
			t.Errorf("%+v.Settings() = %q, want %q", c.p, got, c.settings)
		}
		if got := c.p.Env(); !reflect.DeepEqual(got, c.env) {
			t.Errorf("%+v.Env() = %q, want %q", c.p, got, c.env)
		}
	}
	if got := (Point{GOGC: G("100"), MemLimit: M("off")}).FileName(12); got != "gogc=100,memlimit=off,rep=12.json" {
		t.Errorf("FileName(12) = %q", got)
	}
}

func TestInShard(t *testing.T) {
	// 7 points in 3 shards: 0,3,6 / 1,4 / 2,5.
	want := [][]int{{0, 3, 6}, {1, 4}, {2, 5}}
	for i, w := range want {
		var got []int
		for idx := range 7 {
			if (Point{Index: idx}).InShard(i, 3) {
				got = append(got, idx)
			}
		}
		if !reflect.DeepEqual(got, w) {
			t.Errorf("shard %d/3 = %v, want %v", i, got, w)
		}
	}
}

func TestCheckApplied(t *testing.T) {
	for _, c := range []struct {
		p                Point
		gogc, gomaxprocs int
		limit            int64
		want             string
	}{
		{Point{GOGC: G("100"), MemLimit: M("off")}, 100, 4, math.MaxInt64, ""},
		{Point{GOGC: G("off"), MemLimit: M("256MiB")}, -1, 4, 256 << 20, ""},
		{Point{GOGC: G("0"), MemLimit: M("0"), GOMAXPROCS: 2}, 0, 2, 0, ""},
		{Point{GOGC: G("50"), MemLimit: M("off")}, 100, 4, math.MaxInt64, "asked GOGC=50 but the child ran with GOGC=100"},
		{Point{GOGC: G("off"), MemLimit: M("off")}, 100, 4, math.MaxInt64, "asked GOGC=off but the child ran with GOGC=100"},
		{Point{GOGC: G("100"), MemLimit: M("256MiB")}, 100, 4, 1 << 30, "asked GOMEMLIMIT=256MiB but the child ran with GOMEMLIMIT=1GiB"},
		{Point{GOGC: G("100"), MemLimit: M("256MiB")}, 100, 4, math.MaxInt64, "asked GOMEMLIMIT=256MiB but the child ran with GOMEMLIMIT=off"},
		{Point{GOGC: G("100"), MemLimit: M("256MiB")}, 100, 4, 256<<20 - 1, "asked GOMEMLIMIT=256MiB but the child ran with GOMEMLIMIT=268435455"},
		{Point{GOGC: G("100"), MemLimit: M("off")}, 100, 4, 1 << 30, "asked GOMEMLIMIT=off but the child ran with GOMEMLIMIT=1GiB"},
		{Point{GOGC: G("100"), MemLimit: M("off"), GOMAXPROCS: 2}, 100, 4, math.MaxInt64, "asked GOMAXPROCS=2 but the child ran with GOMAXPROCS=4"},
		{Point{GOGC: G("50"), MemLimit: M("1GiB"), GOMAXPROCS: 2}, -1, 4, math.MaxInt64,
			"asked GOGC=50 but the child ran with GOGC=off; asked GOMEMLIMIT=1GiB but the child ran with GOMEMLIMIT=off; " +
				"asked GOMAXPROCS=2 but the child ran with GOMAXPROCS=4"},
	} {
		d := testDoc(Point{GOGC: G("100"), MemLimit: M("off")}, fig{})
		d.Env.Go.GOGC, d.Env.Go.GOMEMLIMIT, d.Env.Go.GOMAXPROCS = c.gogc, c.limit, c.gomaxprocs
		err := CheckApplied(c.p, d)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("CheckApplied(%s): %v", c.p.Name(), err)
		case c.want != "" && (err == nil || err.Error() != c.want):
			t.Errorf("CheckApplied(%s) = %v, want %q", c.p.Name(), err, c.want)
		}
	}
	if err := CheckApplied(Point{GOGC: G("100"), MemLimit: M("off")}, nil); err == nil {
		t.Error("CheckApplied with no document: no error")
	}
}
