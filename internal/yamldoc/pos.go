package yamldoc

import (
	"strings"
	"unicode/utf8"

	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/token"
)

// tokPos returns a token's position, never below 1:1.
func tokPos(tk *token.Token) Pos {
	if tk == nil || tk.Position == nil {
		return Pos{1, 1}
	}
	return Pos{max(tk.Position.Line, 1), max(tk.Position.Column, 1)}
}

// NodePos returns where a value is written: a block mapping's first key,
// a quoted string's opening quote, a block scalar's indicator.
func NodePos(n ast.Node) Pos {
	switch v := n.(type) {
	case nil:
		return Pos{1, 1}
	case *ast.MappingNode:
		if !v.IsFlowStyle && len(v.Values) > 0 {
			return NodePos(v.Values[0].Key)
		}
		return tokPos(v.Start)
	case *ast.MappingValueNode:
		return NodePos(v.Key)
	case *ast.LiteralNode:
		return tokPos(v.Start)
	}
	return tokPos(n.GetToken())
}

// ScalarText returns a scalar's value as text: a string's value, a number
// or boolean as written. It is "" for collections and null.
func ScalarText(n ast.Node) string {
	switch v := n.(type) {
	case *ast.StringNode:
		return v.Value
	case *ast.LiteralNode:
		if v.Value != nil {
			return v.Value.Value
		}
		return ""
	case *ast.NullNode, *ast.MappingNode, *ast.MappingValueNode, *ast.SequenceNode, nil:
		return ""
	}
	if tk := n.GetToken(); tk != nil {
		return tk.Value
	}
	return ""
}

// Source is the text of the file, indexed by line, to map offsets inside
// scalars back to columns. It reads the text rather than the tokens, whose
// Origin loses some escapes.
type Source struct {
	text       string
	lineStarts []int // byte offset of each line's start
}

// newSource indexes text by line.
func newSource(text string) Source {
	s := Source{text: text, lineStarts: []int{0}}
	for i := 0; i < len(text); i++ {
		if text[i] == '\n' {
			s.lineStarts = append(s.lineStarts, i+1)
		}
	}
	return s
}

// from returns the text from a position on, or "" when it is out of range.
func (s Source) from(at Pos) string {
	if at.Line < 1 || at.Line > len(s.lineStarts) {
		return ""
	}
	rest := s.text[s.lineStarts[at.Line-1]:]
	for range at.Col - 1 {
		if rest == "" || rest[0] == '\n' {
			return ""
		}
		_, size := utf8.DecodeRuneInString(rest)
		rest = rest[size:]
	}
	return rest
}

// PosAt returns where byte off of scalar n's value is written, so that an
// error inside a template or threshold points at the offending character.
// Escapes and folded line breaks are followed; anything it cannot map falls
// back to the value's start.
func (s Source) PosAt(n ast.Node, off int) Pos {
	switch v := n.(type) {
	case *ast.StringNode:
		at := tokPos(v.Token)
		return inlinePos(s.from(at), at, off)
	case *ast.LiteralNode:
		return blockPos(v, off)
	}
	return NodePos(n)
}

// inlinePos maps a value offset in a plain, single- or double-quoted scalar
// whose text, raw, starts at at.
func inlinePos(raw string, at Pos, off int) Pos {
	var quote byte
	if raw != "" && (raw[0] == '"' || raw[0] == '\'') {
		quote = raw[0]
		raw = raw[1:]
		at.Col++
	}
	val := 0
	for i := 0; i < len(raw) && val < off; {
		c := raw[i]
		switch {
		case quote == '\'' && c == '\'' && i+1 < len(raw) && raw[i+1] == '\'':
			i += 2
			at.Col += 2
			val++
		case quote != 0 && c == quote:
			return at
		case quote == '"' && c == '\\' && i+1 < len(raw):
			if raw[i+1] == '\n' { // an escaped line break adds nothing
				i += 2
				at.Line++
				at.Col = 1
				i, at.Col = skipIndent(raw, i, at.Col)
				continue
			}
			width, produced := escapeSize(raw[i+1:])
			i += 1 + width
			at.Col += 1 + width
			val += produced
		case c == '\n':
			i++
			at.Line++
			at.Col = 1
			i, at.Col = skipIndent(raw, i, at.Col)
			val++ // folded into a space or a newline
		case c == '\r':
			i++
		default:
			_, size := utf8.DecodeRuneInString(raw[i:])
			i += size
			at.Col++
			val += size
		}
	}
	return at
}

// skipIndent moves i and col past spaces and tabs.
func skipIndent(s string, i, col int) (int, int) {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
		col++
	}
	return i, col
}

// escapeSize returns how many characters a double-quoted escape takes after
// its backslash, and how many bytes of value it produces.
func escapeSize(s string) (width, produced int) {
	hex := func(n int) (int, int) {
		if len(s) < 1+n {
			return len(s), 1
		}
		var r rune
		for _, h := range s[1 : 1+n] {
			r = r*16 + rune(strings.IndexRune("0123456789abcdef", h|0x20))
		}
		return 1 + n, max(utf8.RuneLen(r), 1)
	}
	switch s[0] {
	case 'x':
		return hex(2)
	case 'u':
		return hex(4)
	case 'U':
		return hex(8)
	case 'N', '_':
		return 1, 2
	case 'L', 'P':
		return 1, 3
	}
	return 1, 1
}

// blockPos maps a value offset in a literal (|) or folded (>) block scalar:
// each content line is its source line without the block's indentation.
func blockPos(lit *ast.LiteralNode, off int) Pos {
	head := tokPos(lit.Start)
	if lit.Value == nil || lit.Value.Token == nil {
		return head
	}
	lines := strings.Split(lit.Value.Token.Origin, "\n")
	indent := -1
	for _, l := range lines {
		if strings.TrimSpace(l) == "" {
			continue
		}
		n := len(l) - len(strings.TrimLeft(l, " "))
		if indent < 0 || n < indent {
			indent = n
		}
	}
	indent = max(indent, 0)
	val := 0
	for i, l := range lines {
		content := ""
		if len(l) > indent {
			content = l[indent:]
		}
		if off <= val+len(content) {
			return Pos{head.Line + 1 + i, indent + utf8.RuneCountInString(content[:off-val]) + 1}
		}
		val += len(content) + 1
	}
	return head
}

// Text returns the text parsed: the file's without a byte order mark.
func (s Source) Text() string { return s.text }

// Offset returns the byte offset of a position in the text.
func (s Source) Offset(at Pos) (int, bool) {
	if at.Line < 1 || at.Line > len(s.lineStarts) {
		return 0, false
	}
	off := s.lineStarts[at.Line-1]
	for range at.Col - 1 {
		if off >= len(s.text) || s.text[off] == '\n' {
			return 0, false
		}
		_, size := utf8.DecodeRuneInString(s.text[off:])
		off += size
	}
	return off, true
}
