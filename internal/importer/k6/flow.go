package k6

import (
	"bytes"
	"fmt"
	"maps"
	"slices"
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
	f := &flow{s: s, locals: map[string]value{}, vars: maps.Clone(s.setupVars)}
	if f.vars == nil {
		f.vars = map[string]bool{}
	}
	if len(fn.Params.List) > 0 && s.setupData.kind != "" {
		if v, ok := fn.Params.List[0].Binding.(*js.Var); ok { // default(data): what setup() returned
			f.locals[string(v.Data)] = s.setupData
		}
	}
	f.block(fn.Body.List)
	f.endSockets()
	f.endStreams()
	return fold(f.steps, 0, len(f.steps), f.groups)
}

// hooks converts setup() into the test's setup flow, keeping what it
// returns for the functions that take it (default(data), teardown(data)),
// and teardown() into its teardown flow.
func (s *script) hooks() {
	if fn := s.funcs["setup"]; fn != nil {
		f := &flow{s: s, locals: map[string]value{}, vars: map[string]bool{}, setup: true}
		s.setupData = f.inline(fn, "setup", nil)
		for _, ws := range f.sockets {
			s.note("%s: a WebSocket in setup() (a test's setup sends HTTP requests)", ws.at)
		}
		s.t.Setup = fold(f.steps, 0, len(f.steps), f.groups)
		s.setupVars = f.vars
		if !hasRequest(s.t.Setup) {
			s.t.Setup = nil // a setup of sleeps alone is no setup loadlens runs
		}
	}
	if fn := s.funcs["teardown"]; fn != nil {
		s.t.Teardown = s.convert(fn)
		if !hasRequest(s.t.Teardown) {
			s.t.Teardown = nil
		}
	}
}

// hasRequest reports whether a flow sends a request.
func hasRequest(flow []importer.Step) bool {
	found := false
	importer.EachStep(flow, func(st *importer.Step) { found = found || st.Method != "" || st.GRPC != nil || st.WS != nil })
	return found
}

// span is a group's or a loop's steps, [start, end) of a flow's steps,
// and the group's name or the loop's step.
type span struct {
	start, end int
	name       string
	// cond is an if: step's condition: its then: steps are [start, mid),
	// its else: steps [mid, end), or the other way round when unless.
	cond   string
	mid    int
	unless bool
	loop   *importer.Step  // a repeat: or for_each: step, its Steps made by fold
	pre    []importer.Step // steps before the loop's (the set: of the list it visits)
}

