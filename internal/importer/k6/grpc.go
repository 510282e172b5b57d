package k6

import (
	"path"
	"strconv"
	"strings"

	"github.com/tdewolff/parse/v2/js"

	"github.com/loadlens/loadlens/internal/importer"
)

// grpcClient is what the import knows of a k6/net/grpc Client: the .proto
// files it loaded, and the target of its last connect.
type grpcClient struct {
	protos, importPaths []string
	target              string
	connected           bool
}

// grpcConstants are k6/net/grpc's constants a check compares with: the
// status codes (a call's status) and the health check's serving statuses
// (its message's status, which protojson writes by name).
var grpcConstants = map[string]value{
	"StatusOK": numv(0), "StatusCanceled": numv(1), "StatusUnknown": numv(2), "StatusInvalidArgument": numv(3),
	"StatusDeadlineExceeded": numv(4), "StatusNotFound": numv(5), "StatusAlreadyExists": numv(6),
	"StatusPermissionDenied": numv(7), "StatusResourceExhausted": numv(8), "StatusFailedPrecondition": numv(9),
	"StatusAborted": numv(10), "StatusOutOfRange": numv(11), "StatusUnimplemented": numv(12), "StatusInternal": numv(13),
	"StatusUnavailable": numv(14), "StatusDataLoss": numv(15), "StatusUnauthenticated": numv(16),
	"HealthCheckUnknown": str("UNKNOWN"), "HealthCheckServing": str("SERVING"), "HealthCheckNotServing": str("NOT_SERVING"),
}

func numv(n int) value { return value{kind: "num", text: strconv.Itoa(n)} }

// healthMethod is the method k6's client.healthCheck() calls.
const healthMethod = "grpc.health.v1.Health/Check"

// grpcNew evaluates new grpc.Client().
func (s *script) grpcNew(n *js.NewExpr) value {
	if s.grpcClass(n.X) == "Client" {
		return value{kind: "grpcClient", ref: &grpcClient{}}
	}
	return value{}
}

// grpcClass names the k6/net/grpc class e is: grpc.Client, or Client
// imported by name.
func (s *script) grpcClass(e js.IExpr) string {
	switch x := e.(type) {
	case *js.DotExpr:
		if v, ok := x.X.(*js.Var); ok && s.grpcMod != "" && string(v.Data) == s.grpcMod {
			return string(x.Y.(js.LiteralExpr).Data)
		}
	case *js.Var:
		return s.grpcNames[string(x.Data)]
	}
	return ""
}

// grpcLoad records client.load(importPaths, ...files): the files the
// test's grpc: steps read, relative to the test file as k6 reads them
// relative to the script.
func (s *script) grpcLoad(cl *grpcClient, args []js.Arg, c *js.CallExpr, f *flow) {
	if len(args) < 2 {
		s.note("%s: %s: no .proto file named", s.at(snippet(c)), snippet(c))
		return
	}
	for _, p := range s.eval(args[0].Value, f).arr {
		if t, ok := s.plainText(p); ok {
			cl.importPaths = append(cl.importPaths, t)
		}
	}
	for _, a := range args[1:] {
		t, ok := s.plainText(s.eval(a.Value, f))
		if !ok {
			s.note("%s: a .proto file the import cannot work out: %s", s.at(snippet(c)), snippet(c))
			continue
		}
		if dir, file := path.Split(t); len(args) == 2 && len(cl.importPaths) == 0 && dir != "" && !path.IsAbs(t) {
			// k6 without import paths reads ../x/a.proto from the script's directory; a
			// test reads it as a.proto of the import path ../x, where its imports are too
			cl.protos, cl.importPaths = append(cl.protos, file), []string{path.Clean(dir)}
			continue
		}
		cl.protos = append(cl.protos, t)
	}
	if len(cl.protos) > 0 {
		s.note("%s: client.load's .proto paths, relative to the script, are written relative to the test file: move the two together", s.at(snippet(c)))
	}
}

