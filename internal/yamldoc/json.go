package yamldoc

import (
	"strconv"

	"github.com/goccy/go-yaml/ast"
	"github.com/loadlens/loadlens/internal/tmpl"
)

// maxJSONBody bounds a json: body's literal size, so aliases cannot blow a
// small file up into gigabytes.
const maxJSONBody = 16 << 20

// jsonBody turns a YAML value into a JSON body template: structure and
// scalars become literal JSON, strings become templates whose output is
// escaped inside literal quotes.
type jsonBody struct {
	tmpl.Builder
	d     *Doc
	scope *tmpl.Scope
	big   bool // the size limit was hit and reported
}

// lit appends literal JSON text.
func (b *jsonBody) lit(s string) { b.Text(s) }

// value appends the JSON for n.
func (b *jsonBody) value(n Node) {
	if b.Size() > maxJSONBody {
		if !b.big {
			b.big = true
			b.d.Errs.Add(n.Pos, n.Path, "the JSON body is larger than %d MiB", maxJSONBody>>20)
		}
		return
	}
	switch v := n.V.(type) {
	case *ast.MappingNode, *ast.MappingValueNode:
		fields, _ := b.d.Fields(n, "", 0)
		b.lit("{")
		for i, f := range fields {
			if i > 0 {
				b.lit(",")
			}
			b.lit(quoteJSON(f.Name) + ":")
			b.value(f.Value)
		}
		b.lit("}")
	case *ast.SequenceNode:
		items, _ := b.d.List(n, "")
		b.lit("[")
		for i, item := range items {
			if i > 0 {
				b.lit(",")
			}
			b.value(item)
		}
		b.lit("]")
	case *ast.NullNode:
		b.lit("null")
	case *ast.InfinityNode, *ast.NanNode:
		if !n.StrTag {
			b.d.Errs.Add(n.Pos, n.Path, "JSON has no %s; quote it to send a string", ScalarText(n.V))
			return
		}
		b.str(n)
	case *ast.BoolNode:
		if !n.StrTag {
			b.lit(strconv.FormatBool(v.Value))
			return
		}
		b.str(n)
	case *ast.IntegerNode:
		if !n.StrTag {
			b.lit(integerText(v))
			return
		}
		b.str(n)
	case *ast.FloatNode:
		if !n.StrTag {
			b.lit(strconv.FormatFloat(v.Value, 'g', -1, 64))
			return
		}
		b.str(n)
	default:
		b.str(n)
	}
}

// str appends a JSON string whose content is the template n.
func (b *jsonBody) str(n Node) {
	t, ok := b.d.Compile(n, ScalarText(n.V), b.scope)
	if !ok {
		return
	}
	b.lit(`"`)
	b.Template(t, tmpl.JSONString)
	b.lit(`"`)
}

// quoteJSON returns s as a JSON string, quotes included.
func quoteJSON(s string) string {
	c, _ := tmpl.Literal(s).Escaped(tmpl.JSONString).Const()
	return `"` + c + `"`
}

// integerText returns an integer's decimal value (0x10 is 16).
func integerText(v *ast.IntegerNode) string {
	switch x := v.Value.(type) {
	case int64:
		return strconv.FormatInt(x, 10)
	case uint64:
		return strconv.FormatUint(x, 10)
	}
	return v.Token.Value
}

// JSONTemplate turns any YAML value into a JSON template as a test's json:
// body does: structure and scalars are literal JSON, strings are templates
// in scope sc whose output is escaped for JSON.
func (d *Doc) JSONTemplate(n Node, sc *tmpl.Scope) (*tmpl.Template, bool) {
	before := d.Errs.Len()
	b := &jsonBody{d: d, scope: sc}
	b.value(n)
	return b.Done(), d.Errs.Len() == before
}
