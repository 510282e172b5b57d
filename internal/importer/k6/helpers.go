package k6

import (
	"fmt"
	"maps"
	"strconv"
	"strings"

	"github.com/tdewolff/parse/v2/js"

	"github.com/loadlens/loadlens/internal/importer"
)

// maxInline is how deeply helper functions are inlined: a helper calling
// itself is not unrolled without end.
const maxInline = 8

// helper returns the script's function a call or a group() argument names:
// a declared function, or a constant holding a function expression.
func (f *flow) helper(e js.IExpr) (*js.FuncDecl, string) {
	switch n := e.(type) {
	case *js.Var:
		name := string(n.Data)
		if _, shadowed := f.locals[name]; shadowed {
			return nil, ""
		}
		if fn, ok := f.s.funcs[name]; ok {
			return fn, name
		}
	case *js.FuncDecl:
		return n, ""
	case *js.ArrowFunc:
		return &js.FuncDecl{Params: n.Params, Body: n.Body}, ""
	}
	return nil, ""
}

// inline converts a call of the script's own function: its statements run
// in place with its parameters bound to the arguments, as JavaScript runs
// them: a named function sees the globals and its own locals, a function
// written in place (group's) its caller's too. It returns what the
// function returns.
func (f *flow) inline(fn *js.FuncDecl, name string, args []js.Arg) value {
	if f.depth >= maxInline {
		f.s.note("%s: the call of %s nests more than %d functions deep", f.s.at(name+"("), name, maxInline)
		return value{}
	}
	locals := map[string]value{}
	if name == "" { // a closure: its caller's variables, the same map when it has no parameters of its own
		if len(fn.Params.List) == 0 {
			locals = f.locals
		} else {
			maps.Copy(locals, f.locals)
		}
	}
	for i, p := range fn.Params.List {
		v, ok := p.Binding.(*js.Var)
		if !ok {
			continue
		}
		if i < len(args) {
			locals[string(v.Data)] = f.s.eval(args[i].Value, f)
		} else if p.Default != nil {
			locals[string(v.Data)] = f.s.eval(p.Default, f)
		}
	}
	outer, outerRet := f.locals, f.ret
	f.locals, f.ret = locals, value{}
	f.depth++
	f.block(fn.Body.List)
	f.depth--
	ret := f.ret
	f.locals, f.ret = outer, outerRet
	return ret
}

// batch converts http.batch([...]) or http.batch({name: ...}): its
// requests one after another (loadlens sends an iteration's requests in
// turn), returning their responses as an array or object.
func (f *flow) batch(args []js.Arg, c *js.CallExpr) value {
	if len(args) == 0 {
		return value{}
	}
	f.s.note("%s: http.batch's requests are sent one after another, not in parallel", f.s.at("http.batch("))
	reqs := f.s.eval(args[0].Value, f)
	one := func(r value) value {
		switch r.kind {
		case "str": // a URL: GET
			return f.batchRequest("GET", r, value{}, value{}, c)
		case "arr": // [method, url, body, params]
			get := func(i int) value {
				if i < len(r.arr) {
					return r.arr[i]
				}
				return value{}
			}
			m, _ := get(0).asText()
			return f.batchRequest(m, get(1), get(2), get(3), c)
		case "obj": // {method, url, body, params}
			m, _ := r.get("method")
			mt, _ := m.asText()
			u, _ := r.get("url")
			b, _ := r.get("body")
			p, _ := r.get("params")
			return f.batchRequest(mt, u, b, p, c)
		}
		f.s.note("%s: a request of http.batch the import cannot work out", f.s.at("http.batch("))
		return value{}
	}
	switch reqs.kind {
	case "arr":
		out := value{kind: "arr"}
		for _, r := range reqs.arr {
			out.arr = append(out.arr, one(r))
		}
		return out
	case "obj":
		if _, isReq := reqs.get("url"); !isReq {
			out := value{kind: "obj"}
			for _, p := range reqs.obj {
				out.obj = append(out.obj, prop{p.key, one(p.val)})
			}
			return out
		}
	}
	f.s.note("%s: http.batch of %s", f.s.at("http.batch("), snippet(c))
	return value{}
}

// batchRequest adds one request of a batch.
func (f *flow) batchRequest(method string, u, body, params value, c *js.CallExpr) value {
	path, ok := u.asText()
	if !ok || method == "" {
		f.s.note("%s: a request of http.batch whose URL or method the import cannot work out", f.s.at("http.batch("))
		return value{}
	}
	st := importer.Step{Method: strings.ToUpper(method), Path: path}
	f.body(&st, body, c)
	if params.kind != "" {
		f.params(&st, params, c)
	}
	return f.add(st)
}

