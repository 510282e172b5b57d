package k6

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"github.com/tdewolff/parse/v2/js"

	"github.com/loadlens/loadlens/internal/importer"
)

// convert turns a function's statements into steps.
func (s *script) convert(fn *js.FuncDecl) []importer.Step {
	if s.steps > maxSteps { // the import fails: converting more is of no use
		return nil
	}
	f := &flow{s: s, locals: map[string]value{}, vars: map[string]bool{}}
	f.block(fn.Body.List)
	return f.steps
}

func (f *flow) block(list []js.IStmt) {
	for _, st := range list {
		f.stmt(st)
	}
}

func (f *flow) stmt(st js.IStmt) {
	switch n := st.(type) {
	case *js.VarDecl:
		for _, b := range n.List {
			v, ok := b.Binding.(*js.Var)
			if !ok || b.Default == nil {
				f.s.note("declaration %s", snippet(n))
				continue
			}
			if path, ok := jsonPath(b.Default, "", f); ok {
				f.locals[string(v.Data)] = f.extract(b.Default, path, string(v.Data))
				continue
			}
			f.locals[string(v.Data)] = f.expr(b.Default)
		}
	case *js.ExprStmt:
		if c, ok := n.Value.(*js.CallExpr); ok {
			if _, handled := f.call(c); !handled {
				f.s.note("call %s", snippet(c))
			}
			return
		}
		f.expr(n.Value)
	case *js.BlockStmt:
		f.block(n.List)
	case *js.EmptyStmt:
	case *js.ReturnStmt:
		if n.Value != nil {
			f.expr(n.Value)
		}
	default:
		f.s.note("statement %s (only requests, checks, sleeps, groups and declarations are converted)", snippet(st))
	}
}

// expr evaluates an expression of the function, turning calls into steps.
func (f *flow) expr(e js.IExpr) value {
	if c, ok := e.(*js.CallExpr); ok {
		if v, handled := f.call(c); handled {
			return v
		}
	}
	if a, ok := e.(*js.BinaryExpr); ok && a.Op == js.EqToken {
		if v, ok := a.X.(*js.Var); ok {
			val := f.expr(a.Y)
			f.locals[string(v.Data)] = val
			return val
		}
	}
	return f.s.eval(e, f)
}

// calleeName names a call's function: "http.get", "check", "res.json".
func calleeName(x js.IExpr) (obj, name string) {
	switch c := x.(type) {
	case *js.Var:
		return "", string(c.Data)
	case *js.DotExpr:
		if v, ok := c.X.(*js.Var); ok {
			return string(v.Data), string(c.Y.(js.LiteralExpr).Data)
		}
	}
	return "", ""
}

// call handles http requests, check, sleep and group; it reports whether
// the call was one of those.
func (f *flow) call(c *js.CallExpr) (value, bool) {
	obj, name := calleeName(c.X)
	args := c.Args.List
	switch {
	case obj != "" && obj == f.s.http:
		return f.request(name, args, c), true
	case obj == "" && f.s.k6[name] == "sleep":
		f.sleep(args, c)
		return value{}, true
	case obj == "" && f.s.k6[name] == "check":
		f.check(args, c)
		return value{kind: "bool"}, true
	case obj == "" && f.s.k6[name] == "group":
		if len(args) >= 2 {
			if fn := funcBody(args[1].Value); fn != nil {
				before := len(f.steps)
				f.block(fn)
				if len(f.steps) > before {
					label, _ := f.s.eval(args[0].Value, f).asText()
					f.steps[before].Comment = "group: " + label
				}
				return value{}, true
			}
		}
	case obj == "console":
		return value{}, true // logging is not part of the load
	}
	return value{}, false
}

// funcBody returns the statements of a function expression.
func funcBody(e js.IExpr) []js.IStmt {
	switch fn := e.(type) {
	case *js.FuncDecl:
		return fn.Body.List
	case *js.ArrowFunc:
		return fn.Body.List
	}
	return nil
}

