package plan

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/token"

	"github.com/loadlens/loadlens/internal/tmpl"
)

// durationHint ends every bad-duration message.
const durationHint = "(use 500ms, 2s, 1m)"

// str returns a scalar as text; numbers and booleans count as their text,
// so `name: 2024` works. Null, lists and mappings are type errors.
func (p *parser) str(n node, what string) (string, bool) {
	if n.bad {
		return "", false
	}
	switch n.v.(type) {
	case *ast.MappingNode, *ast.MappingValueNode, *ast.SequenceNode, *ast.NullNode:
		p.typeError(n, what)
		return "", false
	}
	return scalarText(n.v), true
}

// nonEmpty is str that also rejects the empty string.
func (p *parser) nonEmpty(n node, what string) (string, bool) {
	s, ok := p.str(n, what)
	if ok && s == "" {
		p.errs.add(n.pos, n.path, "must not be empty")
		return "", false
	}
	return s, ok
}

// text is str that reads null as the empty string, for header, query and
// form values where `X-Empty:` means an empty value.
func (p *parser) text(n node, what string) (string, bool) {
	if _, isNull := n.v.(*ast.NullNode); isNull {
		return "", true
	}
	return p.str(n, what)
}

// isPlain reports whether n is an unquoted scalar, which YAML lets stand for
// a number even when the parser left it a string (1e3, huge integers).
func isPlain(n node) bool {
	s, ok := n.v.(*ast.StringNode)
	return ok && !n.str && s.Token != nil && s.Token.Type == token.StringType
}

// float returns a finite number.
func (p *parser) float(n node, what string) (float64, bool) {
	var f float64
	switch v := n.v.(type) {
	case *ast.IntegerNode:
		switch x := v.Value.(type) {
		case int64:
			f = float64(x)
		case uint64:
			f = float64(x)
		default:
			p.errs.add(n.pos, n.path, "bad number %s", scalarText(n.v))
			return 0, false
		}
	case *ast.FloatNode:
		f = v.Value
	case *ast.InfinityNode, *ast.NanNode:
		p.errs.add(n.pos, n.path, "must be a finite number, got %s", scalarText(n.v))
		return 0, false
	default:
		parsed, err := strconv.ParseFloat(scalarText(n.v), 64)
		if !isPlain(n) || err != nil || math.IsInf(parsed, 0) || math.IsNaN(parsed) {
			p.typeError(n, what)
			return 0, false
		}
		f = parsed
	}
	if n.str {
		p.typeError(n, what)
		return 0, false
	}
	return f, true
}

// nonNegative returns a number ≥ 0.
func (p *parser) nonNegative(n node, what string) (float64, bool) {
	f, ok := p.float(n, what)
	if ok && f < 0 {
		p.errs.add(n.pos, n.path, "must not be negative, got %s", scalarText(n.v))
		return 0, false
	}
	return f, ok
}

// integer returns a whole number no smaller than min.
func (p *parser) integer(n node, min int64) (int64, bool) {
	var i int64
	switch v := n.v.(type) {
	case *ast.IntegerNode:
		if n.str {
			p.typeError(n, "a whole number")
			return 0, false
		}
		x, isInt := intValue(v)
		if !isInt {
			p.errs.add(n.pos, n.path, "number %s is too large", scalarText(n.v))
			return 0, false
		}
		i = x
	default:
		f, ok := p.float(n, "a whole number")
		if !ok {
			return 0, false
		}
		if f != math.Trunc(f) {
			p.errs.add(n.pos, n.path, "expected a whole number, got %s", scalarText(n.v))
			return 0, false
		}
		if math.Abs(f) >= 1<<62 {
			p.errs.add(n.pos, n.path, "number %s is too large", scalarText(n.v))
			return 0, false
		}
		i = int64(f)
	}
	if i < min {
		if min == 0 {
			p.errs.add(n.pos, n.path, "must not be negative, got %d", i)
		} else {
			p.errs.add(n.pos, n.path, "must be at least %d, got %d", min, i)
		}
		return 0, false
	}
	return i, true
}

// count is integer for counts that fit an int and stay below a sane bound.
func (p *parser) count(n node, min int64) (int, bool) {
	i, ok := p.integer(n, min)
	if ok && i > 1<<31 {
		p.errs.add(n.pos, n.path, "number %d is too large (at most %d)", i, int64(1<<31))
		return 0, false
	}
	return int(i), ok
}

