package diagnose

import (
	"math"
	"strconv"
	"strings"
)

// count formats a non-negative figure rounded to a whole number with
// thousands separators: 3700.4 → "3,700".
func count(v float64) string {
	n := int64(math.Round(v))
	neg := n < 0
	if neg {
		n = -n
	}
	s := strconv.FormatInt(n, 10)
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// num formats a figure with the precision its size deserves: whole numbers
// from 100 up, two decimals below 10, three significant digits below 1.
func num(v float64) string {
	a := math.Abs(v)
	switch {
	case a >= 100:
		return count(v)
	case a >= 10:
		return trimZeros(strconv.FormatFloat(v, 'f', 1, 64))
	case a >= 1 || a == 0:
		return trimZeros(strconv.FormatFloat(v, 'f', 2, 64))
	}
	return strconv.FormatFloat(v, 'g', 3, 64)
}

func trimZeros(s string) string {
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	return s
}

// rate formats a throughput: "3,700 req/s".
func rate(v float64) string { return num(v) + " req/s" }

// dur formats a duration given in seconds: "950 µs", "12.3 ms", "1.23 s".
func dur(s float64) string {
	switch {
	case s >= 1:
		return num(s) + " s"
	case s >= 0.001:
		return num(s*1000) + " ms"
	}
	return num(s*1e6) + " µs"
}

// pct formats a fraction as a percentage: 0.923 → "92 %", 0.0123 → "1.2 %".
func pct(f float64) string {
	p := f * 100
	if math.Abs(p) >= 10 {
		return count(p) + " %"
	}
	return trimZeros(strconv.FormatFloat(p, 'f', 1, 64)) + " %"
}

// times formats a ratio: 2.0 → "2.0×", 246.3 → "246×".
func times(f float64) string {
	if f >= 10 {
		return count(f) + "×"
	}
	return strconv.FormatFloat(f, 'f', 1, 64) + "×"
}

// at formats a second of the run: "12s".
func at(sec int) string { return strconv.Itoa(sec) + "s" }

// cores formats a number of CPU cores: "1 core", "2.5 cores".
func cores(n float64) string {
	if n == 1 {
		return "1 core"
	}
	return num(n) + " cores"
}
