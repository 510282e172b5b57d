package plan

import (
	"regexp"
	"slices"
	"strings"

	"github.com/goccy/go-yaml/ast"
	"github.com/loadlens/loadlens/internal/yamldoc"
)

// Redacted replaces a secret in the stored test source.
const Redacted = "[REDACTED]"

// SecretHeader reports whether a header's value is a credential that must
// not be stored: Authorization, Cookie, Proxy-Authorization, or a name
// containing token, secret, password or key (case-insensitive).
func SecretHeader(name string) bool {
	switch n := strings.ToLower(strings.TrimSpace(name)); n {
	case "authorization", "cookie", "proxy-authorization":
		return true
	default:
		for _, w := range []string{"token", "secret", "password", "key"} {
			if strings.Contains(n, w) {
				return true
			}
		}
	}
	return false
}

// RedactHeaderValue returns a header's value as it may be stored: Redacted
// when the header is a credential written literally, else the value.
func RedactHeaderValue(name, value string) string {
	if SecretHeader(name) && literalSecret(value) {
		return Redacted
	}
	return value
}

// schemeOnly matches what may be left of a header value once its {{ }}
// parts are removed without it being a secret: nothing, or a word like
// "Bearer " or "session=" before the template that holds the secret.
var schemeOnly = regexp.MustCompile(`^\s*([A-Za-z][A-Za-z0-9_-]*)?\s*[=:]?\s*$`)

// literalSecret reports whether a header value as written holds a secret
// itself rather than only taking one from a template ({{ env.TOKEN }}).
func literalSecret(value string) bool {
	if strings.TrimSpace(value) == "" || value == Redacted {
		return false
	}
	var lit strings.Builder
	rest := value
	for {
		open := strings.Index(rest, "{{")
		if open < 0 {
			lit.WriteString(rest)
			break
		}
		lit.WriteString(rest[:open])
		end := strings.Index(rest[open:], "}}")
		if end < 0 {
			lit.WriteString(rest[open:])
			break
		}
		rest = rest[open+end+2:]
	}
	return lit.Len() == len(value) || !schemeOnly.MatchString(lit.String())
}

// noteSecret records the value of header name, written at n, for
// redaction from the stored source when it holds a literal secret.
func (p *parser) noteSecret(name string, n yamldoc.Node) {
	if n.Bad || !SecretHeader(name) || !literalSecret(yamldoc.ScalarText(n.V)) {
		return
	}
	p.noteSpan(n, "")
}

// noteSecretParam records the value of query parameter name, written at n,
// for redaction from the stored source when it holds a literal secret.
func (p *parser) noteSecretParam(name string, n yamldoc.Node) {
	if n.Bad || !SecretParam(name) || !literalSecret(yamldoc.ScalarText(n.V)) {
		return
	}
	p.noteSpan(n, "")
}

// noteURLSecret records the URL written at n for redaction from the stored
// source when it holds a credential (Redact's): the URL is stored with
// them replaced, so that it still parses as the same test's URL.
func (p *parser) noteURLSecret(n yamldoc.Node) { p.noteRedacted(n, Redact) }

// noteRedacted records the text written at n for the stored source as
// redact returns it, when that differs.
func (p *parser) noteRedacted(n yamldoc.Node, redact func(string) string) {
	if n.Bad || n.V == nil {
		return
	}
	text := yamldoc.ScalarText(n.V)
	if red := redact(text); red != text {
		p.noteSpan(n, quoteYAML(red))
	}
}

// noteSpan records where scalar n is written, to be replaced by with in the
// stored source ("": a quoted Redacted).
func (p *parser) noteSpan(n yamldoc.Node, with string) {
	if start, end, ok := p.scalarSpan(n.V); ok {
		p.secrets = append(p.secrets, span{start, end, with})
	} else {
		p.secretLost = true
	}
}

// withheld is stored instead of a test's source whose credentials could
// not all be redacted: better no source than a leaked secret.
const withheld = "# loadlens: the test's source is not stored: a credential in it could not be redacted\n"

// storedSource returns the source to store for a test whose header values
// hold literal credentials: src with them redacted, checked to parse again
// with nothing left to redact, or else a comment saying it was withheld.
func (p *parser) storedSource(src []byte, bom int) []byte {
	if p.secretLost {
		return []byte(withheld)
	}
	red := append(src[:bom:bom], p.redacted()...)
	check := &parser{file: p.file, dir: p.dir, Doc: yamldoc.New(p.file, p.Env), verifying: true}
	if _, err := check.parse(red); err != nil || len(check.secrets) > 0 || check.secretLost {
		return []byte(withheld) // the redaction broke the file or missed a credential
	}
	return red
}

