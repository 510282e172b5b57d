package k6

import (
	"slices"
	"strconv"
	"strings"

	"github.com/tdewolff/parse/v2/js"

	"github.com/loadlens/loadlens/internal/importer"
)

// loopUse is how a loop's body reads its variable: whole (x), or the
// fields of an element (x.id).
type loopUse struct {
	whole  bool
	fields []string
}

func (u loopUse) used() bool { return u.whole || len(u.fields) > 0 }

// loopBody converts a loop's body into the steps of its repeat: or
// for_each: step, the loop's variable read as the for_each's.
func (f *flow) loopBody(h loopHead, body *js.BlockStmt, st js.IStmt) {
	at := f.s.at(snippet(st))
	elem, step, pre, why := f.loopStep(h, usesOf(body, h.name))
	if why != "" {
		f.s.note("%s: loop %s (%s)", at, snippet(st), why)
		return
	}
	outer, shadowed := f.locals[h.name]
	f.locals[h.name] = elem
	before, sockets, streams := len(f.steps), f.sockets, f.streams
	written := make([]int, len(streams))
	for i, s := range streams {
		written[i] = len(s.messages)
	}
	f.sockets, f.streams = nil, nil
	f.block(body.List)
	f.loopWrites(streams, written, step, at)
	opened := len(f.steps)
	f.endSockets()
	f.endStreams()
	if len(f.steps) > opened {
		f.s.note("%s: the sessions and streams the loop opens run one after another (k6 runs them at once)", at)
	}
	f.sockets, f.streams = sockets, streams
	delete(f.locals, h.name)
	if shadowed {
		f.locals[h.name] = outer
	}
	if len(f.steps) == before {
		return // its body converts to nothing: what it holds is noted
	}
	f.groups = append(f.groups, span{start: before, end: len(f.steps), loop: &step, pre: pre})
}

// loopStep makes a loop's step: repeat: when its body does not read its
// variable, else for_each: over the array (a written one set first, as
// JSON), with path: when the body reads one field of an element. elem is
// what the body's variable stands for.
func (f *flow) loopStep(h loopHead, u loopUse) (elem value, st importer.Step, pre []importer.Step, why string) {
	if h.listVar == "" && !u.used() {
		return value{}, importer.Step{Repeat: h.count}, nil, ""
	}
	if len(u.fields) > 1 || (len(u.fields) == 1 && u.whole) {
		return value{}, st, nil, "its body reads " + describeUse(u) + " of each element; a for_each gives one (path:)"
	}
	as := f.newVar(varName(h.name))
	st = importer.Step{ForEach: h.listVar, As: as}
	elem = str("{{ " + as + " }}")
	if len(u.fields) == 1 {
		st.EachPath = "$." + u.fields[0]
		elem = value{kind: "obj", obj: []prop{{u.fields[0], elem}}}
	}
	if h.listVar != "" {
		st.Comment = "k6 visits every element of " + h.listVar + "; a for_each at most " + strconv.Itoa(importer.DefaultForEach) + " (max:)"
		return elem, st, nil, ""
	}
	list := value{kind: "arr", arr: h.list}
	if h.counted {
		list.arr = make([]value, h.count)
		for i := range list.arr {
			list.arr[i] = numv(h.from + i)
		}
	}
	text, _ := list.jsonOf()
	st.ForEach = f.newVar(as + "_list")
	if h.count > importer.DefaultForEach {
		st.Max = h.count
	}
	return elem, st, []importer.Step{{Set: []importer.KV{{Key: st.ForEach, Value: text}}}}, ""
}

// describeUse names what a body reads of its loop's variable.
func describeUse(u loopUse) string {
	parts := slices.Clone(u.fields)
	if u.whole {
		parts = append(parts, "the element itself")
	}
	return strings.Join(parts, ", ")
}

// usesOf finds how body reads the variable name.
func usesOf(body *js.BlockStmt, name string) loopUse {
	u := &loopUse{}
	if name != "" {
		js.Walk(useWalker{name, u}, body)
	}
	return *u
}

type useWalker struct {
	name string
	u    *loopUse
}

func (w useWalker) Enter(n js.INode) js.IVisitor {
	switch x := n.(type) {
	case *js.DotExpr:
		if isVarNamed(x.X, w.name) {
			if field := string(x.Y.(js.LiteralExpr).Data); !slices.Contains(w.u.fields, field) {
				w.u.fields = append(w.u.fields, field)
			}
			return nil
		}
	case *js.Var:
		if string(x.Data) == w.name {
			w.u.whole = true
		}
	}
	return w
}

func (useWalker) Exit(js.INode) {}

// jumps says why a loop's body does not convert: a break, continue or
// return of the loop itself (a test's loop runs its steps whole).
func jumps(body *js.BlockStmt) string {
	w := &jumpWalker{}
	js.Walk(w, body)
	return w.why
}

type jumpWalker struct{ why string }

func (w *jumpWalker) Enter(n js.INode) js.IVisitor {
	switch x := n.(type) {
	case *js.FuncDecl, *js.ArrowFunc, *js.MethodDecl, *js.ForStmt, *js.ForOfStmt, *js.ForInStmt, *js.WhileStmt, *js.DoWhileStmt:
		return nil // its own jumps
	case *js.BranchStmt, *js.ReturnStmt:
		if w.why == "" {
			w.why = "its body leaves it early (" + strings.TrimSuffix(snippet(x.(js.IStmt)), ";") + "); a test's loop runs its steps whole"
		}
	}
	return w
}

func (*jumpWalker) Exit(js.INode) {}

// loopWrites repeats the messages a repeat: loop's body wrote to a stream
// opened before it, count times in all, as k6 writes them; a for_each
// cannot write its elements into one call's messages, which is noted.
func (f *flow) loopWrites(streams []*grpcStream, written []int, step importer.Step, at string) {
	for i, s := range streams {
		added := s.messages[written[i]:]
		if len(added) == 0 {
			continue
		}
		if step.Repeat == 0 {
			f.s.note("%s: messages written to a stream in a loop over an array (a grpc: step's messages are written in the test)", at)
			s.messages = append(s.messages, "") // a message missing: the call is not made
			continue
		}
		added = slices.Clone(added)
		for range step.Repeat - 1 {
			if f.s.steps += len(added); f.s.steps > maxSteps {
				return
			}
			s.messages = append(s.messages, added...)
		}
	}
}
