package plan

import (
	"fmt"
	"slices"
	"strings"

	"github.com/goccy/go-yaml/ast"
)

// maxNodes bounds how many YAML values one parse visits, so a file whose
// aliases expand exponentially ("billion laughs") fails fast instead of
// exhausting memory. Real test files visit a few thousand.
const maxNodes = 1 << 18

// node is a YAML value with anchors, aliases and tags resolved, and where it
// sits in the file, so every error can name a position and a field.
type node struct {
	v    ast.Node // never an anchor, alias or tag
	pos  pos      // where the value is written
	key  pos      // where the key holding the value is written; pos when none
	path string   // the field's path, e.g. scenarios.browse.flow[2]
	str  bool     // tagged !!str: read as text whatever it looks like
	bad  bool     // could not be resolved (the error is reported): v is nil and every use fails quietly
}

// field is one key of a mapping and its value.
type field struct {
	name string
	key  ast.Node // the key as written, for positions inside it
	val  node
}

// object is a mapping whose keys were checked against the allowed ones.
type object struct {
	node
	fields []field
}

// get returns the value of key name.
func (o *object) get(name string) (node, bool) {
	for _, f := range o.fields {
		if f.name == name {
			return f.val, true
		}
	}
	return node{}, false
}

// has reports whether key name is present.
func (o *object) has(name string) bool {
	_, ok := o.get(name)
	return ok
}

// keyPos returns where key name is written, or where the mapping is.
func (o *object) keyPos(name string) pos {
	for _, f := range o.fields {
		if f.name == name {
			return f.val.key
		}
	}
	return o.key
}

// yamlDoc holds what resolving nodes needs: the anchors behind each alias
// and the budget of nodes left to visit.
type yamlDoc struct {
	aliases map[*ast.AliasNode]ast.Node
	budget  int
	spent   bool // the budget ran out and that was reported
}

// collectAliases records, for every alias, the anchored node it refers to.
// An anchor counts from its end on, so an alias inside its own anchor stays
// unresolved and cycles cannot form.
func collectAliases(root ast.Node) map[*ast.AliasNode]ast.Node {
	out := map[*ast.AliasNode]ast.Node{}
	anchors := map[string]ast.Node{}
	var walk func(n ast.Node)
	walk = func(n ast.Node) {
		switch v := n.(type) {
		case *ast.MappingNode:
			for _, mv := range v.Values {
				walk(mv)
			}
		case *ast.MappingValueNode:
			walk(v.Key)
			walk(v.Value)
		case *ast.MappingKeyNode:
			walk(v.Value)
		case *ast.SequenceNode:
			for _, e := range v.Values {
				walk(e)
			}
		case *ast.TagNode:
			walk(v.Value)
		case *ast.AnchorNode:
			walk(v.Value)
			if v.Name != nil {
				anchors[v.Name.GetToken().Value] = v.Value
			}
		case *ast.AliasNode:
			if v.Value != nil {
				if target, ok := anchors[v.Value.GetToken().Value]; ok {
					out[v] = target
				}
			}
		}
	}
	walk(root)
	return out
}

// resolve follows anchors, aliases and tags from n to the value they stand for.
func (p *parser) resolve(n ast.Node, key pos, path string) (node, bool) {
	out := node{key: key, path: path, pos: key, bad: true}
	if p.doc.budget--; p.doc.budget < 0 {
		if !p.doc.spent {
			p.doc.spent = true
			at := key
			if at == (pos{}) {
				at = nodePos(n)
			}
			p.errs.add(at, path, "the file expands to more than %d values; are aliases nested too deep?", maxNodes)
		}
		return out, false
	}
	for range 64 { // a chain of anchors, tags and aliases longer than this is not a test file
		switch v := n.(type) {
		case nil:
			out.v, out.bad = ast.Null(nil), false
			return out, true
		case *ast.AnchorNode:
			n = v.Value
		case *ast.TagNode:
			tag := v.Start.Value
			switch tag {
			case "!!str":
				out.str = true
			case "!!int", "!!float", "!!bool", "!!null", "!!map", "!!seq":
			default:
				p.errs.add(nodePos(v), path, "unsupported tag %s (only the standard !!str, !!int, !!float, !!bool, !!null, !!map and !!seq)", tag)
				return out, false
			}
			n = v.Value
		case *ast.AliasNode:
			target, ok := p.doc.aliases[v]
			if !ok {
				name := ""
				if v.Value != nil {
					name = v.Value.GetToken().Value
				}
				p.errs.add(nodePos(v), path, "unknown alias *%s (define &%s before using it)", name, name)
				return out, false
			}
			n = target
		default:
			out.v, out.bad = n, false
			out.pos = nodePos(n)
			if key == (pos{}) {
				out.key = out.pos
			}
			return out, true
		}
	}
	p.errs.add(key, path, "anchors and aliases nest too deep")
	return out, false
}

// list returns the items of a sequence; what names the expected value for
// the type error when n is not a list.
func (p *parser) list(n node, what string) ([]node, bool) {
	seq, ok := n.v.(*ast.SequenceNode)
	if !ok {
		p.typeError(n, what)
		return nil, false
	}
	var out []node
	for i, item := range seq.Values {
		c, _ := p.resolve(item, pos{}, fmt.Sprintf("%s[%d]", n.path, i))
		out = append(out, c) // a bad item stays, so its siblings' counts hold
	}
	return out, true
}

// object returns the fields of a mapping, reporting keys not in allowed
// (nil allows any key) with the closest allowed key as a suggestion.
func (p *parser) object(n node, what string, allowed []string) (*object, bool) {
	fields, ok := p.fields(n, what, 0)
	if !ok {
		return nil, false
	}
	o := &object{node: n}
	for _, f := range fields {
		if allowed != nil && !slices.Contains(allowed, f.name) {
			p.unknownKey(f, n.path, allowed)
			continue
		}
		o.fields = append(o.fields, f)
	}
	return o, true
}

