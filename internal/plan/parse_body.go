package plan

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/loadlens/loadlens/internal/boundedfile"
	"github.com/loadlens/loadlens/internal/tmpl"
	"github.com/loadlens/loadlens/internal/yamldoc"
)

// bodyKeys are the ways to give a request body; a step uses at most one.
var bodyKeys = []string{"json", "form", "body", "body_file"}

// MaxBodyFile bounds a body_file: (and --body-file) body, which a VU renders
// into its own buffer for each request when templated (a constant one is
// kept once for every VU: see the engine's bigbody.go).
const MaxBodyFile = 64 << 20

// body parses the step's json:, form: or body:.
func (p *parser) body(o *yamldoc.Object, sc *scenarioCtx) (*tmpl.Template, BodyKind) {
	var given []string
	for _, k := range bodyKeys {
		if o.Has(k) {
			given = append(given, k)
		}
	}
	if len(given) == 0 {
		return nil, NoBody
	}
	if len(given) > 1 {
		p.Errs.Add(o.KeyPos(given[1]), yamldoc.JoinPath(o.Path, given[1]), "give one body: json, form, body or body_file (%s and %s both given)", given[0], given[1])
		return nil, NoBody
	}
	n, _ := o.Get(given[0])
	switch given[0] {
	case "json":
		t, _ := p.JSONTemplate(n, sc.scope) // its errors are recorded
		return t, JSONBody
	case "form":
		var b tmpl.Builder
		p.encodedPairs(&b, n, "", "a mapping of form fields", sc)
		return b.Done(), FormBody
	case "body_file":
		return p.bodyFile(n, sc), RawBody
	}
	s, ok := p.Str(n, "the body as text (use json: or form: for structured bodies)")
	if !ok {
		return nil, RawBody
	}
	t, _ := p.Compile(n, s, sc.scope)
	return t, RawBody
}

// bodyFile reads a body_file: relative to the test file. UTF-8 text is a
// template, like body:; other bytes (an image, protobuf) are sent as they are.
func (p *parser) bodyFile(n yamldoc.Node, sc *scenarioCtx) *tmpl.Template {
	path, ok := p.Str(n, "the path of the file whose bytes are the body")
	if !ok {
		return nil
	}
	full := path
	if !filepath.IsAbs(full) {
		full = filepath.Join(p.dir, full)
	}
	b, err := readBodyFile(full, path)
	if err != nil {
		p.Errs.Add(n.Pos, n.Path, "%v", err)
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
	case errors.As(err, &te) && p.MissingVars && strings.HasPrefix(te.Msg, "unknown variable"):
		// the data file's own error says why its columns are unknown
	default:
		p.Errs.Add(n.Pos, n.Path, "%s: %v", path, err)
	}
	return nil
}

// ReadBodyFile reads a body file, refusing one larger than MaxBodyFile
// before reading it (the error gives its size), and a device, named pipe
// or directory from a Stat before opening it: a FIFO would hold validate
// and run without a word, /dev/zero would be read to the limit.
func ReadBodyFile(path string) ([]byte, error) {
	return readBodyFile(path, path)
}

// readBodyFile reads the body file at path, naming it as shown in errors.
func readBodyFile(path, shown string) ([]byte, error) {
	b, err := boundedfile.Read(path, MaxBodyFile, true)
	var big *boundedfile.TooLargeError
	switch {
	case errors.As(err, &big):
		return nil, bodyFileTooBig(shown, big.Size, big.AtLeast)
	case err != nil:
		return nil, fmt.Errorf("cannot read body file %s: %v", shown, boundedfile.Cause(err))
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
