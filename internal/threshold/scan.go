package threshold

import (
	"fmt"
	"unicode/utf8"
)

// Error is a syntax or validity error at a byte offset of a key or expression.
type Error struct {
	Offset int    // byte offset in the text that was parsed
	Msg    string // what is wrong, and what would be right
}

// Error returns the message; callers show the offset their own way.
func (e *Error) Error() string { return e.Msg }

// scanner walks a key or an expression.
type scanner struct {
	src string
	pos int
}

func (s *scanner) errorf(off int, format string, args ...any) *Error {
	return &Error{Offset: off, Msg: fmt.Sprintf(format, args...)}
}

func (s *scanner) eof() bool { return s.pos >= len(s.src) }

// peek returns the byte at the position, or 0 at the end.
func (s *scanner) peek() byte {
	if s.eof() {
		return 0
	}
	return s.src[s.pos]
}

func (s *scanner) skipSpace() {
	for !s.eof() && (s.src[s.pos] == ' ' || s.src[s.pos] == '\t') {
		s.pos++
	}
}

// ident reads [A-Za-z0-9_]* and returns it, possibly empty.
func (s *scanner) ident() string {
	start := s.pos
	for !s.eof() && isIdentByte(s.src[s.pos]) {
		s.pos++
	}
	return s.src[start:s.pos]
}

// describe names the input at the position for error messages.
func (s *scanner) describe() string {
	if s.eof() {
		return "the end"
	}
	r, _ := utf8.DecodeRuneInString(s.src[s.pos:])
	return fmt.Sprintf("%q", r)
}

func isIdentByte(b byte) bool {
	return 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' || '0' <= b && b <= '9' || b == '_'
}
