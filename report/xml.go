package report

import (
	"encoding"
	"encoding/xml"
	"io"
	"maps"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gcperf/gcperf/env"
)

// XML writes the document as XML, in the spirit of the SPARQL Query
// Benchmarker's XML results: the settings as <property name value/>
// elements of <configuration>, the environment, every run with its
// operations in run order, and the statistics of every operation and of
// the mix. Times are integer nanoseconds in attributes ending in _ns; the
// attribute names are the JSON document's keys.
//
//	<gcperf schema="gcperf/v1">
//	  <tool name="gcperf" version="0.1.0"><arg>gcperf</arg>...</tool>
//	  <configuration><property name="runs" value="200"/>...</configuration>
//	  <environment><host .../><cgroup .../><go .../><build .../></environment>
//	  <timing .../><harness .../><gc .../><process ...>...</process><tail .../>
//	  <runs>
//	    <run number="1" thread="0" runtime_ns="..." ...>
//	      <gc gc_cycles="1" .../>
//	      <operation order="1" name="alloc.list" runtime_ns="..." .../>
//	    </run>
//	  </runs>
//	  <statistics>
//	    <operation name="alloc.list" ...><errors/><runtime .../><response .../></operation>
//	    <mix name="mix" ...>...</mix>
//	  </statistics>
//	  <gcperfp99 ...><worst .../></gcperfp99>
//	</gcperf>
//
// A run's <gc> child is there with -gcstats run only, the only mode that
// reads the collector around each run.
func XML(w io.Writer, d *Document) error {
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	x := &xmlWriter{enc: xml.NewEncoder(w)}
	x.enc.Indent("", "  ")
	x.document(d)
	if x.err == nil {
		x.err = x.enc.Close()
	}
	if x.err == nil {
		_, x.err = io.WriteString(w, "\n")
	}
	return x.err
}

// xmlSchema is the schema the XML names: its layout has not changed since
// gcperf/v1, whatever the JSON's Schema.
const xmlSchema = schemaV1

// xmlWriter writes the XML form of a Document. The document's structs are
// not mirrored: element and attrs read their fields by reflection, under
// their JSON keys, so a field added to them is in the XML with no change
// here. Only what differs from the JSON is written by hand: the order of
// the top-level elements, the configuration's properties, the runs'
// operations, the error categories, GOGC and GOMEMLIMIT as the environment
// spells them. TestXMLHasEveryField fails when a document field reaches
// the XML neither way, unless its xmlLeftOut says why.
type xmlWriter struct {
	enc *xml.Encoder
	err error // the first error; every write after it does nothing
}

func (x *xmlWriter) document(d *Document) {
	// The XML's layout is the one it had under gcperf/v1 (the JSON's
	// renamed keys keep their v1 names here), and says so.
	a := x.attrs(d)
	for i := range a {
		if a[i].Name.Local == "schema" {
			a[i].Value = xmlSchema
		}
	}
	x.start("gcperf", a...)
	x.start("tool", x.attrs(d.Tool, "Command")...)
	for _, a := range d.Tool.Command {
		x.text("arg", a)
	}
	x.end("tool")
	x.start("configuration")
	for _, p := range x.attrs(d.Config, "Rate") { // -rate is not in the XML yet
		x.start("property", xmlAttr("name", p.Name.Local), xmlAttr("value", p.Value))
		x.end("property")
	}
	x.end("configuration")
	x.start("environment")
	x.element("host", d.Env.Host)
	x.element("cgroup", d.Env.Cgroup)
	g := x.attrs(d.Env.Go)
	for i, a := range g {
		switch a.Name.Local {
		case "gogc":
			g[i].Value = d.Env.Go.GOGCString() // "100", "off"
		case "gomemlimit":
			g[i].Value = gomemlimit(d.Env.Go) // bytes, "off"
		}
	}
	x.start("go", g...)
	x.end("go")
	x.element("build", d.Env.Build)
	x.end("environment")
	x.element("timing", d.Timing)
	x.element("harness", d.Harness)
	if d.GC != nil {
		x.start("gc", x.laidOut(d.GC, gcLayout)...)
		x.end("gc")
	}
	x.element("process", d.Process)
	x.element("tail", d.Tail)
	x.runs(d)
	if len(d.Timeline) > 0 {
		x.start("timeline")
		for i := range d.Timeline {
			x.element("span", &d.Timeline[i])
		}
		x.end("timeline")
	}
	x.start("statistics")
	for i := range d.Operations {
		x.statistics("operation", &d.Operations[i], x.attrs(&d.Operations[i]), "MixesPerHour")
	}
	x.statistics("mix", &d.Mix.Operation, x.attrs(&d.Mix))
	x.end("statistics")
	x.element("gcperfp99", d.GCPerfP99)
	x.hiccup(d.Hiccup)
	x.exec("exec", d.Exec)
	x.exec("server", d.Server)
	x.end("gcperf")
}

