package k6

import (
	"strconv"

	"github.com/tdewolff/parse/v2/js"
)

// ifStatus converts if (res.status === N) {...} else {...} (or !==), res
// the last request's response, into an if: {status: N} step (unless: for
// !==), as a test's status condition
// reads the iteration's last response. It reports whether it did; a
// branch that checks an earlier response is not converted (a test checks
// a response whenever its request is sent, not under a condition).
func (f *flow) ifStatus(n *js.IfStmt) bool {
	step, code, neg, ok := f.statusTest(n.Cond)
	if !ok || f.requestAfter(step) {
		return false
	}
	checks := make([][2]int, len(f.steps))
	for i, st := range f.steps {
		checks[i] = [2]int{len(st.Check), len(st.Extract)}
	}
	before, groups, notes, noted := len(f.steps), len(f.groups), len(f.s.t.NotConverted), f.s.noted
	f.stmt(n.Body)
	mid := len(f.steps)
	if n.Else != nil {
		f.stmt(n.Else)
	}
	why := ""
	if f.s.noted > noted {
		why = "a branch holds what the import does not convert: the whole statement is left out"
	}
	for i, c := range checks {
		if len(f.steps[i].Check) != c[0] || len(f.steps[i].Extract) != c[1] {
			why = "a check or extraction of an earlier response under a condition: a test's runs whenever its request is sent"
		}
	}
	if why != "" { // its requests are not sent either: noted with the statement
		for i, c := range checks {
			f.steps[i].Check, f.steps[i].Extract = f.steps[i].Check[:c[0]], f.steps[i].Extract[:c[1]]
		}
		f.steps, f.groups, f.s.t.NotConverted = f.steps[:before], f.groups[:groups], f.s.t.NotConverted[:notes]
		f.s.note("%s: statement %s (%s)", f.s.at(snippet(n)), snippet(n), why)
		return true
	}
	if len(f.steps) == before {
		return true // its branches convert to nothing: what they hold is noted
	}
	f.groups = append(f.groups, span{start: before, mid: mid, end: len(f.steps), cond: "{status: " + strconv.Itoa(code) + "}", unless: neg})
	return true
}

// requestAfter reports whether a request, session or call comes after
// step's: a test's {status: N} would read that one's.
func (f *flow) requestAfter(step int) bool {
	for _, st := range f.steps[step+1:] {
		if st.Method != "" || st.GRPC != nil || st.WS != nil {
			return true
		}
	}
	return false
}
