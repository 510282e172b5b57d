package plan

import (
	"regexp"
	"time"

	"github.com/goccy/go-yaml/ast"

	"github.com/loadlens/loadlens/internal/jsonpath"
	"github.com/loadlens/loadlens/internal/tmpl"
)

// Doc reads a YAML file other than a test (the mock server's config, an
// admin request) with a test file's rules: the same limits, anchors, merge
// keys and tags, keys checked with a suggestion for typos, and every error
// at file:line:col with the field's path, as Errors. It exports the test
// parser's readers so other configs do not grow their own.
type Doc struct{ p *parser }

// Node is one value of a Doc: where it is written and its field's path.
type Node struct{ n node }

// Field is one key of a mapping and its value.
type Field struct {
	Name  string
	Value Node
}

// Object is a mapping whose keys were checked.
type Object struct{ o *object }

// ReadDoc parses src, the text of file, and returns the document and its
// root value; ok is false when it is not YAML within the limits (the reason
// is in Err). env looks up {{ env... }} in templates and durations.
func ReadDoc(file string, src []byte, env func(string) (string, bool)) (d *Doc, root Node, ok bool) {
	p := &parser{file: file, env: env, errs: errorList{file: file}}
	d = &Doc{p: p}
	text, ok := p.prescan(src)
	if !ok {
		return d, Node{}, false
	}
	p.src = newSource(string(text))
	p.doc.budget = maxNodes
	n, ok := p.parseYAML(text)
	return d, Node{n}, ok
}

// Err returns every error recorded, as Errors sorted by position, or nil.
func (d *Doc) Err() error { return d.p.errs.result() }

// Failed reports whether an error was recorded.
func (d *Doc) Failed() bool { return d.p.errs.failed() }

// Errorf records an error at n.
func (d *Doc) Errorf(n Node, format string, args ...any) {
	d.p.errs.add(n.n.pos, n.n.path, format, args...)
}

// ErrorfAt records an error at byte off of n's text, for a character inside a scalar.
func (d *Doc) ErrorfAt(n Node, off int, format string, args ...any) {
	d.p.errs.add(d.p.src.posAt(n.n.v, off), n.n.path, format, args...)
}

// IsNull reports whether the value is null or missing.
func (n Node) IsNull() bool {
	_, null := n.n.v.(*ast.NullNode)
	return null || (n.n.v == nil && !n.n.bad)
}

// IsMap reports whether the value is a mapping.
func (n Node) IsMap() bool { return isMapping(n.n.v) }

// IsList reports whether the value is a list.
func (n Node) IsList() bool {
	_, ok := n.n.v.(*ast.SequenceNode)
	return ok
}

// Object returns n's mapping, reporting keys not in allowed (nil allows any).
func (d *Doc) Object(n Node, what string, allowed []string) (*Object, bool) {
	o, ok := d.p.object(n.n, what, allowed)
	if !ok {
		return nil, false
	}
	return &Object{o}, true
}

// Get returns the value of key name.
func (o *Object) Get(name string) (Node, bool) {
	n, ok := o.o.get(name)
	return Node{n}, ok
}

// Has reports whether key name is present.
func (o *Object) Has(name string) bool { return o.o.has(name) }

// Fields returns the mapping's keys and values in the order written.
func (o *Object) Fields() []Field {
	out := make([]Field, len(o.o.fields))
	for i, f := range o.o.fields {
		out[i] = Field{Name: f.name, Value: Node{f.val}}
	}
	return out
}

// Node returns the mapping itself, for errors about it as a whole.
func (o *Object) Node() Node { return Node{o.o.node} }

// List returns the items of a list.
func (d *Doc) List(n Node, what string) ([]Node, bool) {
	items, ok := d.p.list(n.n, what)
	out := make([]Node, len(items))
	for i, it := range items {
		out[i] = Node{it}
	}
	return out, ok
}

// Str returns a scalar as text (numbers and booleans as written).
func (d *Doc) Str(n Node, what string) (string, bool) { return d.p.str(n.n, what) }

// NonEmpty is Str that rejects the empty string.
func (d *Doc) NonEmpty(n Node, what string) (string, bool) { return d.p.nonEmpty(n.n, what) }

// Text is Str that reads null as the empty string.
func (d *Doc) Text(n Node, what string) (string, bool) { return d.p.text(n.n, what) }

// Bool returns true or false.
func (d *Doc) Bool(n Node) (bool, bool) { return d.p.boolean(n.n) }

// Duration returns a duration like 500ms or 2s (a bare 0 allowed; env lookups may be templated).
func (d *Doc) Duration(n Node) (time.Duration, bool) { return d.p.duration(n.n) }

// StatusCodes returns one HTTP status code or a list of them.
func (d *Doc) StatusCodes(n Node) ([]int, bool) {
	codes, _, ok := d.p.statusCodes(n.n)
	return codes, ok
}

// Regex compiles n's text, reporting an error at the offending part.
func (d *Doc) Regex(n Node) (*regexp.Regexp, bool) { return d.p.regex(n.n) }

// JSONPath parses n's text as a JSON path.
func (d *Doc) JSONPath(n Node) (jsonpath.Path, bool) {
	s, ok := d.p.nonEmpty(n.n, "a JSON path like $.items[0].id")
	if !ok {
		return jsonpath.Path{}, false
	}
	return d.p.jsonPath(n.n, s)
}

// Template compiles n's text as a template in scope sc, reporting errors at
// the offending character.
func (d *Doc) Template(n Node, sc *tmpl.Scope) (*tmpl.Template, bool) {
	s, ok := d.p.text(n.n, "text (a template)")
	if !ok {
		return nil, false
	}
	return d.p.compile(n.n, s, sc)
}

// JSONTemplate turns any YAML value into a JSON template as a test's json:
// body does: structure and scalars are literal JSON, strings are templates
// whose output is escaped for JSON.
func (d *Doc) JSONTemplate(n Node, sc *tmpl.Scope) (*tmpl.Template, bool) {
	before := len(d.p.errs.errs)
	b := &jsonBody{p: d.p, scope: sc}
	b.value(n.n)
	return b.done(), len(d.p.errs.errs) == before
}

// Headers returns a mapping of header names (made canonical, each given
// once) to their values.
func (d *Doc) Headers(n Node) []Field {
	fs := d.p.headerFields(n.n)
	out := make([]Field, len(fs))
	for i, f := range fs {
		out[i] = Field{Name: f.name, Value: Node{f.val}}
	}
	return out
}

// ParseSize reads a byte size like 1048576, 512KiB or 1.5MB.
func ParseSize(s string) (float64, bool) { return parseSize(s) }