// boolean returns true or false.
func (p *parser) boolean(n node) (bool, bool) {
	b, ok := n.v.(*ast.BoolNode)
	if !ok || n.str {
		p.typeError(n, "true or false")
		return false, false
	}
	return b.Value, true
}

// duration returns a non-negative duration written like 500ms, 2s or 1m; a
// bare 0 is allowed because it needs no unit.
func (p *parser) duration(n node) (time.Duration, bool) {
	switch v := n.v.(type) {
	case *ast.StringNode:
		if strings.Contains(v.Value, "{{") {
			return p.envDuration(n, v.Value)
		}
		return p.durationText(n, v.Value, 0)
	case *ast.IntegerNode:
		if x, ok := intValue(v); ok && x == 0 {
			return 0, true
		}
		p.errs.add(n.pos, n.path, "bad duration %s: add a unit, like %[1]sms, %[1]ss or %[1]sm", scalarText(n.v))
		return 0, false
	case *ast.FloatNode:
		p.errs.add(n.pos, n.path, "bad duration %s: add a unit, like %[1]ss", scalarText(n.v))
		return 0, false
	}
	p.typeError(n, "a duration like 500ms, 2s or 1m")
	return 0, false
}

// durationText parses s, which starts at byte off of n's value.
func (p *parser) durationText(n node, s string, off int) (time.Duration, bool) {
	d, err := time.ParseDuration(strings.TrimSpace(s))
	switch {
	case err != nil && durationOverflows(s):
		p.errs.add(p.src.posAt(n.v, off), n.path, "duration %q is too large: at most %s", s, maxDurationText)
		return 0, false
	case err != nil:
		p.errs.add(p.src.posAt(n.v, off), n.path, "bad duration %q %s", s, durationHint)
		return 0, false
	}
	if d < 0 {
		p.errs.add(p.src.posAt(n.v, off), n.path, "must not be negative, got %s", s)
		return 0, false
	}
	return d, true
}

// envDuration reads a duration taken from the environment, such as
// {{ env("HOLD", "9m") }}, so that one file can run short in CI and at full
// length by hand; nothing that changes per request may be templated.
func (p *parser) envDuration(n node, src string) (time.Duration, bool) {
	t, ok := p.compile(n, src, &tmpl.Scope{Env: p.env})
	if !ok {
		return 0, false
	}
	s, isConst := t.Const()
	if !isConst {
		p.errs.add(n.pos, n.path, "a duration is fixed for the whole run: only env lookups may be templated")
		return 0, false
	}
	d, err := time.ParseDuration(strings.TrimSpace(s))
	switch {
	case err != nil && durationOverflows(s):
		p.errs.add(n.pos, n.path, "duration %q from %s is too large: at most %s", s, src, maxDurationText)
		return 0, false
	case err != nil:
		p.errs.add(n.pos, n.path, "bad duration %q from %s %s", s, src, durationHint)
		return 0, false
	case d < 0:
		p.errs.add(n.pos, n.path, "must not be negative, got %s from %s", s, src)
		return 0, false
	}
	return d, true
}

// positiveDuration is duration that also rejects 0.
func (p *parser) positiveDuration(n node) (time.Duration, bool) {
	d, ok := p.duration(n)
	if ok && d == 0 {
		p.errs.add(n.pos, n.path, "must be greater than 0 %s", durationHint)
		return 0, false
	}
	return d, ok
}

// oneOf returns a string that must be one of choices.
func (p *parser) oneOf(n node, choices ...string) (string, bool) {
	s, ok := p.str(n, "one of "+strings.Join(choices, ", "))
	if !ok {
		return "", false
	}
	for _, c := range choices {
		if s == c {
			return s, true
		}
	}
	msg := fmt.Sprintf("unknown value %q", s)
	if c := closest(s, choices); c != "" {
		msg += fmt.Sprintf("; did you mean %q?", c)
	}
	p.errs.add(n.pos, n.path, "%s (use %s)", msg, strings.Join(choices, ", "))
	return "", false
}

// intValue returns an integer node's value when it fits an int64.
func intValue(v *ast.IntegerNode) (int64, bool) {
	switch x := v.Value.(type) {
	case int64:
		return x, true
	case uint64:
		if x <= math.MaxInt64 {
			return int64(x), true
		}
	}
	return 0, false
}
