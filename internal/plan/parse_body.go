package plan

import (
	"strconv"

	"github.com/goccy/go-yaml/ast"
	"github.com/loadlens/loadlens/internal/tmpl"
)

// maxJSONBody bounds a json: body's literal size, so aliases cannot blow a
// small file up into gigabytes.
const maxJSONBody = 16 << 20

// bodyKeys are the ways to give a request body; a step uses at most one.
var bodyKeys = []string{"json", "form", "body"}

// body parses the step's json:, form: or body:.
func (p *parser) body(o *object, sc *scenarioCtx) (*tmpl.Template, BodyKind) {
	var given []string
	for _, k := range bodyKeys {
		if o.has(k) {
			given = append(given, k)
		}
	}
	if len(given) == 0 {
		return nil, NoBody
	}
	if len(given) > 1 {
		p.errs.add(o.keyPos(given[1]), joinPath(o.path, given[1]), "give one body: json, form or body (%s and %s both given)", given[0], given[1])
		return nil, NoBody
	}
	n, _ := o.get(given[0])
	switch given[0] {
	case "json":
		b := &jsonBody{p: p, scope: sc.scope}
		b.value(n)
		return b.done(), JSONBody
	case "form":
		var b partsBuilder
		p.encodedPairs(&b, n, "", "a mapping of form fields", sc)
		return b.done(), FormBody
	}
	s, ok := p.str(n, "the body as text (use json: or form: for structured bodies)")
	if !ok {
		return nil, RawBody
	}
	t, _ := p.compile(n, s, sc.scope)
	return t, RawBody
}

// jsonBody turns a YAML value into a JSON body template: structure and
// scalars become literal JSON, strings become templates whose output is
// escaped inside literal quotes.
type jsonBody struct {
	partsBuilder
	p     *parser
	scope *tmpl.Scope
	big   bool // the size limit was hit and reported
}

// lit appends literal JSON text.
func (b *jsonBody) lit(s string) { b.text(s) }

// value appends the JSON for n.
func (b *jsonBody) value(n node) {
	if b.size > maxJSONBody {
		if !b.big {
			b.big = true
			b.p.errs.add(n.pos, n.path, "the JSON body is larger than %d MiB", maxJSONBody>>20)
		}
		return
	}
	switch v := n.v.(type) {
	case *ast.MappingNode, *ast.MappingValueNode:
		fields, _ := b.p.fields(n, "", 0)
		b.lit("{")
		for i, f := range fields {
			if i > 0 {
				b.lit(",")
			}
			b.lit(quoteJSON(f.name) + ":")
			b.value(f.val)
		}
		b.lit("}")
	case *ast.SequenceNode:
		items, _ := b.p.list(n, "")
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
		if !n.str {
			b.p.errs.add(n.pos, n.path, "JSON has no %s; quote it to send a string", scalarText(n.v))
			return
		}
		b.str(n)
	case *ast.BoolNode:
		if !n.str {
			b.lit(strconv.FormatBool(v.Value))
			return
		}
		b.str(n)
	case *ast.IntegerNode:
		if !n.str {
			b.lit(integerText(v))
			return
		}
		b.str(n)
	case *ast.FloatNode:
		if !n.str {
			b.lit(strconv.FormatFloat(v.Value, 'g', -1, 64))
			return
		}
		b.str(n)
	default:
		b.str(n)
	}
}

// str appends a JSON string whose content is the template n.
func (b *jsonBody) str(n node) {
	t, ok := b.p.compile(n, scalarText(n.v), b.scope)
	if !ok {
		return
	}
	b.lit(`"`)
	b.template(t, tmpl.JSONString)
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
