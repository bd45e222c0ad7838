package quote

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestClip(t *testing.T) {
	long := strings.Repeat("x", 2<<20)
	tests := []struct {
		in, want string
	}{
		{"", ""},
		{"abc", "abc"},
		{strings.Repeat("y", Max), strings.Repeat("y", Max)},
		{strings.Repeat("y", Max+1), strings.Repeat("y", Max) + "…"},
		{long, strings.Repeat("x", Max) + "…"},
		// a rune across the cut is dropped whole
		{strings.Repeat("y", Max-1) + "é" + "z", strings.Repeat("y", Max-1) + "…"},
	}
	for _, tt := range tests {
		got := Clip(tt.in)
		if got != tt.want {
			t.Errorf("Clip(%.20q...) = %.100q, want %.100q", tt.in, got, tt.want)
		}
		if !utf8.ValidString(got) {
			t.Errorf("Clip(%.20q...) is not valid UTF-8", tt.in)
		}
	}
}

func FuzzClip(f *testing.F) {
	f.Add("abc")
	f.Add(strings.Repeat("é", 100))
	f.Fuzz(func(t *testing.T, s string) {
		got := Clip(s)
		if len(got) > Max+len("…") {
			t.Errorf("Clip gave %d bytes", len(got))
		}
		if !strings.HasPrefix(s, strings.TrimSuffix(got, "…")) {
			t.Errorf("Clip(%q) = %q: not a prefix", s, got)
		}
		if utf8.ValidString(s) && !utf8.ValidString(got) {
			t.Errorf("Clip(%q) = %q: invalid UTF-8", s, got)
		}
	})
}

func TestLine(t *testing.T) {
	long := strings.Repeat("9", 2<<20)
	path := "/tmp/" + strings.Repeat("d", 200) + "/result.json"
	tests := []struct{ in, want string }{
		{"short", "short"},
		{`invalid value "` + long + `" for flag -runs: parse error`,
			`invalid value "` + strings.Repeat("9", Max-1) + `…` + ` for flag -runs: parse error`},
		{"-json " + path + ": file exists " + strings.Repeat("x ", 200), "-json " + path + ": file exists " + strings.Repeat("x ", 200)},
		{long, strings.Repeat("9", Max) + "…"},
		{"a " + long + " b " + long, "a " + strings.Repeat("9", Max) + "… b " + strings.Repeat("9", Max) + "…"},
		{"-json abc\ndef\x1b[31m: file exists", `-json abc\ndef\x1b[31m: file exists`},
		{"tab\tkept", "tab\tkept"},
	}
	for _, tt := range tests {
		if got := Line(tt.in); got != tt.want {
			t.Errorf("Line(%.40q...) = %.200q, want %.200q", tt.in, got, tt.want)
		}
	}
}

func TestWord(t *testing.T) {
	for in, want := range map[string]string{
		"-x":                    "-x",
		"-\r":                   `"-\r"`,
		"a\nb":                  `"a\nb"`,
		strings.Repeat("z", 90): strings.Repeat("z", Max) + "…",
	} {
		if got := Word(in); got != want {
			t.Errorf("Word(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestOneLine(t *testing.T) {
	err := errors.Join(errors.New("a: first"), errors.New("b: second"))
	if got := OneLine(err); got != "a: first; b: second" {
		t.Errorf("OneLine = %q", got)
	}
	if got := OneLine(errors.New("alone")); got != "alone" {
		t.Errorf("OneLine = %q", got)
	}
}