// request converts http.get(url, params), http.post(url, body, params),
// http.del, http.request(method, url, body, params), ...
func (f *flow) request(name string, args []js.Arg, c *js.CallExpr) value {
	method := strings.ToUpper(name)
	var urlArg, bodyArg, paramsArg js.IExpr
	get := func(i int) js.IExpr {
		if i < len(args) {
			return args[i].Value
		}
		return nil
	}
	switch name {
	case "get", "head", "options":
		urlArg, paramsArg = get(0), get(1)
	case "post", "put", "patch", "del":
		urlArg, bodyArg, paramsArg = get(0), get(1), get(2)
		if name == "del" {
			method = "DELETE"
		}
	case "request":
		m, _ := f.s.eval(get(0), f).asText()
		method = strings.ToUpper(m)
		urlArg, bodyArg, paramsArg = get(1), get(2), get(3)
	default:
		f.s.note("http.%s: %s", name, snippet(c))
		return value{}
	}
	u, ok := f.s.eval(urlArg, f).asText()
	if !ok || method == "" {
		f.s.note("a request whose URL or method the import cannot work out: %s", snippet(c))
		return value{}
	}
	st := importer.Step{Method: method, Path: u}
	if bodyArg != nil {
		b := f.s.eval(bodyArg, f)
		switch b.kind {
		case "str", "json", "num":
			st.Body, st.HasBody = b.text, true
		case "obj": // k6 sends an object as a form
			for _, p := range b.obj {
				t, ok := p.val.asText()
				if !ok {
					f.s.note("form field %s of %s", p.key, snippet(c))
					continue
				}
				st.Form = append(st.Form, importer.KV{Key: p.key, Value: t})
			}
		case "null":
		default:
			f.s.note("the body of %s", snippet(c))
		}
	}
	if paramsArg != nil {
		f.params(&st, f.s.eval(paramsArg, f), c)
	}
	if st.Name == "" {
		if q := strings.IndexByte(st.Path, '?'); q >= 0 {
			st.Name = st.Path[:q]
		} else if strings.Contains(st.Path, "{{") && !strings.HasPrefix(st.Path, "{{") {
			st.Name = "" // the path as written names it
		}
	}
	if !f.s.room() {
		return value{}
	}
	f.steps = append(f.steps, st)
	return value{kind: "resp", step: len(f.steps) - 1}
}

// params reads a request's params: headers, tags.name, timeout.
func (f *flow) params(st *importer.Step, p value, c *js.CallExpr) {
	if p.kind != "obj" {
		if p.kind != "null" && p.kind != "" {
			f.s.note("the params of %s", snippet(c))
		}
		return
	}
	for _, kv := range p.obj {
		switch kv.key {
		case "headers":
			for _, h := range kv.val.obj {
				if v, ok := h.val.asText(); ok {
					st.Headers = append(st.Headers, importer.Header{Name: h.key, Value: v})
				} else {
					f.s.note("header %s of %s", h.key, snippet(c))
				}
			}
		case "tags":
			if n, ok := kv.val.get("name"); ok {
				st.Name, _ = n.asText()
			}
			for _, t := range kv.val.obj {
				if t.key != "name" {
					f.s.note("tag %s of %s", t.key, snippet(c))
				}
			}
		case "timeout":
			if v, ok := kv.val.asText(); ok {
				if kv.val.kind == "num" {
					v += "ms"
				}
				st.Timeout = v
			}
		case "responseType", "compression":
		case "redirects":
			f.s.note("redirects in params of %s", snippet(c))
		default:
			f.s.note("param %s of %s", kv.key, snippet(c))
		}
	}
}

