package report

import (
	"bufio"
	"bytes"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

func TestHGRMGolden(t *testing.T) {
	for _, name := range fixtures {
		t.Run(name, func(t *testing.T) {
			d, _ := readFixture(t, name)
			var b bytes.Buffer
			if err := HGRM(&b, d); err != nil {
				t.Fatal(err)
			}
			golden(t, filepath.Join("testdata", strings.TrimSuffix(name, ".json")+".hgrm"), b.Bytes())
		})
	}
}

// hgrmLine is one percentile line: value (ms), percentile, total count.
type hgrmLine struct {
	value, percentile float64
	count             int64
}

// hgrmBlock is one histogram read back from a .hgrm file.
type hgrmBlock struct {
	name        string
	lines       []hgrmLine
	totalCount  int64 // from the footer
	max         float64
	empty       bool // "#[No values]"
	footerLines int
}

// readHGRM parses the output as a .hgrm reader would: the title lines,
// the percentile lines (Value Percentile TotalCount 1/(1-Percentile)) and
// the footer.
func readHGRM(t *testing.T, data []byte) []*hgrmBlock {
	t.Helper()
	var blocks []*hgrmBlock
	var cur *hgrmBlock
	sc := bufio.NewScanner(bytes.NewReader(data))
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "# ") && strings.HasSuffix(line, " runtime (ms)"):
			cur = &hgrmBlock{name: strings.TrimSuffix(strings.TrimPrefix(line, "# "), " runtime (ms)")}
			blocks = append(blocks, cur)
		case cur == nil:
			t.Fatalf("line %d: %q before any title", n, line)
		case line == "" || strings.Fields(line)[0] == "Value":
		case line == "#[No values]":
			cur.empty = true
		case strings.HasPrefix(line, "#["):
			cur.footerLines++
			if _, err := fmt.Sscanf(line, "#[Max     = %f, Total count    = %d]", &cur.max, &cur.totalCount); err == nil {
				continue
			}
		default:
			f := strings.Fields(line)
			if len(f) != 4 {
				t.Fatalf("line %d: %q has %d fields, want 4", n, line, len(f))
			}
			v, err1 := strconv.ParseFloat(f[0], 64)
			p, err2 := strconv.ParseFloat(f[1], 64)
			c, err3 := strconv.ParseInt(f[2], 10, 64)
			_, err4 := strconv.ParseFloat(f[3], 64) // "inf" parses as +Inf
			if err1 != nil || err2 != nil || err3 != nil || err4 != nil {
				t.Fatalf("line %d: %q: %v %v %v %v", n, line, err1, err2, err3, err4)
			}
			cur.lines = append(cur.lines, hgrmLine{v, p, c})
		}
	}
	return blocks
}

func TestHGRMReadBack(t *testing.T) {
	for _, name := range fixtures {
		t.Run(name, func(t *testing.T) {
			d, _ := readFixture(t, name)
			var b bytes.Buffer
			if err := HGRM(&b, d); err != nil {
				t.Fatal(err)
			}
			blocks := readHGRM(t, b.Bytes())
			ops := make([]*Operation, 0, len(d.Operations)+1)
			for i := range d.Operations {
				ops = append(ops, &d.Operations[i])
			}
			if len(d.Operations) > 1 {
				ops = append(ops, &d.Mix.Operation)
			}
			if len(blocks) != len(ops) {
				t.Fatalf("%d blocks, want %d", len(blocks), len(ops))
			}
			for i, blk := range blocks {
				o := ops[i]
				if blk.name != o.Name {
					t.Errorf("block %d is %q, want %q", i, blk.name, o.Name)
				}
				if o.Runtime.Count == 0 {
					if !blk.empty || len(blk.lines) > 0 {
						t.Errorf("%s: no successful run, want #[No values] alone", o.Name)
					}
					continue
				}
				if blk.empty || len(blk.lines) == 0 || blk.footerLines != 3 {
					t.Fatalf("%s: %d percentile lines, %d footer lines", o.Name, len(blk.lines), blk.footerLines)
				}
				last := blk.lines[len(blk.lines)-1]
				if last.percentile != 1 || last.count != o.Runtime.Count || blk.totalCount != o.Runtime.Count {
					t.Errorf("%s: last line %+v, footer total %d; want percentile 1 and the %d successful runs",
						o.Name, last, blk.totalCount, o.Runtime.Count)
				}
				for j := 1; j < len(blk.lines); j++ {
					a, b := blk.lines[j-1], blk.lines[j]
					if b.value < a.value || b.percentile < a.percentile || b.count < a.count {
						t.Errorf("%s: line %d %+v after %+v: not increasing", o.Name, j, b, a)
					}
				}
				// The 50% line against the document's P50: within the
				// histogram's precision (3 significant digits: a bucket is at
				// most 1/1024 of its value wide) and the printing's (three
				// decimals of a millisecond).
				i50 := slices.IndexFunc(blk.lines, func(l hgrmLine) bool { return l.percentile == 0.5 })
				if i50 < 0 {
					t.Fatalf("%s: no 50%% line", o.Name)
				}
				got := blk.lines[i50].value * 1e6
				p50 := float64(o.Runtime.P50)
				if tol := p50/1024 + 500; math.Abs(got-p50) > tol {
					t.Errorf("%s: 50%% line %v ns, document p50 %v ns (tolerance %v)", o.Name, got, p50, tol)
				}
				if got, want := blk.max*1e6, float64(o.Runtime.Percentiles.Max); math.Abs(got-want) > want/1024+500 {
					t.Errorf("%s: footer max %v ns, document pmax %v ns", o.Name, got, want)
				}
			}
		})
	}
}

// TestHGRMPrecision checks the 50% line in nanoseconds, below the printing's
// rounding: the rebuilt histogram gives the document's P50 exactly.
func TestHGRMPrecision(t *testing.T) {
	for _, name := range fixtures {
		d, _ := readFixture(t, name)
		for _, o := range append(slices.Clone(d.Operations), d.Mix.Operation) {
			r := o.Recorder()
			if r == nil {
				if o.Runtime.Count != 0 {
					t.Errorf("%s %s: no histogram for %d runs", name, o.Name, o.Runtime.Count)
				}
				continue
			}
			if r.Count() != o.Runtime.Count {
				t.Errorf("%s %s: histogram of %d values, want %d", name, o.Name, r.Count(), o.Runtime.Count)
			}
			if got := r.Quantile(0.5); got != o.Runtime.P50 {
				t.Errorf("%s %s: rebuilt P50 %v, document %v", name, o.Name, got, o.Runtime.P50)
			}
			if r.Max() != o.Runtime.Percentiles.Max {
				t.Errorf("%s %s: rebuilt max %v, document %v", name, o.Name, r.Max(), o.Runtime.Percentiles.Max)
			}
		}
	}
}