// unknownKey reports key f, which is not one of allowed.
func (p *parser) unknownKey(f field, parent string, allowed []string) {
	msg := fmt.Sprintf("unknown key %q", f.name)
	if s := closest(f.name, allowed); s != "" {
		msg += fmt.Sprintf("; did you mean %q?", s)
	}
	p.errs.unknown(f.val.key, parent, joinPath(parent, f.name), "%s (allowed: %s)", msg, strings.Join(allowed, ", "))
}

// fields returns the entries of mapping n with << merge keys applied: keys
// written in n win, then earlier merged mappings over later ones.
func (p *parser) fields(n node, what string, depth int) ([]field, bool) {
	var values []*ast.MappingValueNode
	switch m := n.v.(type) {
	case *ast.MappingNode:
		values = m.Values
	case *ast.MappingValueNode:
		values = []*ast.MappingValueNode{m}
	default:
		p.typeError(n, what)
		return nil, false
	}
	if depth > 32 {
		p.errs.add(n.pos, n.path, "merge keys (<<) nest too deep")
		return nil, false
	}
	written := map[string]bool{}
	for _, mv := range values {
		if !isMergeKey(mv.Key) {
			written[keyText(mv.Key)] = true
		}
	}
	seen := map[string]bool{}
	var out []field
	for _, mv := range values {
		if isMergeKey(mv.Key) {
			for _, f := range p.merged(mv, n.path, depth) {
				if !written[f.name] && !seen[f.name] {
					seen[f.name] = true
					out = append(out, f)
				}
			}
			continue
		}
		name, ok := p.key(mv.Key, n.path)
		if !ok {
			continue
		}
		kp := nodePos(mv.Key)
		val, _ := p.resolve(mv.Value, kp, joinPath(n.path, name)) // a bad value stays, so the key is not reported missing
		seen[name] = true
		out = append(out, field{name: name, key: mv.Key, val: val})
	}
	return out, true
}

// merged returns the fields that the merge key entry mv brings in.
func (p *parser) merged(mv *ast.MappingValueNode, path string, depth int) []field {
	src, ok := p.resolve(mv.Value, nodePos(mv.Key), path)
	if !ok {
		return nil
	}
	sources := []node{src}
	if seq, isSeq := src.v.(*ast.SequenceNode); isSeq {
		sources = sources[:0]
		for _, item := range seq.Values {
			if s, ok := p.resolve(item, src.pos, path); ok {
				sources = append(sources, s)
			}
		}
	}
	var out []field
	for _, s := range sources {
		fs, ok := p.fields(s, "a mapping to merge with <<", depth+1)
		if ok {
			out = append(out, fs...)
		}
	}
	return out
}

// key returns the text of a mapping key, which must be a scalar.
func (p *parser) key(k ast.MapKeyNode, path string) (string, bool) {
	kn, ok := p.resolve(k, nodePos(k), path)
	if !ok {
		return "", false
	}
	switch kn.v.(type) {
	case *ast.MappingNode, *ast.MappingValueNode, *ast.SequenceNode, *ast.MappingKeyNode:
		p.errs.add(kn.pos, path, "a key must be text, not %s", kindName(kn.v))
		return "", false
	}
	return keyText(kn.v), true
}

// keyText returns a scalar key's text.
func keyText(k ast.Node) string {
	switch v := k.(type) {
	case *ast.StringNode:
		return v.Value
	case *ast.MappingKeyNode:
		return keyText(v.Value)
	case nil:
		return ""
	}
	if tk := k.GetToken(); tk != nil {
		return tk.Value
	}
	return ""
}

// isMergeKey reports whether k is the << merge key.
func isMergeKey(k ast.MapKeyNode) bool {
	if k == nil {
		return false
	}
	_, ok := k.(*ast.MergeKeyNode)
	return ok || k.IsMergeKey()
}

// typeError reports that n is not what was expected.
func (p *parser) typeError(n node, what string) {
	if n.bad {
		return
	}
	p.errs.add(n.pos, n.path, "expected %s, got %s", what, describe(n))
}

// describe names a value for type errors, showing short scalars.
func describe(n node) string {
	kind := kindName(n.v)
	switch n.v.(type) {
	case *ast.MappingNode, *ast.MappingValueNode, *ast.SequenceNode, *ast.NullNode, *ast.LiteralNode:
		return kind
	}
	if s := scalarText(n.v); len(s) <= 40 {
		if _, isStr := n.v.(*ast.StringNode); isStr {
			return fmt.Sprintf("%s %q", kind, s)
		}
		return kind + " " + s
	}
	return kind
}

// kindName names the kind of a YAML value, with an article.
func kindName(n ast.Node) string {
	switch n.(type) {
	case *ast.MappingNode, *ast.MappingValueNode:
		return "a mapping"
	case *ast.SequenceNode:
		return "a list"
	case *ast.NullNode, nil:
		return "nothing (null)"
	case *ast.BoolNode:
		return "a boolean"
	case *ast.IntegerNode, *ast.FloatNode, *ast.InfinityNode, *ast.NanNode:
		return "a number"
	case *ast.StringNode, *ast.LiteralNode:
		return "a string"
	}
	return "a " + strings.ToLower(n.Type().String())
}

// isMapping reports whether n is a mapping.
func isMapping(n ast.Node) bool {
	switch n.(type) {
	case *ast.MappingNode, *ast.MappingValueNode:
		return true
	}
	return false
}

// joinPath appends a key to a field path.
func joinPath(parent, key string) string {
	if parent == "" {
		return key
	}
	return parent + "." + key
}
