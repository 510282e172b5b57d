package k6

import (
	"strconv"
	"strings"

	"github.com/tdewolff/parse/v2/js"

	"github.com/loadlens/loadlens/internal/importer"
)

// value is what the import knows of a JavaScript expression.
// kinds besides: grpcClient (a k6/net/grpc Client), metric (a custom metric).
type value struct {
	kind string // str (a template), num, bool, obj, arr, resp (an HTTP response), json (a JSON body), or "" (unknown)
	text string // str and json: template text; num: the number as written
	b    bool
	obj  []prop
	arr  []value
	step int // resp: the index of the step whose response it is
	ref  any // grpcClient: its *grpcClient; metric: its *metricDecl
}

type prop struct {
	key string
	val value
}

func str(s string) value { return value{kind: "str", text: s} }

// get returns an object's property.
func (v value) get(key string) (value, bool) {
	for _, p := range v.obj {
		if p.key == key {
			return p.val, true
		}
	}
	return value{}, false
}

// asText returns a string or number as template text.
func (v value) asText() (string, bool) {
	switch v.kind {
	case "str", "num", "json":
		return v.text, true
	case "bool":
		return strconv.FormatBool(v.b), true
	}
	return "", false
}

// jsonOf writes an object or array value as JSON text (a template), as
// JSON.stringify would.
func (v value) jsonOf() (string, bool) {
	var b strings.Builder
	ok := writeJSON(&b, v)
	return b.String(), ok
}

func writeJSON(b *strings.Builder, v value) bool {
	switch v.kind {
	case "str":
		b.WriteByte('"')
		b.WriteString(jsonEscapeTemplate(v.text))
		b.WriteByte('"')
	case "num":
		b.WriteString(v.text)
	case "bool":
		b.WriteString(strconv.FormatBool(v.b))
	case "null":
		b.WriteString("null")
	case "obj":
		b.WriteByte('{')
		for i, p := range v.obj {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(strconv.Quote(p.key))
			b.WriteByte(':')
			if !writeJSON(b, p.val) {
				return false
			}
		}
		b.WriteByte('}')
	case "arr":
		b.WriteByte('[')
		for i, e := range v.arr {
			if i > 0 {
				b.WriteByte(',')
			}
			if !writeJSON(b, e) {
				return false
			}
		}
		b.WriteByte(']')
	default:
		return false
	}
	return true
}

// jsonEscapeTemplate escapes the literal parts of template text for the
// inside of a JSON string, leaving {{ ... }} parts as they are.
func jsonEscapeTemplate(t string) string {
	var b strings.Builder
	for t != "" {
		i := strings.Index(t, "{{")
		if i < 0 {
			i = len(t)
		}
		lit := t[:i]
		q := strconv.Quote(lit)
		b.WriteString(q[1 : len(q)-1])
		t = t[i:]
		if t == "" {
			break
		}
		j := strings.Index(t, "}}")
		if j < 0 {
			b.WriteString(t)
			break
		}
		b.WriteString(t[:j+2])
		t = t[j+2:]
	}
	return b.String()
}

// unquote decodes a JavaScript string literal (with its quotes).
func unquote(lit []byte) string {
	s := string(lit)
	if len(s) < 2 {
		return s
	}
	s = s[1 : len(s)-1]
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 >= len(s) {
			b.WriteByte(c)
			continue
		}
		i++
		switch s[i] {
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case 'r':
			b.WriteByte('\r')
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'v':
			b.WriteByte('\v')
		case '0':
			b.WriteByte(0)
		case 'x':
			if i+2 < len(s) {
				if n, err := strconv.ParseUint(s[i+1:i+3], 16, 8); err == nil {
					b.WriteRune(rune(n))
					i += 2
					continue
				}
			}
			b.WriteByte('x')
		case 'u':
			if i+4 < len(s) {
				if n, err := strconv.ParseUint(s[i+1:i+5], 16, 32); err == nil {
					b.WriteRune(rune(n))
					i += 4
					continue
				}
			}
			b.WriteByte('u')
		case '\n':
		default:
			b.WriteByte(s[i])
		}
	}
	return b.String()
}

// propName returns an object property's name.
func propName(n *js.PropertyName) (string, bool) {
	if n == nil || n.IsComputed() {
		return "", false
	}
	d := n.Literal.Data
	if n.Literal.TokenType == js.StringToken {
		return unquote(d), true
	}
	return string(d), true
}

// lit is literal template text.
func lit(s string) value { return str(importer.Lit(s)) }
