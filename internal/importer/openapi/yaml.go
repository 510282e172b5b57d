package openapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v4"

	"github.com/loadlens/loadlens/internal/units"
)

// maxYAMLLine is the longest line a YAML spec may have: the YAML reader
// keeps every token of a line in flow style until the line ends (a 5.5 MB
// line took 1.4 GB). JSON, read as JSON, has no such limit.
const maxYAMLLine = 1 << 20

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
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil { // with yaml's limit: 10,000 levels
		return nil, err
	}
	w := &jsonWriter{limit: 4*int64(len(data)) + 1<<20}
	if err := w.node(&doc); err != nil {
		return nil, err
	}
	return w.b.Bytes(), nil
}

// jsonWriter writes YAML nodes as JSON: mappings' keys as strings (a
// response code written 200 is "200"), aliases expanded up to limit bytes.
type jsonWriter struct {
	b     bytes.Buffer
	limit int64
}

var errAliases = errors.New("its aliases (*name) expand to far more than the spec: an import does not read them")

func (w *jsonWriter) node(n *yaml.Node) error {
	if int64(w.b.Len()) > w.limit {
		return errAliases
	}
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			w.b.WriteString("null")
			return nil
		}
		return w.node(n.Content[0])
	case yaml.AliasNode:
		return w.node(n.Alias)
	case yaml.SequenceNode:
		w.b.WriteByte('[')
		for i, c := range n.Content {
			if i > 0 {
				w.b.WriteByte(',')
			}
			if err := w.node(c); err != nil {
				return err
			}
		}
		w.b.WriteByte(']')
		return nil
	case yaml.MappingNode:
		w.b.WriteByte('{')
		if _, err := w.pairs(n, true); err != nil {
			return err
		}
		w.b.WriteByte('}')
		return nil
	}
	w.scalar(n)
	return nil
}

// pairs writes a mapping's pairs, those it merges (<<: *name) first, so
// that its own, later, win; first says no pair was written before.
func (w *jsonWriter) pairs(n *yaml.Node, first bool) (bool, error) {
	for n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	if n.Kind == yaml.SequenceNode { // <<: [*a, *b]
		for _, c := range n.Content {
			var err error
			if first, err = w.pairs(c, first); err != nil {
				return first, err
			}
		}
		return first, nil
	}
	if n.Kind != yaml.MappingNode {
		return first, nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Kind == yaml.ScalarNode && k.ShortTag() == "!!merge" {
			var err error
			if first, err = w.pairs(v, first); err != nil {
				return first, err
			}
			continue
		}
		if !first {
			w.b.WriteByte(',')
		}
		first = false
		w.str(k.Value)
		w.b.WriteByte(':')
		if err := w.node(v); err != nil {
			return first, err
		}
	}
	return first, nil
}

// scalar writes a scalar as the JSON value its resolved tag says.
func (w *jsonWriter) scalar(n *yaml.Node) {
	v := n.Value
	switch n.ShortTag() {
	case "!!null":
		w.b.WriteString("null")
		return
	case "!!bool":
		if b, err := strconv.ParseBool(strings.ToLower(v)); err == nil {
			w.b.WriteString(strconv.FormatBool(b))
			return
		}
	case "!!int":
		if i, err := strconv.ParseInt(strings.ReplaceAll(v, "_", ""), 0, 64); err == nil {
			w.b.WriteString(strconv.FormatInt(i, 10))
			return
		}
	case "!!float":
		if f, err := strconv.ParseFloat(strings.ReplaceAll(v, "_", ""), 64); err == nil && !math.IsInf(f, 0) && !math.IsNaN(f) {
			w.b.WriteString(strconv.FormatFloat(f, 'g', -1, 64))
			return
		}
	}
	w.str(v)
}

// str writes s as a JSON string.
func (w *jsonWriter) str(s string) {
	b, _ := json.Marshal(s)
	w.b.Write(b)
}
