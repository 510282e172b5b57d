package units

import (
	"math"
	"strconv"
)

// Percent formats a rate as a percentage with two decimals, for the rates
// a reader compares down a column or against a threshold (errors, checks):
// 0.0123 → "1.23%", 0.0005 → "0.05%". NaN (no requests) reads "-". A rate
// that two decimals would round to 0% or 100% without being so reads
// "<0.01%" or ">99.99%": 2 failures in 77,626 are not "0.00%".
func Percent(r float64) string {
	if math.IsNaN(r) || math.IsInf(r, 0) {
		return none
	}
	switch {
	case r > 0 && r < 0.00005:
		return "<0.01%"
	case r < 1 && r >= 0.99995:
		return ">99.99%"
	}
	return strconv.FormatFloat(100*r, 'f', 2, 64) + "%"
}

// Share formats a part of a whole at the precision its size deserves, as
// Number does: 0.923 → "92.3%", 0.45 → "45%", 0.0123 → "1.23%".
func Share(r float64) string {
	if math.IsNaN(r) || math.IsInf(r, 0) {
		return none
	}
	return Number(100*r) + "%"
}

// Change formats a relative change with its sign: one decimal below a
// doubling, whole percent from there: 0.123 → "+12.3%", -0.04 → "-4.0%",
// 310 → "+31,000%".
func Change(r float64) string {
	if math.IsNaN(r) || math.IsInf(r, 0) {
		return none
	}
	p := 100 * r
	if math.Abs(p) >= 100 {
		return sign(p) + Round(math.Abs(p)) + "%"
	}
	return signed(p, 1) + "%"
}

// Points formats the difference of two shares in percentage points, with
// its sign: 0.005 → "+0.50pp".
func Points(d float64) string {
	if math.IsNaN(d) || math.IsInf(d, 0) {
		return none
	}
	return signed(100*d, 2) + "pp"
}

// Interval writes a confidence interval from its formatted ends: "[+1.2%, +5.6%]".
func Interval(lo, hi string) string { return "[" + lo + ", " + hi + "]" }

// signed writes x with its sign and the given decimals; a value that
// rounds to zero is "+0.0".
func signed(x float64, decimals int) string {
	s := strconv.FormatFloat(x, 'f', decimals, 64)
	if s[0] != '-' {
		return "+" + s
	}
	if z, _ := strconv.ParseFloat(s, 64); z == 0 {
		return "+" + s[1:]
	}
	return s
}

// sign is "-" for a negative x, else "+".
func sign(x float64) string {
	if x < 0 {
		return "-"
	}
	return "+"
}

// Signed puts a plus sign before a formatted figure that has no sign:
// Signed(Rate(12.5, "req")) → "+12.5 req/s". Zero gets a plus.
func Signed(s string) string {
	if s == "" || s[0] == '-' || s == none {
		return s
	}
	return "+" + s
}