// fold nests the steps of [lo, hi) into their groups, once every step is
// made: checks and extractions find their request by its index until then.
// groups lists the spans that close in order, so an inner group comes
// before the group it is in.
func fold(steps []importer.Step, lo, hi int, groups []span) []importer.Step {
	var out []importer.Step
	for i := lo; i < hi; {
		outer := -1 // the outermost group starting at i: the last to close
		for j, g := range groups {
			if g.start == i && g.end > g.start && g.end <= hi && (outer < 0 || g.end >= groups[outer].end) {
				outer = j
			}
		}
		if outer < 0 {
			out = append(out, steps[i])
			i++
			continue
		}
		g := groups[outer]
		st := importer.Step{Group: g.name}
		switch {
		case g.cond != "":
			then, els, unless := fold(steps, g.start, g.mid, groups[:outer]), fold(steps, g.mid, g.end, groups[:outer]), g.unless
			if len(then) == 0 { // a test's then: has a step: if !c {} else {x} is unless: c, then: [x]
				then, els, unless = els, nil, !unless
			}
			st = importer.Step{If: g.cond, Unless: unless, Then: then, Else: els}
		case g.loop != nil:
			out = append(out, g.pre...)
			st = *g.loop
			st.Steps = fold(steps, g.start, g.end, groups[:outer])
		default:
			st.Steps = fold(steps, g.start, g.end, groups[:outer])
		}
		out = append(out, st)
		i = g.end
	}
	return out
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
				f.s.note("%s: declaration %s", f.s.at(snippet(n)), snippet(n))
				continue
			}
			if path, ok := jsonPath(b.Default, "", f); ok {
				f.locals[string(v.Data)] = f.extract(b.Default, path, string(v.Data))
				continue
			}
			f.locals[string(v.Data)] = f.expr(b.Default)
			f.bind(string(v.Data), f.locals[string(v.Data)])
		}
	case *js.ExprStmt:
		if c, ok := unawait(n.Value).(*js.CallExpr); ok {
			if _, handled := f.call(c); !handled {
				f.s.note("%s: call %s", f.s.at(snippet(c)), snippet(c))
			}
			return
		}
		f.expr(n.Value)
	case *js.BlockStmt:
		f.block(n.List)
	case *js.EmptyStmt:
	case *js.ReturnStmt:
		if n.Value != nil {
			f.ret = f.expr(n.Value)
		}
	case *js.ForStmt, *js.ForOfStmt, *js.ForInStmt, *js.WhileStmt, *js.DoWhileStmt:
		f.loop(st)
	case *js.IfStmt:
		if !f.firstIterationConnect(n) && !f.ifStatus(n) {
			f.s.note("%s: statement %s (only requests, checks, sleeps, groups, helper functions and declarations are converted)", f.s.at(snippet(st)), snippet(st))
		}
	default:
		f.s.note("%s: statement %s (only requests, checks, sleeps, groups, helper functions and declarations are converted)", f.s.at(snippet(st)), snippet(st))
	}
}

// unawait returns the expression an await waits for.
func unawait(e js.IExpr) js.IExpr {
	if u, ok := e.(*js.UnaryExpr); ok && u.Op == js.AwaitToken {
		return u.X
	}
	return e
}

// expr evaluates an expression of the function, turning calls into steps.
func (f *flow) expr(e js.IExpr) value {
	if c, ok := e.(*js.CallExpr); ok {
		if v, handled := f.call(c); handled {
			return v
		}
	}
	if n, ok := e.(*js.NewExpr); ok {
		if v, ok := f.socketNew(n); ok {
			return v
		}
		if v, ok := f.streamNew(n); ok {
			return v
		}
	}
	if a, ok := e.(*js.BinaryExpr); ok && a.Op == js.EqToken {
		if d, ok := a.X.(*js.DotExpr); ok {
			f.propertySet(d, a.Y)
			return value{}
		}
		if v, ok := a.X.(*js.Var); ok {
			val := f.expr(a.Y)
			name := string(v.Data)
			if _, global := f.s.globals[name]; global {
				if _, local := f.locals[name]; !local {
					f.s.globals[name] = val // a global set at run time: what it held before is no more
					return val
				}
			}
			f.locals[name] = val
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
		return f.check(args, c), true
	case obj == "" && f.s.k6[name] == "group":
		if len(args) >= 2 {
			if fn, fname := f.helper(args[1].Value); fn != nil {
				before := len(f.steps)
				ret := f.inline(fn, fname, nil)
				if len(f.steps) > before {
					label, _ := f.s.eval(args[0].Value, f).asText()
					f.groups = append(f.groups, span{start: before, end: len(f.steps), name: groupName(label)})
				}
				return ret, true
			}
		}
	case obj == "console":
		return value{}, true // logging is not part of the load
	case obj != "" && obj == f.s.wsMod && name == "connect":
		return f.wsConnect(args, c), true
	case obj != "":
		switch ov := f.s.evalVar(&js.Var{Data: []byte(obj)}, f); ov.kind {
		case "grpcClient":
			return f.grpcCall(ov.ref.(*grpcClient), name, args, c)
		case "metric":
			return f.metricAdd(ov.ref.(*metricDecl), name, args, c)
		case "socket":
			ov.ref.(*wsSession).method(name, args, c)
			return value{}, true
		case "grpcStream":
			ov.ref.(*grpcStream).method(name, args, c)
			return value{}, true
		case "redisClient":
			return f.redisCall(ov.ref.(*redisClient), name, args, c), true
		}
	case obj == "" && (name == "setTimeout" || name == "setInterval") && len(f.sockets) > 0 && len(args) == 2:
		f.sockets[len(f.sockets)-1].timer(name, args, c)
		return value{}, true
	case obj == "" && f.s.funcs[name] != nil:
		if fn, _ := f.helper(c.X); fn != nil {
			return f.inline(fn, name, args), true
		}
	}
	return value{}, false
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
	case "request", "asyncRequest":
		m, _ := f.s.eval(get(0), f).asText()
		method = strings.ToUpper(m)
		urlArg, bodyArg, paramsArg = get(1), get(2), get(3)
	case "batch":
		return f.batch(args, c)
	default:
		f.s.note("%s: http.%s: %s", f.s.at(snippet(c)), name, snippet(c))
		return value{}
	}
	u, ok := f.s.eval(urlArg, f).asText()
	if !ok || method == "" || strings.TrimSpace(u) == "" {
		f.s.note("%s: a request whose URL or method the import cannot work out: %s", f.s.at(snippet(c)), snippet(c))
		return value{}
	}
	st := importer.Step{Method: method, Path: u}
	if bodyArg != nil {
		f.body(&st, f.s.eval(bodyArg, f), c)
	}
	if paramsArg != nil {
		f.params(&st, f.s.eval(paramsArg, f), c)
	}
	return f.add(st)
}

