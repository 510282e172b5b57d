package k6

import (
	"regexp"
	"strings"

	"github.com/tdewolff/parse/v2/js"

	"github.com/loadlens/loadlens/internal/importer"
)

// messageCheck converts check(msg, {...}) in a message handler whose
// parameter is msg (or check(JSON.parse(msg), {...})) into the ws: step's
// checks, which judge each message as k6's check in the handler does:
// r === 'text', r.includes('text'), and on the parsed JSON r.a.b === v.
// It reports whether st was such a check, every condition converted.
func (ws *wsSession) messageCheck(st js.IStmt, param string) bool {
	e, ok := st.(*js.ExprStmt)
	if !ok {
		return false
	}
	c, ok := e.Value.(*js.CallExpr)
	if !ok || len(c.Args.List) != 2 {
		return false
	}
	if _, name := calleeName(c.X); ws.f.s.k6[name] != "check" {
		return false
	}
	parsed, ok := messageArg(c.Args.List[0].Value, param)
	obj, isObj := c.Args.List[1].Value.(*js.ObjectExpr)
	if !ok || !isObj {
		return false
	}
	var chks []importer.Check
	for _, p := range obj.List {
		name, _ := propName(p.Name)
		body, r := funcOf(p.Value)
		ret, isRet := single(body)
		if !isRet {
			return false
		}
		chk, ok := ws.messageCondition(ret, r, parsed)
		if !ok {
			return false
		}
		chk.Name = name
		chks = append(chks, chk)
	}
	ws.checks = append(ws.checks, chks...)
	return true
}

// single returns a function body's one returned expression.
func single(body []js.IStmt) (js.IExpr, bool) {
	if len(body) != 1 {
		return nil, false
	}
	r, ok := body[0].(*js.ReturnStmt)
	if !ok || r.Value == nil {
		return nil, false
	}
	return r.Value, true
}

// messageArg reports whether e is the handler's message (parsed: false)
// or JSON.parse of it (parsed: true).
func messageArg(e js.IExpr, param string) (parsed, ok bool) {
	if v, isVar := e.(*js.Var); isVar {
		return false, string(v.Data) == param
	}
	c, isCall := e.(*js.CallExpr)
	if !isCall || len(c.Args.List) != 1 {
		return false, false
	}
	obj, name := calleeName(c.X)
	v, isVar := c.Args.List[0].Value.(*js.Var)
	return true, obj == "JSON" && name == "parse" && isVar && string(v.Data) == param
}

// messageCondition converts one condition on a message r.
func (ws *wsSession) messageCondition(e js.IExpr, r string, parsed bool) (importer.Check, bool) {
	f := ws.f
	if c, ok := e.(*js.CallExpr); ok && !parsed && len(c.Args.List) == 1 {
		if d, ok := c.X.(*js.DotExpr); ok && string(d.Y.(js.LiteralExpr).Data) == "includes" {
			if v, ok := d.X.(*js.Var); ok && string(v.Data) == r {
				t, ok := f.s.eval(c.Args.List[0].Value, f).asText()
				return importer.Check{BodyContains: t}, ok && !strings.Contains(t, "{{")
			}
		}
	}
	b, ok := e.(*js.BinaryExpr)
	if !ok || compareOp(b.Op) == "" {
		return importer.Check{}, false
	}
	op, right := compareOp(b.Op), f.s.eval(b.Y, f)
	if v, ok := b.X.(*js.Var); ok && !parsed && string(v.Data) == r && op == "eq" && right.kind == "str" && !strings.Contains(right.text, "{{") {
		return importer.Check{BodyMatches: "^" + regexp.QuoteMeta(right.text) + "$"}, true
	}
	path, ok := memberPath(b.X, r)
	if !ok || !parsed {
		return importer.Check{}, false
	}
	return jsonCheck(path, op, right)
}

// memberPath reads r.a.b as the JSON path $.a.b.
func memberPath(e js.IExpr, r string) (string, bool) {
	var tail []string
	for {
		d, ok := e.(*js.DotExpr)
		if !ok {
			v, isVar := e.(*js.Var)
			return "$" + strings.Join(tail, ""), isVar && string(v.Data) == r && len(tail) > 0
		}
		tail = append([]string{"." + string(d.Y.(js.LiteralExpr).Data)}, tail...)
		e = d.X
	}
}