// plainText returns a value as text without templates: a .proto path,
// which is not a template in a test. __ENV.X || 'default' gives its
// default, and a note says so.
func (s *script) plainText(v value) (string, bool) {
	t, ok := v.asText()
	if !ok {
		return "", false
	}
	if name, def, ok := envDefault(t); ok {
		s.note("%s: __ENV.%s: a .proto path is not a template in a test; its default %s is written", s.at("__ENV."+name), name, def)
		return def, true
	}
	return t, !strings.Contains(t, "{{")
}

// targetText returns a gRPC address as text: __ENV.X || 'host:port' stays
// the env template the importer writes for it ({{ env("X", "host:port") }}),
// since a grpc: target may read the environment before the run, as k6's
// client.connect(__ENV.X) does (a default with a scheme is written as
// itself, with a note); another template is no address known.
func (s *script) targetText(v value) (string, bool) {
	t, ok := v.asText()
	if !ok {
		return "", false
	}
	if name, def, ok := envDefault(t); ok {
		if strings.Contains(def, "://") { // k6 takes host:port: a scheme of its own would follow grpc://
			s.note("%s: __ENV.%s: a gRPC address with a scheme (%s) is written as its default, not read from the environment", s.at("__ENV."+name), name, def)
			return def, true
		}
		return t, true
	}
	return t, !strings.Contains(t, "{{")
}

// envDefault reads the template evalBinary writes for __ENV.X || 'default':
// X and its default, when the whole text is one with a default of plain text.
func envDefault(t string) (name, def string, ok bool) {
	if !strings.HasPrefix(t, `{{ env("`) || !strings.HasSuffix(t, `") }}`) {
		return "", "", false
	}
	name, def, found := strings.Cut(strings.TrimSuffix(strings.TrimPrefix(t, `{{ env("`), `") }}`), `", "`)
	if !found || def == "" || strings.Contains(def, "{{") || strings.ContainsAny(name, `" `) {
		return "", "", false
	}
	return name, def, true
}

// grpcCall converts a Client's methods: load, connect, invoke, healthCheck, close.
func (f *flow) grpcCall(cl *grpcClient, name string, args []js.Arg, c *js.CallExpr) (value, bool) {
	switch name {
	case "load":
		f.s.grpcLoad(cl, args, c, f)
	case "connect":
		f.grpcConnect(cl, args, c)
	case "invoke", "asyncInvoke":
		return f.grpcInvoke(cl, args, c), true
	case "healthCheck":
		if len(args) > 0 {
			f.s.note("%s: %s: the health of a named service", f.s.at(snippet(c)), snippet(c))
			return value{}, true
		}
		f.s.note("%s: client.healthCheck() calls %s, which the server's reflection describes (k6 knows the health service; a test asks the server)", f.s.at(snippet(c)), healthMethod)
		return f.grpcStep(cl, healthMethod, value{kind: "obj"}, value{}, snippet(c), true), true
	case "close":
		f.s.note("%s: client.close(): a VU keeps its connection from one iteration to the next (k6 connects again each iteration)", f.s.at(snippet(c)))
	default:
		f.s.note("%s: client.%s: %s", f.s.at(snippet(c)), name, snippet(c))
	}
	return value{}, true
}

// grpcConnect reads client.connect(address, {plaintext, timeout, reflect}).
func (f *flow) grpcConnect(cl *grpcClient, args []js.Arg, c *js.CallExpr) {
	if len(args) == 0 {
		return
	}
	addr, ok := f.s.targetText(f.s.eval(args[0].Value, f))
	if !ok {
		f.s.note("%s: a gRPC address the import cannot work out: %s", f.s.at(snippet(c)), snippet(c))
		return
	}
	plaintext := false
	if len(args) > 1 {
		for _, p := range f.s.eval(args[1].Value, f).obj {
			switch p.key {
			case "plaintext":
				plaintext = p.val.kind == "bool" && p.val.b
			case "reflect":
				if p.val.kind == "bool" && p.val.b {
					cl.protos, cl.importPaths = nil, nil // the server's reflection describes the methods
				}
			default:
				f.s.note("%s: param %s of %s", f.s.at(snippet(c)), p.key, snippet(c))
			}
		}
	}
	addr = strings.TrimPrefix(strings.TrimPrefix(addr, "grpc://"), "grpcs://")
	cl.target, cl.connected = "grpcs://"+addr, true // k6 connects with TLS unless plaintext
	if plaintext {
		cl.target = "grpc://" + addr
	}
}