// body sets a request's body: text, or an object sent as a form, as k6 does.
func (f *flow) body(st *importer.Step, b value, c *js.CallExpr) {
	switch b.kind {
	case "str", "json", "num":
		st.Body, st.HasBody = b.text, true
	case "obj": // k6 sends an object as a form
		for _, p := range b.obj {
			t, ok := p.val.asText()
			if !ok {
				f.s.note("%s: form field %s of %s", f.s.at(snippet(c)), p.key, snippet(c))
				continue
			}
			st.Form = append(st.Form, importer.KV{Key: p.key, Value: t})
		}
	case "null", "":
		if b.kind == "" && st.Method != "GET" {
			f.s.note("%s: the body of %s", f.s.at(snippet(c)), snippet(c))
		}
	default:
		f.s.note("%s: the body of %s", f.s.at(snippet(c)), snippet(c))
	}
}

// add appends a request step, named without the URL's credentials, and
// returns its response.
func (f *flow) add(st importer.Step) value {
	if st.Name == "" {
		if q := strings.IndexByte(st.Path, '?'); q >= 0 {
			st.Name = st.Path[:q]
		} else if hasUserinfo(st.Path) {
			st.Name = st.Path
		}
	}
	st.Name = withoutUserinfo(st.Name) // a name is shown everywhere: never a password
	if !f.s.room() {
		return value{}
	}
	f.steps = append(f.steps, st)
	return value{kind: "resp", step: len(f.steps) - 1}
}

// paramHeaders adds the headers of a call's params to st, noting those
// whose value is not text.
func (f *flow) paramHeaders(st *importer.Step, headers value, c *js.CallExpr) {
	for _, h := range headers.obj {
		if v, ok := h.val.asText(); ok {
			st.Headers = append(st.Headers, importer.Header{Name: h.key, Value: v})
		} else {
			f.s.note("%s: header %s of %s", f.s.at(snippet(c)), h.key, snippet(c))
		}
	}
}