// sleep converts sleep(N), sleep(Math.random() * N) and sleep(randomIntBetween(a, b)).
func (f *flow) sleep(args []js.Arg, c *js.CallExpr) {
	if len(args) == 0 {
		return
	}
	secs := func(v string) string { return v + "s" }
	e := args[0].Value
	if v := f.s.eval(e, f); v.kind == "num" {
		if f.s.room() {
			f.steps = append(f.steps, importer.Step{Think: secs(v.text)})
		}
		return
	}
	if b, ok := e.(*js.BinaryExpr); ok && b.Op == js.MulToken {
		if isMathRandom(b.X) {
			if v := f.s.eval(b.Y, f); v.kind == "num" {
				if f.s.room() {
					f.steps = append(f.steps, importer.Step{Think: "0s.." + secs(v.text)})
				}
				return
			}
		}
	}
	if call, ok := e.(*js.CallExpr); ok {
		if _, name := calleeName(call.X); f.s.jslib[name] == "randomIntBetween" && len(call.Args.List) == 2 {
			lo, hi := f.s.eval(call.Args.List[0].Value, f), f.s.eval(call.Args.List[1].Value, f)
			if lo.kind == "num" && hi.kind == "num" {
				if f.s.room() {
					f.steps = append(f.steps, importer.Step{Think: secs(lo.text) + ".." + secs(hi.text)})
				}
				return
			}
		}
	}
	f.s.note("sleep: %s", snippet(c))
}

func isMathRandom(e js.IExpr) bool {
	c, ok := e.(*js.CallExpr)
	if !ok {
		return false
	}
	obj, name := calleeName(c.X)
	return obj == "Math" && name == "random"
}

// check converts check(res, {'name': (r) => <condition>, ...}).
func (f *flow) check(args []js.Arg, c *js.CallExpr) {
	if len(args) < 2 {
		return
	}
	res := f.s.eval(args[0].Value, f)
	if res.kind != "resp" {
		f.s.note("check on something other than a response: %s", snippet(c))
		return
	}
	obj, ok := args[1].Value.(*js.ObjectExpr)
	if !ok {
		f.s.note("check: %s", snippet(c))
		return
	}
	st := &f.steps[res.step]
	for _, p := range obj.List {
		name, _ := propName(p.Name)
		fn, ok := p.Value.(*js.ArrowFunc)
		var body []js.IStmt
		var param string
		if ok {
			body = fn.Body.List
			if len(fn.Params.List) > 0 {
				if v, ok := fn.Params.List[0].Binding.(*js.Var); ok {
					param = string(v.Data)
				}
			}
		} else if fd, ok := p.Value.(*js.FuncDecl); ok {
			body = fd.Body.List
			if len(fd.Params.List) > 0 {
				if v, ok := fd.Params.List[0].Binding.(*js.Var); ok {
					param = string(v.Data)
				}
			}
		}
		if len(body) != 1 {
			f.s.note("check %q", name)
			continue
		}
		ret, ok := body[0].(*js.ReturnStmt)
		if !ok || ret.Value == nil {
			f.s.note("check %q", name)
			continue
		}
		chk, ok := f.condition(ret.Value, param)
		if !ok {
			f.s.note("check %q: %s (loadlens checks status, body text and JSON values; timings belong in thresholds)", name, snippet(ret.Value))
			continue
		}
		chk.Name = name
		st.Check = append(st.Check, chk)
	}
}

