package report

import (
	"bytes"
	"strings"
	"testing"
)

// TestTextParts checks that the parts are the text report's: it begins
// with the header, ends with the sections in order, and each row of the
// statistics table is a line of it holding the row's cells in order.
func TestTextParts(t *testing.T) {
	for _, name := range fixtures {
		d, _ := readFixture(t, name)
		var b bytes.Buffer
		if err := Text(&b, d); err != nil {
			t.Fatal(err)
		}
		text := b.String()
		pt := textParts(d)
		if !strings.HasPrefix(text, pt.Header) || pt.Header == "" {
			t.Errorf("%s: the text report does not begin with the header %q", name, pt.Header)
		}
		tail := pt.Errors + pt.GC + pt.Hiccups + pt.OpenLoop + pt.GCPerfP99 + pt.Tail + pt.Profiles + pt.Notes
		if !strings.HasSuffix(text, tail) || pt.Notes == "" {
			t.Errorf("%s: the text report does not end with the sections:\n%s", name, tail)
		}
		if len(pt.Head) == 0 || len(pt.Rows) == 0 {
			t.Fatalf("%s: no statistics table", name)
		}
		lines := strings.Split(text, "\n")
		at := 0
	rows:
		for _, r := range pt.Rows {
			if len(r) != len(pt.Head)+1 {
				t.Errorf("%s: row %q has %d cells for %d columns", name, r[0], len(r)-1, len(pt.Head))
			}
			for ; at < len(lines); at++ {
				if fields(lines[at]) == fields(strings.Join(r, " ")) {
					continue rows
				}
			}
			t.Errorf("%s: row %q is not a line of the text report, in order", name, r)
		}
	}
}

// fields is a line with its runs of spaces made one.
func fields(line string) string { return strings.Join(strings.Fields(line), " ") }
