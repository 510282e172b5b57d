package plan

import (
	"fmt"
	"regexp"
	"strings"
)

// SelectorError is a problem in a series selector, at a byte offset of its text.
type SelectorError struct {
	Offset int
	Msg    string
}

// Error returns the message with its offset.
func (e *SelectorError) Error() string { return fmt.Sprintf("at byte %d: %s", e.Offset, e.Msg) }

// selectorScanner reads a selector left to right.
type selectorScanner struct {
	s string
	i int
}

// parseSelector parses `name`, `name{matchers}` or `{matchers}`, where a
// matcher is `label op "value"` with op one of = != =~ !~ and the value in
// double quotes, single quotes or backquotes (raw, handy for regexes).
func parseSelector(s string) (Selector, error) {
	sc := &selectorScanner{s: s}
	sel := Selector{Text: s}
	sc.space()
	if name := sc.ident(true); name != "" {
		sel.Matchers = append(sel.Matchers, Matcher{Label: NameLabel, Op: MatchEqual, Value: name})
	}
	sc.space()
	if sc.i < len(s) && s[sc.i] == '{' {
		open := sc.i
		sc.i++
		ms, err := sc.matchers()
		if err != nil {
			return Selector{}, err
		}
		if len(ms) == 0 && len(sel.Matchers) == 0 {
			return Selector{}, &SelectorError{open, "empty selector {}: name a metric or give a matcher like {__name__=~\"hikaricp_.*\"}"}
		}
		sel.Matchers = append(sel.Matchers, ms...)
		sc.space()
	}
	switch {
	case len(sel.Matchers) == 0 && sc.i >= len(s):
		return Selector{}, &SelectorError{0, "empty selector: name a metric, like my_queue_depth"}
	case len(sel.Matchers) == 0:
		return Selector{}, &SelectorError{sc.i, fmt.Sprintf("unexpected %q: a selector starts with a metric name or {", s[sc.i])}
	case sc.i < len(s):
		return Selector{}, &SelectorError{sc.i, fmt.Sprintf("unexpected %q after the selector", s[sc.i])}
	}
	return sel, nil
}

// matchers reads matchers up to and including the closing brace.
func (sc *selectorScanner) matchers() ([]Matcher, error) {
	var out []Matcher
	for {
		sc.space()
		if sc.i >= len(sc.s) {
			return nil, &SelectorError{sc.i, "missing } at the end of the matchers"}
		}
		if sc.s[sc.i] == '}' {
			sc.i++
			return out, nil
		}
		m, err := sc.matcher()
		if err != nil {
			return nil, err
		}
		out = append(out, m)
		sc.space()
		switch {
		case sc.i >= len(sc.s):
			return nil, &SelectorError{sc.i, "missing } at the end of the matchers"}
		case sc.s[sc.i] == ',':
			sc.i++
		case sc.s[sc.i] != '}':
			return nil, &SelectorError{sc.i, fmt.Sprintf("expected , or } after a matcher, got %q", sc.s[sc.i])}
		}
	}
}

// matcher reads `label op "value"`.
func (sc *selectorScanner) matcher() (Matcher, error) {
	at := sc.i
	label := sc.ident(false)
	if label == "" {
		return Matcher{}, &SelectorError{at, fmt.Sprintf("expected a label name, got %q", sc.s[at])}
	}
	sc.space()
	opAt := sc.i
	var m Matcher
	m.Label = label
	rest := sc.s[sc.i:]
	switch {
	case strings.HasPrefix(rest, "=~"):
		m.Op, sc.i = MatchRegexp, sc.i+2
	case strings.HasPrefix(rest, "!~"):
		m.Op, sc.i = MatchNotRegexp, sc.i+2
	case strings.HasPrefix(rest, "!="):
		m.Op, sc.i = MatchNotEqual, sc.i+2
	case strings.HasPrefix(rest, "="):
		m.Op, sc.i = MatchEqual, sc.i+1
	default:
		return Matcher{}, &SelectorError{opAt, fmt.Sprintf("expected =, !=, =~ or !~ after label %s", label)}
	}
	sc.space()
	valueAt := sc.i
	v, err := sc.quoted()
	if err != nil {
		return Matcher{}, err
	}
	m.Value = v
	if m.Op == MatchRegexp || m.Op == MatchNotRegexp {
		// Compiled alone first, so an error quotes the regex as written.
		if _, err := regexp.Compile(v); err != nil {
			return Matcher{}, &SelectorError{valueAt, fmt.Sprintf("bad regex %q: %v", v, regexpReason(err))}
		}
		m.re = regexp.MustCompile("^(?:" + v + ")$")
	}
	return m, nil
}

// regexpReason returns a regexp error without its generic prefix.
func regexpReason(err error) string {
	return strings.TrimPrefix(err.Error(), "error parsing regexp: ")
}

// quoted reads a quoted value: "..." and '...' with \ escapes, or `...` raw.
func (sc *selectorScanner) quoted() (string, error) {
	if sc.i >= len(sc.s) {
		return "", &SelectorError{sc.i, "missing the value: quote it, like \"GET\""}
	}
	q := sc.s[sc.i]
	if q != '"' && q != '\'' && q != '`' {
		return "", &SelectorError{sc.i, "a label value must be quoted, like \"GET\" (or `raw` for regexes)"}
	}
	start := sc.i
	sc.i++
	var b strings.Builder
	for sc.i < len(sc.s) {
		c := sc.s[sc.i]
		switch {
		case c == q:
			sc.i++
			return b.String(), nil
		case c == '\\' && q != '`':
			if sc.i+1 >= len(sc.s) {
				return "", &SelectorError{start, "unterminated quoted value"}
			}
			e, ok := selectorEscape(sc.s[sc.i+1])
			if !ok {
				return "", &SelectorError{sc.i, fmt.Sprintf("unknown escape \\%c (use \\\\, \\\", \\', \\n or \\t; or `raw` quotes for regexes)", sc.s[sc.i+1])}
			}
			b.WriteByte(e)
			sc.i += 2
		default:
			b.WriteByte(c)
			sc.i++
		}
	}
	return "", &SelectorError{start, "unterminated quoted value"}
}

// selectorEscape returns the byte an escape stands for.
func selectorEscape(c byte) (byte, bool) {
	switch c {
	case '\\', '"', '\'':
		return c, true
	case 'n':
		return '\n', true
	case 't':
		return '\t', true
	}
	return 0, false
}

// ident reads a metric name (colons allowed) or a label name.
func (sc *selectorScanner) ident(metric bool) string {
	start := sc.i
	for sc.i < len(sc.s) {
		c := sc.s[sc.i]
		ok := c == '_' || ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z') ||
			(metric && c == ':') || (sc.i > start && '0' <= c && c <= '9')
		if !ok {
			break
		}
		sc.i++
	}
	return sc.s[start:sc.i]
}

// space skips spaces and tabs.
func (sc *selectorScanner) space() {
	for sc.i < len(sc.s) && (sc.s[sc.i] == ' ' || sc.s[sc.i] == '\t') {
		sc.i++
	}
}
