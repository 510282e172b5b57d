package threshold

import (
	"math"
	"strconv"
	"strings"
)

// ParseExpr parses a threshold expression such as "p(95) < 800ms" for a
// metric, returning the aggregation, its percentile (for p(N)), the
// comparison and the value in the metric's unit (ms for times, 0..1 for
// rates). Errors are *Error with an offset into expr.
func ParseExpr(metric, expr string) (agg AggKind, p float64, op Op, value float64, err error) {
	return ParseExprIn(metric, expr, nil)
}

// ParseExprIn is ParseExpr for a test that declares custom metrics: a
// trend of plain numbers takes values without a unit.
func ParseExprIn(metric, expr string, custom []Custom) (agg AggKind, p float64, op Op, value float64, err error) {
	kind, timed, _, ok := describe(metric, custom)
	if !ok {
		return 0, 0, 0, 0, &Error{Offset: 0, Msg: unknownMetric(metric, custom)}
	}
	s := &scanner{src: expr}
	s.skipSpace()
	if agg, p, err = parseAgg(s, metric, kind); err != nil {
		return 0, 0, 0, 0, err
	}
	s.skipSpace()
	if op, err = parseOp(s); err != nil {
		return 0, 0, 0, 0, err
	}
	s.skipSpace()
	if value, err = parseValue(s, metric, kind, timed, agg); err != nil {
		return 0, 0, 0, 0, err
	}
	s.skipSpace()
	if !s.eof() {
		return 0, 0, 0, 0, s.errorf(s.pos, "unexpected %s after the value", s.describe())
	}
	return agg, p, op, value, nil
}

// parseAgg reads an aggregation allowed for the metric.
func parseAgg(s *scanner, metric string, kind MetricKind) (AggKind, float64, error) {
	start := s.pos
	name := s.ident()
	if name == "" {
		return 0, 0, s.errorf(start, "expected an aggregation for %s (allowed: %s), found %s", metric, aggNames(metric, kind), s.describe())
	}
	agg, ok := aggByName(name)
	if !ok || !aggAllowed(metric, kind, agg) {
		return 0, 0, s.errorf(start, "unknown aggregation %q for %s, a %s (allowed: %s)", name, metric, kind, aggNames(metric, kind))
	}
	if agg != Percentile {
		return agg, 0, nil
	}
	s.skipSpace()
	if s.peek() != '(' {
		return 0, 0, s.errorf(s.pos, "expected ( after p: a percentile is written p(N), e.g. p(95)")
	}
	s.pos++
	s.skipSpace()
	numOff := s.pos
	text := s.number()
	if text == "" {
		return 0, 0, s.errorf(s.pos, "expected a percentile number in p( ), found %s", s.describe())
	}
	pct, err := strconv.ParseFloat(text, 64)
	if err != nil || pct <= 0 || pct > 100 {
		return 0, 0, s.errorf(numOff, "percentile %s is not above 0 and at most 100", text)
	}
	s.skipSpace()
	if s.peek() != ')' {
		return 0, 0, s.errorf(s.pos, "expected ) to close p(, found %s", s.describe())
	}
	s.pos++
	return Percentile, pct, nil
}

// aggByName returns the aggregation written name.
func aggByName(name string) (AggKind, bool) {
	for a := Percentile; a <= Value; a++ {
		if a != Percentile && a.String() == name {
			return a, true
		}
	}
	return Percentile, name == "p"
}

// parseOp reads a comparison, the two-character ones first.
func parseOp(s *scanner) (Op, error) {
	rest := s.src[s.pos:]
	for _, op := range []Op{Lte, Gte, Eq, Ne, Lt, Gt} {
		if strings.HasPrefix(rest, op.String()) {
			s.pos += len(op.String())
			return op, nil
		}
	}
	return 0, s.errorf(s.pos, "expected a comparison (<, <=, >, >=, ==, !=), found %s", s.describe())
}

// parseValue reads a number with the unit the metric and aggregation allow,
// and converts it to the threshold's unit.
func parseValue(s *scanner, metric string, kind MetricKind, timed bool, agg AggKind) (float64, error) {
	numOff := s.pos
	text := s.number()
	if text == "" {
		return 0, s.errorf(s.pos, "expected a number, found %s", s.describe())
	}
	v, err := strconv.ParseFloat(text, 64)
	if err != nil || math.IsInf(v, 0) {
		return 0, s.errorf(numOff, "number %s is out of range", text)
	}
	unitOff := s.pos
	unit := s.unit()
	switch {
	case timed && isTime(kind, agg):
		scale, ok := timeScale(unit)
		if !ok {
			return 0, s.errorf(unitOff, "unknown time unit %q: use us, µs, ms, s, m or h (no unit means ms)", unit)
		}
		if v < 0 { // no request takes less than no time: such a threshold always passes or never does
			return 0, s.errorf(numOff, "duration %s%s is negative: a time is 0 or more, e.g. p(95) < 500ms", text, unit)
		}
		return v * scale, nil
	case kind == RateKind:
		if unit == "%" {
			v /= 100
		} else if unit != "" {
			return 0, s.errorf(unitOff, "unexpected unit %q: a rate is a ratio like 0.01 or a percentage like 1%%", unit)
		}
		if v < 0 || v > 1 {
			return 0, s.errorf(numOff, "rate %s%s is outside 0..1 (0%%..100%%)", text, unit)
		}
		return v, nil
	case unit != "":
		return 0, s.errorf(unitOff, "unexpected unit %q: %s of %s is a plain number", unit, agg, metric)
	}
	return v, nil
}

// timeScale returns the milliseconds in one unit; no unit means ms.
func timeScale(unit string) (float64, bool) {
	switch unit {
	case "", "ms":
		return 1, true
	case "us", "µs":
		return 0.001, true
	case "s":
		return 1000, true
	case "m":
		return 60000, true
	case "h": // a Go and k6 duration unit: an hour-long soak's p(99) < 1h
		return 3600000, true
	}
	return 0, false
}

// number reads a decimal number with an optional sign, fraction and
// exponent; it never reads "inf" or "nan".
func (s *scanner) number() string {
	start := s.pos
	if c := s.peek(); c == '+' || c == '-' {
		s.pos++
	}
	digits := s.digits()
	if s.peek() == '.' {
		s.pos++
		digits += s.digits()
	}
	if digits == 0 {
		s.pos = start
		return ""
	}
	if c := s.peek(); c == 'e' || c == 'E' {
		save := s.pos
		s.pos++
		if c := s.peek(); c == '+' || c == '-' {
			s.pos++
		}
		if s.digits() == 0 {
			s.pos = save // not an exponent: "e" starts a unit
		}
	}
	return s.src[start:s.pos]
}

// digits skips decimal digits and returns how many there were.
func (s *scanner) digits() int {
	start := s.pos
	for !s.eof() && '0' <= s.src[s.pos] && s.src[s.pos] <= '9' {
		s.pos++
	}
	return s.pos - start
}

// unit reads a unit after a number: %, or letters (µ included).
func (s *scanner) unit() string {
	start := s.pos
	if s.peek() == '%' {
		s.pos++
		return "%"
	}
	for !s.eof() {
		c := s.src[s.pos]
		switch {
		case 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '/':
			s.pos++
		case strings.HasPrefix(s.src[s.pos:], "µ"):
			s.pos += len("µ")
		default:
			return s.src[start:s.pos]
		}
	}
	return s.src[start:s.pos]
}
