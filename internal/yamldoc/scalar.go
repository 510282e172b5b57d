package yamldoc

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/token"
)

// durationHint ends every bad-duration message.
const durationHint = "(use 500ms, 2s, 1m)"

// Str returns a scalar as text; numbers and booleans count as their text,
// so `name: 2024` works. Null, lists and mappings are type errors.
func (d *Doc) Str(n Node, what string) (string, bool) {
	if n.Bad {
		return "", false
	}
	switch n.V.(type) {
	case *ast.MappingNode, *ast.MappingValueNode, *ast.SequenceNode, *ast.NullNode:
		d.TypeError(n, what)
		return "", false
	}
	return ScalarText(n.V), true
}

// NonEmpty is str that also rejects the empty string.
func (d *Doc) NonEmpty(n Node, what string) (string, bool) {
	s, ok := d.Str(n, what)
	if ok && s == "" {
		d.Errs.Add(n.Pos, n.Path, "must not be empty")
		return "", false
	}
	return s, ok
}

// Text is str that reads null as the empty string, for header, query and
// form values where `X-Empty:` means an empty value.
func (d *Doc) Text(n Node, what string) (string, bool) {
	if _, isNull := n.V.(*ast.NullNode); isNull {
		return "", true
	}
	return d.Str(n, what)
}

// isPlain reports whether n is an unquoted scalar, which YAML lets stand for
// a number even when the parser left it a string (1e3, huge integers).
func isPlain(n Node) bool {
	s, ok := n.V.(*ast.StringNode)
	return ok && !n.StrTag && s.Token != nil && s.Token.Type == token.StringType
}

// Float returns a finite number, which may come from the environment as a
// duration may (see envNumber).
func (d *Doc) Float(n Node, what string) (float64, bool) {
	if src, ok := templated(n); ok {
		return d.envNumber(n, src, what)
	}
	var f float64
	switch v := n.V.(type) {
	case *ast.IntegerNode:
		switch x := v.Value.(type) {
		case int64:
			f = float64(x)
		case uint64:
			f = float64(x)
		default:
			d.Errs.Add(n.Pos, n.Path, "bad number %s", ScalarText(n.V))
			return 0, false
		}
	case *ast.FloatNode:
		f = v.Value
	case *ast.InfinityNode, *ast.NanNode:
		d.Errs.Add(n.Pos, n.Path, "must be a finite number, got %s", ScalarText(n.V))
		return 0, false
	default:
		parsed, err := strconv.ParseFloat(ScalarText(n.V), 64)
		if isPlain(n) && errors.Is(err, strconv.ErrRange) && math.IsInf(parsed, 0) {
			d.Errs.Add(n.Pos, n.Path, "number %s is too large", ScalarText(n.V)) // the YAML library read it as text
			return 0, false
		}
		if !isPlain(n) || err != nil || math.IsInf(parsed, 0) || math.IsNaN(parsed) {
			d.TypeError(n, what)
			return 0, false
		}
		f = parsed
	}
	if n.StrTag {
		d.TypeError(n, what)
		return 0, false
	}
	return f, true
}

// NonNegative returns a number ≥ 0.
func (d *Doc) NonNegative(n Node, what string) (float64, bool) {
	f, ok := d.Float(n, what)
	if ok && f < 0 {
		d.Errs.Add(n.Pos, n.Path, "must not be negative, got %s", d.ValueText(n)+d.From(n))
		return 0, false
	}
	return f, ok
}

// Integer returns a whole number no smaller than min.
func (d *Doc) Integer(n Node, min int64) (int64, bool) {
	var i int64
	switch v := n.V.(type) {
	case *ast.IntegerNode:
		if n.StrTag {
			d.TypeError(n, "a whole number")
			return 0, false
		}
		x, isInt := intValue(v)
		if !isInt {
			d.Errs.Add(n.Pos, n.Path, "number %s is too large", ScalarText(n.V))
			return 0, false
		}
		i = x
	default:
		f, ok := d.Float(n, "a whole number")
		if !ok {
			return 0, false
		}
		if f != math.Trunc(f) {
			d.Errs.Add(n.Pos, n.Path, "expected a whole number, got %s", d.ValueText(n)+d.From(n))
			return 0, false
		}
		if math.Abs(f) >= 1<<62 {
			d.Errs.Add(n.Pos, n.Path, "number %s is too large", d.ValueText(n)+d.From(n))
			return 0, false
		}
		i = int64(f)
	}
	if i < min {
		if min == 0 {
			d.Errs.Add(n.Pos, n.Path, "must not be negative, got %d%s", i, d.From(n))
		} else {
			d.Errs.Add(n.Pos, n.Path, "must be at least %d, got %d%s", min, i, d.From(n))
		}
		return 0, false
	}
	return i, true
}

