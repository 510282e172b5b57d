package yamldoc

import (
	"errors"
	"math"
	"net/textproto"
	"regexp"
	"regexp/syntax"
	"strconv"
	"strings"

	yamlparser "github.com/goccy/go-yaml/parser"

	"github.com/goccy/go-yaml/ast"
	"github.com/loadlens/loadlens/internal/jsonpath"
	"github.com/loadlens/loadlens/internal/tmpl"
)

// parseYAML parses src into the document's root value.
func (d *Doc) parseYAML(src []byte) (n Node, ok bool) {
	defer func() {
		// The YAML library is third-party code fed user input: a panic in it
		// becomes an error at the file's start rather than a crash.
		if r := recover(); r != nil {
			d.Errs.Add(Pos{1, 1}, "", "cannot parse YAML: %v", r)
			ok = false
		}
	}()
	f, err := yamlparser.ParseBytes(src, 0)
	if err != nil {
		d.syntaxError(err, src)
		return Node{}, false
	}
	var body ast.Node
	for _, doc := range f.Docs {
		if doc == nil || doc.Body == nil {
			continue
		}
		if body != nil {
			d.Errs.Add(NodePos(doc.Body), "", "a test file holds one YAML document; remove this second one (after ---)")
			return Node{}, false
		}
		body = doc.Body
	}
	if body == nil {
		d.Errs.Add(Pos{1, 1}, "", "the test file is empty: it needs at least scenarios")
		return Node{}, false
	}
	d.aliases = collectAliases(body)
	return d.resolve(body, Pos{}, "")
}

// Compile compiles template src, which is n's text, reporting errors at the
// offending character.
func (d *Doc) Compile(n Node, src string, sc *tmpl.Scope) (*tmpl.Template, bool) {
	t, err := tmpl.Compile(src, sc)
	if err != nil {
		var te *tmpl.Error
		switch {
		case errors.As(err, &te) && d.MissingVars && strings.HasPrefix(te.Msg, "unknown variable"):
		case errors.As(err, &te):
			d.Errs.Add(d.Src.PosAt(n.V, te.Offset), n.Path, "%s", te.Msg)
		default:
			d.Errs.Add(n.Pos, n.Path, "%v", err)
		}
		return nil, false
	}
	return t, true
}

// Regex compiles n's text, reporting an error at the offending part.
func (d *Doc) Regex(n Node) (*regexp.Regexp, bool) {
	s, ok := d.NonEmpty(n, "a regular expression")
	if !ok {
		return nil, false
	}
	re, err := regexp.Compile(s)
	if err != nil {
		at, msg := n.Pos, err.Error()
		var se *syntax.Error
		if errors.As(err, &se) {
			msg = se.Code.String()
			if se.Expr != "" {
				msg += ": `" + se.Expr + "`"
				if i := strings.Index(s, se.Expr); i >= 0 {
					at = d.Src.PosAt(n.V, i)
				}
			}
		}
		d.Errs.Add(at, n.Path, "bad regex: %s", msg)
		return nil, false
	}
	return re, true
}

// ParseJSONPath parses src, n's text, as a JSON path.
func (d *Doc) ParseJSONPath(n Node, src string) (jsonpath.Path, bool) {
	path, err := jsonpath.Parse(src)
	if err != nil {
		var je *jsonpath.Error
		if errors.As(err, &je) {
			d.Errs.Add(d.Src.PosAt(n.V, je.Offset), n.Path, "bad JSON path: %s", je.Msg)
		} else {
			d.Errs.Add(n.Pos, n.Path, "bad JSON path: %v", err)
		}
		return path, false
	}
	return path, true
}

// StatusCodes parses one HTTP status code or a list of them; list says
// which was written.
func (d *Doc) StatusCodes(n Node) (codes []int, list, ok bool) {
	items := []Node{n}
	if _, isList := n.V.(*ast.SequenceNode); isList {
		list = true
		items, _ = d.List(n, "")
		if len(items) == 0 {
			d.Errs.Add(n.Pos, n.Path, "needs at least one status code")
			return nil, list, false
		}
	}
	ok = true
	for _, item := range items {
		code, valid := d.Integer(item, 0)
		if valid && (code < 100 || code > 599) {
			d.Errs.Add(item.Pos, item.Path, "%d is not an HTTP status code (100 to 599)", code)
			valid = false
		}
		ok = ok && valid
		codes = append(codes, int(code))
	}
	return codes, list, ok
}

// sizeUnits are the units a size may be written in, upper case.
var sizeUnits = map[string]float64{
	"": 1, "B": 1,
	"KB": 1e3, "MB": 1e6, "GB": 1e9,
	"KIB": 1 << 10, "MIB": 1 << 20, "GIB": 1 << 30,
}

// ParseSize reads a number with an optional unit, in bytes.
func ParseSize(s string) (float64, bool) {
	s = strings.TrimSpace(s)
	i := strings.IndexFunc(s, func(r rune) bool { return (r < '0' || r > '9') && r != '.' && r != '-' && r != '+' })
	if i < 0 {
		i = len(s)
	}
	num, unit := s[:i], strings.ToUpper(strings.TrimSpace(s[i:]))
	mult, ok := sizeUnits[unit]
	if !ok || num == "" {
		return 0, false
	}
	f, err := strconv.ParseFloat(num, 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, false
	}
	return f * mult, true
}

// IsToken reports whether s is an HTTP token (RFC 9110), as methods and
// header names must be.
func IsToken(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		ok := ('a' <= r && r <= 'z') || ('A' <= r && r <= 'Z') || ('0' <= r && r <= '9') || strings.ContainsRune("!#$%&'*+-.^_`|~", r)
		if !ok {
			return false
		}
	}
	return true
}

// Headers parses a headers mapping into fields named by canonical header
// names, rejecting bad names and names given twice.
func (d *Doc) Headers(n Node) []Field {
	o, ok := d.Object(n, "a mapping of header names to values", nil)
	if !ok {
		return nil
	}
	var out []Field
	for _, f := range o.Fields {
		if !IsToken(f.Name) {
			d.Errs.Add(f.Value.Key, f.Value.Path, "bad header name %q", f.Name)
			continue
		}
		canon := textproto.CanonicalMIMEHeaderKey(f.Name)
		dup := false
		for _, g := range out {
			dup = dup || g.Name == canon
		}
		if dup {
			d.Errs.Add(f.Value.Key, f.Value.Path, "header %s is given twice (names are case-insensitive)", canon)
			continue
		}
		f.Name = canon
		out = append(out, f)
	}
	return out
}
