package report

import (
	"encoding"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gcperf/gcperf/internal/figure"
)

// csvFields is the CSV form of v, a struct or a pointer to one: the
// fields that have a csv tag, in field order (an embedded struct's in its
// place), as their headers and their
// values. The tag names the column (`csv:"STW Max"`), so that a figure
// added to a document's type is in the CSV with no change here. A
// time.Duration is in seconds and a float a decimal, both without
// exponent (option g: a float in strconv's shortest 'g' form); a value
// that marshals to text is its text (a time in RFC 3339 with its
// nanoseconds, an enum its name); a list of strings is joined by spaces.
// Option omitzero leaves the cell of a zero value empty (a figure not
// measured), option zero=WORD writes WORD for it (what a setting does
// unset: "disabled", "none").
//
// A layout, when given, orders the fields and names those its entries
// name (see layout); a field without a csv tag that it gives a column is
// in the CSV.
func csvFields(v any, l ...laidOut) (head, vals []string) {
	rv := reflect.Indirect(reflect.ValueOf(v))
	plan := csvPlanOf(rv.Type(), l)
	head, vals = make([]string, 0, len(plan)), make([]string, 0, len(plan))
	for _, c := range plan {
		f, ok := fieldAt(rv, c.index)
		if !ok {
			continue // under a nil pointer: not in this CSV
		}
		val := ""
		switch {
		case c.zero != "" && f.IsZero():
			val = c.zero
		case !c.omitZero || !f.IsZero():
			val = csvValue(f, c.g)
		}
		head, vals = append(head, c.name), append(vals, val)
	}
	return head, vals
}

// fieldAt is the field of v at index, as reflect.Value.FieldByIndexErr
// finds it, and false under a nil pointer: without the error text that
// FieldByIndexErr builds, once per cell of every run otherwise.
func fieldAt(v reflect.Value, index []int) (reflect.Value, bool) {
	for i, x := range index {
		if i > 0 && v.Kind() == reflect.Pointer {
			if v.IsNil() {
				return reflect.Value{}, false
			}
			v = v.Elem()
		}
		v = v.Field(x)
	}
	return v, true
}

// csvColumn is one column of a type's CSV: where its field is, its header
// and its tag's options.
type csvColumn struct {
	index       []int
	name        string
	omitZero, g bool
	zero        string // the word a zero value is written as (option zero=WORD)
}

// csvPlans holds each type's columns under each layout, so that a CSV of
// many runs reads the tags once.
var csvPlans sync.Map // csvPlanKey → []csvColumn

type csvPlanKey struct {
	t reflect.Type
	l *laidOut // the layout's first entry, nil for none
}

// csvPlanOf is the columns of the struct type t under the layout l.
func csvPlanOf(t reflect.Type, l layout) []csvColumn {
	k := csvPlanKey{t: t}
	if len(l) > 0 {
		k.l = &l[0]
	}
	if p, ok := csvPlans.Load(k); ok {
		return p.([]csvColumn)
	}
	fields := apply(l, csvFieldsOf(t, nil),
		func(f *csvField) string { return f.name },
		func(f *csvField, e laidOut) {
			if e.csv != "" {
				f.tag, f.tagged = e.csv, true
			}
		})
	var cols []csvColumn
	for _, f := range fields {
		if !f.tagged || f.tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(f.tag, ",")
		o := strings.Split(opts, ",")
		col := csvColumn{f.index, name, slices.Contains(o, "omitzero"), slices.Contains(o, "g"), ""}
		for _, opt := range o {
			if w, ok := strings.CutPrefix(opt, "zero="); ok {
				col.zero = w
			}
		}
		cols = append(cols, col)
	}
	csvPlans.Store(k, cols)
	return cols
}

// csvField is one field of a struct type: its Go name, its csv tag
// (tagged when it has one) and where it is.
type csvField struct {
	name   string
	tag    string
	tagged bool
	index  []int
}

// csvFieldsOf is the exported fields of the struct type t in field order,
// an embedded struct's (or pointer's) without a csv tag in its place;
// index is where t is in the value csvFields reads.
func csvFieldsOf(t reflect.Type, index []int) []csvField {
	var fields []csvField
	for i := range t.NumField() {
		sf := t.Field(i)
		tag, ok := sf.Tag.Lookup("csv")
		if !sf.IsExported() {
			continue
		}
		at := append(slices.Clip(index), i)
		if ft := sf.Type; sf.Anonymous && !ok && (ft.Kind() == reflect.Struct || ft.Kind() == reflect.Pointer) {
			if ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Struct {
				fields = append(fields, csvFieldsOf(ft, at)...) // an embedded struct's fields in its place
			}
			continue
		}
		fields = append(fields, csvField{sf.Name, tag, ok, at})
	}
	return fields
}

var durationType = reflect.TypeFor[time.Duration]()

// csvValue is one field's cell, as csvFields says.
func csvValue(v reflect.Value, g bool) string {
	if m, ok := v.Interface().(encoding.TextMarshaler); ok {
		b, _ := m.MarshalText() // an enum's name (workload.Verdict), a time in RFC 3339 with its nanoseconds
		return string(b)
	}
	switch {
	case v.Type() == durationType:
		return csvSecs(time.Duration(v.Int()))
	case v.CanInt():
		return strconv.FormatInt(v.Int(), 10)
	case v.CanUint():
		return strconv.FormatUint(v.Uint(), 10)
	case v.CanFloat() && g:
		return strconv.FormatFloat(v.Float(), 'g', -1, 64)
	case v.CanFloat():
		return figure.Decimal(v.Float())
	case v.Kind() == reflect.Bool:
		return strconv.FormatBool(v.Bool())
	case v.Kind() == reflect.Slice && v.Type().Elem().Kind() == reflect.String:
		return strings.Join(v.Interface().([]string), " ")
	}
	return v.String()
}
