package k6

import (
	"strconv"

	"github.com/tdewolff/parse/v2/js"

	"github.com/loadlens/loadlens/internal/importer"
)

// whileRuns bounds a converted while (true): k6 runs it until its break,
// a test's loop runs a count written in it.
const whileRuns = importer.DefaultForEach

// whileBreak converts a polling loop, while (true) { ...; if (res.status
// === N) break; ... } with res the loop's last request, into
//
//	set: {done: ""}
//	repeat: 100 (unless: done (its steps; if: {status: N} then set: {done: 1} else the rest))
//
// so the requests stop at the status k6 breaks at, as many as k6 sends
// while it comes within 100 runs (said in the repeat's comment). It
// reports whether it did; any other while is noted by the caller.
func (f *flow) whileBreak(n *js.WhileStmt) bool {
	body, ok := n.Body.(*js.BlockStmt)
	if lit, isLit := n.Cond.(*js.LiteralExpr); !ok || !isLit || lit.TokenType != js.TrueToken {
		return false
	}
	k := breakAt(body.List)
	if k < 0 || jumps(&js.BlockStmt{List: append(append([]js.IStmt{}, body.List[:k]...), body.List[k+1:]...)}) != "" {
		return false
	}
	steps, groups, notes := len(f.steps), len(f.groups), len(f.s.t.NotConverted)
	done := f.newVar("done")
	if !f.s.room() {
		return false
	}
	f.steps = append(f.steps, importer.Step{Set: []importer.KV{{Key: done, Value: ""}}})
	start := len(f.steps)
	f.block(body.List[:k])
	step, code, neg, ok := f.statusTest(body.List[k].(*js.IfStmt).Cond)
	if !ok || step < start || f.requestAfter(step) || !f.s.room() {
		f.steps, f.groups, f.s.t.NotConverted = f.steps[:steps], f.groups[:groups], f.s.t.NotConverted[:notes]
		return false
	}
	f.steps = append(f.steps, importer.Step{Set: []importer.KV{{Key: done, Value: "1"}}})
	t := len(f.steps) - 1
	f.block(body.List[k+1:])
	end := len(f.steps)
	loop := importer.Step{Repeat: whileRuns, Comment: "k6 runs while (true) until its break; a repeat at most " + strconv.Itoa(whileRuns) + " times"}
	f.groups = append(f.groups,
		span{start: t, mid: t + 1, end: end, cond: "{status: " + strconv.Itoa(code) + "}", unless: neg},
		span{start: start, mid: end, end: end, cond: done, unless: true},
		span{start: start, end: end, loop: &loop})
	return true
}

// breakAt returns the index of the one statement of list that is
// if (...) break; (or if (...) { break; }) without an else; -1 when there
// is none or more than one.
func breakAt(list []js.IStmt) int {
	at := -1
	for i, st := range list {
		ifst, ok := st.(*js.IfStmt)
		if !ok || ifst.Else != nil {
			continue
		}
		b := ifst.Body
		if blk, isBlock := b.(*js.BlockStmt); isBlock && len(blk.List) == 1 {
			b = blk.List[0]
		}
		if br, isBranch := b.(*js.BranchStmt); isBranch && br.Type == js.BreakToken && br.Label == nil {
			if at >= 0 {
				return -1
			}
			at = i
		}
	}
	return at
}