// grpcInvoke converts client.invoke(method, message, params).
func (f *flow) grpcInvoke(cl *grpcClient, args []js.Arg, c *js.CallExpr) value {
	if len(args) < 2 {
		f.s.note("%s: %s", f.s.at(snippet(c)), snippet(c))
		return value{}
	}
	method, ok := f.s.eval(args[0].Value, f).asText()
	if !ok || strings.Contains(method, "{{") {
		f.s.note("%s: a gRPC method the import cannot work out: %s", f.s.at(snippet(c)), snippet(c))
		return value{}
	}
	var params value
	if len(args) > 2 {
		params = f.s.eval(args[2].Value, f)
	}
	return f.grpcStep(cl, strings.TrimPrefix(method, "/"), f.s.eval(args[1].Value, f), params, snippet(c), false)
}

// grpcStep adds a grpc: step calling method with msg, after the client's connect.
func (f *flow) grpcStep(cl *grpcClient, method string, msg, params value, what string, health bool) value {
	at := f.s.at(what)
	if !cl.connected {
		f.s.note("%s: a call before client.connect: %s", at, what)
		return value{}
	}
	body, ok := msg.jsonOf()
	if !ok || msg.kind != "obj" {
		f.s.note("%s: a request message the import cannot work out: %s", at, what)
		return value{}
	}
	g := &importer.GRPCCall{Target: cl.target, Method: method, Message: body}
	if !health {
		g.Protos, g.ImportPaths = cl.protos, cl.importPaths
	}
	st := importer.Step{GRPC: g}
	for _, p := range params.obj {
		switch p.key {
		case "metadata":
			for _, h := range p.val.obj {
				if v, ok := h.val.asText(); ok {
					st.Headers = append(st.Headers, importer.Header{Name: strings.ToLower(h.key), Value: v})
				} else {
					f.s.note("%s: metadata %s of %s", at, h.key, what)
				}
			}
		case "timeout":
			if v, ok := p.val.asText(); ok {
				if p.val.kind == "num" {
					v += "ms"
				}
				st.Timeout = v
			}
		case "tags":
			st.Name = tagsName(f, p.val, at, what)
		default:
			f.s.note("%s: param %s of %s", at, p.key, what)
		}
	}
	if !f.s.room() {
		return value{}
	}
	f.steps = append(f.steps, st)
	return value{kind: "resp", step: len(f.steps) - 1}
}

// moduleImport records k6/net/grpc's or k6/ws's local name.
func (s *script) moduleImport(mod string, n *js.ImportStmt) {
	local := ""
	if n.Default != nil {
		local = string(n.Default)
	}
	for _, a := range n.List {
		if string(a.Name) == "*" || string(a.Name) == "default" {
			local = string(a.Binding)
		} else if mod == "k6/net/grpc" {
			s.grpcNames[string(a.Binding)] = importedName(a) // import { Client, Stream }
		}
	}
	if mod == "k6/ws" {
		s.wsMod = local
		return
	}
	s.grpcMod = local
}

// initCall converts a call of the init code the import knows:
// client.load(...) of a gRPC client.
func (s *script) initCall(n *js.ExprStmt) bool {
	c, ok := n.Value.(*js.CallExpr)
	if !ok {
		return false
	}
	obj, name := calleeName(c.X)
	if obj == "" {
		return false
	}
	if cl := s.globals[obj]; cl.kind == "grpcClient" && name == "load" {
		s.grpcLoad(cl.ref.(*grpcClient), c.Args.List, c, nil)
		return true
	}
	return false
}

