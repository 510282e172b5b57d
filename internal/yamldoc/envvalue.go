package yamldoc

import (
	"errors"
	"math"
	"strconv"
	"strings"

	"github.com/goccy/go-yaml/ast"

	"github.com/loadlens/loadlens/internal/tmpl"
)

// templated returns the text of a string scalar holding a template: a
// duration or number to take from the environment.
func templated(n Node) (string, bool) {
	v, ok := n.V.(*ast.StringNode)
	if !ok || !strings.Contains(v.Value, "{{") {
		return "", false
	}
	return v.Value, true
}

// envConst renders src, the template at n, which may only look up the
// environment: what (such as "a duration") is fixed for the whole run.
func (d *Doc) envConst(n Node, src, what string) (string, bool) {
	t, ok := d.Compile(n, src, &tmpl.Scope{Env: d.Env})
	if !ok {
		return "", false
	}
	s, isConst := t.Const()
	if !isConst {
		d.Errs.Add(n.Pos, n.Path, "%s is fixed for the whole run: only env lookups may be templated", what)
		return "", false
	}
	return s, true
}

// envNumber reads a number taken from the environment, such as
// rate: '{{ env("RATE", "50") }}', so that one file runs small in CI and at
// full load by hand, as a duration may; what says what was expected.
func (d *Doc) envNumber(n Node, src, what string) (float64, bool) {
	s, ok := d.envConst(n, src, "a number")
	if !ok {
		return 0, false
	}
	f, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	switch {
	case errors.Is(err, strconv.ErrRange) && math.IsInf(f, 0):
		d.Errs.Add(n.Pos, n.Path, "number %q from %s is too large", s, src)
		return 0, false
	case err != nil || math.IsInf(f, 0) || math.IsNaN(f):
		d.Errs.Add(n.Pos, n.Path, "bad number %q from %s: expected %s", s, src, what)
		return 0, false
	}
	return f, true
}

// ValueText returns a scalar's text as written or, for a number taken from
// the environment, the text it rendered (call it once the value was read
// without error): what a check compares with, what an error quotes.
func (d *Doc) ValueText(n Node) string {
	src, ok := templated(n)
	if !ok {
		return ScalarText(n.V)
	}
	t, err := tmpl.Compile(src, &tmpl.Scope{Env: d.Env})
	if err != nil {
		return src
	}
	s, _ := t.Const()
	return strings.TrimSpace(s)
}

// From says, for an error about a value taken from the environment, which
// template it came from: " from {{ env.RATE }}"; "" for one written out.
func (d *Doc) From(n Node) string {
	if src, ok := templated(n); ok {
		return " from " + src
	}
	return ""
}

// Fixed is Str for a value fixed for the whole run (a size): a template in
// it may only look up the environment, and is rendered. kind names the
// value in that error, what in a type error.
func (d *Doc) Fixed(n Node, kind, what string) (string, bool) {
	if src, ok := templated(n); ok {
		s, ok := d.envConst(n, src, kind)
		return strings.TrimSpace(s), ok
	}
	return d.Str(n, what)
}
