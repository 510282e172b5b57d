package plan

import (
	"math"
	"strconv"
	"strings"

	"github.com/goccy/go-yaml/ast"
	"github.com/loadlens/loadlens/internal/tmpl"
	"github.com/loadlens/loadlens/internal/yamldoc"
)

// operands says what a comparison may compare with beyond a value as
// written: a template reading variables of scope (nil: only env(), which
// is resolved as the file is read), and another value of the same JSON
// document ({json: PATH}, for json checks).
type operands struct {
	scope *tmpl.Scope
	path  bool
}

// noVarsHere says where a check may compare with a variable.
const noVarsHere = "this step's checks compare with a value as written or env(); variables, vu and iteration in the value compared with work in HTTP request steps' checks"

// dynamicOperand parses a comparison's value when it is not one as
// written: a quoted string with {{ }} or a {json: PATH} mapping. handled
// false leaves the value to the literal rules; ok false: an error was
// reported. A template that needs nothing of the run (env()) becomes the
// literal it renders, and an ordering comparison's must read as a number.
func (p *parser) dynamicOperand(c *Check, v yamldoc.Node, numeric bool, ops operands) (shown string, handled, ok bool) {
	if yamldoc.IsMapping(v.V) {
		return p.pathOperand(c, v, ops)
	}
	if _, isString := v.V.(*ast.StringNode); !isString || !strings.Contains(yamldoc.ScalarText(v.V), "{{") {
		return "", false, true
	}
	src := yamldoc.ScalarText(v.V)
	scope := ops.scope
	if scope == nil {
		scope = &tmpl.Scope{Env: p.Env}
		if _, err := tmpl.Compile(src, scope); err != nil && strings.HasPrefix(err.Error(), "unknown variable") {
			p.Errs.Add(v.Pos, v.Path, "%s", noVarsHere)
			return "", true, false
		}
	}
	t, ok := p.Compile(v, src, scope)
	if !ok {
		return "", true, false
	}
	if s, isConst := t.Const(); isConst {
		if f, err := strconv.ParseFloat(s, 64); numeric && (err != nil || math.IsInf(f, 0) || math.IsNaN(f)) {
			p.Errs.Add(v.Pos, v.Path, "expected a number to compare with, got %q (rendered from %s)", s, src)
			return "", true, false
		}
		c.Values = []string{s}
		return src, true, true
	}
	if ops.scope == nil {
		p.Errs.Add(v.Pos, v.Path, "%s", noVarsHere)
		return "", true, false
	}
	c.Values, c.Operand = []string{src}, t
	return src, true, true
}

// pathOperand parses {json: PATH}: compare with another value of the
// same JSON document.
func (p *parser) pathOperand(c *Check, v yamldoc.Node, ops operands) (shown string, handled, ok bool) {
	if !ops.path {
		p.Errs.Add(v.Pos, v.Path, "{json: PATH} compares with another value of the same JSON body, in a json check only; here compare with a value or a template like '{{ name }}'")
		return "", true, false
	}
	o, ok := p.Object(v, "a value, a template like '{{ name }}' or another path of the body like {json: $.limit}", []string{"json"})
	if !ok {
		return "", true, false
	}
	n, has := o.Get("json")
	if !has {
		p.Errs.Add(v.Pos, v.Path, "{json: PATH} needs its path, like {json: $.limit}")
		return "", true, false
	}
	src, ok := p.NonEmpty(n, "a JSON path like $.limit")
	if ok {
		c.OperandPath, ok = p.ParseJSONPath(n, src)
	}
	if !ok {
		return "", true, false
	}
	c.Values = []string{src}
	return src, true, true
}