// hiccup writes the hiccup meter's figures (nil: nothing), its maximum
// under the name it had before gcperf/v2 gave every distribution's the
// same JSON key.
func (x *xmlWriter) hiccup(h *Hiccup) {
	if h == nil {
		return
	}
	a := x.laidOut(h, hiccupLayout, "Histogram")
	for i := range a {
		if a[i].Name.Local == "pmax_ns" {
			a[i].Name.Local = "max_ns"
		}
	}
	x.start("hiccup", a...)
	x.end("hiccup")
}

// exec writes a command's run (nil: nothing) as the element name.
func (x *xmlWriter) exec(name string, e *Exec) {
	if e == nil {
		return
	}
	x.start(name, x.attrs(e, "Command")...)
	for _, a := range e.Command {
		x.text("arg", a)
	}
	x.element("rss", e.RSS)
	x.element("settings", e.Settings)
	x.element("gc", e.GC)
	for i := range e.Benchmarks {
		x.element("benchmark", &e.Benchmarks[i])
	}
	x.end(name)
}

// runs writes every run with its operations in run order: runs[].ops when
// the document has them, else, for a one-operation mix, the run itself.
// With several operations and no ops (-sample 1), the document does not
// say which ran, and a run has no operation.
func (x *xmlWriter) runs(d *Document) {
	x.start("runs")
	for _, r := range d.Runs {
		x.start("run", slices.Concat([]xml.Attr{xmlAttr("number", r.Run)}, x.attrs(r, "Run", "GCDelta", "Error"))...)
		if hasRunGC(d) {
			x.element("gc", r.GCDelta)
		}
		for j, o := range r.Ops {
			name := ""
			if o.Op >= 0 && o.Op < len(d.Operations) {
				name = d.Operations[o.Op].Name
			}
			x.runOp(j+1, name, o.Start, o.Response, o.Runtime, o.Results, o.Error)
		}
		if len(r.Ops) == 0 && len(d.Operations) == 1 {
			failure := ""
			if r.Errors > 0 {
				failure = soleCategory(&d.Operations[0])
			}
			x.runOp(1, d.Operations[0].Name, r.Start, r.Response, r.Runtime, r.Results, failure)
		}
		x.end("run")
	}
	x.end("runs")
}

// runOp writes one operation of a run: its 1-based order in the run, and
// its failure's category when it failed.
func (x *xmlWriter) runOp(order int, name string, start, response, runtime time.Duration, results int64, failure string) {
	a := []xml.Attr{xmlAttr("order", order)}
	if name != "" {
		a = append(a, xmlAttr("name", name))
	}
	a = append(a, xmlAttr("start_ns", start), xmlAttr("response_ns", response), xmlAttr("runtime_ns", runtime),
		xmlAttr("results", results))
	if failure != "" {
		a = append(a, xmlAttr("error", failure))
	}
	x.start("operation", a...)
	x.end("operation")
}

// soleCategory names the failure of a one-operation run, which the document
// keeps only as a count: the operation's only failure category when it has
// one, else "unknown".
func soleCategory(o *Operation) string {
	if len(o.Errors.ByCategory) == 1 {
		for c := range o.Errors.ByCategory {
			return c
		}
	}
	return "unknown"
}

