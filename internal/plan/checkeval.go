package plan

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/loadlens/loadlens/internal/jsonpath"
)

// ExistsWanted reports whether an exists: check wants its subject present.
func (c *Check) ExistsWanted() bool {
	return len(c.Values) == 0 || c.Values[0] != "false"
}

// Compare applies the check's operator to a value found in a response
// (found false: none was), comparing with the check's value as written.
// Numbers compare as numbers when both sides parse, strings otherwise. The
// engine and every protocol judge with it.
func (c *Check) Compare(got string, found bool) bool {
	if !found {
		return false
	}
	ok, _ := c.CompareTo(got, c.want())
	return ok
}

// want is the check's comparison value as written ("" for none).
func (c *Check) want() string {
	if len(c.Values) == 0 {
		return ""
	}
	return c.Values[0]
}

// Dynamic reports whether the check's comparison value is known only as
// the run goes: a template with variables, or another value of the document.
func (c *Check) Dynamic() bool { return c.Operand != nil || !c.OperandPath.IsZero() }

// CompareTo applies the check's operator to got with want as the value
// compared with (a rendered Operand, or Values[0]). An ordering comparison
// with a want that is not a number fails with an error saying so: the
// check fails, the run goes on.
func (c *Check) CompareTo(got, want string) (bool, error) {
	switch c.Op {
	case OpIn:
		return slices.Contains(c.Values, got), nil
	case OpContains:
		return strings.Contains(got, c.Values[0]), nil
	case OpMatches:
		return c.Regex.MatchString(got), nil
	case OpExists:
		return true, nil
	}
	g, gerr := strconv.ParseFloat(got, 64)
	w, werr := strconv.ParseFloat(want, 64)
	numeric := gerr == nil && werr == nil
	switch c.Op {
	case OpEq:
		return numeric && g == w || !numeric && got == want, nil
	case OpNe:
		return numeric && g != w || !numeric && got != want, nil
	}
	if werr != nil {
		return false, fmt.Errorf("it compares with %s, which is not a number", quoteShort(want))
	}
	if gerr != nil {
		return false, nil
	}
	switch c.Op {
	case OpLt:
		return g < w, nil
	case OpLte:
		return g <= w, nil
	case OpGt:
		return g > w, nil
	case OpGte:
		return g >= w, nil
	}
	return false, nil
}

// quoteShort quotes a value for a message, cut to 40 bytes.
func quoteShort(s string) string {
	if len(s) > 40 {
		return strconv.Quote(s[:40]) + "…"
	}
	return strconv.Quote(s)
}

// MatchBody judges a body check (contains, matches or a comparison) on a
// response body or a message's data.
func (c *Check) MatchBody(data []byte) bool {
	switch c.Op {
	case OpContains:
		return bytes.Contains(data, []byte(c.Values[0]))
	case OpMatches:
		return c.Regex.Match(data)
	}
	return c.Compare(string(data), true)
}

// MatchJSON judges a json check on a parsed document; a body that did not
// parse (err) fails every json check, exists: false included.
func (c *Check) MatchJSON(doc any, err error) bool {
	ok, _ := c.JudgeJSON(doc, err, c.want())
	return ok
}

// JudgeJSON is MatchJSON comparing with want (the check's rendered Operand,
// or Values[0]); a check with an OperandPath compares with the value at
// that path of the same document instead. The error says why a comparison
// could not be made (a value compared with that is not a number, or is
// missing); the check fails then.
func (c *Check) JudgeJSON(doc any, err error, want string) (bool, error) {
	if err != nil {
		return false, nil
	}
	val, ok := c.Path.Lookup(doc)
	if c.Op == OpExists {
		return ok == c.ExistsWanted(), nil
	}
	if !ok {
		return false, nil
	}
	if !c.OperandPath.IsZero() {
		other, found := c.OperandPath.Lookup(doc)
		if !found {
			return false, fmt.Errorf("the response has no %s to compare with", c.OperandPath)
		}
		want = jsonpath.Format(other)
	}
	return c.CompareTo(jsonpath.Format(val), want)
}
