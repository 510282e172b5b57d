// Package yamldoc reads YAML files strictly, with a test file's rules: size,
// encoding and nesting checked before parsing, anchors, aliases, merge keys
// and the standard tags resolved within a budget, keys checked against the
// allowed ones with a suggestion for typos, scalars read by their kind, and
// every error at file:line:col with the field's path (syntax errors with a
// hint at the usual cause, such as a dedented line). The test parser (plan)
// and the mock server's config (mock) both read through it.
package yamldoc

import (
	"github.com/goccy/go-yaml/ast"

	"github.com/loadlens/loadlens/internal/jsonpath"
	"github.com/loadlens/loadlens/internal/tmpl"
)

// Doc reads a YAML file with a test file's rules: the same limits,
// anchors, merge keys and tags, keys checked with a suggestion for typos,
// and every error at file:line:col with the field's path, as Errors. The
// test parser and the mock server's config both read through it.
type Doc struct {
	Errs        ErrorList
	Src         Source
	Env         func(string) (string, bool) // looks up {{ env... }} in templates and durations
	aliases     map[*ast.AliasNode]ast.Node // the anchor behind each alias
	budget      int                         // nodes left to visit
	spent       bool                        // the budget ran out and that was reported
	MissingVars bool                        // templates' unknown-variable errors are not reported
}

// New returns a Doc for the text of file; env looks up {{ env... }}
// (nil means the process environment).
func New(file string, env func(string) (string, bool)) *Doc {
	return &Doc{Errs: ErrorList{file: file}, Env: env}
}

// Read checks src within the limits and parses it, returning the text
// parsed (without a byte order mark) and its root value.
func (d *Doc) Read(src []byte) (text []byte, root Node, ok bool) {
	text, ok = d.prescan(src)
	if !ok {
		return nil, Node{}, false
	}
	d.Src = newSource(string(text))
	d.budget = maxNodes
	root, ok = d.parseYAML(text)
	return text, root, ok
}

// Quiet stops recording errors and spending the node budget until the
// returned func is called: a pre-pass over nodes the real pass walks again.
func (d *Doc) Quiet() (restore func()) {
	d.Errs.quiet++
	budget, spent := d.budget, d.spent
	return func() {
		d.Errs.quiet--
		d.budget, d.spent = budget, spent // a budget spent quietly was not reported: the real pass reports it
	}
}

// Errorf records an error at n about its field.
func (d *Doc) Errorf(n Node, format string, args ...any) {
	d.Errs.Add(n.Pos, n.Path, format, args...)
}

// ErrorfAt records an error at byte off of n's text, for a character inside a scalar.
func (d *Doc) ErrorfAt(n Node, off int, format string, args ...any) {
	d.Errs.Add(d.Src.PosAt(n.V, off), n.Path, format, args...)
}

// IsNull reports whether the value is null or missing.
func (n Node) IsNull() bool {
	_, null := n.V.(*ast.NullNode)
	return null || (n.V == nil && !n.Bad)
}

// IsMap reports whether the value is a mapping.
func (n Node) IsMap() bool { return IsMapping(n.V) }

// IsList reports whether the value is a list.
func (n Node) IsList() bool {
	_, ok := n.V.(*ast.SequenceNode)
	return ok
}

// JSONPath reads n's text as a JSON path.
func (d *Doc) JSONPath(n Node) (jsonpath.Path, bool) {
	s, ok := d.NonEmpty(n, "a JSON path like $.items[0].id")
	if !ok {
		return jsonpath.Path{}, false
	}
	return d.ParseJSONPath(n, s)
}

// Template compiles n's text as a template in scope sc, reporting errors at
// the offending character.
func (d *Doc) Template(n Node, sc *tmpl.Scope) (*tmpl.Template, bool) {
	s, ok := d.Text(n, "text (a template)")
	if !ok {
		return nil, false
	}
	return d.Compile(n, s, sc)
}
