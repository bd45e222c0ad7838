package report

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/gcperf/gcperf/internal/quote"
)

// JSON writes the document as indented JSON.
func JSON(w io.Writer, d *Document) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(d)
}

// Errors from ReadJSON, for errors.Is.
var (
	ErrNotResult = errors.New("not a gcperf result")
	ErrSchema    = errors.New("unsupported schema")
)

// ReadJSON reads a document written by JSON. It refuses anything that is not
// a gcperf result and any schema other than Schema; a Set with an error
// wrapping ErrSet.
func ReadJSON(r io.Reader) (*Document, error) {
	var d Document
	if err := DecodeJSON(r, &d, func() string { return d.Schema }, "gcperf/", Schema, ErrNotResult); err != nil {
		if d.Schema == SetSchema {
			return nil, setError{}
		}
		return nil, err
	}
	return &d, nil
}

// DecodeJSON decodes one JSON document from r into v and checks its
// schema, as every reader of gcperf's files does. schema reads the
// decoded document's schema. An error wraps notIt for what is not such a
// document at all (truncated or malformed JSON, no "schema" key, a schema
// of another family than family, such as "gcperf/"), ErrSchema for
// another version than want.
func DecodeJSON(r io.Reader, v any, schema func() string, family, want string, notIt error) error {
	if err := json.NewDecoder(r).Decode(v); err != nil {
		if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
			return fmt.Errorf("%w: truncated JSON", notIt)
		}
		return fmt.Errorf("%w: %s", notIt, quote.Line(err.Error()))
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

// UnmarshalJSON reads a document of the current Schema, or of gcperf/v1
// converted to it: v1 named the collector's cycles "cycles" in "gc" and
// the hiccup meter's maximum "max_ns", where gcperf/v2 names them as every
// run's and every distribution's ("gc_cycles", "pmax_ns"). A document of
// any other schema is read as it is, for the reader to refuse.
func (d *Document) UnmarshalJSON(data []byte) error {
	type plain Document // without this method
	if err := json.Unmarshal(data, (*plain)(d)); err != nil {
		return err
	}
	if d.Schema != schemaV1 {
		return nil
	}
	var v1 struct {
		GC *struct {
			Cycles uint64 `json:"cycles"`
		} `json:"gc"`
		Hiccup *struct {
			Max time.Duration `json:"max_ns"`
		} `json:"hiccup"`
	}
	if err := json.Unmarshal(data, &v1); err != nil {
		return err
	}
	if d.GC != nil && v1.GC != nil {
		d.GC.Cycles = v1.GC.Cycles
	}
	if d.Hiccup != nil && v1.Hiccup != nil {
		d.Hiccup.Max = v1.Hiccup.Max
	}
	d.Schema = Schema
	return nil
}
