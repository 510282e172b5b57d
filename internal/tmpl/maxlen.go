package tmpl

import (
	"math"
	"strconv"
)

// Bounds says how long the values a template reads can be, for MaxLen.
type Bounds struct {
	Var      func(slot int) int64 // the longest value of a variable slot; nil: 0
	Scenario int64                // the longest scenario name
}

// maxInt64Len is the length of the longest int64 in decimal, sign included.
const maxInt64Len = 20

// escapeGrowth is how many bytes one source byte can become when escaped
// with e: %XX in a query component, \u00XX in a JSON string (and, for
// safety, any escaping added later).
func escapeGrowth(e Escape) int64 {
	switch e {
	case Raw:
		return 1
	case QueryComponent:
		return 3
	}
	return 6
}

// MaxLen returns the most bytes a render of t can produce when its values
// stay within b, saturating at math.MaxInt64 rather than overflowing, so a
// caller can refuse a template whose every call is bounded but whose total
// is not (4,000 × randString(65536) is 262 MB).
func (t *Template) MaxLen(b Bounds) int64 {
	if t == nil {
		return 0
	}
	return partsMaxLen(t.parts, &b)
}

// partsMaxLen is MaxLen of parts.
func partsMaxLen(parts []part, b *Bounds) int64 {
	var n int64
	for i := range parts {
		n = satAdd(n, partMaxLen(&parts[i], b))
	}
	return n
}

// partMaxLen is MaxLen of one part.
func partMaxLen(p *part, b *Bounds) int64 {
	switch p.kind {
	case litPart:
		return int64(len(p.text))
	case varPart:
		if b.Var == nil {
			return 0
		}
		return max(0, b.Var(p.slot))
	case vuPart, iterationPart, timestampPart:
		return maxInt64Len
	case scenarioPart:
		return b.Scenario
	case randIntPart:
		// The longest number in [lo, hi] is one of its ends: the most negative or the largest.
		return int64(max(len(strconv.FormatInt(p.lo, 10)), len(strconv.FormatInt(p.hi, 10))))
	case randStringPart:
		return p.lo
	case uuidPart:
		return 36
	case pickPart:
		var m int
		for _, c := range p.choices {
			m = max(m, len(c))
		}
		return int64(m)
	case escapedPart:
		if p.esc == JSONValue { // the quotes around a value that is no JSON scalar
			return satAdd(escapedMaxLen(p.sub, b, p.esc), 2)
		}
		return escapedMaxLen(p.sub, b, p.esc)
	case urlPart:
		// base, a "/" between it and the path, and "?" or "&" before the query.
		return satAdd(satAdd(int64(len(p.text))+2, partsMaxLen(p.sub, b)), partsMaxLen(p.query, b))
	}
	return 0
}

// escapedMaxLen is MaxLen of parts escaped with e: text known now counts
// as escaped, generated letters, digits and dashes never need escaping, and
// only values from outside the template count at the worst growth.
func escapedMaxLen(parts []part, b *Bounds, e Escape) int64 {
	var n int64
	for i := range parts {
		p := &parts[i]
		var m int64
		switch p.kind {
		case litPart:
			m = int64(escapedLen([]byte(p.text), e))
		case pickPart:
			for _, c := range p.choices {
				m = max(m, int64(escapedLen([]byte(c), e)))
			}
		case varPart, scenarioPart, escapedPart, urlPart:
			m = satMul(partMaxLen(p, b), escapeGrowth(e))
		default:
			m = partMaxLen(p, b)
		}
		n = satAdd(n, m)
	}
	return n
}

func satAdd(a, b int64) int64 {
	if a > math.MaxInt64-b {
		return math.MaxInt64
	}
	return a + b
}

func satMul(a, k int64) int64 {
	if k != 0 && a > math.MaxInt64/k {
		return math.MaxInt64
	}
	return a * k
}
