package jsonpath

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Error is a syntax error at a byte offset of a path.
type Error struct {
	Offset int
	Msg    string
}

// Error returns the message with its offset, e.g. `at offset 4: expected ]`.
func (e *Error) Error() string { return fmt.Sprintf("at offset %d: %s", e.Offset, e.Msg) }

// Parse parses a path. Errors are *Error values saying where the path went
// wrong and what was expected there.
func Parse(s string) (Path, error) {
	if s == "" {
		return Path{}, &Error{Offset: 0, Msg: "empty path: expected $, a name or ["}
	}
	p := parser{src: s}
	steps, err := p.path()
	if err != nil {
		return Path{}, err
	}
	return Path{src: s, steps: steps}, nil
}

// MustParse is Parse for paths known to be valid; it panics on an error.
func MustParse(s string) Path {
	p, err := Parse(s)
	if err != nil {
		panic(fmt.Sprintf("jsonpath.MustParse(%q): %v", s, err))
	}
	return p
}

// String returns the path as written.
func (p Path) String() string { return p.src }

// IsZero reports whether p is the zero Path, which Parse never returns.
func (p Path) IsZero() bool { return p.src == "" && p.steps == nil }

// parser holds the state of one Parse call.
type parser struct {
	src string
	pos int
}

func (p *parser) errorf(off int, format string, args ...any) error {
	return &Error{Offset: off, Msg: fmt.Sprintf(format, args...)}
}

func (p *parser) eof() bool { return p.pos >= len(p.src) }

// path parses the whole source into steps.
func (p *parser) path() ([]step, error) {
	var steps []step
	if p.src[0] == '$' {
		p.pos++
	} else if isNameByte(p.src[0]) {
		steps = append(steps, step{name: p.name()})
	}
	for !p.eof() {
		var st step
		var err error
		switch p.src[p.pos] {
		case '.':
			p.pos++
			if p.eof() || !isNameByte(p.src[p.pos]) {
				return nil, p.errorf(p.pos, "expected a name after . (use ['...'] for other names), found %s", p.describe())
			}
			st = step{name: p.name()}
		case '[':
			st, err = p.bracket()
			if err != nil {
				return nil, err
			}
		default:
			return nil, p.errorf(p.pos, "expected . or [, found %s", p.describe())
		}
		steps = append(steps, st)
	}
	return steps, nil
}

// name reads a dotted name at p.pos, which holds at least one name byte.
func (p *parser) name() string {
	start := p.pos
	for !p.eof() && isNameByte(p.src[p.pos]) {
		p.pos++
	}
	return p.src[start:p.pos]
}

// bracket parses ['name'], ["name"] or [index] at p.pos, which holds the [.
func (p *parser) bracket() (step, error) {
	open := p.pos
	p.pos++
	p.skipSpace()
	if p.eof() {
		return step{}, p.errorf(p.pos, "expected a quoted name or an index after [, found end of path")
	}
	var st step
	switch ch := p.src[p.pos]; {
	case ch == '\'' || ch == '"':
		name, err := p.quoted()
		if err != nil {
			return step{}, err
		}
		st = step{name: name}
	case ch == '-' || isDigit(ch):
		idx, err := p.index()
		if err != nil {
			return step{}, err
		}
		st = step{index: idx, isIndex: true}
	default:
		return step{}, p.errorf(p.pos, "expected a quoted name or an index after [, found %s", p.describe())
	}
	p.skipSpace()
	if p.eof() || p.src[p.pos] != ']' {
		return step{}, p.errorf(p.pos, "expected ] to close the [ at offset %d, found %s", open, p.describe())
	}
	p.pos++
	return st, nil
}

// quoted reads a quoted name at p.pos, which holds its opening quote.
func (p *parser) quoted() (string, error) {
	start := p.pos
	q := p.src[p.pos]
	p.pos++
	var b strings.Builder
	for !p.eof() {
		ch := p.src[p.pos]
		if ch == q {
			p.pos++
			return b.String(), nil
		}
		if ch == '\\' && p.pos+1 < len(p.src) {
			if strings.IndexByte(`\'"`, p.src[p.pos+1]) < 0 {
				return "", p.errorf(p.pos, `unknown escape in quoted name: expected \\, \' or \"`)
			}
			p.pos++
			ch = p.src[p.pos]
		}
		b.WriteByte(ch)
		p.pos++
	}
	return "", p.errorf(start, "unterminated quoted name: expected a closing %c", q)
}

// index reads an optionally negative integer at p.pos.
func (p *parser) index() (int, error) {
	start := p.pos
	if p.src[p.pos] == '-' {
		p.pos++
	}
	for !p.eof() && isDigit(p.src[p.pos]) {
		p.pos++
	}
	text := p.src[start:p.pos]
	if text == "-" {
		return 0, p.errorf(p.pos, "expected digits after - in index, found %s", p.describe())
	}
	n, err := strconv.Atoi(text)
	if err != nil {
		return 0, p.errorf(start, "index %s is out of range", text)
	}
	return n, nil
}

func (p *parser) skipSpace() {
	for !p.eof() && (p.src[p.pos] == ' ' || p.src[p.pos] == '\t') {
		p.pos++
	}
}

// describe names the input at p.pos for error messages.
func (p *parser) describe() string {
	if p.eof() {
		return "end of path"
	}
	r, _ := utf8.DecodeRuneInString(p.src[p.pos:])
	return fmt.Sprintf("%q", r)
}

// isNameByte reports whether b may appear in a dotted name. Bytes of
// non-ASCII characters are allowed so that .café works.
func isNameByte(b byte) bool {
	return 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' || isDigit(b) || b == '_' || b == '-' || b >= utf8.RuneSelf
}

func isDigit(b byte) bool { return '0' <= b && b <= '9' }
