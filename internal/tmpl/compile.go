package tmpl

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"unicode/utf8"
)

// Compile parses src, resolving variable names through sc (which may be nil)
// and env lookups at once. Errors are *Error with the byte offset in src.
func Compile(src string, sc *Scope) (*Template, error) {
	c := compiler{src: src, sc: sc}
	if err := c.run(); err != nil {
		return nil, err
	}
	return &Template{parts: c.parts, src: src}, nil
}

// compiler holds the state of one Compile call.
type compiler struct {
	src   string
	pos   int
	sc    *Scope
	parts []part
}

// errorf returns an *Error at offset off.
func errorf(off int, format string, args ...any) *Error {
	return &Error{Offset: off, Msg: fmt.Sprintf(format, args...)}
}

// run splits the source into literal text and {{ expr }} parts.
func (c *compiler) run() error {
	for c.pos < len(c.src) {
		i := strings.Index(c.src[c.pos:], "{{")
		if i < 0 {
			c.parts = appendPart(c.parts, part{kind: litPart, text: c.src[c.pos:]})
			return nil
		}
		c.parts = appendPart(c.parts, part{kind: litPart, text: c.src[c.pos : c.pos+i]})
		open := c.pos + i
		c.pos = open + 2
		p, err := c.action(open)
		if err != nil {
			return err
		}
		c.parts = appendPart(c.parts, p)
	}
	return nil
}

// action parses "expr }}" after the {{ at offset open.
func (c *compiler) action(open int) (part, error) {
	c.skipSpace()
	if c.eof() {
		return part{}, c.unterminated(open)
	}
	if strings.HasPrefix(c.src[c.pos:], "}}") {
		return part{}, errorf(c.pos, "empty {{ }}: expected a variable, a function call or a quoted string")
	}
	p, err := c.expr(open)
	if err != nil {
		if unknownName(err) && !strings.Contains(c.src[open:], "}}") {
			return part{}, c.unterminated(open) // "{{ user " lacks its }}, whatever user is
		}
		return part{}, err
	}
	c.skipSpace()
	switch {
	case c.eof():
		return part{}, c.unterminated(open)
	case !strings.HasPrefix(c.src[c.pos:], "}}"):
		return part{}, errorf(c.pos, "unexpected %s: expected }} to close the {{ at offset %d", c.describe(), open)
	}
	c.pos += 2
	return p, nil
}

// expr parses one expression: a string, a name, env.NAME or a call.
func (c *compiler) expr(open int) (part, error) {
	start := c.pos
	ch := c.src[c.pos]
	if ch == '"' || ch == '\'' {
		s, err := c.quoted(open)
		if err != nil {
			return part{}, err
		}
		return part{kind: litPart, text: s}, nil
	}
	if !isIdentStart(ch) {
		return part{}, errorf(start, "unexpected %s: expected a variable, a function call or a quoted string", c.describe())
	}
	name := c.ident()
	if !c.eof() && c.src[c.pos] == '.' {
		if name != "env" {
			return part{}, errorf(c.pos, "unexpected . after %s: only env.NAME has a dot", name)
		}
		c.pos++
		return c.envDot(start)
	}
	c.skipSpace()
	if !c.eof() && c.src[c.pos] == '(' {
		return c.call(name, start, open)
	}
	return c.name(name, start)
}

// name resolves a built-in or a variable.
func (c *compiler) name(name string, off int) (part, error) {
	switch name {
	case "vu":
		return part{kind: vuPart}, nil
	case "iteration":
		return part{kind: iterationPart}, nil
	case "scenario":
		return part{kind: scenarioPart}, nil
	}
	var vars map[string]int
	if c.sc != nil {
		vars = c.sc.Vars
	}
	if slot, ok := vars[name]; ok {
		return part{kind: varPart, slot: slot}, nil
	}
	if len(vars) == 0 {
		return part{}, errorf(off, "unknown variable %q (no variables are defined)", name)
	}
	known := make([]string, 0, len(vars))
	for k := range vars {
		known = append(known, k)
	}
	slices.Sort(known)
	return part{}, errorf(off, "unknown variable %q (known: %s)", name, strings.Join(known, ", "))
}

