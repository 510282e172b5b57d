package plan

import (
	"time"

	"github.com/loadlens/loadlens/internal/jsonpath"
	"github.com/loadlens/loadlens/internal/tmpl"
)

// Bounds of the control-flow steps: an iteration's work stays bounded
// whatever a response holds.
const (
	MaxRepeat       = 10000 // the most times a repeat: runs its steps
	DefaultForEach  = 100   // the most elements for_each: visits unless max: says
	MaxForEach      = 10000 // the largest max: of a for_each
	MaxFlowDepth    = 16    // how deeply control-flow steps may nest
	maxChooseWeight = 1_000_000
)

// Block is a control-flow step's sub-flows and parameters. Only the fields
// of its step's kind are set.
type Block struct {
	Name  string // GroupStep: the group's name, as k6's group tag (outer::inner when nested)
	Group int32  // GroupStep: id in Layout.Groups
	Count int    // RepeatStep: how many times; ForEachStep: the most elements visited
	List  int    // ForEachStep: the slot of the variable holding the array
	Var   int    // ForEachStep: the slot each element is put in
	Path  jsonpath.Path
	Cond  *Cond    // IfStep
	Steps []Step   // GroupStep, RepeatStep, ForEachStep: the body; IfStep: the steps when Cond holds
	Else  []Step   // IfStep: the steps when it does not
	Paths []Branch // ChooseStep
	Total int      // ChooseStep: the sum of the weights
	Sets  []Set    // SetStep
	Adds  []Add    // AddStep
}

// Branch is one weighted choice of a choose: step.
type Branch struct {
	Weight int
	Steps  []Step
}

// Set is one variable a set: step (or a scenario's vars) gives a value.
type Set struct {
	Var   int // slot in Scenario.Vars
	Name  string
	Value *tmpl.Template
}

// CondSubject says what a condition tests.
type CondSubject uint8

// The subjects of an if: or unless: condition.
const (
	CondVar    CondSubject = iota // a variable's value
	CondStatus                    // the status of the iteration's last response (0: none)
	CondChecks                    // whether every check of the last request passed
)

// Cond is an if: or unless: condition. Var conditions compare as checks
// do (Test's Op, Values and Regex); a status condition is an OpIn.
type Cond struct {
	On     CondSubject
	Var    int   // CondVar: the slot tested
	Test   Check // the comparison (From is unused)
	Passed bool  // CondChecks: true tests that every check passed
	Negate bool  // unless:
}

// Walk calls fn for every request, session and think step of flow, nested ones
// included, in the order they are written.
func Walk(flow []Step, fn func(*Step)) {
	for i := range flow {
		st := &flow[i]
		switch st.Kind {
		case RequestStep, ThinkStep, SessionStep:
			fn(st)
			continue
		}
		if b := st.Block; b != nil {
			Walk(b.Steps, fn)
			Walk(b.Else, fn)
			for _, br := range b.Paths {
				Walk(br.Steps, fn)
			}
		}
	}
}

// worstCase returns the most requests one run of flow sends and the
// longest it can take (every request timing out, every think at its
// maximum): loops count fully, branches count their largest.
func worstCase(flow []Step) (requests int64, d time.Duration) {
	for i := range flow {
		st := &flow[i]
		switch st.Kind {
		case RequestStep:
			requests++
			if st.Request != nil {
				d = cappedAdd(d, st.Request.Timeout)
			}
		case ThinkStep:
			d = cappedAdd(d, st.ThinkMax)
		case SessionStep:
			requests++
			d = cappedAdd(d, st.Session.Longest())
		case GroupStep, RepeatStep, ForEachStep, IfStep, ChooseStep:
			r, t := blockWorst(st)
			requests, d = satAdd(requests, r), cappedAdd(d, t)
		}
	}
	return requests, d
}

// blockWorst is worstCase for one control-flow step.
func blockWorst(st *Step) (int64, time.Duration) {
	b := st.Block
	switch st.Kind {
	case RepeatStep, ForEachStep:
		r, t := worstCase(b.Steps)
		return satMul(r, int64(b.Count)), cappedMul(t, b.Count)
	case IfStep:
		r1, t1 := worstCase(b.Steps)
		r2, t2 := worstCase(b.Else)
		return max(r1, r2), max(t1, t2)
	case ChooseStep:
		var r int64
		var t time.Duration
		for _, br := range b.Paths {
			r2, t2 := worstCase(br.Steps)
			r, t = max(r, r2), max(t, t2)
		}
		return r, t
	}
	return worstCase(b.Steps)
}

func satAdd(a, b int64) int64 {
	if a > 1<<62 || b > 1<<62 {
		return 1 << 62
	}
	return a + b
}

func satMul(a, n int64) int64 {
	if n != 0 && a > (1<<62)/n {
		return 1 << 62
	}
	return a * n
}

func cappedMul(d time.Duration, n int) time.Duration {
	if n != 0 && d > time.Duration(1<<62)/time.Duration(n) {
		return 1 << 62
	}
	return d * time.Duration(n)
}
