package k6

import (
	"slices"
	"strings"

	"github.com/tdewolff/parse/v2/js"

	"github.com/loadlens/loadlens/internal/importer"
)

// wsSession is a k6/ws session being read from ws.connect's callback.
type wsSession struct {
	f      *flow
	socket string // the callback's parameter, or the WebSocket's variable
	w      *importer.WSSession
	c      *js.CallExpr
	global bool             // k6/experimental/websockets: the timers are the global setTimeout and setInterval
	step   importer.Step    // k6/experimental/websockets: the step, added once the function is read
	at     string           // where the WebSocket is made, for notes
	made   int              // the function's steps before it was made
	checks []importer.Check // checks on each message, from the message handler
}

// wsConnect converts ws.connect(url, params, function (socket) {...}) into
// a ws: step: the messages sent when the session opens (socket.on('open')),
// those sent on a schedule (socket.setInterval), and its end
// (socket.setTimeout that closes it, or a close on the first message).
// It returns the connect's response, whose status a check reads.
func (f *flow) wsConnect(args []js.Arg, c *js.CallExpr) value {
	if len(args) < 2 {
		f.s.note("%s: %s: no callback", f.s.at(snippet(c)), snippet(c))
		return value{}
	}
	u, ok := f.s.eval(args[0].Value, f).asText()
	if !ok || strings.TrimSpace(u) == "" {
		f.s.note("%s: a WebSocket URL the import cannot work out: %s", f.s.at(snippet(c)), snippet(c))
		return value{}
	}
	cb, params := args[len(args)-1].Value, value{}
	if len(args) > 2 {
		params = f.s.eval(args[1].Value, f)
	}
	body, param := funcOf(cb)
	if body == nil || param == "" {
		f.s.note("%s: ws.connect's callback: %s", f.s.at(snippet(c)), snippet(c))
		return value{}
	}
	st := importer.Step{Path: httpURL(u), WS: &importer.WSSession{}}
	f.wsParams(&st, params, c)
	ws := &wsSession{f: f, socket: param, w: st.WS, c: c}
	for _, s := range body {
		ws.stmt(s, false)
	}
	if ws.w.Duration == "" && ws.w.MaxMessages == 0 {
		f.s.note("%s: a WebSocket session without an end the import finds (socket.setTimeout(() => socket.close(), ms), or socket.close() on a message): %s", f.s.at(snippet(c)), snippet(c))
		return value{}
	}
	if ws.w.Duration == "" && slices.ContainsFunc(ws.w.Sends, func(s importer.WSSend) bool { return s.Every != "" }) {
		f.s.note("%s: a WebSocket session that sends on a schedule until a message closes it (a ws: step's schedule needs its duration): %s", f.s.at(snippet(c)), snippet(c))
		return value{}
	}
	if hasUserinfo(st.Path) {
		st.Name = withoutUserinfo(st.Path) // a name is shown everywhere: never a password
	}
	st.Check = append(st.Check, ws.checks...)
	if !f.s.room() {
		return value{}
	}
	f.steps = append(f.steps, st)
	return value{kind: "resp", step: len(f.steps) - 1}
}

// httpURL writes a ws:// URL as http:// (wss:// as https://), which a ws:
// step dials alike, so that its origin can be the test's base URL.
func httpURL(u string) string {
	switch {
	case strings.HasPrefix(u, "ws://"):
		return "http://" + u[len("ws://"):]
	case strings.HasPrefix(u, "wss://"):
		return "https://" + u[len("wss://"):]
	}
	return u
}

// funcOf returns a function expression's statements and first parameter.
func funcOf(e js.IExpr) ([]js.IStmt, string) {
	var params js.Params
	var body js.BlockStmt
	switch fn := e.(type) {
	case *js.ArrowFunc:
		params, body = fn.Params, fn.Body
	case *js.FuncDecl:
		params, body = fn.Params, fn.Body
	default:
		return nil, ""
	}
	param := "_"
	if len(params.List) > 0 {
		if v, ok := params.List[0].Binding.(*js.Var); ok {
			param = string(v.Data)
		}
	}
	return body.List, param
}

// wsParams reads ws.connect's params: headers, tags.name.
func (f *flow) wsParams(st *importer.Step, p value, c *js.CallExpr) {
	for _, kv := range p.obj {
		switch kv.key {
		case "headers":
			f.paramHeaders(st, kv.val, c)
		case "tags":
			st.Name = tagsName(f, kv.val, f.s.at(snippet(c)), "ws.connect")
		default:
			f.s.note("%s: param %s of %s", f.s.at(snippet(c)), kv.key, snippet(c))
		}
	}
}

// socketCall returns a statement's call of a socket method: socket.send(...) → "send".
func (ws *wsSession) socketCall(st js.IStmt) (*js.CallExpr, string) {
	var x js.IExpr
	switch n := st.(type) {
	case *js.ExprStmt:
		x = n.Value
	case *js.ReturnStmt: // an arrow function's expression body
		x = n.Value
	}
	c, ok := x.(*js.CallExpr)
	if !ok {
		return nil, ""
	}
	obj, name := calleeName(c.X)
	if obj == "console" {
		return c, "console"
	}
	if obj == "" && ws.global && (name == "setTimeout" || name == "setInterval") {
		return c, name
	}
	if obj != ws.socket {
		return c, ""
	}
	return c, name
}

