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
func csvFields(v any) (head, vals []string) {
	rv := reflect.Indirect(reflect.ValueOf(v))
	for i := range rv.NumField() {
		sf := rv.Type().Field(i)
		tag, ok := sf.Tag.Lookup("csv")
		if sf.Anonymous && !ok && rv.Field(i).Kind() == reflect.Struct {
			h, v := csvFields(rv.Field(i).Interface()) // an embedded struct's fields in its place
			head, vals = append(head, h...), append(vals, v...)
			continue
		}
		if !ok || tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		o := strings.Split(opts, ",")
		f := rv.Field(i)
		val := ""
		if !slices.Contains(o, "omitzero") || !f.IsZero() {
			val = csvValue(f, slices.Contains(o, "g"))
		}
		head, vals = append(head, name), append(vals, val)
	}
	return head, vals
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
