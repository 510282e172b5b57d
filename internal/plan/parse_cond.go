package plan

import (
	"slices"
	"strconv"
	"strings"

	"github.com/loadlens/loadlens/internal/yamldoc"
)

// condSubjects are what an if: or unless: can test; a condition has one.
var condSubjects = []string{"var", "status", "checks"}

// condKeys are the keys of a condition written as a mapping.
var condKeys = append(slices.Clone(condSubjects), checkOps...)

// cond parses an if: or unless: condition: a variable's name (true when
// it is not empty), {var: NAME, <comparison>}, {status: 200 | [..]} or
// {checks: passed | failed}.
func (p *parser) cond(n yamldoc.Node, sc *scenarioCtx, negate bool) *Cond {
	c := &Cond{Negate: negate}
	if !yamldoc.IsMapping(n.V) {
		name, ok := p.NonEmpty(n, "a condition: a variable's name, {var: NAME, eq: V}, {status: 200} or {checks: passed}")
		if ok {
			c.Var = p.varSlot(n, name, sc)
			c.Test = Check{Op: OpExists, Values: []string{"true"}}
		}
		return c
	}
	o, ok := p.Object(n, "", condKeys)
	if !ok {
		return c
	}
	var subject *yamldoc.Field
	var ops []yamldoc.Field
	for i, f := range o.Fields {
		switch {
		case slices.Contains(condSubjects, f.Name) && subject != nil:
			p.Errs.Add(f.Value.Key, f.Value.Path, "a condition tests one thing: %s and %s both given", subject.Name, f.Name)
		case slices.Contains(condSubjects, f.Name):
			subject = &o.Fields[i]
		default:
			ops = append(ops, f)
		}
	}
	if subject == nil {
		p.Errs.Missing(n.Key, n.Path, n.Path, "a condition needs one of %s", strings.Join(condSubjects, ", "))
		return c
	}
	switch subject.Name {
	case "var":
		p.varCond(c, subject.Value, ops, sc)
	case "status":
		c.On = CondStatus
		p.noOps(ops, "status")
		codes, _, _ := p.StatusCodes(subject.Value)
		c.Test = Check{Op: OpIn}
		for _, code := range codes {
			c.Test.Values = append(c.Test.Values, strconv.Itoa(code))
		}
	case "checks":
		c.On = CondChecks
		p.noOps(ops, "checks")
		s, _ := p.OneOf(subject.Value, "passed", "failed")
		c.Passed = s == "passed"
	}
	return c
}

// varCond parses {var: NAME} with at most one comparison; none tests that
// the variable is not empty.
func (p *parser) varCond(c *Cond, v yamldoc.Node, ops []yamldoc.Field, sc *scenarioCtx) {
	c.On = CondVar
	name, ok := p.NonEmpty(v, "a variable's name")
	if ok {
		c.Var = p.varSlot(v, name, sc)
	}
	switch len(ops) {
	case 0:
		c.Test = Check{Op: OpExists, Values: []string{"true"}}
	case 1:
		p.checkOp(&c.Test, ops[0], "var "+name, operands{})
	default:
		p.Errs.Add(ops[1].Value.Key, ops[1].Value.Path, "a condition makes one comparison: %s and %s both given; nest a second if:", ops[0].Name, ops[1].Name)
	}
}

// noOps reports comparisons given to a subject that takes none.
func (p *parser) noOps(ops []yamldoc.Field, subject string) {
	if len(ops) > 0 {
		p.Errs.Add(ops[0].Value.Key, ops[0].Value.Path, "%q does not apply to a %s condition (it goes with var:)", ops[0].Name, subject)
	}
}
