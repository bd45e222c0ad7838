package report

import (
	"bytes"
	"encoding/xml"
	"slices"
	"testing"
	"time"
)

// A figure a layout does not name follows the ones it names, in the XML
// and the CSV alike, under its own tags: a figure added to an engine's
// type reaches both with no change to the layout.
func TestLayoutNewFigureLast(t *testing.T) {
	type Inner struct{ A, B uint64 } // no tags, as runstats' types
	type figures struct {
		Inner
		C   time.Duration `json:"c_ns" csv:"C"`
		New float64       `json:"new" csv:"New"` // the figure added
	}
	l := layout{{"C", "", ""}, {"B", "bee", "B Column"}, {"A", "", "A Column"}}
	v := &figures{Inner{1, 2}, 3 * time.Second, 0.5}
	tests := []struct {
		name string
		got  func() []string
		want []string
	}{
		{"csv head", func() []string { h, _ := csvFields(v, l...); return h }, []string{"C", "B Column", "A Column", "New"}},
		{"csv values", func() []string { _, vals := csvFields(v, l...); return vals }, []string{"3", "2", "1", "0.5"}},
		{"xml", func() []string {
			var b bytes.Buffer
			x := &xmlWriter{enc: xml.NewEncoder(&b)}
			var names []string
			for _, a := range x.laidOut(v, l) {
				names = append(names, a.Name.Local+"="+a.Value)
			}
			return names
		}, []string{"c_ns=3000000000", "bee=2", "A=1", "new=0.5"}},
	}
	for _, tt := range tests {
		if got := tt.got(); !slices.Equal(got, tt.want) {
			t.Errorf("%s: %q, want %q", tt.name, got, tt.want)
		}
	}
}
