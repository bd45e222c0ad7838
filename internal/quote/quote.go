// Package quote shortens the values that gcperf's error messages quote, so
// that an error stays one readable line whatever the input: a 2MB mix-file
// line or parameter is quoted by its first 80 bytes or so, never whole.
package quote

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// Max is about the most bytes of a value an error quotes.
const Max = 80

// Clip returns s, or its first Max bytes (cut at a rune boundary) and "…"
// when it is longer.
func Clip(s string) string {
	if len(s) <= Max {
		return s
	}
	i := Max
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return s[:i] + "…"
}

// LongWord is the length from which Line clips a run of non-space bytes.
const LongWord = 256

// Line returns msg as one short line: every control character escaped as
// Go escapes it in a quoted string (a newline as \n, ESC as \x1b), and every
// run of non-space bytes longer than LongWord clipped as Clip does. It is
// the net under every error line gcperf prints, so that a value some message
// holds whole (a flag package error, a file name) cannot make it long or
// break it; paths and ordinary values are left alone.
func Line(msg string) string {
	msg = escapeControls(msg)
	if len(msg) <= LongWord {
		return msg
	}
	var b strings.Builder
	start := -1
	flush := func(end int) {
		if start >= 0 {
			b.WriteString(msg[start:end]) // at most LongWord: kept whole
			start = -1
		}
	}
	for i := 0; i < len(msg); i++ {
		if msg[i] == ' ' || msg[i] == '\t' || msg[i] == '\n' {
			flush(i)
			b.WriteByte(msg[i])
			continue
		}
		if start < 0 {
			start = i
		}
		if i+1-start > LongWord {
			// A long word: keep scanning to its end, then clip it.
			j := i
			for j < len(msg) && msg[j] != ' ' && msg[j] != '\t' && msg[j] != '\n' {
				j++
			}
			b.WriteString(Clip(msg[start:j]))
			start, i = -1, j-1
		}
	}
	flush(len(msg))
	return b.String()
}

// Word is Clip for a value printed bare (%s) in a message: clipped, and
// quoted as Go quotes strings when it holds a control character, so that a
// "\r" or "\n" in an argument cannot break the message's line.
func Word(s string) string {
	c := Clip(s)
	if strings.ContainsFunc(c, func(r rune) bool { return r == '\t' || isControl(r) }) {
		return strconv.Quote(c)
	}
	return c
}

// escapeControls escapes the control characters of s (not tabs).
func escapeControls(s string) string {
	if !strings.ContainsFunc(s, isControl) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if isControl(r) {
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

func isControl(r rune) bool {
	return r < ' ' && r != '\t' || r == 0x7f || r == 0x85 || r == 0x2028 || r == 0x2029
}

// OneLine is err's text on one line: the errors of errors.Join, one a
// line, joined by "; ".
func OneLine(err error) string {
	return strings.ReplaceAll(err.Error(), "\n", "; ")
}

// Shell joins a command line, quoting the arguments a POSIX shell would
// split or expand, so that it can be pasted back.
func Shell(args []string) string {
	out := make([]string, len(args))
	for i, a := range args {
		if a != "" && strings.IndexFunc(a, func(r rune) bool {
			return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' ||
				strings.ContainsRune("-_./:=,+%@", r))
		}) < 0 {
			out[i] = a
			continue
		}
		out[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
	}
	return strings.Join(out, " ")
}
