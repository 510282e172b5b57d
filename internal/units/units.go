// Package units formats every figure loadlens prints — durations, shares,
// counts, rates, bytes, CPU cores, seconds of a run, changes and multiples —
// so that one figure reads the same on every page: the terminal, Markdown,
// report.html, compare, capacity, estimate and the findings. It is a leaf:
// numbers in, text out, no knowledge of runs. docs/figures.md states the
// rules.
package units

import (
	"math"
	"strconv"
	"strings"
)

// none is what a figure that has no value reads as: NaN, or no data.
const none = "-"

// Number formats a quantity at the precision its size deserves: three
// significant digits, never fewer than the whole number, trailing zeros
// dropped, thousands separated: 3700.4 → "3,700", 12.34 → "12.3",
// 1.5 → "1.5", 0.0123 → "0.0123".
func Number(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return none
	}
	a := math.Abs(v)
	decimals := 0
	switch {
	case a == 0 || a >= 100:
		decimals = 0
	case a >= 10:
		decimals = 1
	case a >= 1:
		decimals = 2
	default:
		decimals = 2 - int(math.Floor(math.Log10(a))) // three significant digits below 1
	}
	s := strconv.FormatFloat(v, 'f', decimals, 64)
	if decimals > 0 {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	if s == "-0" {
		s = "0"
	}
	return group(s)
}

// Count formats a whole count with thousands separators: 1234567 → "1,234,567".
func Count(n int64) string { return group(strconv.FormatInt(n, 10)) }

// Round formats a figure rounded to a whole count: 3700.4 → "3,700".
func Round(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return none
	}
	return Count(int64(math.Round(v)))
}

// group puts thousands separators into the integer part of a formatted number.
func group(s string) string {
	sign := ""
	if strings.HasPrefix(s, "-") {
		sign, s = "-", s[1:]
	}
	whole, frac, hasFrac := strings.Cut(s, ".")
	var b strings.Builder
	b.WriteString(sign)
	for i, c := range whole {
		if i > 0 && (len(whole)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if hasFrac {
		b.WriteString("." + frac)
	}
	return b.String()
}

// Rate formats a per-second rate of what unit names ("req", "iterations";
// "" for none): Rate(3700, "req") → "3,700 req/s", Rate(12.34, "") → "12.3/s".
func Rate(v float64, unit string) string {
	if unit == "" {
		return Number(v) + "/s"
	}
	return Number(v) + " " + unit + "/s"
}

// Cores formats CPU cores: "1 core", "2.5 cores", "0.75 cores".
func Cores(n float64) string { return Quantity(n, "core", "cores") }

// Multiple formats a ratio as a multiple: 2 → "2.0×", 1.03 → "1.03×",
// 246.3 → "246×". A whole multiple below 10 keeps one decimal, so that it
// reads as a ratio and not as a count.
func Multiple(x float64) string {
	s := Number(x)
	if a := math.Abs(x); a < 10 && !strings.Contains(s, ".") && s != none {
		s += ".0"
	}
	return s + "×"
}

// Plural is one when n is 1, else many.
func Plural(n int64, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// CountOf writes a count with its noun in the right number: "1 node",
// "2 nodes", "1,500 VUs".
func CountOf(n int64, one, many string) string { return Count(n) + " " + Plural(n, one, many) }

// Quantity writes a figure with its noun in the right number: "1 visit",
// "1.5 visits".
func Quantity(x float64, one, many string) string {
	if x == 1 {
		return "1 " + one
	}
	return Number(x) + " " + many
}

// Exact writes a figure someone gave, exactly as given but with thousands
// separated: a price of 9.529 stays "9.529", 1500000 is "1,500,000".
func Exact(v float64) string { return group(strconv.FormatFloat(v, 'f', -1, 64)) }