// statistics writes the statistics of one operation or of the mix: attrs,
// then the errors by category (in name order, with the first message), the
// distributions and the multi-threaded figures, less the fields of Actual
// that skip names.
func (x *xmlWriter) statistics(name string, o *Operation, attrs []xml.Attr, skip ...string) {
	x.start(name, attrs...)
	x.start("errors", xmlAttr("total", o.Errors.Total))
	for _, c := range slices.Sorted(maps.Keys(o.Errors.ByCategory)) {
		a := []xml.Attr{xmlAttr("name", c), xmlAttr("count", o.Errors.ByCategory[c])}
		if first := o.Errors.First[c]; first != "" {
			a = append(a, xmlAttr("first", first))
		}
		x.start("category", a...)
		x.end("category")
	}
	x.end("errors")
	x.element("runtime", o.Runtime)
	x.element("response", o.Response)
	x.element("actual", o.Actual, skip...)
	x.end(name)
}

// element writes v, a struct or a pointer to one, less the fields that skip
// names: its scalar fields as attributes (attrs), then each of its
// structs, pointers to structs and slices of structs as child elements
// under its JSON key. A nil pointer writes nothing.
func (x *xmlWriter) element(name string, v any, skip ...string) {
	rv := reflect.Indirect(reflect.ValueOf(v))
	if !rv.IsValid() {
		return
	}
	x.start(name, x.laidOut(v, xmlLayouts[rv.Type()], skip...)...)
	for _, f := range xmlFields(rv, skip) {
		switch t := f.v.Type(); {
		case xmlScalar(t):
		case t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.Struct:
			item := f.key
			if n, ok := xmlItems[item]; ok {
				item = n
			}
			for i := range f.v.Len() {
				x.element(item, f.v.Index(i).Interface())
			}
		case t.Kind() == reflect.Struct || t.Kind() == reflect.Pointer && t.Elem().Kind() == reflect.Struct:
			x.element(f.key, f.v.Interface())
		}
	}
	x.end(name)
}

// xmlLayouts are the layouts of the engine's types that element writes
// in an order of their own.
var xmlLayouts = map[reflect.Type]layout{reflect.TypeFor[Cause](): causeLayout}

// xmlItems names the element of one item of a list whose JSON key is a
// plural (the others, such as "worst", name one item as well as many).
var xmlItems = map[string]string{"causes": "cause", "points": "point", "metrics": "metric", "heap_goal": "goal"}

// attrs is the scalar fields of v, a struct or a pointer to one, less those
// that skip names, as attributes in field order under their JSON keys: a
// nil pointer is left out, and so is an empty string with omitempty and a
// zero value with omitzero; a zero number is otherwise written.
func (x *xmlWriter) attrs(v any, skip ...string) []xml.Attr {
	return x.attrsOf(xmlFields(reflect.Indirect(reflect.ValueOf(v)), skip))
}

// laidOut is the attributes of v, a pointer to a struct, less the fields
// that skip names, in the order and under the names of l (see layout); nil
// for a nil pointer.
func (x *xmlWriter) laidOut(v any, l layout, skip ...string) []xml.Attr {
	rv := reflect.Indirect(reflect.ValueOf(v))
	if !rv.IsValid() {
		return nil
	}
	return x.attrsOf(apply(l, xmlFields(rv, skip),
		func(f *xmlField) string { return f.name },
		func(f *xmlField, e laidOut) {
			if e.xml != "" {
				f.key = e.xml
			}
		}))
}

// attrsOf is the scalar fields of fields as attrs says.
func (x *xmlWriter) attrsOf(fields []xmlField) []xml.Attr {
	var attrs []xml.Attr
	for _, f := range fields {
		if !xmlScalar(f.v.Type()) || f.v.Kind() == reflect.Pointer && f.v.IsNil() {
			continue
		}
		fv := reflect.Indirect(f.v)
		if f.omitEmpty && fv.Kind() == reflect.String && fv.Len() == 0 || f.omitZero && fv.IsZero() {
			continue
		}
		s, err := xmlText(fv)
		if err != nil && x.err == nil {
			x.err = err
		}
		attrs = append(attrs, xml.Attr{Name: xml.Name{Local: f.key}, Value: s})
	}
	return attrs
}

