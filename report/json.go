package report

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

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
// a gcperf result and any schema other than Schema.
func ReadJSON(r io.Reader) (*Document, error) {
	var d Document
	dec := json.NewDecoder(r)
	if err := dec.Decode(&d); err != nil {
		if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("%w: truncated JSON", ErrNotResult)
		}
		return nil, fmt.Errorf("%w: %s", ErrNotResult, quote.Line(err.Error()))
	}
	switch {
	case d.Schema == "":
		return nil, fmt.Errorf("%w: no \"schema\" key", ErrNotResult)
	case !strings.HasPrefix(d.Schema, "gcperf/"):
		return nil, fmt.Errorf("%w: schema %q", ErrNotResult, quote.Clip(d.Schema))
	case d.Schema != Schema:
		return nil, fmt.Errorf("%w %q: this gcperf reads %q", ErrSchema, quote.Clip(d.Schema), Schema)
	}
	return &d, nil
}