// at names where in the script text first appears, "line N", for notes;
// "the script" when it cannot be found.
func (s *script) at(text string) string {
	if line := s.lineOf(text); line > 0 {
		return "line " + strconv.Itoa(line)
	}
	return "the script"
}

// lineOf returns the line where text first appears in the script, ignoring
// whitespace (the notes' snippets are the parser's rendering, not the
// source's layout); 0 when it does not.
func (s *script) lineOf(text string) int { return s.lineFrom(text, 0) }

// lineFrom is lineOf searching from line from on.
func (s *script) lineFrom(text string, from int) int {
	key := strings.TrimSuffix(strings.Join(strings.Fields(text), ""), "...")
	if i := strings.Index(key, "=>"); i > 8 {
		key = key[:i]
	}
	if key == "" {
		return 0
	}
	var squeezed []byte
	var lines []int
	// the notes' snippets are written without credentials: so is the text searched
	for n, text := range strings.Split(string(s.src), "\n") {
		if strings.HasPrefix(strings.TrimSpace(text), "//") {
			continue // a comment may show code (k6's examples do): not where it runs
		}
		for _, ch := range []byte(userinfo.ReplaceAllString(text, "$1")) {
			if ch != ' ' && ch != '\t' && ch != '\r' {
				squeezed = append(squeezed, ch)
				lines = append(lines, n+1)
			}
		}
	}
	skip := 0
	for skip < len(lines) && lines[skip] < from {
		skip++
	}
	squeezed, lines = squeezed[skip:], lines[skip:]
	// the longest key first: two calls may start alike (a URL with and
	// without user:pass@, which the search drops) and differ further on;
	// the rendering may quote or space it otherwise further on
	i := -1
	for _, n := range []int{64, 24, 12} {
		if i < 0 && (n == 64 || len(key) > n) {
			i = strings.Index(string(squeezed), key[:min(n, len(key))])
		}
	}
	key = key[:min(24, len(key))]
	if i < 0 { // the rendering drops a key's quotes: {'a': 1} is {a: 1}
		return unquotedLine(squeezed, lines, key)
	}
	return lines[i]
}

// unquotedLine finds key in the squeezed script with the quotes of both
// left out; 0 when it is not there.
func unquotedLine(squeezed []byte, lines []int, key string) int {
	isQuote := func(c byte) bool { return c == '\'' || c == '"' || c == '`' }
	var bare []byte
	var at []int
	for i, c := range squeezed {
		if !isQuote(c) {
			bare, at = append(bare, c), append(at, lines[i])
		}
	}
	k := strings.Map(func(r rune) rune {
		if r < 128 && isQuote(byte(r)) {
			return -1
		}
		return r
	}, key)
	if j := strings.Index(string(bare), k); j >= 0 && k != "" {
		return at[j]
	}
	return 0
}

// hasUserinfo reports whether a URL carries user:password@ before its host.
func hasUserinfo(u string) bool { return withoutUserinfo(u) != u }

// withoutUserinfo returns a URL without the user:password@ before its
// host: a name or label made of it would show the password in every report.
func withoutUserinfo(u string) string {
	for _, scheme := range []string{"http://", "https://"} {
		if !strings.HasPrefix(u, scheme) {
			continue
		}
		rest := u[len(scheme):]
		host := rest
		if i := strings.IndexAny(rest, "/?#"); i >= 0 {
			host = rest[:i]
		}
		if at := strings.LastIndexByte(host, '@'); at >= 0 {
			return scheme + rest[at+1:]
		}
	}
	return u
}

// nothingRuns says why an import made no scenario: the script has no
// function that runs, or what it runs has no request the import converts,
// with what it did not convert.
func (s *script) nothingRuns() error {
	_, hasScenarios := s.options.get("scenarios")
	if s.def == nil && !hasScenarios {
		return fmt.Errorf("no default function and no options.scenarios: nothing runs")
	}
	why := "the default function sends no request the import converts"
	if hasScenarios {
		why = "no scenario's function sends a request the import converts"
	}
	if len(s.t.NotConverted) == 0 {
		return fmt.Errorf("%s", why)
	}
	notes := s.t.NotConverted
	more := ""
	if len(notes) > 20 {
		notes, more = notes[:20], fmt.Sprintf("\n  and %d more", len(s.t.NotConverted)-20)
	}
	return fmt.Errorf("%s; not converted:\n  %s%s", why, strings.Join(notes, "\n  "), more)
}

// keyAt names the line of an object key written key: (quoted or not), as
// in options.thresholds, rather than the first mention of its text.
func (s *script) keyAt(key string) string {
	for _, k := range []string{key + ":", key + "':", key + `":`} {
		if line := s.lineOf(k); line > 0 {
			return "line " + strconv.Itoa(line)
		}
	}
	return s.at(key)
}