// params reads a request's params: headers, tags.name, timeout.
func (f *flow) params(st *importer.Step, p value, c *js.CallExpr) {
	if p.kind != "obj" {
		if p.kind != "null" && p.kind != "" {
			f.s.note("%s: the params of %s", f.s.at(snippet(c)), snippet(c))
		}
		return
	}
	for _, kv := range p.obj {
		switch kv.key {
		case "headers":
			f.paramHeaders(st, kv.val, c)
		case "tags":
			if n, ok := kv.val.get("name"); ok {
				st.Name, _ = n.asText()
			}
			for _, t := range kv.val.obj {
				if t.key != "name" {
					f.s.note("%s: tag %s of %s", f.s.at(snippet(c)), t.key, snippet(c))
				}
			}
		case "timeout":
			if v, ok := kv.val.asText(); ok {
				if kv.val.kind == "num" {
					v += "ms"
				}
				st.Timeout = v
			}
		case "auth":
			if a, _ := kv.val.asText(); a != "basic" {
				// never the password in clear (Basic) where k6 sends a digest of it
				st.Path = withoutUserinfo(st.Path)
				f.s.note("%s: auth %q of %s (loadlens has Basic auth only: this request is sent without the URL's credentials and will not authenticate)", f.s.at(snippet(c)), a, snippet(c))
			}
		case "responseType", "compression":
		case "redirects":
			if kv.val.kind == "num" && isCount(kv.val.text) {
				st.Redirects = kv.val.text
			} else {
				f.s.note("%s: redirects in params of %s", f.s.at(snippet(c)), snippet(c))
			}
		default:
			f.s.note("%s: param %s of %s", f.s.at(snippet(c)), kv.key, snippet(c))
		}
	}
}

// sleep converts sleep(N) and a random pause: sleep(Math.random() * N),
// sleep(Math.random() * 3 + 2), sleep(randomIntBetween(a, b)).
func (f *flow) sleep(args []js.Arg, c *js.CallExpr) {
	if len(args) == 0 {
		return
	}
	lo, hi, ok := f.randomRange(args[0].Value)
	if !ok || lo < 0 || hi < lo {
		f.s.note("%s: sleep: %s (a pause of a number of seconds, or a random one, is converted)", f.s.at(snippet(c)), snippet(c))
		return
	}
	think := secs(lo)
	if hi > lo {
		think += ".." + secs(hi)
	}
	if f.s.room() {
		f.steps = append(f.steps, importer.Step{Think: think})
	}
}

// secs writes seconds as a duration.
func secs(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) + "s" }

// randomRange returns the range of an expression that is a number, or a
// number made of one random value (Math.random(), randomIntBetween(a, b))
// scaled and shifted by numbers.
func (f *flow) randomRange(e js.IExpr) (lo, hi float64, ok bool) {
	if v, ok := f.number(e); ok {
		return v, v, true
	}
	switch n := e.(type) {
	case *js.GroupExpr:
		return f.randomRange(n.X)
	case *js.CallExpr:
		if isMathRandom(n) {
			return 0, 1, true
		}
		if _, name := calleeName(n.X); f.s.jslib[name] == "randomIntBetween" && len(n.Args.List) == 2 {
			a, ok1 := f.number(n.Args.List[0].Value)
			b, ok2 := f.number(n.Args.List[1].Value)
			return a, b, ok1 && ok2
		}
	case *js.BinaryExpr:
		if k, ok := f.number(n.Y); ok {
			if a, b, ok := f.randomRange(n.X); ok {
				return scale(n.Op, a, b, k, false)
			}
		}
		if k, ok := f.number(n.X); ok {
			if a, b, ok := f.randomRange(n.Y); ok {
				return scale(n.Op, a, b, k, true)
			}
		}
	}
	return 0, 0, false
}

// scale applies [a, b] op k (k op [a, b] when left) to a range.
func scale(op js.TokenType, a, b, k float64, left bool) (float64, float64, bool) {
	switch {
	case op == js.AddToken:
		return a + k, b + k, true
	case op == js.MulToken && k >= 0:
		return a * k, b * k, true
	case op == js.SubToken && !left:
		return a - k, b - k, true
	case op == js.DivToken && !left && k > 0:
		return a / k, b / k, true
	}
	return 0, 0, false
}

