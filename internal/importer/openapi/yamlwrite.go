package openapi

import (
	"fmt"

	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/token"

	"github.com/loadlens/loadlens/internal/units"
)

// node writes n, depth collections deep, as JSON.
func (w *jsonWriter) node(n ast.Node, depth int) error {
	if int64(w.b.Len()) > w.limit {
		return errAliases
	}
	if depth > maxYAMLDepth { // aliases inside aliases: the text alone is less deep
		return fmt.Errorf("line %d: the YAML nests deeper than %s levels, its aliases expanded", line(n), units.Count(maxYAMLDepth))
	}
	n, tag := w.unwrap(n)
	switch v := n.(type) {
	case *ast.SequenceNode:
		w.b.WriteByte('[')
		for i, c := range v.Values {
			if i > 0 {
				w.b.WriteByte(',')
			}
			if err := w.node(c, depth+1); err != nil {
				return err
			}
		}
		w.b.WriteByte(']')
		return nil
	case *ast.MappingNode, *ast.MappingValueNode:
		w.b.WriteByte('{')
		if _, err := w.pairs(v, true, depth); err != nil {
			return err
		}
		w.b.WriteByte('}')
		return nil
	}
	text, quoted := scalarText(n)
	if tag == "" && quoted {
		tag = "!!str"
	} else if tag == "" {
		tag = resolveTag(text)
	}
	w.scalar(tag, text)
	return nil
}

// unwrap follows anchors, tags and aliases from n to the value they stand
// for, and returns the tag written on it (short: !!str), if any.
func (w *jsonWriter) unwrap(n ast.Node) (ast.Node, string) {
	tag := ""
	for {
		switch v := n.(type) {
		case *ast.AnchorNode:
			n = v.Value
		case *ast.MappingKeyNode:
			n = v.Value
		case *ast.TagNode:
			if tag == "" {
				tag = shortTag(v.Start.Value)
			}
			n = v.Value
		case *ast.AliasNode:
			n, tag = w.aliases[v], ""
		default:
			return n, tag
		}
	}
}

// pairs writes a mapping's pairs, those it merges (<<: *name) where the
// merge key is, so that its own, written after, win; first says no pair
// was written before.
func (w *jsonWriter) pairs(n ast.Node, first bool, depth int) (bool, error) {
	n, _ = w.unwrap(n)
	var values []*ast.MappingValueNode
	switch v := n.(type) {
	case *ast.SequenceNode: // <<: [*a, *b]
		for _, c := range v.Values {
			var err error
			if first, err = w.pairs(c, first, depth); err != nil {
				return first, err
			}
		}
		return first, nil
	case *ast.MappingNode:
		values = v.Values
	case *ast.MappingValueNode:
		values = []*ast.MappingValueNode{v}
	default:
		return first, nil
	}
	for _, mv := range values {
		if w.isMerge(mv.Key) {
			var err error
			if first, err = w.pairs(mv.Value, first, depth); err != nil {
				return first, err
			}
			continue
		}
		if !first {
			w.b.WriteByte(',')
		}
		first = false
		w.str(w.keyText(mv.Key))
		w.b.WriteByte(':')
		if err := w.node(mv.Value, depth+1); err != nil {
			return first, err
		}
	}
	return first, nil
}

// isMerge reports whether key k is <<, plain or tagged !!merge.
func (w *jsonWriter) isMerge(k ast.Node) bool {
	if _, ok := k.(*ast.MergeKeyNode); ok {
		return true
	}
	if t, ok := k.(*ast.TagNode); ok {
		return shortTag(t.Start.Value) == "!!merge"
	}
	return false
}

// keyText returns a key's text as written: a scalar's value (not resolved:
// 0x10 stays "0x10"), an alias's name, and "" for a collection.
func (w *jsonWriter) keyText(k ast.Node) string {
	for {
		switch v := k.(type) {
		case *ast.AnchorNode:
			k = v.Value
		case *ast.MappingKeyNode:
			k = v.Value
		case *ast.TagNode:
			k = v.Value
		case *ast.AliasNode:
			return nodeText(v.Value)
		case *ast.MappingNode, *ast.MappingValueNode, *ast.SequenceNode:
			return ""
		default:
			text, _ := scalarText(k)
			return text
		}
	}
}

// scalarText returns a scalar's value and whether it was quoted or a
// block (| or >), which makes it a string whatever it reads as.
func scalarText(n ast.Node) (string, bool) {
	switch v := n.(type) {
	case nil:
		return "", false
	case *ast.LiteralNode:
		if v.Value == nil {
			return "", true
		}
		return v.Value.Value, true
	case *ast.StringNode:
		quoted := v.Token != nil && (v.Token.Type == token.SingleQuoteType || v.Token.Type == token.DoubleQuoteType)
		return v.Value, quoted
	}
	return nodeText(n), false
}

// nodeText returns the text of n's token ("" when it has none).
func nodeText(n ast.Node) string {
	if n == nil {
		return ""
	}
	if tk := n.GetToken(); tk != nil {
		return tk.Value
	}
	return ""
}

// line returns n's line in the spec.
func line(n ast.Node) int {
	if n == nil || n.GetToken() == nil || n.GetToken().Position == nil {
		return 1
	}
	return n.GetToken().Position.Line
}