// condition converts a check's condition on the response r.
func (f *flow) condition(e js.IExpr, r string) (importer.Check, bool) {
	switch n := e.(type) {
	case *js.GroupExpr:
		return f.condition(n.X, r)
	case *js.BinaryExpr:
		op := ""
		switch n.Op {
		case js.EqEqEqToken, js.EqEqToken:
			op = "eq"
		case js.NotEqEqToken, js.NotEqToken:
			op = "ne"
		case js.LtToken:
			op = "lt"
		case js.LtEqToken:
			op = "lte"
		case js.GtToken:
			op = "gt"
		case js.GtEqToken:
			op = "gte"
		default:
			return importer.Check{}, false
		}
		right := f.s.eval(n.Y, f)
		if isMember(n.X, r, "status") && right.kind == "num" && op == "eq" {
			code, err := strconv.Atoi(right.text)
			return importer.Check{Status: []int{code}}, err == nil
		}
		// r.body.indexOf('x') !== -1
		if c, ok := n.X.(*js.CallExpr); ok && (op == "ne" || op == "gte" || op == "gt") && right.kind == "num" {
			if d, ok := c.X.(*js.DotExpr); ok && isMember(d.X, r, "body") && string(d.Y.(js.LiteralExpr).Data) == "indexOf" && len(c.Args.List) == 1 {
				if s, ok := f.s.eval(c.Args.List[0].Value, f).asText(); ok {
					return importer.Check{BodyContains: s}, true
				}
			}
		}
		if path, ok := jsonPath(n.X, r, f); ok {
			if n.Y != nil {
				if v, ok := n.Y.(*js.Var); ok && string(v.Data) == "undefined" {
					switch op {
					case "ne":
						return importer.Check{JSON: path, Op: "exists", Value: true}, true
					case "eq":
						return importer.Check{JSON: path, Op: "exists", Value: false}, true
					}
				}
			}
			switch right.kind {
			case "num":
				return importer.Check{JSON: path, Op: op, Value: importer.Raw(right.text)}, true
			case "str":
				if op == "eq" || op == "ne" {
					return importer.Check{JSON: path, Op: op, Value: right.text}, true
				}
			case "bool":
				if op == "eq" || op == "ne" {
					return importer.Check{JSON: path, Op: op, Value: importer.Raw(strconv.FormatBool(right.b))}, true
				}
			}
		}
	case *js.CallExpr:
		// r.body.includes('x')
		if d, ok := n.X.(*js.DotExpr); ok && isMember(d.X, r, "body") && string(d.Y.(js.LiteralExpr).Data) == "includes" && len(n.Args.List) == 1 {
			if s, ok := f.s.eval(n.Args.List[0].Value, f).asText(); ok {
				return importer.Check{BodyContains: s}, true
			}
		}
	}
	return importer.Check{}, false
}

// isMember reports whether e is r.<field>.
func isMember(e js.IExpr, r, field string) bool {
	d, ok := e.(*js.DotExpr)
	if !ok {
		return false
	}
	v, ok := d.X.(*js.Var)
	return ok && string(v.Data) == r && string(d.Y.(js.LiteralExpr).Data) == field
}

// jsonPath reads r.json('a.b[0]') or r.json().a.b[0] as a JSON path.
func jsonPath(e js.IExpr, r string, f *flow) (string, bool) {
	var tail []string
	for {
		switch n := e.(type) {
		case *js.DotExpr:
			tail = append([]string{"." + string(n.Y.(js.LiteralExpr).Data)}, tail...)
			e = n.X
			continue
		case *js.IndexExpr:
			idx := f.s.eval(n.Y, f)
			switch idx.kind {
			case "num":
				tail = append([]string{"[" + idx.text + "]"}, tail...)
			case "str":
				tail = append([]string{"['" + idx.text + "']"}, tail...)
			default:
				return "", false
			}
			e = n.X
			continue
		case *js.CallExpr:
			d, ok := n.X.(*js.DotExpr)
			if !ok || string(d.Y.(js.LiteralExpr).Data) != "json" {
				return "", false
			}
			if v, ok := d.X.(*js.Var); !ok || (r != "" && string(v.Data) != r) {
				return "", false
			}
			path := "$"
			if len(n.Args.List) == 1 {
				sel, ok := f.s.eval(n.Args.List[0].Value, f).asText()
				if !ok {
					return "", false
				}
				for _, part := range strings.Split(sel, ".") {
					if part != "" {
						path += "." + part
					}
				}
			}
			return path + strings.Join(tail, ""), true
		}
		return "", false
	}
}

// eval evaluates an expression to what the import knows of it; f is the
// function being converted (nil at the top level).
func (s *script) eval(e js.IExpr, f *flow) value {
	switch n := e.(type) {
	case nil:
		return value{}
	case *js.LiteralExpr:
		return s.evalLiteral(n)
	case *js.Var:
		return s.evalVar(n, f)
	case *js.GroupExpr:
		return s.eval(n.X, f)
	case *js.TemplateExpr:
		return s.evalTemplate(n, f)
	case *js.ObjectExpr:
		return s.evalObject(n, f)
	case *js.ArrayExpr:
		v := value{kind: "arr"}
		for _, el := range n.List {
			v.arr = append(v.arr, s.eval(el.Value, f))
		}
		return v
	case *js.DotExpr:
		return s.evalDot(n, f)
	case *js.BinaryExpr:
		return s.evalBinary(n, f)
	case *js.CallExpr:
		return s.evalCall(n, f)
	case *js.UnaryExpr:
		if n.Op == js.NegToken {
			if v := s.eval(n.X, f); v.kind == "num" {
				return value{kind: "num", text: "-" + v.text}
			}
		}
	}
	return value{}
}

