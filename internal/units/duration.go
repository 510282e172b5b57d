package units

import (
	"math"
	"strconv"
	"strings"
	"time"
)

// Duration formats a duration with three significant digits, the way k6
// and Go write them: 950µs, 2.35ms, 23.5ms, 235ms, 1.25s, then whole
// seconds from a minute: 1m5s, 10m, 1h30m. Zero is "0s". A value that
// rounds up to the next unit is written in it (999.7µs is 1.00ms).
func Duration(d time.Duration) string {
	if d < 0 {
		if d == math.MinInt64 {
			d++ // its negation does not fit
		}
		return "-" + Duration(-d)
	}
	ms := float64(d) / float64(time.Millisecond)
	switch {
	case d == 0:
		return "0s"
	case math.Round(ms*1000) < 1000:
		return strconv.FormatFloat(ms*1000, 'f', 0, 64) + "µs"
	case math.Round(ms*100) < 1000:
		return strconv.FormatFloat(ms, 'f', 2, 64) + "ms"
	case math.Round(ms*10) < 1000:
		return strconv.FormatFloat(ms, 'f', 1, 64) + "ms"
	case math.Round(ms) < 1000:
		return strconv.FormatFloat(ms, 'f', 0, 64) + "ms"
	case math.Round(ms/10) < 6000:
		return strconv.FormatFloat(ms/1000, 'f', 2, 64) + "s"
	}
	r := d.Round(time.Second)
	if r%time.Second != 0 {
		r = d.Truncate(time.Second) // Round leaves a duration near the limit as it is
	}
	return trimZeroUnits(r.String())
}

// DurationSeconds is Duration of a figure in seconds; NaN reads "-".
func DurationSeconds(s float64) string {
	if math.IsNaN(s) {
		return none
	}
	return Duration(fromFloat(s * float64(time.Second)))
}

// DurationMillis is Duration of a figure in milliseconds; NaN reads "-".
func DurationMillis(ms float64) string {
	if math.IsNaN(ms) {
		return none
	}
	return Duration(fromFloat(ms * float64(time.Millisecond)))
}

// fromFloat converts nanoseconds to a Duration, saturating at its limits.
func fromFloat(ns float64) time.Duration {
	switch {
	case ns >= math.MaxInt64:
		return math.MaxInt64
	case ns <= math.MinInt64:
		return math.MinInt64 + 1
	}
	return time.Duration(math.Round(ns))
}

// DurationLiteral writes a duration exactly, as a test file takes it:
// 10m (not 10m0s), 1m30s, 1.5s, 250ms.
func DurationLiteral(d time.Duration) string { return trimZeroUnits(d.String()) }

// trimZeroUnits drops the zero seconds and minutes Go's String appends:
// "10m0s" → "10m", "1h0m0s" → "1h".
func trimZeroUnits(s string) string {
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}

// Clock formats a second of a run, counted from its start, as m:ss (or
// h:mm:ss from an hour), as the charts' time axis reads: 12 → "0:12".
func Clock(sec int) string {
	sign := ""
	if sec < 0 {
		sign, sec = "-", -sec
	}
	if sec >= 3600 {
		return sign + strconv.Itoa(sec/3600) + ":" + two(sec%3600/60) + ":" + two(sec%60)
	}
	return sign + strconv.Itoa(sec/60) + ":" + two(sec%60)
}

// Span formats the seconds from..to of a run: "0:12–0:31", or "0:12"
// when they are one.
func Span(from, to int) string {
	if to <= from {
		return Clock(from)
	}
	return Clock(from) + "–" + Clock(to)
}

// two writes n with at least two digits.
func two(n int) string {
	if n < 10 {
		return "0" + strconv.Itoa(n)
	}
	return strconv.Itoa(n)
}
