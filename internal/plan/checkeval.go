package plan

import (
	"bytes"
	"strconv"
	"strings"

	"github.com/loadlens/loadlens/internal/jsonpath"
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
	if err != nil {
		return false
	}
	val, ok := c.Path.Lookup(doc)
	if c.Op == OpExists {
		return ok == c.ExistsWanted()
	}
	return ok && c.Compare(jsonpath.Format(val), true)
}