// evalLiteral evaluates a literal: a string, a number, a boolean or null.
func (s *script) evalLiteral(n *js.LiteralExpr) value {
	switch n.TokenType {
	case js.StringToken:
		return lit(unquote(n.Data))
	case js.DecimalToken, js.IntegerToken:
		return value{kind: "num", text: string(n.Data)}
	case js.TrueToken:
		return value{kind: "bool", b: true}
	case js.FalseToken:
		return value{kind: "bool", b: false}
	case js.NullToken:
		return value{kind: "null"}
	}
	return value{}
}

// evalVar evaluates a variable: a local, a global, or k6's __VU and __ITER.
func (s *script) evalVar(n *js.Var, f *flow) value {
	name := string(n.Data)
	if f != nil {
		if v, ok := f.locals[name]; ok {
			return v
		}
	}
	if v, ok := s.globals[name]; ok {
		return v
	}
	switch name {
	case "__VU":
		return str("{{ vu }}")
	case "__ITER":
		return str("{{ iteration }}")
	case "undefined":
		return value{kind: "null"}
	}
	return value{}
}

// evalTemplate evaluates an untagged template literal as text.
func (s *script) evalTemplate(n *js.TemplateExpr, f *flow) value {
	if n.Tag != nil {
		return value{}
	}
	var b strings.Builder
	for _, p := range n.List {
		b.WriteString(importer.Lit(templateText(p.Value, true)))
		v, ok := s.eval(p.Expr, f).asText()
		if !ok {
			return value{}
		}
		b.WriteString(v)
	}
	b.WriteString(importer.Lit(templateText(n.Tail, false)))
	return str(b.String())
}

// evalObject evaluates an object literal, property by property.
func (s *script) evalObject(n *js.ObjectExpr, f *flow) value {
	v := value{kind: "obj"}
	for _, p := range n.List {
		key, ok := propName(p.Name)
		if !ok {
			if p.Spread {
				continue
			}
			return value{}
		}
		val := s.eval(p.Value, f)
		if p.Name == nil && p.Init == nil {
			if vv, ok := p.Value.(*js.Var); ok {
				key = string(vv.Data) // shorthand {a}
			}
		}
		v.obj = append(v.obj, prop{key, val})
	}
	return v
}

// evalDot evaluates a property read: an __ENV variable, a response's JSON, or an object's property.
func (s *script) evalDot(n *js.DotExpr, f *flow) value {
	if x, ok := n.X.(*js.Var); ok && string(x.Data) == "__ENV" {
		return str(`{{ env("` + string(n.Y.(js.LiteralExpr).Data) + `", "") }}`)
	}
	if f != nil {
		if path, ok := jsonPath(n, "", f); ok {
			return f.extract(n, path, "")
		}
	}
	base := s.eval(n.X, f)
	if base.kind == "obj" {
		v, _ := base.get(string(n.Y.(js.LiteralExpr).Data))
		return v
	}
	return value{}
}

// evalBinary evaluates `__ENV.X || default` and text joined with +.
func (s *script) evalBinary(n *js.BinaryExpr, f *flow) value {
	switch n.Op {
	case js.OrToken, js.NullishToken:
		// __ENV.X || 'default'
		if d, ok := n.X.(*js.DotExpr); ok {
			if x, ok := d.X.(*js.Var); ok && string(x.Data) == "__ENV" {
				if def, ok := s.eval(n.Y, f).asText(); ok && !strings.Contains(def, "{{") {
					return str(`{{ env("` + string(d.Y.(js.LiteralExpr).Data) + `", "` + strings.ReplaceAll(def, `"`, `\"`) + `") }}`)
				}
			}
		}
	case js.AddToken:
		a, b := s.eval(n.X, f), s.eval(n.Y, f)
		if a.kind == "num" && b.kind == "num" {
			return value{}
		}
		at, ok1 := a.asText()
		bt, ok2 := b.asText()
		if ok1 && ok2 {
			return str(at + bt)
		}
	}
	return value{}
}

