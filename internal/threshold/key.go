package threshold

import (
	"slices"
	"strconv"
	"strings"

	"github.com/loadlens/loadlens/internal/sample"
)

// ParseKey splits a threshold key such as http_req_duration{endpoint:"GET /x"}
// into its metric and filter, checking both. Errors are *Error with an
// offset into key. Tags keep the order they were written in.
func ParseKey(key string) (metric string, filter []Tag, err error) {
	return ParseKeyIn(key, nil)
}

// ParseKeyIn is ParseKey for a test that declares custom metrics.
func ParseKeyIn(key string, custom []Custom) (metric string, filter []Tag, err error) {
	s := &scanner{src: key}
	s.skipSpace()
	start := s.pos
	metric = s.ident()
	if metric == "" {
		return "", nil, s.errorf(start, "expected a metric name, found %s (known: %s)", s.describe(), knownNames(custom))
	}
	_, _, allowed, ok := describe(metric, custom)
	if !ok {
		return "", nil, s.errorf(start, "%s", unknownMetric(metric, custom))
	}
	s.skipSpace()
	if s.eof() {
		return metric, nil, nil
	}
	if s.peek() != '{' {
		return "", nil, s.errorf(s.pos, "unexpected %s after metric %s: expected { or the end of the key", s.describe(), metric)
	}
	filter, err = parseFilter(s, metric, allowed)
	if err != nil {
		return "", nil, err
	}
	s.skipSpace()
	if !s.eof() {
		return "", nil, s.errorf(s.pos, "unexpected %s after the filter's closing }", s.describe())
	}
	return metric, filter, nil
}

// parseFilter parses {k:v, ...} at s.pos, which holds the {.
func parseFilter(s *scanner, metric string, allowed []string) ([]Tag, error) {
	open := s.pos
	s.pos++
	if allowed == nil {
		return nil, s.errorf(open, "%s takes no filter", metric)
	}
	s.skipSpace()
	if s.peek() == '}' {
		return nil, s.errorf(open, "empty filter {}: write the metric alone, or tags like %s:\"...\"", allowed[0])
	}
	var tags []Tag
	for {
		s.skipSpace()
		if s.eof() {
			return nil, s.errorf(open, "unterminated filter: expected } to close the { at offset %d", open)
		}
		keyOff := s.pos
		k := s.ident()
		switch {
		case k == "":
			return nil, s.errorf(s.pos, "expected a filter key (%s), found %s", strings.Join(allowed, ", "), s.describe())
		case k == "status" && !slices.Contains(allowed, k):
			return nil, s.errorf(keyOff, "filter key \"status\" is kept for http_req_duration and http_reqs only; for %s use http_req_failed{kind:http_4xx} (or http_5xx), or expect_status to make a status a success (allowed: %s)", metric, strings.Join(allowed, ", "))
		case !slices.Contains(allowed, k):
			return nil, s.errorf(keyOff, "filter key %q is not allowed for %s (allowed: %s)", k, metric, strings.Join(allowed, ", "))
		case slices.ContainsFunc(tags, func(t Tag) bool { return t.Key == k }):
			return nil, s.errorf(keyOff, "filter key %q is repeated", k)
		}
		s.skipSpace()
		if s.peek() != ':' {
			if s.eof() {
				return nil, s.errorf(open, "unterminated filter: expected } to close the { at offset %d", open)
			}
			return nil, s.errorf(s.pos, "expected : after filter key %s, found %s", k, s.describe())
		}
		s.pos++
		s.skipSpace()
		valOff := s.pos
		v, err := filterValue(s, open)
		if err != nil {
			return nil, err
		}
		if v == "" {
			return nil, s.errorf(valOff, "empty value for filter key %s", k)
		}
		if k == "kind" {
			if _, ok := sample.ParseKind(v); !ok {
				return nil, s.errorf(valOff, "unknown kind %q (known: %s)", v, kindNames())
			}
		}
		if k == "status" {
			if n, err := strconv.Atoi(v); err != nil || n < 100 || n > 599 {
				return nil, s.errorf(valOff, "status %q is not an HTTP status: a number from 100 to 599, like status:200", v)
			}
		}
		if k == "expected_response" && v != "true" {
			return nil, s.errorf(valOff, "expected_response:%s is not kept: only expected_response:true (the successful requests); judge failures with http_req_failed", v)
		}
		if clash := clashing(k, tags); clash != "" {
			return nil, s.errorf(keyOff, "filter keys %s and %s do not go together: a status says what became of a request already", clash, k)
		}
		tags = append(tags, Tag{Key: k, Value: v})
		s.skipSpace()
		switch s.peek() {
		case ',':
			s.pos++
		case '}':
			s.pos++
			return tags, nil
		default:
			if s.eof() {
				return nil, s.errorf(open, "unterminated filter: expected } to close the { at offset %d", open)
			}
			return nil, s.errorf(s.pos, "unexpected %s after the value of %s: expected , or }", s.describe(), k)
		}
	}
}

// clashing returns the key of tags that cannot be combined with key k:
// status with expected_response or kind, both of which select by outcome.
func clashing(k string, tags []Tag) string {
	for _, t := range tags {
		switch {
		case k == "status" && (t.Key == "expected_response" || t.Key == "kind"),
			t.Key == "status" && (k == "expected_response" || k == "kind"):
			return t.Key
		}
	}
	return ""
}

// filterValue reads a value quoted with " or ', or bare up to , or } with
// surrounding spaces trimmed.
func filterValue(s *scanner, open int) (string, error) {
	start := s.pos
	q := s.peek()
	if q == '"' || q == '\'' {
		s.pos++
		var b strings.Builder
		for !s.eof() {
			ch := s.src[s.pos]
			if ch == q {
				s.pos++
				return b.String(), nil
			}
			if ch == '\\' && s.pos+1 < len(s.src) && strings.IndexByte(`\"'`, s.src[s.pos+1]) >= 0 {
				s.pos++
				ch = s.src[s.pos]
			}
			b.WriteByte(ch)
			s.pos++
		}
		return "", s.errorf(start, "unterminated quoted value: expected a closing %c", q)
	}
	end := strings.IndexAny(s.src[s.pos:], ",}")
	if end < 0 {
		return "", s.errorf(open, "unterminated filter: expected } to close the { at offset %d", open)
	}
	s.pos += end
	return strings.TrimSpace(s.src[start:s.pos]), nil
}

// kindNames lists the request outcome kinds a kind filter accepts.
func kindNames() string {
	names := make([]string, 0, sample.NumKinds)
	for k := range sample.NumKinds {
		names = append(names, k.String())
	}
	return strings.Join(names, ", ")
}
