package k6

import (
	"regexp"
	"strconv"

	"github.com/tdewolff/parse/v2/js"

	"github.com/loadlens/loadlens/internal/importer"
)

// loopHead is what a loop's head says it visits: a count (for (let i = 0;
// i < N; i++)), an array written in the script, or an array a response
// holds (a variable set by an extraction).
type loopHead struct {
	name    string  // the loop's variable
	from    int     // a counted loop's first value
	count   int     // a counted loop's runs, or a written array's length
	list    []value // a written array's elements
	counted bool
	listVar string // an extracted array's variable
}

// loopForms is what a loop must be to convert, for a note.
const loopForms = "a loop converts when it counts to a constant, for (let i = 0; i < N; i++), or visits an array written in the script or read from a response, for (const x of list)"

// loop converts a for statement into a repeat: or for_each: step; a loop
// that does not map is noted with its line and why.
func (f *flow) loop(st js.IStmt) {
	var head loopHead
	var body *js.BlockStmt
	why := ""
	switch n := st.(type) {
	case *js.ForStmt:
		head, why = f.countedLoop(n)
		body = n.Body
	case *js.ForOfStmt:
		head, why = f.arrayLoop(n)
		body = n.Body
	case *js.ForInStmt:
		why = "for...in visits an object's keys; " + loopForms
	case *js.WhileStmt:
		if f.whileBreak(n) {
			return
		}
		why = "a while loop runs until a condition known only as it runs; " + loopForms + "; so does while (true) { ...; if (res.status === N) break; ... } on its last request's status"
	default:
		why = "a while loop runs until a condition known only as it runs; " + loopForms
	}
	if why == "" && body != nil {
		why = jumps(body)
	}
	if why != "" {
		f.s.note("%s: loop %s (%s)", f.s.at(snippet(st)), snippet(st), why)
		return
	}
	if body == nil || (head.count == 0 && head.listVar == "") {
		return // k6 runs its body no time
	}
	f.loopBody(head, body, st)
}

// countedLoop reads for (let i = A; i < B; i++) (or <=, ++i, i += 1) with
// A and B numbers the import knows.
func (f *flow) countedLoop(n *js.ForStmt) (loopHead, string) {
	const why = "its count is not a constant; " + loopForms
	h := loopHead{counted: true}
	var from value
	switch init := n.Init.(type) {
	case *js.VarDecl:
		if len(init.List) != 1 {
			return h, why
		}
		v, ok := init.List[0].Binding.(*js.Var)
		if !ok {
			return h, why
		}
		h.name, from = string(v.Data), f.s.eval(init.List[0].Default, f)
	case *js.BinaryExpr:
		v, ok := init.X.(*js.Var)
		if !ok || init.Op != js.EqToken {
			return h, why
		}
		h.name, from = string(v.Data), f.s.eval(init.Y, f)
	default:
		return h, why
	}
	cond, ok := n.Cond.(*js.BinaryExpr)
	if !ok || !isVarNamed(cond.X, h.name) || (cond.Op != js.LtToken && cond.Op != js.LtEqToken) || !stepsByOne(n.Post, h.name) {
		return h, why
	}
	a, okA := intOf(from)
	b, okB := intOf(f.bound(cond.Y))
	if !okA || !okB {
		return h, why
	}
	if cond.Op == js.LtEqToken {
		b++
	}
	h.from, h.count = a, max(b-a, 0)
	if h.count > importer.MaxRepeat {
		return h, "it runs " + strconv.Itoa(h.count) + " times; a repeat: runs at most " + strconv.Itoa(importer.MaxRepeat)
	}
	return h, ""
}

// bound evaluates a loop's bound: a number, or a written array's length.
func (f *flow) bound(e js.IExpr) value {
	if d, ok := e.(*js.DotExpr); ok && string(d.Y.(js.LiteralExpr).Data) == "length" {
		if arr := f.s.eval(d.X, f); arr.kind == "arr" {
			return numv(len(arr.arr))
		}
	}
	return f.s.eval(e, f)
}

// arrayLoop reads for (const x of list): list written in the script, or
// read from a response.
func (f *flow) arrayLoop(n *js.ForOfStmt) (loopHead, string) {
	h := loopHead{}
	switch init := n.Init.(type) {
	case *js.VarDecl:
		if len(init.List) == 1 {
			if v, ok := init.List[0].Binding.(*js.Var); ok {
				h.name = string(v.Data)
			}
		}
	case *js.Var:
		h.name = string(init.Data)
	}
	if h.name == "" || n.Await {
		return h, "its variable is not one name; " + loopForms
	}
	list := f.s.eval(n.Value, f)
	if m := wholeVar.FindStringSubmatch(list.text); list.kind == "str" && m != nil && f.vars[m[1]] {
		h.listVar = m[1]
		return h, ""
	}
	if list.kind != "arr" {
		return h, "its array is neither written in the script nor read from a response (res.json()); " + loopForms
	}
	if len(list.arr) > importer.MaxForEach {
		return h, "it visits " + strconv.Itoa(len(list.arr)) + " elements; a for_each visits at most " + strconv.Itoa(importer.MaxForEach)
	}
	for _, el := range list.arr {
		if _, ok := el.jsonOf(); !ok {
			return h, "an element of its array is not known to the import"
		}
	}
	h.list, h.count = list.arr, len(list.arr)
	return h, ""
}

// wholeVar matches a value that is one variable, as an extraction makes it.
var wholeVar = regexp.MustCompile(`^\{\{ ([A-Za-z_][A-Za-z0-9_]*) \}\}$`)

// intOf returns a whole number value as an int.
func intOf(v value) (int, bool) {
	if v.kind != "num" {
		return 0, false
	}
	n, err := strconv.Atoi(v.text)
	return n, err == nil
}

// isVarNamed reports whether e is the variable name.
func isVarNamed(e js.IExpr, name string) bool {
	v, ok := e.(*js.Var)
	return ok && string(v.Data) == name
}

// stepsByOne reports whether post is i++, ++i or i += 1.
func stepsByOne(post js.IExpr, name string) bool {
	switch p := post.(type) {
	case *js.UnaryExpr:
		return (p.Op == js.PostIncrToken || p.Op == js.PreIncrToken) && isVarNamed(p.X, name)
	case *js.BinaryExpr:
		one, ok := p.Y.(*js.LiteralExpr)
		return ok && p.Op == js.AddEqToken && isVarNamed(p.X, name) && string(one.Data) == "1"
	}
	return false
}