// xmlAttr is an attribute whose value, a number or a string, xmlText
// formats without fail.
func xmlAttr(name string, v any) xml.Attr {
	s, _ := xmlText(reflect.ValueOf(v))
	return xml.Attr{Name: xml.Name{Local: name}, Value: s}
}

func (x *xmlWriter) start(name string, attrs ...xml.Attr) {
	if x.err == nil {
		x.err = x.enc.EncodeToken(xml.StartElement{Name: xml.Name{Local: name}, Attr: attrs})
	}
}

func (x *xmlWriter) end(name string) {
	if x.err == nil {
		x.err = x.enc.EncodeToken(xml.EndElement{Name: xml.Name{Local: name}})
	}
}

// text writes an element holding s.
func (x *xmlWriter) text(name, s string) {
	if x.err == nil {
		x.err = x.enc.EncodeElement(s, xml.StartElement{Name: xml.Name{Local: name}})
	}
}

// xmlField is a field of a document struct under its JSON key.
type xmlField struct {
	name      string // the Go field's
	key       string
	v         reflect.Value
	omitEmpty bool
	omitZero  bool
}

// xmlFields lists the exported fields of the struct v in order, less those
// that skip names and those the JSON leaves out, with the fields of an
// embedded struct in its place.
func xmlFields(v reflect.Value, skip []string) []xmlField {
	var fields []xmlField
	for i := range v.NumField() {
		sf, fv := v.Type().Field(i), v.Field(i)
		key, opts, _ := strings.Cut(sf.Tag.Get("json"), ",")
		if !sf.IsExported() || key == "-" && opts == "" || slices.Contains(skip, sf.Name) {
			continue
		}
		if sf.Anonymous && key == "" {
			if fv = reflect.Indirect(fv); fv.Kind() == reflect.Struct {
				fields = append(fields, xmlFields(fv, nil)...)
			}
			continue
		}
		if key == "" {
			key = sf.Name
		}
		if x := sf.Tag.Get("xml"); x != "" {
			key = x // a name the XML kept when the JSON's changed
		}
		o := strings.Split(opts, ",")
		fields = append(fields, xmlField{sf.Name, key, fv, slices.Contains(o, "omitempty"), slices.Contains(o, "omitzero")})
	}
	return fields
}

var textMarshaler = reflect.TypeFor[encoding.TextMarshaler]()

// xmlScalar reports whether a field of type t is an attribute: a number, a
// boolean, a string, a list of strings, a value that marshals to text
// (time.Time), or a pointer to one of them.
func xmlScalar(t reflect.Type) bool {
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Bool, reflect.String,
		reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
		reflect.Float32, reflect.Float64:
		return true
	case reflect.Slice:
		return t.Elem().Kind() == reflect.String || t.Elem().Kind() == reflect.Float64
	}
	return t.Implements(textMarshaler)
}

// xmlText is a scalar as an attribute's value. A number is written in
// decimal, a float never with an exponent, so that it reads back exactly;
// a list of strings is joined by spaces.
func xmlText(v reflect.Value) (string, error) {
	if m, ok := v.Interface().(encoding.TextMarshaler); ok {
		b, err := m.MarshalText()
		return string(b), err
	}
	switch {
	case v.Kind() == reflect.Bool:
		return strconv.FormatBool(v.Bool()), nil
	case v.CanInt():
		return strconv.FormatInt(v.Int(), 10), nil
	case v.CanUint():
		return strconv.FormatUint(v.Uint(), 10), nil
	case v.CanFloat():
		return strconv.FormatFloat(v.Float(), 'f', -1, 64), nil
	case v.Kind() == reflect.Slice:
		s := make([]string, v.Len())
		for i := range s {
			if e := v.Index(i); e.CanFloat() {
				s[i] = strconv.FormatFloat(e.Float(), 'g', -1, 64)
			} else {
				s[i] = e.String()
			}
		}
		return strings.Join(s, " "), nil
	}
	return v.String(), nil
}

// gomemlimit is GOMEMLIMIT in bytes, "off" without a limit.
func gomemlimit(g env.Go) string {
	if g.GOMEMLIMIT == math.MaxInt64 {
		return "off"
	}
	return csvInt(g.GOMEMLIMIT)
}
