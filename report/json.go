package report

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"time"

	"github.com/gcperf/gcperf/internal/jsondoc"
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
	ErrSchema    = jsondoc.ErrSchema
)

// ReadJSON reads a document written by JSON, or by an earlier gcperf under
// gcperf/v1 (converted, see Document.UnmarshalJSON). It refuses anything
// that is not a gcperf result and any other schema; a Set with an error
// wrapping ErrSet; and a result that holds only its failure with a
// *FailedRunError, the document beside it.
func ReadJSON(r io.Reader) (*Document, error) {
	var d Document
	if err := jsondoc.Decode(r, &d, func() string { return d.Schema }, "gcperf/", Schema, ErrNotResult); err != nil {
		if d.Schema == SetSchema {
			return nil, setError{}
		}
		return nil, err
	}
	if d.onlyFailure() {
		return &d, &FailedRunError{Failure: *d.Failed}
	}
	if d.Failed == nil && d.Operations == nil && d.Exec == nil && d.Server == nil &&
		reflect.ValueOf(d.Config).IsZero() && reflect.ValueOf(d.Timing).IsZero() {
		// A schema alone would render as a result of zeros ("GOGC 0").
		return nil, fmt.Errorf("%w: it holds no measurement (no config, timing, operations, command, server or failure)", ErrNotResult)
	}
	return &d, nil
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