// evalCall evaluates the calls the import knows: JSON.stringify, jslib's random values, Date.now, and the flow's own.
func (s *script) evalCall(n *js.CallExpr, f *flow) value {
	obj, name := calleeName(n.X)
	switch {
	case obj == "JSON" && name == "stringify" && len(n.Args.List) >= 1:
		if j, ok := s.eval(n.Args.List[0].Value, f).jsonOf(); ok {
			return value{kind: "json", text: j}
		}
	case obj == "" && s.jslib[name] == "randomIntBetween" && len(n.Args.List) == 2:
		lo, hi := s.eval(n.Args.List[0].Value, f), s.eval(n.Args.List[1].Value, f)
		if lo.kind == "num" && hi.kind == "num" {
			return str("{{ randInt(" + lo.text + ", " + hi.text + ") }}")
		}
	case obj == "" && s.jslib[name] == "randomString" && len(n.Args.List) >= 1:
		if l := s.eval(n.Args.List[0].Value, f); l.kind == "num" {
			return str("{{ randString(" + l.text + ") }}")
		}
	case obj == "" && s.jslib[name] == "uuidv4":
		return str("{{ uuid() }}")
	case obj == "Date" && name == "now":
		return str("{{ timestamp() }}")
	}
	if f != nil {
		if path, ok := jsonPath(n, "", f); ok {
			return f.extract(n, path, "")
		}
		if v, handled := f.call(n); handled {
			return v
		}
	}
	return value{}
}

// templateText decodes the raw text of a template literal part.
func templateText(raw []byte, head bool) string {
	s := string(raw)
	s = strings.TrimPrefix(s, "`")
	s = strings.TrimPrefix(s, "}")
	if head {
		s = strings.TrimSuffix(s, "${")
	} else {
		s = strings.TrimSuffix(s, "`")
	}
	return unquote([]byte("'" + strings.ReplaceAll(s, "'", `\'`) + "'"))
}

// extract turns res.json(...) of an earlier request into an extraction on
// that request and the variable it sets.
func (f *flow) extract(e js.IExpr, path, want string) value {
	root := e
	for {
		switch n := root.(type) {
		case *js.DotExpr:
			root = n.X
			continue
		case *js.IndexExpr:
			root = n.X
			continue
		case *js.CallExpr:
			if d, ok := n.X.(*js.DotExpr); ok && string(d.Y.(js.LiteralExpr).Data) == "json" {
				root = d.X
			}
		}
		break
	}
	res := f.s.eval(root, f)
	if res.kind != "resp" {
		return value{}
	}
	base := varName(want)
	if want == "" {
		base = varName(path)
	}
	name := base
	for n := 2; f.vars[name]; n++ {
		name = fmt.Sprintf("%s_%d", base, n)
	}
	f.vars[name] = true
	st := &f.steps[res.step]
	st.Extract = append(st.Extract, importer.Extract{Var: name, JSON: path})
	return str("{{ " + name + " }}")
}

// varName makes a variable name from a JSON path's last member.
func varName(path string) string {
	i := strings.LastIndexAny(path, ".[")
	name := strings.Trim(path[i+1:], "]'")
	var b bytes.Buffer
	for _, r := range name {
		if r == '_' || ('a' <= r && r <= 'z') || ('A' <= r && r <= 'Z') || (b.Len() > 0 && '0' <= r && r <= '9') {
			b.WriteRune(r)
		}
	}
	switch b.String() {
	case "", "vu", "iteration", "scenario", "env":
		return "value"
	}
	return b.String()
}