// Count is integer for counts that fit an int and stay below a sane bound.
func (d *Doc) Count(n Node, min int64) (int, bool) {
	i, ok := d.Integer(n, min)
	if ok && i > 1<<31 {
		d.Errs.Add(n.Pos, n.Path, "number %d%s is too large (at most %d)", i, d.From(n), int64(1<<31))
		return 0, false
	}
	return int(i), ok
}

// Bool returns true or false.
func (d *Doc) Bool(n Node) (bool, bool) {
	b, ok := n.V.(*ast.BoolNode)
	if !ok || n.StrTag {
		d.TypeError(n, "true or false")
		return false, false
	}
	return b.Value, true
}

// Duration returns a non-negative duration written like 500ms, 2s or 1m; a
// bare 0 is allowed because it needs no unit.
func (d *Doc) Duration(n Node) (time.Duration, bool) {
	switch v := n.V.(type) {
	case *ast.StringNode:
		if src, ok := templated(n); ok {
			return d.envDuration(n, src)
		}
		return d.DurationText(n, v.Value, 0)
	case *ast.IntegerNode:
		if x, ok := intValue(v); ok && x == 0 {
			return 0, true
		}
		d.Errs.Add(n.Pos, n.Path, "bad duration %s: add a unit, like %[1]sms, %[1]ss or %[1]sm", ScalarText(n.V))
		return 0, false
	case *ast.FloatNode:
		d.Errs.Add(n.Pos, n.Path, "bad duration %s: add a unit, like %[1]ss", ScalarText(n.V))
		return 0, false
	}
	d.TypeError(n, "a duration like 500ms, 2s or 1m")
	return 0, false
}

// DurationText parses s, which starts at byte off of n's value.
func (d *Doc) DurationText(n Node, s string, off int) (time.Duration, bool) {
	dur, err := time.ParseDuration(strings.TrimSpace(s))
	switch {
	case err != nil && durationOverflows(s):
		d.Errs.Add(d.Src.PosAt(n.V, off), n.Path, "duration %q is too large: at most %s", s, maxDurationText)
		return 0, false
	case err != nil:
		d.Errs.Add(d.Src.PosAt(n.V, off), n.Path, "bad duration %q %s", s, durationHint)
		return 0, false
	}
	if dur < 0 {
		d.Errs.Add(d.Src.PosAt(n.V, off), n.Path, "must not be negative, got %s", s)
		return 0, false
	}
	return dur, true
}

// envDuration reads a duration taken from the environment, such as
// {{ env("HOLD", "9m") }}, so that one file can run short in CI and at full
// length by hand; nothing that changes per request may be templated.
func (d *Doc) envDuration(n Node, src string) (time.Duration, bool) {
	s, ok := d.envConst(n, src, "a duration")
	if !ok {
		return 0, false
	}
	dur, err := time.ParseDuration(strings.TrimSpace(s))
	switch {
	case err != nil && durationOverflows(s):
		d.Errs.Add(n.Pos, n.Path, "duration %q from %s is too large: at most %s", s, src, maxDurationText)
		return 0, false
	case err != nil:
		d.Errs.Add(n.Pos, n.Path, "bad duration %q from %s %s", s, src, durationHint)
		return 0, false
	case dur < 0:
		d.Errs.Add(n.Pos, n.Path, "must not be negative, got %s from %s", s, src)
		return 0, false
	}
	return dur, true
}

// PositiveDuration is duration that also rejects 0.
func (d *Doc) PositiveDuration(n Node) (time.Duration, bool) {
	dur, ok := d.Duration(n)
	if ok && dur == 0 {
		d.Errs.Add(n.Pos, n.Path, "must be greater than 0 %s", durationHint)
		return 0, false
	}
	return dur, ok
}

// OneOf returns a string that must be one of choices.
func (d *Doc) OneOf(n Node, choices ...string) (string, bool) {
	s, ok := d.Str(n, "one of "+strings.Join(choices, ", "))
	if !ok {
		return "", false
	}
	for _, c := range choices {
		if s == c {
			return s, true
		}
	}
	msg := fmt.Sprintf("unknown value %q", s)
	if c := Closest(s, choices); c != "" {
		msg += fmt.Sprintf("; did you mean %q?", c)
	}
	d.Errs.Add(n.Pos, n.Path, "%s (use %s)", msg, strings.Join(choices, ", "))
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
