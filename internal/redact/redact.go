// Package redact hides the password of a URL's userinfo wherever gcperf
// records or prints a URL or a command line holding one, as net/url's
// URL.Redacted does ("http://user:xxxxx@host/").
package redact

import (
	"net/url"
	"strings"
)

// URL returns s with the password of its userinfo, if any, as xxxxx. A
// URL url.Parse refuses, or a flag and its URL in one argument
// (-url=http://…), is redacted in its text: what lies between the
// userinfo's first colon and its last @.
func URL(s string) string {
	if !strings.Contains(s, "@") {
		return s
	}
	if u, err := url.Parse(s); err == nil && u.Scheme != "" {
		return u.Redacted()
	}
	_, rest, ok := strings.Cut(s, "://")
	if !ok {
		return s
	}
	auth := rest
	if i := strings.IndexAny(rest, "/?#"); i >= 0 {
		auth = rest[:i]
	}
	at := strings.LastIndexByte(auth, '@')
	colon := strings.IndexByte(auth, ':')
	if at < 0 || colon < 0 || colon > at {
		return s
	}
	start := len(s) - len(rest) + colon + 1
	return s[:start] + "xxxxx" + s[start+at-colon-1:]
}

// Args returns a command line with every URL's password redacted (URL),
// a new slice when one was; args itself otherwise.
func Args(args []string) []string {
	var out []string
	for i, a := range args {
		if r := URL(a); r != a {
			if out == nil {
				out = append([]string(nil), args...)
			}
			out[i] = r
		}
	}
	if out == nil {
		return args
	}
	return out
}
