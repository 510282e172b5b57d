package plan

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/goccy/go-yaml/ast"
	"github.com/loadlens/loadlens/internal/tmpl"
)

// maxJSONBody bounds a json: body's literal size, so aliases cannot blow a
// small file up into gigabytes.
const maxJSONBody = 16 << 20

// bodyKeys are the ways to give a request body; a step uses at most one.
var bodyKeys = []string{"json", "form", "body", "body_file"}

// MaxBodyFile bounds a body_file: (and --body-file) body, which every VU
// renders into its own buffer for each request.
const MaxBodyFile = 64 << 20

// body parses the step's json:, form: or body:.
func (p *parser) body(o *object, sc *scenarioCtx) (*tmpl.Template, BodyKind) {
	var given []string
	for _, k := range bodyKeys {
		if o.has(k) {
			given = append(given, k)
		}
	}
	if len(given) == 0 {
		return nil, NoBody
	}
	if len(given) > 1 {
		p.errs.add(o.keyPos(given[1]), joinPath(o.path, given[1]), "give one body: json, form, body or body_file (%s and %s both given)", given[0], given[1])
		return nil, NoBody
	}
	n, _ := o.get(given[0])
	switch given[0] {
	case "json":
		b := &jsonBody{p: p, scope: sc.scope}
		b.value(n)
		return b.done(), JSONBody
	case "form":
		var b partsBuilder
		p.encodedPairs(&b, n, "", "a mapping of form fields", sc)
		return b.done(), FormBody
	case "body_file":
		return p.bodyFile(n, sc), RawBody
	}
	s, ok := p.str(n, "the body as text (use json: or form: for structured bodies)")
	if !ok {
		return nil, RawBody
	}
	t, _ := p.compile(n, s, sc.scope)
	return t, RawBody
}

// bodyFile reads a body_file: relative to the test file. UTF-8 text is a
// template, like body:; other bytes (an image, protobuf) are sent as they are.
func (p *parser) bodyFile(n node, sc *scenarioCtx) *tmpl.Template {
	path, ok := p.str(n, "the path of the file whose bytes are the body")
	if !ok {
		return nil
	}
	full := path
	if !filepath.IsAbs(full) {
		full = filepath.Join(p.dir, full)
	}
	b, err := ReadBodyFile(full)
	if err != nil {
		p.errs.add(n.pos, n.path, "%v", err)
		return nil
	}
	if !utf8.Valid(b) {
		return tmpl.Literal(string(b))
	}
	t, err := tmpl.Compile(string(b), sc.scope)
	var te *tmpl.Error
	switch {
	case err == nil:
		return t
	case errors.As(err, &te) && p.missingVars && strings.HasPrefix(te.Msg, "unknown variable"):
		// the data file's own error says why its columns are unknown
	default:
		p.errs.add(n.pos, n.path, "%s: %v", path, err)
	}
	return nil
}

// ReadBodyFile reads a body file, refusing one larger than MaxBodyFile
// before reading it; the error gives its size.
func ReadBodyFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && st.Size() > MaxBodyFile {
		return nil, bodyFileTooBig(path, st.Size(), false)
	}
	b, err := io.ReadAll(io.LimitReader(f, MaxBodyFile+1))
	if err != nil {
		return nil, err
	}
	if len(b) > MaxBodyFile { // grew, or a pipe whose size Stat does not know
		return nil, bodyFileTooBig(path, int64(len(b)), true)
	}
	return b, nil
}

// bodyFileTooBig says a body file is over MaxBodyFile, and by how much.
func bodyFileTooBig(path string, size int64, atLeast bool) error {
	more := ""
	if atLeast {
		more = "more than "
	}
	return fmt.Errorf("%s is %s%s; a body file may be at most %d MiB", path, more, bytesText(size), MaxBodyFile>>20)
}

// jsonBody turns a YAML value into a JSON body template: structure and
// scalars become literal JSON, strings become templates whose output is
// escaped inside literal quotes.
type jsonBody struct {
	partsBuilder
	p     *parser
	scope *tmpl.Scope
	big   bool // the size limit was hit and reported
}

// lit appends literal JSON text.
func (b *jsonBody) lit(s string) { b.text(s) }

// value appends the JSON for n.
func (b *jsonBody) value(n node) {
	if b.size > maxJSONBody {
		if !b.big {
			b.big = true
			b.p.errs.add(n.pos, n.path, "the JSON body is larger than %d MiB", maxJSONBody>>20)
		}
		return
	}
	switch v := n.v.(type) {
	case *ast.MappingNode, *ast.MappingValueNode:
		fields, _ := b.p.fields(n, "", 0)
		b.lit("{")
		for i, f := range fields {
			if i > 0 {
				b.lit(",")
			}
			b.lit(quoteJSON(f.name) + ":")
			b.value(f.val)
		}
		b.lit("}")
	case *ast.SequenceNode:
		items, _ := b.p.list(n, "")
		b.lit("[")
		for i, item := range items {
			if i > 0 {
				b.lit(",")
			}
			b.value(item)
		}
		b.lit("]")
	case *ast.NullNode:
		b.lit("null")
	case *ast.InfinityNode, *ast.NanNode:
		if !n.str {
			b.p.errs.add(n.pos, n.path, "JSON has no %s; quote it to send a string", scalarText(n.v))
			return
		}
		b.str(n)
	case *ast.BoolNode:
		if !n.str {
			b.lit(strconv.FormatBool(v.Value))
			return
		}
		b.str(n)
	case *ast.IntegerNode:
		if !n.str {
			b.lit(integerText(v))
			return
		}
		b.str(n)
	case *ast.FloatNode:
		if !n.str {
			b.lit(strconv.FormatFloat(v.Value, 'g', -1, 64))
			return
		}
		b.str(n)
	default:
		b.str(n)
	}
}

// str appends a JSON string whose content is the template n.
func (b *jsonBody) str(n node) {
	t, ok := b.p.compile(n, scalarText(n.v), b.scope)
	if !ok {
		return
	}
	b.lit(`"`)
	b.template(t, tmpl.JSONString)
	b.lit(`"`)
}

// quoteJSON returns s as a JSON string, quotes included.
func quoteJSON(s string) string {
	c, _ := tmpl.Literal(s).Escaped(tmpl.JSONString).Const()
	return `"` + c + `"`
}

// integerText returns an integer's decimal value (0x10 is 16).
func integerText(v *ast.IntegerNode) string {
	switch x := v.Value.(type) {
	case int64:
		return strconv.FormatInt(x, 10)
	case uint64:
		return strconv.FormatUint(x, 10)
	}
	return v.Token.Value
}
