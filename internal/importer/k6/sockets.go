package k6

import (
	"strings"

	"github.com/tdewolff/parse/v2/js"

	"github.com/loadlens/loadlens/internal/importer"
)

// socketNew reads new WebSocket(url, protocols, params) of
// k6/experimental/websockets: a session whose handlers (ws.onopen = ...,
// ws.addEventListener('open', ...)) and timers (setTimeout(() =>
// ws.close(), ms)) the function's later statements set.
func (f *flow) socketNew(n *js.NewExpr) (value, bool) {
	v, ok := n.X.(*js.Var)
	if !ok || f.s.wsClass == "" || string(v.Data) != f.s.wsClass {
		return value{}, false
	}
	at := f.s.at(snippet(n))
	var args []js.Arg
	if n.Args != nil {
		args = n.Args.List
	}
	u := value{}
	if len(args) > 0 {
		u = f.s.eval(args[0].Value, f)
	}
	text, ok := u.asText()
	if !ok || strings.TrimSpace(text) == "" {
		f.s.note("%s: a WebSocket URL the import cannot work out: %s", at, snippet(n))
		return value{kind: "null"}, true
	}
	ws := &wsSession{f: f, global: true, at: at, made: len(f.steps), step: importer.Step{Path: httpURL(text), WS: &importer.WSSession{}}}
	ws.w = ws.step.WS
	if len(args) > 1 {
		f.s.note("%s: the subprotocols and params of %s", at, snippet(n))
	}
	f.sockets = append(f.sockets, ws)
	return value{kind: "socket", ref: ws}, true
}

// bind names the variable a socket is held in, which its handlers use.
func (f *flow) bind(name string, v value) {
	if ws, ok := v.ref.(*wsSession); ok && v.kind == "socket" && ws.socket == "" {
		ws.socket = name
	}
}

// propertySet reads ws.onopen = handler (and onmessage, onclose, onerror)
// of a WebSocket; any other property set is noted.
func (f *flow) propertySet(d *js.DotExpr, val js.IExpr) {
	prop := string(d.Y.(js.LiteralExpr).Data)
	if x, ok := d.X.(*js.Var); ok {
		if v := f.s.evalVar(x, f); v.kind == "socket" && strings.HasPrefix(prop, "on") {
			v.ref.(*wsSession).onEvent(prop[2:], val, snippet(d)+" = ...")
			return
		}
	}
	f.s.note("%s: %s = %s", f.s.at(snippet(d)), snippet(d), snippet(val))
}

// method reads a WebSocket's methods called in the function's own code:
// addEventListener(event, handler); a send or close there is noted (the
// socket is not open yet when the function's code runs).
func (ws *wsSession) method(name string, args []js.Arg, c *js.CallExpr) {
	if name == "addEventListener" && len(args) >= 2 {
		ws.on(args[:2], c)
		return
	}
	ws.f.s.note("%s: %s (a WebSocket sends and closes from its handlers and timers)", ws.f.s.at(snippet(c)), snippet(c))
}

// endSockets adds the function's WebSocket sessions as ws: steps after
// its other steps, as k6 runs their handlers once the function's code has
// run; one without an end the import finds is noted instead.
func (f *flow) endSockets() {
	for _, ws := range f.sockets {
		switch {
		case ws.w.Duration == "" && ws.w.MaxMessages == 0:
			f.s.note("%s: a WebSocket session without an end the import finds (setTimeout(() => ws.close(), ms), or ws.close() on a message)", ws.at)
		case ws.w.Duration == "" && hasEvery(ws.w.Sends):
			f.s.note("%s: a WebSocket session that sends on a schedule until a message closes it (a ws: step's schedule needs its duration)", ws.at)
		default:
			if len(f.steps) > ws.made {
				f.s.note("%s: the WebSocket's session runs after the function's other steps (k6 runs it alongside them)", ws.at)
			}
			ws.step.Check = append(ws.step.Check, ws.checks...)
			if hasUserinfo(ws.step.Path) {
				ws.step.Name = withoutUserinfo(ws.step.Path)
			}
			if f.s.room() {
				f.steps = append(f.steps, ws.step)
			}
		}
	}
	f.sockets = nil
}

func hasEvery(sends []importer.WSSend) bool {
	for _, s := range sends {
		if s.Every != "" {
			return true
		}
	}
	return false
}
