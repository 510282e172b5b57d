package plan

import (
	"slices"
	"strconv"
	"strings"
)

// condSubjects are what an if: or unless: can test; a condition has one.
var condSubjects = []string{"var", "status", "checks"}

// condKeys are the keys of a condition written as a mapping.
var condKeys = append(slices.Clone(condSubjects), checkOps...)

// cond parses an if: or unless: condition: a variable's name (true when
// it is not empty), {var: NAME, <comparison>}, {status: 200 | [..]} or
// {checks: passed | failed}.
func (p *parser) cond(n node, sc *scenarioCtx, negate bool) *Cond {
	c := &Cond{Negate: negate}
	if !isMapping(n.v) {
		name, ok := p.nonEmpty(n, "a condition: a variable's name, {var: NAME, eq: V}, {status: 200} or {checks: passed}")
		if ok {
			c.Var = p.varSlot(n, name, sc)
			c.Test = Check{Op: OpExists, Values: []string{"true"}}
		}
		return c
	}
	o, ok := p.object(n, "", condKeys)
	if !ok {
		return c
	}
	var subject *field
	var ops []field
	for i, f := range o.fields {
		switch {
		case slices.Contains(condSubjects, f.name) && subject != nil:
			p.errs.add(f.val.key, f.val.path, "a condition tests one thing: %s and %s both given", subject.name, f.name)
		case slices.Contains(condSubjects, f.name):
			subject = &o.fields[i]
		default:
			ops = append(ops, f)
		}
	}
	if subject == nil {
		p.errs.missing(n.key, n.path, n.path, "a condition needs one of %s", strings.Join(condSubjects, ", "))
		return c
	}
	switch subject.name {
	case "var":
		p.varCond(c, subject.val, ops, sc)
	case "status":
		c.On = CondStatus
		p.noOps(ops, "status")
		codes, _, _ := p.statusCodes(subject.val)
		c.Test = Check{Op: OpIn}
		for _, code := range codes {
			c.Test.Values = append(c.Test.Values, strconv.Itoa(code))
		}
	case "checks":
		c.On = CondChecks
		p.noOps(ops, "checks")
		s, _ := p.oneOf(subject.val, "passed", "failed")
		c.Passed = s == "passed"
	}
	return c
}

// varCond parses {var: NAME} with at most one comparison; none tests that
// the variable is not empty.
func (p *parser) varCond(c *Cond, v node, ops []field, sc *scenarioCtx) {
	c.On = CondVar
	name, ok := p.nonEmpty(v, "a variable's name")
	if ok {
		c.Var = p.varSlot(v, name, sc)
	}
	switch len(ops) {
	case 0:
		c.Test = Check{Op: OpExists, Values: []string{"true"}}
	case 1:
		p.checkOp(&c.Test, ops[0], "var "+name)
	default:
		p.errs.add(ops[1].val.key, ops[1].val.path, "a condition makes one comparison: %s and %s both given; nest a second if:", ops[0].name, ops[1].name)
	}
}

// noOps reports comparisons given to a subject that takes none.
func (p *parser) noOps(ops []field, subject string) {
	if len(ops) > 0 {
		p.errs.add(ops[0].val.key, ops[0].val.path, "%q does not apply to a %s condition (it goes with var:)", ops[0].name, subject)
	}
}
