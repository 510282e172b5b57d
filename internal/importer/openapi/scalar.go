package openapi

import (
	"encoding/json"
	"math"
	"regexp"
	"strings"
)

// scalarSample is a plain value of a scalar schema's type and format,
// within its bounds (minimum, maximum, lengths) and matching its pattern
// when a simple value does: a value the API would refuse tests nothing.
func scalarSample(s *schema) any {
	t := s.Type
	switch {
	case t.includes("integer"):
		return number(s, 1, true)
	case t.includes("number"):
		return number(s, 1.5, false)
	case t.includes("boolean"):
		return true
	case t.includes("string"):
		return text(s)
	}
	return nil
}

// number is def moved within the schema's bounds; whole for an integer.
func number(s *schema, def float64, whole bool) float64 {
	step := 0.5
	if whole {
		step = 1
	}
	lo, loOpen := bound(s.Minimum, s.ExclMin)
	hi, hiOpen := bound(s.Maximum, s.ExclMax)
	v := def
	if lo != nil {
		v = *lo
		if whole {
			v = math.Ceil(v)
		}
		if loOpen && v <= *lo {
			v += step
		}
	}
	if hi != nil && (v > *hi || (hiOpen && v >= *hi)) {
		v = *hi
		if whole {
			v = math.Floor(v)
		}
		if hiOpen && v >= *hi {
			v -= step
		}
	}
	return v
}

// bound is a minimum or maximum and whether it is exclusive: OpenAPI 3.0
// flags the inclusive bound exclusive; 3.1 writes the exclusive bound itself.
func bound(inclusive *float64, exclusive json.RawMessage) (*float64, bool) {
	var flag bool
	if json.Unmarshal(exclusive, &flag) == nil {
		return inclusive, flag && inclusive != nil
	}
	var at float64
	if json.Unmarshal(exclusive, &at) == nil {
		if inclusive == nil || at >= *inclusive {
			return &at, true
		}
	}
	return inclusive, false
}

// formats are the values of the string formats the import knows.
var formats = map[string]string{
	"date-time": "2024-01-01T00:00:00Z",
	"date":      "2024-01-01",
	"time":      "00:00:00Z",
	"uuid":      "00000000-0000-4000-8000-000000000000",
	"email":     "user@example.com",
	"uri":       "https://example.com/",
	"url":       "https://example.com/",
	"hostname":  "example.com",
	"ipv4":      "127.0.0.1",
	"ipv6":      "::1",
	"byte":      "",
	"binary":    "",
}

// candidates are tried, in order, against a string's pattern.
var candidates = []string{"string", "a", "A", "1", "abc", "ABC", "123", "a1", "A1", "abc123", "ABC123", "a-1", "a_1", "a.b", "a b"}

// maxPattern bounds the patterns tried: a long one is no simple value's.
const maxPattern = 256

// text is a string of the schema's format, within its lengths, matching
// its pattern when a simple value does.
func text(s *schema) string {
	v, known := formats[s.Format]
	if !known {
		v = "string"
	}
	if !known && s.Pattern != "" && len(s.Pattern) <= maxPattern {
		if re, err := regexp.Compile(s.Pattern); err == nil {
			for _, c := range candidates {
				if re.MatchString(fit(s, c)) {
					return fit(s, c)
				}
			}
		}
	}
	return fit(s, v)
}

// fit pads or cuts v to the schema's lengths (in characters).
func fit(s *schema, v string) string {
	n := len([]rune(v))
	if s.MinLength != nil && n < *s.MinLength && *s.MinLength <= 1<<16 {
		pad := "x"
		if v != "" {
			pad = string([]rune(v)[n-1])
		}
		v += strings.Repeat(pad, *s.MinLength-n)
	}
	if s.MaxLength != nil && *s.MaxLength >= 0 && len([]rune(v)) > *s.MaxLength {
		v = string([]rune(v)[:*s.MaxLength])
	}
	return v
}
