package openapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/lexer"
	yamlparser "github.com/goccy/go-yaml/parser"
	"github.com/goccy/go-yaml/token"

	"github.com/loadlens/loadlens/internal/units"
)

// maxYAMLLine is the longest line a YAML spec may have: the YAML reader
// keeps every token of a line in flow style until the line ends (a 5.5 MB
// line took 1.4 GB). JSON, read as JSON, has no such limit.
const maxYAMLLine = 1 << 20

// maxYAMLDepth is as deep as a YAML spec's collections may nest, aliases
// expanded: go.yaml.in/yaml's limit; checkNesting refuses far less after.
const maxYAMLDepth = 10000

// maxFlowDepth is as deep as a YAML spec's flow collections ([ and {) may
// nest before it is parsed: goccy/go-yaml's parser takes memory in the
// square of it (4,000 levels: 46 MiB; 20,000: out of memory past 2.6 GB).
const maxFlowDepth = 4000

// toJSON returns the spec as JSON: JSON as it is, YAML converted. Every
// reader after it reads JSON, in memory and time linear in the text: the
// YAML readers it replaces took 2 m 40 s and 100 GB (Swagger 2.0's, a 5 MB
// spec) and 8 GB (OpenAPI 3's, on 60 MB of JSON on one line).
func toJSON(data []byte) ([]byte, error) {
	if json.Valid(data) {
		return data, nil
	}
	for line, rest := 1, data; len(rest) > 0; line++ {
		text, after, _ := bytes.Cut(rest, []byte("\n"))
		if len(text) > maxYAMLLine {
			return nil, fmt.Errorf("line %d is %s long; an import reads YAML lines of at most %s (write the spec as JSON, or in block style)",
				line, units.Bytes(int64(len(text))), units.Size(maxYAMLLine))
		}
		rest = after
	}
	body, err := parseYAML(data)
	if err != nil {
		return nil, err
	}
	w := &jsonWriter{limit: 4*int64(len(data)) + 1<<20, aliases: map[*ast.AliasNode]ast.Node{}}
	if err := w.collect(body, map[string]ast.Node{}, 0); err != nil {
		return nil, err
	}
	if err := w.node(body, 0); err != nil {
		return nil, err
	}
	return w.b.Bytes(), nil
}

// parseYAML returns the body of the first YAML document in data (nil when
// it is empty): later documents are not read, as the YAML reader before it
// did not. Duplicate keys are kept; the JSON reader takes the last.
func parseYAML(data []byte) (body ast.Node, err error) {
	defer func() {
		// third-party code fed a user's file: its panic is that file's error
		if r := recover(); r != nil {
			body, err = nil, fmt.Errorf("cannot read the YAML: %v", r)
		}
	}()
	tokens := lexer.Tokenize(string(data))
	if err := checkFlowDepth(tokens); err != nil {
		return nil, err
	}
	f, err := yamlparser.Parse(tokens, 0, yamlparser.AllowDuplicateMapKey())
	if err != nil {
		return nil, errors.New(yamlError(err))
	}
	if len(f.Docs) == 0 || f.Docs[0] == nil {
		return nil, nil
	}
	return f.Docs[0].Body, nil
}

// jsonWriter writes YAML nodes as JSON: mappings' keys as strings (a
// response code written 200 is "200"), aliases expanded up to limit bytes.
type jsonWriter struct {
	b       bytes.Buffer
	limit   int64
	aliases map[*ast.AliasNode]ast.Node // each alias's anchored value
}

var errAliases = errors.New("its aliases (*name) expand to far more than the spec: an import does not read them")

// collect records, for every alias, the value of the anchor of its name
// written last before it; an anchor counts from its end on, so an alias
// inside its own anchor refers to none and no cycle forms.
func (w *jsonWriter) collect(n ast.Node, anchors map[string]ast.Node, depth int) error {
	if depth > maxYAMLDepth {
		return fmt.Errorf("line %d: the YAML nests deeper than %s levels", line(n), units.Count(maxYAMLDepth))
	}
	switch v := n.(type) {
	case *ast.MappingNode: // a level: its pairs' values are one deeper
		for _, mv := range v.Values {
			if err := w.collect(mv, anchors, depth); err != nil {
				return err
			}
		}
	case *ast.MappingValueNode:
		if err := w.collect(v.Key, anchors, depth+1); err != nil {
			return err
		}
		return w.collect(v.Value, anchors, depth+1)
	case *ast.SequenceNode:
		for _, e := range v.Values {
			if err := w.collect(e, anchors, depth+1); err != nil {
				return err
			}
		}
	case *ast.MappingKeyNode:
		return w.collect(v.Value, anchors, depth)
	case *ast.TagNode:
		return w.collect(v.Value, anchors, depth)
	case *ast.AnchorNode:
		if err := w.collect(v.Value, anchors, depth); err != nil {
			return err
		}
		anchors[nodeText(v.Name)] = v.Value
	case *ast.AliasNode:
		name := nodeText(v.Value)
		target, ok := anchors[name]
		if !ok {
			return fmt.Errorf("line %d: unknown anchor %q referenced (an alias *%s needs &%s before it)", line(v), name, name, name)
		}
		w.aliases[v] = target
	}
	return nil
}

// yamlError returns a YAML syntax error as "line N, column C: what".
func yamlError(err error) string {
	var ye interface {
		GetToken() *token.Token
		GetMessage() string
	}
	if !errors.As(err, &ye) || ye.GetToken() == nil || ye.GetToken().Position == nil {
		return err.Error()
	}
	at := ye.GetToken().Position
	return fmt.Sprintf("line %d, column %d: %s", at.Line, at.Column, ye.GetMessage())
}

// checkFlowDepth refuses tokens whose flow collections nest past
// maxFlowDepth, naming where: a spec that deep is refused by checkNesting
// anyway, after a parse that would take gigabytes.
func checkFlowDepth(tokens token.Tokens) error {
	depth := 0
	for _, tk := range tokens {
		switch tk.Type {
		case token.SequenceStartType, token.MappingStartType:
			if depth++; depth > maxFlowDepth {
				return fmt.Errorf("the spec nests deeper than %s levels (from line %d, column %d); an import reads specs that nest at most %d levels",
					units.Count(maxFlowDepth), tk.Position.Line, tk.Position.Column, maxNesting)
			}
		case token.SequenceEndType, token.MappingEndType:
			depth = max(depth-1, 0)
		}
	}
	return nil
}
