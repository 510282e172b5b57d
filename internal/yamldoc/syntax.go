package yamldoc

import (
	"errors"
	"fmt"
	"strings"

	"github.com/goccy/go-yaml/token"
)

// syntaxError records a YAML syntax error with its position, the key path
// the text had reached and, where the library's words leave a reader
// guessing, a hint at the usual cause.
func (d *Doc) syntaxError(err error, src []byte) {
	var ye interface {
		GetToken() *token.Token
		GetMessage() string
	}
	if !errors.As(err, &ye) {
		d.Errs.Add(Pos{1, 1}, "", "YAML syntax error: %s", err.Error())
		return
	}
	tok, msg := ye.GetToken(), ye.GetMessage()
	at := tokPos(tok)
	ctx := pathBefore(tok)
	path := ctx.path(false)
	switch {
	case startsLine(tok) && tok.Next != nil && tok.Next.Type == token.MappingValueType &&
		tok.Next.Position != nil && tok.Position != nil && tok.Next.Position.Line > tok.Position.Line:
		// "vus 1\n duration: 1s": the first line lacks its ':', so YAML
		// read both lines as one key.
		msg += fmt.Sprintf(" (missing ':' in %q?)", firstLine(tok.Origin))
	case strings.Contains(msg, "character '\t'"):
		msg = strings.Replace(msg, "character '\t'", "a tab", 1) + " (indent with spaces: YAML does not allow tabs there)"
	case strings.HasPrefix(msg, "could not find end character of"):
		msg += " (the quote opened here is never closed)"
	default:
		if key, ok := deeperKey(tok); ok {
			at, path = key, ctx.path(true)
			msg += valuedKeyHint(tok, key.Line)
		} else if strings.Contains(msg, "not allowed in this context") {
			msg += ctx.indentHint(at.Line, lineIndent(src, at.Line))
		}
	}
	d.Errs.Add(at, path, "YAML syntax error: %s", msg)
}

// deeperKey finds the key of "a: 1\n   b: 2", b indented deeper than a:
// YAML reads "1 b" as one plain scalar and the library reports its start,
// a line above the key that is wrong. It returns the position of the key,
// the start of the scalar's last line, when tok is such a scalar followed
// by a ':' on a later line.
func deeperKey(tok *token.Token) (Pos, bool) {
	if tok == nil || tok.Next == nil || tok.Next.Type != token.MappingValueType || tok.Position == nil ||
		tok.Next.Position == nil || tok.Next.Position.Line <= tok.Position.Line {
		return Pos{}, false
	}
	i := strings.LastIndexByte(tok.Origin, '\n')
	if i < 0 {
		return Pos{}, false
	}
	last := []rune(tok.Origin[i+1:])
	indent := 0
	for indent < len(last) && (last[indent] == ' ' || last[indent] == '\t') {
		indent++
	}
	return Pos{tok.Next.Position.Line, indent + 1}, true
}

// valuedKeyHint is the hint for a key indented under one that already has
// a value ("duration: 2s" then "    flow:"): the key below may be too deep,
// or the one above too shallow (a dedented line), so it names both lines.
func valuedKeyHint(scalar *token.Token, line int) string {
	colon := scalar.Prev
	if colon == nil || colon.Type != token.MappingValueType || colon.Prev == nil || colon.Prev.Position == nil {
		return " (indented too deep?)"
	}
	key := colon.Prev
	if key.Position.Column <= 1 {
		return " (indented too deep?)" // a top-level key cannot be indented less
	}
	return fmt.Sprintf(" (line %d is indented under %q on line %d, which has a value: line %d too deep, or line %d too shallow?)",
		line, key.Value, key.Position.Line, line, key.Position.Line)
}

// startsLine reports whether tok is the first thing on its line but for
// indentation and a sequence entry's '-'.
func startsLine(tok *token.Token) bool {
	prev := tok.Prev
	for prev != nil && prev.Type == token.CommentType {
		prev = prev.Prev
	}
	return prev == nil || prev.Type == token.SequenceEntryType ||
		prev.Position == nil || tok.Position == nil || prev.Position.Line < tok.Position.Line
}

// firstLine returns the first line of a token's text, trimmed.
func firstLine(s string) string {
	s = strings.TrimLeft(s, " \t\r\n")
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return strings.TrimSpace(s)
}

// lineIndent returns the number of spaces that start 1-based line n of src.
func lineIndent(src []byte, n int) int {
	lines := strings.SplitN(string(src), "\n", n+1)
	if n < 1 || n > len(lines) {
		return 0
	}
	l := lines[n-1]
	return len(l) - len(strings.TrimLeft(l, " "))
}
