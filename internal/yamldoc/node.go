package yamldoc

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

// Node is a YAML value with anchors, aliases and tags resolved, and where it
// sits in the file, so every error can name a position and a field.
type Node struct {
	V      ast.Node // never an anchor, alias or tag
	Pos    Pos      // where the value is written
	Key    Pos      // where the key holding the value is written; pos when none
	Path   string   // the field's path, e.g. scenarios.browse.flow[2]
	StrTag bool     // tagged !!str: read as text whatever it looks like
	Bad    bool     // could not be resolved (the error is reported): v is nil and every use fails quietly
}

// Field is one key of a mapping and its value.
type Field struct {
	Name  string
	Key   ast.Node // the key as written, for positions inside it
	Value Node
}

// Object is a mapping whose keys were checked against the allowed ones.
type Object struct {
	Node
	Fields []Field
}

// Get returns the value of key name.
func (o *Object) Get(name string) (Node, bool) {
	for _, f := range o.Fields {
		if f.Name == name {
			return f.Value, true
		}
	}
	return Node{}, false
}

// Has reports whether key name is present.
func (o *Object) Has(name string) bool {
	_, ok := o.Get(name)
	return ok
}

// KeyPos returns where key name is written, or where the mapping is.
func (o *Object) KeyPos(name string) Pos {
	for _, f := range o.Fields {
		if f.Name == name {
			return f.Value.Key
		}
	}
	return o.Key
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
func (d *Doc) resolve(n ast.Node, key Pos, path string) (Node, bool) {
	out := Node{Key: key, Path: path, Pos: key, Bad: true}
	if d.budget--; d.budget < 0 {
		if !d.spent {
			d.spent = true
			d.overBudget(n, key, path)
		}
		return out, false
	}
	for range 64 { // a chain of anchors, tags and aliases longer than this is not a test file
		switch v := n.(type) {
		case nil:
			out.V, out.Bad = ast.Null(nil), false
			return out, true
		case *ast.AnchorNode:
			n = v.Value
		case *ast.TagNode:
			tag := v.Start.Value
			switch tag {
			case "!!str":
				out.StrTag = true
			case "!!int", "!!float", "!!bool", "!!null", "!!map", "!!seq":
			default:
				d.Errs.Add(NodePos(v), path, "unsupported tag %s (only the standard !!str, !!int, !!float, !!bool, !!null, !!map and !!seq)", tag)
				return out, false
			}
			n = v.Value
		case *ast.AliasNode:
			target, ok := d.aliases[v]
			if !ok {
				name := ""
				if v.Value != nil {
					name = v.Value.GetToken().Value
				}
				d.Errs.Add(NodePos(v), path, "unknown alias *%s (define &%s before using it)", name, name)
				return out, false
			}
			n = target
		default:
			out.V, out.Bad = n, false
			out.Pos = NodePos(n)
			if key == (Pos{}) {
				out.Key = out.Pos
			}
			return out, true
		}
	}
	d.Errs.Add(key, path, "anchors and aliases nest too deep")
	return out, false
}

// List returns the items of a sequence; what names the expected value for
// the type error when n is not a list.
func (d *Doc) List(n Node, what string) ([]Node, bool) {
	seq, ok := n.V.(*ast.SequenceNode)
	if !ok {
		d.TypeError(n, what)
		return nil, false
	}
	var out []Node
	for i, item := range seq.Values {
		c, _ := d.resolve(item, Pos{}, fmt.Sprintf("%s[%d]", n.Path, i))
		out = append(out, c) // a bad item stays, so its siblings' counts hold
	}
	return out, true
}

// Object returns the fields of a mapping, reporting keys not in allowed
// (nil allows any key) with the closest allowed key as a suggestion.
func (d *Doc) Object(n Node, what string, allowed []string) (*Object, bool) {
	fields, ok := d.Fields(n, what, 0)
	if !ok {
		return nil, false
	}
	o := &Object{Node: n}
	for _, f := range fields {
		if allowed != nil && !slices.Contains(allowed, f.Name) {
			d.UnknownKey(f, n.Path, allowed)
			continue
		}
		o.Fields = append(o.Fields, f)
	}
	return o, true
}

// UnknownKey reports key f, which is not one of allowed.
// The key is quoted as an excerpt: a file that is no test (a link to
// /etc/shadow) would otherwise be echoed line by line.
func (d *Doc) UnknownKey(f Field, parent string, allowed []string) {
	name := Excerpt(f.Name)
	msg := fmt.Sprintf("unknown key %q", name)
	if s := Closest(f.Name, allowed); s != "" {
		msg += fmt.Sprintf("; did you mean %q?", s)
	}
	d.Errs.unknown(f.Value.Key, parent, JoinPath(parent, name), "%s (allowed: %s)", msg, strings.Join(allowed, ", "))
}

// Fields returns the entries of mapping n with << merge keys applied: keys
// written in n win, then earlier merged mappings over later ones.
func (d *Doc) Fields(n Node, what string, depth int) ([]Field, bool) {
	var values []*ast.MappingValueNode
	switch m := n.V.(type) {
	case *ast.MappingNode:
		values = m.Values
	case *ast.MappingValueNode:
		values = []*ast.MappingValueNode{m}
	default:
		d.TypeError(n, what)
		return nil, false
	}
	if depth > 32 {
		d.Errs.Add(n.Pos, n.Path, "merge keys (<<) nest too deep")
		return nil, false
	}
	written := map[string]bool{}
	for _, mv := range values {
		if !isMergeKey(mv.Key) {
			written[keyText(mv.Key)] = true
		}
	}
	seen := map[string]bool{}
	var out []Field
	for _, mv := range values {
		if isMergeKey(mv.Key) {
			for _, f := range d.merged(mv, n.Path, depth) {
				if !written[f.Name] && !seen[f.Name] {
					seen[f.Name] = true
					out = append(out, f)
				}
			}
			continue
		}
		name, ok := d.key(mv.Key, n.Path)
		if !ok {
			continue
		}
		kp := NodePos(mv.Key)
		val, _ := d.resolve(mv.Value, kp, JoinPath(n.Path, name)) // a bad value stays, so the key is not reported missing
		seen[name] = true
		out = append(out, Field{Name: name, Key: mv.Key, Value: val})
	}
	return out, true
}

// merged returns the fields that the merge key entry mv brings in.
func (d *Doc) merged(mv *ast.MappingValueNode, path string, depth int) []Field {
	src, ok := d.resolve(mv.Value, NodePos(mv.Key), path)
	if !ok {
		return nil
	}
	sources := []Node{src}
	if seq, isSeq := src.V.(*ast.SequenceNode); isSeq {
		sources = sources[:0]
		for _, item := range seq.Values {
			if s, ok := d.resolve(item, src.Pos, path); ok {
				sources = append(sources, s)
			}
		}
	}
	var out []Field
	for _, s := range sources {
		fs, ok := d.Fields(s, "a mapping to merge with <<", depth+1)
		if ok {
			out = append(out, fs...)
		}
	}
	return out
}

// key returns the text of a mapping key, which must be a scalar.
func (d *Doc) key(k ast.MapKeyNode, path string) (string, bool) {
	kn, ok := d.resolve(k, NodePos(k), path)
	if !ok {
		return "", false
	}
	switch kn.V.(type) {
	case *ast.MappingNode, *ast.MappingValueNode, *ast.SequenceNode, *ast.MappingKeyNode:
		d.Errs.Add(kn.Pos, path, "a key must be text, not %s", kindName(kn.V))
		return "", false
	}
	return keyText(kn.V), true
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

// TypeError reports that n is not what was expected.
func (d *Doc) TypeError(n Node, what string) {
	if n.Bad {
		return
	}
	d.Errs.Add(n.Pos, n.Path, "expected %s, got %s", what, describe(n))
}

// describe names a value for type errors, showing short scalars.
func describe(n Node) string {
	kind := kindName(n.V)
	switch n.V.(type) {
	case *ast.MappingNode, *ast.MappingValueNode, *ast.SequenceNode, *ast.NullNode, *ast.LiteralNode:
		return kind
	}
	if s := ScalarText(n.V); len(s) <= 40 {
		if _, isStr := n.V.(*ast.StringNode); isStr {
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

// IsMapping reports whether n is a mapping.
func IsMapping(n ast.Node) bool {
	switch n.(type) {
	case *ast.MappingNode, *ast.MappingValueNode:
		return true
	}
	return false
}

// JoinPath appends a key to a field path.
func JoinPath(parent, key string) string {
	if parent == "" {
		return key
	}
	return parent + "." + key
}
