// Package jsondoc decodes gcperf's JSON files (a result, a set of
// results, a sweep's summary) and checks their schema, as each of their
// readers does.
package jsondoc

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/gcperf/gcperf/internal/quote"
)

// ErrSchema is wrapped by Decode's error for a file of the right family
// in another version (report.ErrSchema).
var ErrSchema = errors.New("unsupported schema")

// Decode decodes one JSON document from r into v and checks its schema.
// schema reads the decoded document's schema. An error wraps notIt for
// what is not such a document at all (truncated or malformed JSON, no
// "schema" key, a schema of another family than family, such as
// "gcperf/", anything but whitespace after the document), ErrSchema for
// another version than want.
func Decode(r io.Reader, v any, schema func() string, family, want string, notIt error) error {
	dec := json.NewDecoder(r)
	if err := dec.Decode(v); err != nil {
		if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
			return fmt.Errorf("%w: truncated JSON", notIt)
		}
		return fmt.Errorf("%w: %s", notIt, quote.Line(err.Error()))
	}
	// One document and nothing after it but whitespace: a second document
	// or garbage appended is not read as if it were not there.
	end := dec.InputOffset()
	if _, err := dec.Token(); err != io.EOF {
		return fmt.Errorf("%w: more data after the document (at byte %d)", notIt, end)
	}
	switch s := schema(); {
	case s == "":
		return fmt.Errorf("%w: no \"schema\" key", notIt)
	case !strings.HasPrefix(s, family):
		return fmt.Errorf("%w: schema %q", notIt, quote.Clip(s))
	case s != want:
		return fmt.Errorf("%w %q: this gcperf reads %q", ErrSchema, quote.Clip(s), want)
	}
	return nil
}
