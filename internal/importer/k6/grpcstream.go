package k6

import (
	"github.com/tdewolff/parse/v2/js"
)

// grpcStream is a k6/net/grpc Stream being read: the messages written to
// it, sent in one streaming call once the function's code has run, as
// k6's event loop runs the stream.
type grpcStream struct {
	f        *flow
	client   *grpcClient
	rpc      string // the method called
	messages []string
	c        *js.NewExpr
	at       string
	made     int // the function's steps before it
}

// streamNew reads new Stream(client, method, params).
func (f *flow) streamNew(n *js.NewExpr) (value, bool) {
	if f.s.grpcClass(n.X) != "Stream" {
		return value{}, false
	}
	at := f.s.at(snippet(n))
	var args []js.Arg
	if n.Args != nil {
		args = n.Args.List
	}
	if len(args) < 2 {
		f.s.note("%s: %s", at, snippet(n))
		return value{kind: "null"}, true
	}
	cl := f.s.eval(args[0].Value, f)
	method, ok := f.s.eval(args[1].Value, f).asText()
	if cl.kind != "grpcClient" || !ok {
		f.s.note("%s: a stream whose client or method the import cannot work out: %s", at, snippet(n))
		return value{kind: "null"}, true
	}
	if len(args) > 2 {
		if p := f.s.eval(args[2].Value, f); p.kind != "null" {
			f.s.note("%s: the params of %s", at, snippet(n))
		}
	}
	st := &grpcStream{f: f, client: cl.ref.(*grpcClient), rpc: method, c: n, at: at, made: len(f.steps)}
	f.streams = append(f.streams, st)
	return value{kind: "grpcStream", ref: st}, true
}

// method reads stream.write(message), stream.end() and stream.on(event,
// handler), whose handlers may only log or close the client.
func (st *grpcStream) method(name string, args []js.Arg, c *js.CallExpr) {
	f := st.f
	switch {
	case name == "write" && len(args) == 1:
		if !f.s.room() { // a message counts as a step: a script may write millions through helpers
			return
		}
		msg := f.s.eval(args[0].Value, f)
		j, ok := msg.jsonOf()
		if !ok || msg.kind != "obj" {
			f.s.note("%s: a message the import cannot work out: %s", f.s.at(snippet(c)), snippet(c))
			st.messages = append(st.messages, "") // a message missing: the call is not made
			return
		}
		st.messages = append(st.messages, j)
	case name == "end":
	case name == "on" && len(args) == 2:
		body, _ := funcOf(args[1].Value)
		for _, s := range body {
			if !st.quiet(s) {
				f.s.note("%s: in a stream's handler: %s (a grpc: step reads the messages; it does not act on them)", f.s.at(snippet(s)), snippet(s))
			}
		}
	default:
		f.s.note("%s: %s", f.s.at(snippet(c)), snippet(c))
	}
}

// quiet reports whether a handler's statement only logs or closes the client.
func (st *grpcStream) quiet(s js.IStmt) bool {
	c, ok := callStmt(s)
	if !ok {
		return false
	}
	obj, name := calleeName(c.X)
	if obj == "console" {
		return true
	}
	v := st.f.s.evalVar(&js.Var{Data: []byte(obj)}, st.f)
	return name == "close" && v.kind == "grpcClient"
}

// endStreams adds each stream as a grpc: step sending its messages.
func (f *flow) endStreams() {
	for _, st := range f.streams {
		switch {
		case len(st.messages) == 0:
			f.s.note("%s: a stream with no message the import finds written to it: %s", st.at, snippet(st.c))
			continue
		case hasEmpty(st.messages):
			continue // its message was noted
		}
		if len(f.steps) > st.made {
			f.s.note("%s: the stream's call is made after the function's other steps (k6 runs it alongside them)", st.at)
		}
		msg := value{kind: "obj"} // grpcStep wants a message; the stream's replace it
		if v := f.grpcStep(st.client, st.rpc, msg, value{}, snippet(st.c), false); v.kind == "resp" {
			g := f.steps[v.step].GRPC
			g.Message, g.Messages = "", st.messages
			if len(st.messages) == 1 {
				g.Message, g.Messages = st.messages[0], nil
			}
		}
	}
	f.streams = nil
}

func hasEmpty(xs []string) bool {
	for _, x := range xs {
		if x == "" {
			return true
		}
	}
	return false
}

// callStmt returns the call a statement made of one call expression makes.
func callStmt(s js.IStmt) (*js.CallExpr, bool) {
	e, ok := s.(*js.ExprStmt)
	if !ok {
		return nil, false
	}
	c, ok := e.Value.(*js.CallExpr)
	return c, ok
}
