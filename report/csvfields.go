package report

import (
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gcperf/gcperf/internal/figure"
)

// csvFields is the CSV form of v, a struct or a pointer to one: the
// fields that have a csv tag, in field order (an embedded struct's in its
// place), as their headers and their
// values. The tag names the column (`csv:"STW Max"`), so that a figure
// added to a document's type is in the CSV with no change here. A
// time.Duration is in seconds and a float a decimal, both without
// exponent (option g: a float in strconv's shortest 'g' form); a list of
// strings is joined by spaces; option omitzero leaves the cell of a zero
// value empty (a figure not measured).
//
// A layout, when given, orders the fields and names those its entries
// name (see layout); a field without a csv tag that it gives a column is
// in the CSV.
func csvFields(v any, l ...laidOut) (head, vals []string) {
	fields := apply(l, csvFieldsOf(reflect.Indirect(reflect.ValueOf(v))),
		func(f *csvField) string { return f.name },
		func(f *csvField, e laidOut) {
			if e.csv != "" {
				f.tag, f.tagged = e.csv, true
			}
		})
	for _, f := range fields {
		if !f.tagged || f.tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(f.tag, ",")
		o := strings.Split(opts, ",")
		val := ""
		if !slices.Contains(o, "omitzero") || !f.v.IsZero() {
			val = csvValue(f.v, slices.Contains(o, "g"))
		}
		head, vals = append(head, name), append(vals, val)
	}
	return head, vals
}

// csvField is one field of a struct: its Go name, its csv tag (tagged
// when it has one) and its value.
type csvField struct {
	name   string
	tag    string
	tagged bool
	v      reflect.Value
}

// csvFieldsOf is the exported fields of the struct rv in field order, an
// embedded struct's without a csv tag in its place.
func csvFieldsOf(rv reflect.Value) []csvField {
	var fields []csvField
	for i := range rv.NumField() {
		sf := rv.Type().Field(i)
		tag, ok := sf.Tag.Lookup("csv")
		if !sf.IsExported() {
			continue
		}
		if sf.Anonymous && !ok && rv.Field(i).Kind() == reflect.Struct {
			fields = append(fields, csvFieldsOf(rv.Field(i))...) // an embedded struct's fields in its place
			continue
		}
		fields = append(fields, csvField{sf.Name, tag, ok, rv.Field(i)})
	}
	return fields
}

var durationType = reflect.TypeFor[time.Duration]()

// csvValue is one field's cell, as csvFields says.
func csvValue(v reflect.Value, g bool) string {
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