// number evaluates an expression made of numbers the import knows and
// + - * /.
func (f *flow) number(e js.IExpr) (float64, bool) {
	if b, ok := e.(*js.BinaryExpr); ok {
		x, ok1 := f.number(b.X)
		y, ok2 := f.number(b.Y)
		if !ok1 || !ok2 {
			return 0, false
		}
		switch b.Op {
		case js.AddToken:
			return x + y, true
		case js.SubToken:
			return x - y, true
		case js.MulToken:
			return x * y, true
		case js.DivToken:
			return x / y, y != 0
		}
		return 0, false
	}
	if g, ok := e.(*js.GroupExpr); ok {
		return f.number(g.X)
	}
	v := f.s.eval(e, f)
	if v.kind != "num" {
		return 0, false
	}
	x, err := strconv.ParseFloat(v.text, 64)
	return x, err == nil
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
// It returns the check's result: "checked", of the response's step, b
// when every condition was converted and the step has no other check.
func (f *flow) check(args []js.Arg, c *js.CallExpr) value {
	if len(args) < 2 {
		return value{}
	}
	res := f.s.eval(args[0].Value, f)
	if res.kind != "resp" {
		f.s.note("%s: check on something other than a response: %s", f.s.at(snippet(c)), snippet(c))
		return value{}
	}
	obj, ok := args[1].Value.(*js.ObjectExpr)
	if !ok {
		f.s.note("%s: check: %s", f.s.at(snippet(c)), snippet(c))
		return value{}
	}
	before := len(f.steps[res.step].Check)
	missed := f.checkProps(obj, &f.steps[res.step], c)
	return value{kind: "checked", step: res.step, b: missed == 0 && before == 0}
}

// checkProps converts a check's conditions onto st, and returns how many
// it could not convert.
func (f *flow) checkProps(obj *js.ObjectExpr, st *importer.Step, c *js.CallExpr) (missed int) {
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
			f.s.note("%s: check %q", f.s.at(snippet(c)), name)
			missed++
			continue
		}
		ret, ok := body[0].(*js.ReturnStmt)
		if !ok || ret.Value == nil {
			f.s.note("%s: check %q", f.s.at(snippet(c)), name)
			missed++
			continue
		}
		conds := slices.DeleteFunc(conjuncts(ret.Value), func(e js.IExpr) bool {
			v, ok := e.(*js.Var) // r && ...: a response is never null in a test
			return ok && string(v.Data) == param
		})
		var chks []importer.Check
		for _, cond := range conds {
			chk, ok := f.condition(cond, param)
			if st.GRPC != nil {
				chk, ok = f.grpcCondition(cond, param, st.GRPC.Method == healthMethod)
			}
			if !ok {
				f.s.note("%s: check %q: %s (loadlens checks status, body text and JSON values; timings belong in thresholds)", f.s.at(snippet(cond)), name, snippet(cond))
				chks = nil
				break
			}
			chks = append(chks, chk)
		}
		if len(chks) == 0 {
			missed++
		}
		for i := range chks {
			chks[i].Name = name
			if len(chks) > 1 { // one name per check: a check counts once per request
				chks[i].Name = fmt.Sprintf("%s (%d of %d)", name, i+1, len(chks))
			}
		}
		if len(chks) > 1 {
			f.s.note("%s: check %q's %d conditions (joined with &&) became %d checks", f.s.at(snippet(ret.Value)), name, len(chks), len(chks))
		}
		st.Check = append(st.Check, chks...)
	}
	return missed
}

// conjuncts splits a && b && c into its conditions.
func conjuncts(e js.IExpr) []js.IExpr {
	switch n := e.(type) {
	case *js.GroupExpr:
		return conjuncts(n.X)
	case *js.BinaryExpr:
		if n.Op == js.AndToken {
			return append(conjuncts(n.X), conjuncts(n.Y)...)
		}
	}
	return []js.IExpr{e}
}