// grpcCondition converts a check's condition on a gRPC response r:
// r.status compared with a status code (with the health check's serving
// status, health: its message's status), r.message.<path> compared with
// a value.
func (f *flow) grpcCondition(e js.IExpr, r string, health bool) (importer.Check, bool) {
	if g, ok := e.(*js.GroupExpr); ok {
		return f.grpcCondition(g.X, r, health)
	}
	n, ok := e.(*js.BinaryExpr)
	if !ok {
		return importer.Check{}, false
	}
	op := compareOp(n.Op)
	right := f.s.eval(n.Y, f)
	if op == "" {
		return importer.Check{}, false
	}
	if isMember(n.X, r, "status") {
		switch {
		case health && right.kind == "str" && (op == "eq" || op == "ne"):
			return importer.Check{JSON: "$.status", Op: op, Value: right.text}, true
		case !health && right.kind == "num" && op == "eq":
			code, err := strconv.Atoi(right.text)
			return importer.Check{Status: []int{code}}, err == nil
		}
		return importer.Check{}, false
	}
	path, ok := messagePath(n.X, r, f)
	if !ok {
		return importer.Check{}, false
	}
	return jsonCheck(path, op, right)
}

// jsonCheck is the check that the value at JSON path compares with right
// by op: numbers by any comparison, text and booleans by eq or ne.
func jsonCheck(path, op string, right value) (importer.Check, bool) {
	switch {
	case right.kind == "num":
		return importer.Check{JSON: path, Op: op, Value: importer.Raw(right.text)}, true
	case right.kind == "str" && (op == "eq" || op == "ne"):
		return importer.Check{JSON: path, Op: op, Value: right.text}, true
	case right.kind == "bool" && (op == "eq" || op == "ne"):
		return importer.Check{JSON: path, Op: op, Value: importer.Raw(strconv.FormatBool(right.b))}, true
	}
	return importer.Check{}, false
}

// messagePath reads r.message.a.b[0] as the JSON path $.a.b[0] of the
// response message's JSON form.
func messagePath(e js.IExpr, r string, f *flow) (string, bool) {
	var tail []string
	for {
		switch n := e.(type) {
		case *js.DotExpr:
			field := string(n.Y.(js.LiteralExpr).Data)
			if isMember(n, r, "message") {
				return "$" + strings.Join(tail, ""), len(tail) > 0
			}
			tail = append([]string{"." + field}, tail...)
			e = n.X
		case *js.IndexExpr:
			idx := f.s.eval(n.Y, f)
			if idx.kind != "num" {
				return "", false
			}
			tail = append([]string{"[" + idx.text + "]"}, tail...)
			e = n.X
		default:
			return "", false
		}
	}
}

// tagsName returns the name tag of a call's tags, noting the others (a
// step has its name only).
func tagsName(f *flow, tags value, at, what string) string {
	name := ""
	for _, t := range tags.obj {
		if t.key == "name" {
			name, _ = t.val.asText()
			continue
		}
		f.s.note("%s: tag %s of %s (a step has its name only)", at, t.key, what)
	}
	return name
}

// firstIterationConnect reads if (__ITER == 0) { client.connect(...) },
// k6's way to connect once per VU, which a grpc: step does already.
func (f *flow) firstIterationConnect(n *js.IfStmt) bool {
	cond, ok := n.Cond.(*js.BinaryExpr)
	if !ok || n.Else != nil || (cond.Op != js.EqEqToken && cond.Op != js.EqEqEqToken) {
		return false
	}
	if v, ok := cond.X.(*js.Var); !ok || string(v.Data) != "__ITER" || f.s.eval(cond.Y, f).text != "0" {
		return false
	}
	body := []js.IStmt{n.Body}
	if b, ok := n.Body.(*js.BlockStmt); ok {
		body = b.List
	}
	if len(body) != 1 {
		return false
	}
	c, ok := callStmt(body[0])
	if !ok {
		return false
	}
	obj, name := calleeName(c.X)
	cl := f.s.evalVar(&js.Var{Data: []byte(obj)}, f)
	if cl.kind != "grpcClient" || name != "connect" {
		return false
	}
	f.grpcConnect(cl.ref.(*grpcClient), c.Args.List, c)
	return true
}