// envDot resolves env.NAME; off is where "env" starts.
func (c *compiler) envDot(off int) (part, error) {
	if c.eof() || !isIdentStart(c.src[c.pos]) {
		return part{}, errorf(c.pos, "expected an environment variable name after env.")
	}
	return c.lookupEnv(c.ident(), nil, off)
}

// lookupEnv resolves an environment variable into a literal part, using def
// when it is not set and def is not nil.
func (c *compiler) lookupEnv(name string, def *string, off int) (part, error) {
	lookup := os.LookupEnv
	if c.sc != nil && c.sc.Env != nil {
		lookup = c.sc.Env
	}
	v, ok := lookup(name)
	switch {
	case ok:
	case def != nil:
		v = *def
	default:
		return part{}, errorf(off, "environment variable %s is not set (use env(%q, \"default\") for a default)", name, name)
	}
	return part{kind: litPart, text: v}, nil
}

// quoted parses a string literal at c.pos, which holds its opening quote.
func (c *compiler) quoted(open int) (string, error) {
	start := c.pos
	q := c.src[c.pos]
	c.pos++
	var b strings.Builder
	for !c.eof() {
		ch := c.src[c.pos]
		switch {
		case ch == q:
			c.pos++
			return b.String(), nil
		case ch == '\\':
			if c.pos+1 >= len(c.src) {
				return "", errorf(start, "unterminated string: missing closing %c", q)
			}
			e, ok := unescape(c.src[c.pos+1])
			if !ok {
				return "", errorf(c.pos, "unknown escape \\%c in string (known: \\\\ \\\" \\' \\n \\r \\t)", c.src[c.pos+1])
			}
			b.WriteByte(e)
			c.pos += 2
		default:
			b.WriteByte(ch)
			c.pos++
		}
	}
	return "", errorf(start, "unterminated string: missing closing %c", q)
}

// unescape returns the byte a backslash escape stands for.
func unescape(ch byte) (byte, bool) {
	switch ch {
	case '\\', '"', '\'':
		return ch, true
	case 'n':
		return '\n', true
	case 'r':
		return '\r', true
	case 't':
		return '\t', true
	}
	return 0, false
}

// unterminated is the error for a {{ at open with no closing }}.
// unknownName reports an unknown-variable or unknown-function error.
func unknownName(err error) bool {
	return strings.HasPrefix(err.Error(), "unknown variable") || strings.HasPrefix(err.Error(), "unknown function")
}

func (c *compiler) unterminated(open int) *Error {
	return errorf(open, "unterminated {{: no closing }}")
}

// describe names the input at c.pos for error messages.
func (c *compiler) describe() string {
	if c.eof() {
		return "end of template"
	}
	r, _ := utf8.DecodeRuneInString(c.src[c.pos:])
	return fmt.Sprintf("%q", r)
}

func (c *compiler) eof() bool { return c.pos >= len(c.src) }

// skipSpace moves past spaces, tabs and line breaks.
func (c *compiler) skipSpace() {
	for !c.eof() {
		switch c.src[c.pos] {
		case ' ', '\t', '\n', '\r':
			c.pos++
		default:
			return
		}
	}
}

// ident reads [A-Za-z_][A-Za-z0-9_]* at c.pos, which holds a valid start.
func (c *compiler) ident() string {
	start := c.pos
	c.pos++
	for !c.eof() && (isIdentStart(c.src[c.pos]) || isDigit(c.src[c.pos])) {
		c.pos++
	}
	return c.src[start:c.pos]
}

func isIdentStart(ch byte) bool {
	return ch == '_' || ('a' <= ch && ch <= 'z') || ('A' <= ch && ch <= 'Z')
}

func isDigit(ch byte) bool { return '0' <= ch && ch <= '9' }