// span is a byte range of the source text and what replaces it there.
type span struct {
	start, end int
	with       string // "": a quoted Redacted
}

// redacted returns the source text with every noted secret replaced by a
// quoted Redacted, so it stays YAML that parses to the same test.
func (p *parser) redacted() string {
	spans := slices.Clone(p.secrets)
	slices.SortFunc(spans, func(a, b span) int { return a.start - b.start })
	spans = slices.Compact(spans)
	var b strings.Builder
	at := 0
	for _, s := range spans {
		if s.start < at { // overlapping spans cannot happen; keep the text valid if they do
			continue
		}
		b.WriteString(p.Src.Text()[at:s.start])
		if s.with != "" {
			b.WriteString(s.with)
		} else {
			b.WriteString(`"` + Redacted + `"`)
		}
		at = s.end
	}
	b.WriteString(p.Src.Text()[at:])
	return b.String()
}

// scalarSpan returns where scalar n is written in the source: from its
// first character (quote, indicator) to after its last.
func (p *parser) scalarSpan(n ast.Node) (int, int, bool) {
	at, ok := p.Src.Offset(yamldoc.NodePos(n))
	if !ok {
		return 0, 0, false
	}
	text := p.Src.Text()
	switch n.(type) {
	case *ast.LiteralNode:
		return at, blockScalarEnd(text, at), true
	case *ast.StringNode:
		if at < len(text) && (text[at] == '"' || text[at] == '\'') {
			return yamldoc.QuotedEnd(text, at)
		}
	}
	// The parser may place a plain scalar followed by blanks a column late:
	// look back along the line for where its text starts.
	lineStart := strings.LastIndexByte(text[:at], '\n') + 1
	for start := at; start >= lineStart; start-- {
		var end int
		switch v := n.(type) {
		case *ast.StringNode:
			if _, e, ok := plainEnd(text, start, v.Value); ok {
				end = e
			}
		default: // a number, boolean or null is one word, whatever it reads as (00000 is 0)
			if tk := n.GetToken(); tk != nil && strings.HasPrefix(text[start:], tk.Value) {
				end = start + len(tk.Value)
			}
		}
		if end > start && (start == lineStart || strings.ContainsRune(" \t:-[{,?", rune(text[start-1]))) {
			return start, end, true
		}
	}
	return 0, 0, false
}

// plainEnd finds the end of a plain scalar with value val written from
// start: the text matches val, except that a run of blanks and line breaks
// in the text stands for one space of a folded multi-line scalar.
func plainEnd(text string, start int, val string) (int, int, bool) {
	i, j := start, 0
	for j < len(val) {
		switch {
		case i < len(text) && text[i] == val[j]:
			i++
			j++
		case val[j] == ' ' && i < len(text) && (text[i] == '\n' || text[i] == '\r' || text[i] == ' ' || text[i] == '\t'):
			for i < len(text) && (text[i] == '\n' || text[i] == '\r' || text[i] == ' ' || text[i] == '\t') {
				i++
			}
			j++
		default:
			return 0, 0, false
		}
	}
	return start, i, true
}

// blockScalarEnd returns the end of a block scalar whose indicator is at
// start: the end of the last non-blank line indented more than the line
// holding the indicator.
func blockScalarEnd(text string, start int) int {
	lineStart := strings.LastIndexByte(text[:start], '\n') + 1
	indent := 0
	for k := lineStart; k < start && (text[k] == ' ' || text[k] == '-'); k++ {
		indent++ // a "- " before a key indents its value like spaces
	}
	end := strings.IndexByte(text[start:], '\n')
	if end < 0 {
		return len(text)
	}
	end += start
	for next := end + 1; next < len(text); {
		lineEnd := strings.IndexByte(text[next:], '\n')
		if lineEnd < 0 {
			lineEnd = len(text)
		} else {
			lineEnd += next
		}
		line := strings.TrimRight(text[next:lineEnd], "\r")
		spaces := len(line) - len(strings.TrimLeft(line, " "))
		if strings.TrimSpace(line) != "" {
			if spaces <= indent {
				break
			}
			end = next + len(line)
		}
		next = lineEnd + 1
	}
	return end
}