// condition converts a check's condition on the response r.
func (f *flow) condition(e js.IExpr, r string) (importer.Check, bool) {
	switch n := e.(type) {
	case *js.GroupExpr:
		return f.condition(n.X, r)
	case *js.BinaryExpr:
		op := compareOp(n.Op)
		if op == "" {
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

// compareOp names a comparison as a check does, "" for another operator.
func compareOp(t js.TokenType) string {
	switch t {
	case js.EqEqEqToken, js.EqEqToken:
		return "eq"
	case js.NotEqEqToken, js.NotEqToken:
		return "ne"
	case js.LtToken:
		return "lt"
	case js.LtEqToken:
		return "lte"
	case js.GtToken:
		return "gt"
	case js.GtEqToken:
		return "gte"
	}
	return ""
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
				if path, ok = gjsonPath(sel); !ok {
					return "", false
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
	case *js.IndexExpr:
		return s.evalIndex(n, f)
	case *js.BinaryExpr:
		return s.evalBinary(n, f)
	case *js.CallExpr:
		return s.evalCall(n, f)
	case *js.NewExpr:
		return s.evalNew(n, f)
	case *js.UnaryExpr:
		if n.Op == js.AwaitToken { // await http.asyncRequest(...): the response, in turn
			return s.eval(n.X, f)
		}
		if n.Op == js.NegToken {
			if v := s.eval(n.X, f); v.kind == "num" {
				return value{kind: "num", text: "-" + v.text}
			}
		}
	}
	return value{}
}

// evalNew evaluates new X(...): a gRPC client, a custom metric, a Redis
// client, or new Array(a, b, ...).
func (s *script) evalNew(n *js.NewExpr, f *flow) value {
	if v := s.grpcNew(n); v.kind != "" {
		return v
	}
	if v := s.redisNew(n); v.kind != "" {
		return v
	}
	if isVarNamed(n.X, "Array") && n.Args != nil && len(n.Args.List) > 1 { // one argument is a length
		v := value{kind: "arr"}
		for _, a := range n.Args.List {
			v.arr = append(v.arr, s.eval(a.Value, f))
		}
		return v
	}
	return s.metricNew(n)
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
	if x, ok := n.X.(*js.Var); ok && s.grpcMod != "" && string(x.Data) == s.grpcMod {
		return grpcConstants[string(n.Y.(js.LiteralExpr).Data)]
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

// evalIndex evaluates a[i]: a response's JSON, or an array's element or
// an object's property the import knows (http.batch's responses).
func (s *script) evalIndex(n *js.IndexExpr, f *flow) value {
	if f != nil {
		if path, ok := jsonPath(n, "", f); ok {
			return f.extract(n, path, "")
		}
	}
	base, idx := s.eval(n.X, f), s.eval(n.Y, f)
	switch {
	case base.kind == "arr" && idx.kind == "num":
		if i := atoi(idx.text); i >= 0 && i < len(base.arr) && idx.text == strconv.Itoa(i) {
			return base.arr[i]
		}
	case base.kind == "obj" && idx.kind == "str":
		v, _ := base.get(idx.text)
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
	if v, handled := s.encodingCall(n, f); handled {
		return v
	}
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
	if d, ok := n.X.(*js.DotExpr); ok && string(d.Y.(js.LiteralExpr).Data) == "toString" && len(n.Args.List) == 0 {
		if t, ok := s.eval(d.X, f).asText(); ok {
			return str(t)
		}
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
	name := f.newVar(base)
	st := &f.steps[res.step]
	// a miss is no failed check in k6 (res.json() is undefined): default ''
	// keeps it out of the checks rate, which then judges what k6's does
	st.Extract = append(st.Extract, importer.Extract{Var: name, JSON: path, Default: &noValue})
	return str("{{ " + name + " }}")
}

// newVar returns a variable name, base or base_2, ..., that no step of
// the flow sets yet, and takes it.
func (f *flow) newVar(base string) string {
	name := base
	for n := 2; f.vars[name]; n++ {
		name = fmt.Sprintf("%s_%d", base, n)
	}
	f.vars[name] = true
	return name
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
