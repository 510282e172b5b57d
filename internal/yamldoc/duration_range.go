package yamldoc

import (
	"math"
	"strconv"
	"strings"
)

// maxDurationText is the longest duration Go's time.Duration holds, about
// 292 years, as an error message says it.
const maxDurationText = "2562047h (about 292 years)"

// durationUnits are time.ParseDuration's units, in nanoseconds.
var durationUnits = map[string]float64{"ns": 1, "us": 1e3, "µs": 1e3, "μs": 1e3, "ms": 1e6, "s": 1e9, "m": 60e9, "h": 3600e9}

// durationOverflows reports whether s is written as a duration (numbers
// with units, as time.ParseDuration reads them) whose size is more than a
// time.Duration holds: ParseDuration's "invalid duration" would wrongly
// say it is misspelt.
func durationOverflows(s string) bool {
	s = strings.TrimLeft(strings.TrimSpace(s), "+-")
	if s == "" {
		return false
	}
	var total float64
	for s != "" {
		i := strings.IndexFunc(s, func(r rune) bool { return r != '.' && (r < '0' || r > '9') })
		if i <= 0 {
			return false // no number, or a number without a unit
		}
		x, err := strconv.ParseFloat(s[:i], 64)
		if err != nil {
			return false
		}
		s = s[i:]
		j := strings.IndexFunc(s, func(r rune) bool { return r == '.' || r >= '0' && r <= '9' })
		if j < 0 {
			j = len(s)
		}
		unit, ok := durationUnits[s[:j]]
		if !ok {
			return false
		}
		total += x * unit
		s = s[j:]
	}
	return total > math.MaxInt64
}
