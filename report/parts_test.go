package report

import (
	"bytes"
	"slices"
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
		// The verbose report holds every part: the title and the
		// summary first, then the settings in full, the table and the
		// sections.
		if err := WriteText(&b, d, TextOptions{Verbose: true}); err != nil {
			t.Fatal(err)
		}
		text := b.String()
		pt := textParts(d)
		if !strings.HasPrefix(text, pt.Summary) || pt.Summary == "" {
			t.Errorf("%s: the text report does not begin with the summary %q", name, pt.Summary)
		}
		title, details, _ := strings.Cut(pt.Header, "\n")
		if !strings.HasPrefix(text, title+"\n") || !strings.Contains(text, "\n\n"+details) || details == "" {
			t.Errorf("%s: the text report does not begin with the title %q and hold the settings %q", name, title, details)
		}
		for _, part := range []string{pt.Errors, pt.Hiccups} {
			if !strings.Contains(text, part) {
				t.Errorf("%s: the text report does not hold %q", name, part)
			}
		}
		tail := pt.GC + pt.OpenLoop + pt.GCPerfP99 + pt.Tail + pt.Profiles + pt.Notes
		if !strings.HasSuffix(text, tail) || pt.Notes == "" {
			t.Errorf("%s: the text report does not end with the sections:\n%s", name, tail)
		}
		if len(pt.Head) == 0 || len(pt.Rows) == 0 {
			t.Fatalf("%s: no statistics table", name)
		}
		lines := strings.Split(text, "\n")
		at := 0
		cells := map[string][]string{}
		for _, r := range pt.Rows {
			cells[r[0]] = r[1:]
		}
	rows:
		for _, r := range pt.Rows {
			if len(r) != len(pt.Head)+1 {
				t.Errorf("%s: row %q has %d cells for %d columns", name, r[0], len(r)-1, len(pt.Head))
			}
			if twin, ok := cells[repeats[r[0]]]; ok && slices.Equal(twin, r[1:]) {
				// Shown in the text only where it differs from its twin.
				if strings.Contains(text, r[0]) {
					t.Errorf("%s: row %q repeats row %q and is in the text report", name, r[0], repeats[r[0]])
				}
				continue
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
