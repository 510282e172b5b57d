package plan

import (
	"strconv"
	"strings"
)

// ExistsWanted reports whether an exists: check wants its subject present.
func (c *Check) ExistsWanted() bool {
	return len(c.Values) == 0 || c.Values[0] != "false"
}

// Compare applies the check's operator to a value found in a response
// (found false: none was). Numbers compare as numbers when both sides
// parse, strings otherwise. The engine and every protocol judge with it.
func (c *Check) Compare(got string, found bool) bool {
	if !found {
		return false
	}
	switch c.Op {
	case OpIn:
		for _, w := range c.Values {
			if w == got {
				return true
			}
		}
		return false
	case OpContains:
		return strings.Contains(got, c.Values[0])
	case OpMatches:
		return c.Regex.MatchString(got)
	case OpExists:
		return true
	}
	want := c.Values[0]
	g, gerr := strconv.ParseFloat(got, 64)
	w, werr := strconv.ParseFloat(want, 64)
	numeric := gerr == nil && werr == nil
	switch c.Op {
	case OpEq:
		if numeric {
			return g == w
		}
		return got == want
	case OpNe:
		if numeric {
			return g != w
		}
		return got != want
	}
	if !numeric {
		return false
	}
	switch c.Op {
	case OpLt:
		return g < w
	case OpLte:
		return g <= w
	case OpGt:
		return g > w
	case OpGte:
		return g >= w
	}
	return false
}