// stmt reads one statement of the callback (opened: of the open handler).
func (ws *wsSession) stmt(st js.IStmt, opened bool) {
	f := ws.f
	c, name := ws.socketCall(st)
	args := []js.Arg(nil)
	if c != nil {
		args = c.Args.List
	}
	switch {
	case name == "console":
	case name == "on" && len(args) == 2 && !opened:
		ws.on(args, c)
	case name == "send" && len(args) == 1 && opened:
		ws.send(args[0].Value, "", c)
	case (name == "setTimeout" || name == "setInterval") && len(args) == 2:
		ws.timer(name, args, c)
	default:
		if c != nil {
			f.s.note("%s: in a WebSocket session: %s (a ws: step sends text when the session opens and on a schedule, and ends after a time or a message)", f.s.at(snippet(c)), snippet(c))
			return
		}
		f.s.note("%s: in a WebSocket session: %s", f.s.at(snippet(st)), snippet(st))
	}
}

// on reads socket.on(event, handler).
func (ws *wsSession) on(args []js.Arg, c *js.CallExpr) {
	event, _ := ws.f.s.eval(args[0].Value, ws.f).asText()
	ws.onEvent(event, args[1].Value, snippet(c))
}

// onEvent reads a handler of event; what names the code that set it.
func (ws *wsSession) onEvent(event string, handler js.IExpr, what string) {
	f := ws.f
	body, _ := funcOf(handler)
	switch event {
	case "open":
		for _, s := range body {
			ws.stmt(s, true)
		}
	case "message":
		_, param := funcOf(handler)
		for _, s := range body {
			if ws.messageCheck(s, param) {
				continue
			}
			if _, name := ws.socketCall(s); name == "console" {
				continue
			} else if name == "close" && ws.w.MaxMessages == 0 && len(body) <= 2 {
				ws.w.MaxMessages = 1 // closed on the first message
				continue
			}
			why, what := "a ws: step does not send in reply to a message", snippet(s)
			if c, _ := ws.socketCall(s); c != nil {
				what = snippet(c) // the statement's snippet ends in ";", which the script's text may not
				if f.s.k6[calleeNameOnly(c)] == "check" {
					why = "a ws: step checks a message's text, what it includes, or its JSON fields against values"
				}
			}
			f.s.note("%s: on a message: %s (%s)", f.s.at(what), what, why)
		}
	case "close", "error", "ping", "pong":
		for _, s := range body {
			if _, name := ws.socketCall(s); name != "console" {
				f.s.note("%s: on %s: %s", f.s.at(snippet(s)), event, snippet(s))
			}
		}
	default:
		f.s.note("%s: %s: a handler of %q", f.s.at(what), what, event)
	}
}

// send adds a text message sent when the session opens, and every every.
func (ws *wsSession) send(e js.IExpr, every string, c *js.CallExpr) {
	if !ws.f.s.room() { // a message counts as a step: a script may send millions through helpers
		return
	}
	t, ok := ws.f.s.eval(e, ws.f).asText()
	if !ok {
		ws.f.s.note("%s: a message the import cannot work out: %s", ws.f.s.at(snippet(c)), snippet(c))
		return
	}
	ws.w.Sends = append(ws.w.Sends, importer.WSSend{Text: t, Every: every})
}

// timer reads socket.setTimeout(() => socket.close(), ms), the session's
// length, and socket.setInterval(() => socket.send(x), ms), a message on a
// schedule.
func (ws *wsSession) timer(name string, args []js.Arg, c *js.CallExpr) {
	f := ws.f
	body, _ := funcOf(args[0].Value)
	ms, ok := f.number(args[1].Value)
	if body == nil || !ok || ms <= 0 {
		f.s.note("%s: %s", f.s.at(snippet(c)), snippet(c))
		return
	}
	every := secs(ms / 1000)
	for _, s := range body {
		sc, call := ws.socketCall(s)
		switch {
		case call == "console":
		case call == "close" && name == "setTimeout":
			if ws.w.Duration == "" {
				ws.w.Duration = every
			}
		case call == "send" && name == "setInterval" && len(sc.Args.List) == 1:
			ws.send(sc.Args.List[0].Value, every, sc)
			f.s.note("%s: %s's message is sent when the session opens too (k6 sends it first after %s)", f.s.at(snippet(c)), snippet(c.X), every)
		default:
			f.s.note("%s: in %s: %s", f.s.at(snippet(s)), snippet(c.X), snippet(s))
		}
	}
}

// calleeNameOnly names a call's function when it is a plain name: check(...).
func calleeNameOnly(c *js.CallExpr) string {
	if obj, name := calleeName(c.X); obj == "" {
		return name
	}
	return ""
}
